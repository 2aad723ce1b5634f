//! `write_request_availability` → `mutation`.
//!
//! `POST /api/v1/Request/{movie|tv}/{available|unavailable}`, `/api/v1/request/music/...` →
//! `RequestEngineResult`. TV marks every episode of the child; marking available notifies.

use super::common::{RequestRef, request_schema};
use super::outcome::Outcome;
use crate::contract::{Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::codes::RequestKind;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_request_availability",
    "Mark a request (un)available",
    "Mark a movie, TV (child) or album request as available (notifies the requester) or unavailable. Needs an administrator or power user.",
    "read_requests",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    let available = json!({"type": "boolean", "description": "true marks the request available (and notifies the requester), false marks it unavailable."});
    request_schema(&["movie", "tv", "album"], &[("available", available)])
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let req = RequestRef::from_args(args)?;
    let available = args.bool("available")?;
    let action = if available {
        "available"
    } else {
        "unavailable"
    };
    let er = req.send(
        &ombi,
        Method::Post,
        &req.v1_route(action),
        Some(&req.body()),
    )?;
    let mut reply = er.reply(req.mutation(Outcome::Completed));
    if req.kind == RequestKind::Tv && reply.is_ok() {
        reply =
            reply.warn("Ombi marks every episode of the TV child request, whatever was asked for");
    }
    Ok(reply)
}

#[cfg(test)]
mod tests;
