//! `write_request_deny` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#success-messages-are-not-evidence).
//!
//! `PUT /api/v1/Request/{movie|tv}/deny`, `/api/v1/request/music/deny` `{id, reason[, is4K]}` →
//! `RequestEngineResult`. The movie success message says "deleted": messages are ignored.

use super::common::{RequestRef, request_schema};
use super::outcome::Outcome;
use crate::contract::{Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_request_deny",
    "Deny a request",
    "Deny a movie, TV (child) or album request with a reason shown to the requester. Needs an administrator or power user.",
    "read_requests",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    let reason = json!({"type": "string", "minLength": 1, "maxLength": 500, "description": "Why the request is denied (shown to the requester)."});
    request_schema(&["movie", "tv", "album"], &[("reason", reason)])
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let req = RequestRef::from_args(args)?;
    let mut body = req.body();
    body["reason"] = json!(args.str("reason")?);
    let er = req.send(&ombi, Method::Put, &req.v1_route("deny"), Some(&body))?;
    Ok(er.reply(req.mutation(Outcome::Completed)))
}

#[cfg(test)]
mod tests;
