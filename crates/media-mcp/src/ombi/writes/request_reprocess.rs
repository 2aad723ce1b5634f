//! `write_request_reprocess` → `mutation`.
//!
//! `POST /api/v2/Requests/reprocess/{type}/{requestId}/{is4K}` (type 1 movie, 0 TV) →
//! `RequestEngineResult`. Ombi re-sends only approved requests and answers `result: true`
//! either way, so success is only `accepted`.

use super::common::{RequestRef, request_schema};
use super::outcome::Outcome;
use crate::contract::{Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::Value;

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_request_reprocess",
    "Re-send a request",
    "Send an approved movie or TV (child) request to Radarr/Sonarr again, for example after a failed send. Needs an administrator or power user.",
    "read_requests",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    request_schema(&["movie", "tv"], &[])
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let req = RequestRef::from_args(args)?;
    let path = format!(
        "/api/v2/Requests/reprocess/{}/{}/{}",
        req.kind.code(),
        req.id,
        req.is_4k.unwrap_or(false)
    );
    let er = req.send(&ombi, Method::Post, &path, None)?;
    let mut reply = er.reply(req.mutation(Outcome::Accepted));
    if reply.is_ok() {
        reply = reply.warn("Ombi re-sends only approved requests and reports success either way: check with read_requests whether it reached Radarr/Sonarr");
    }
    Ok(reply)
}

#[cfg(test)]
mod tests;
