//! `write_request_deny` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#success-messages-are-not-evidence).
//!
//! `PUT /api/v1/Request/{movie|tv}/deny`, `/api/v1/request/music/deny` `{id, reason[, is4K]}` →
//! `RequestEngineResult`. The movie success message says "deleted": messages are ignored.

use super::common::{
    RequestRef, is_4k_movie_only, is_4k_property, media_property, request_id_property,
};
use super::outcome::Outcome;
use crate::contract::{Reply, ToolError};
use crate::ombi::Call;
use crate::ombi::OmbiTool;
use crate::tool::Access;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

/// The tool.
pub(super) static TOOL: OmbiTool = OmbiTool {
    name: "write_request_deny",
    title: "Deny a request",
    description: "Deny a movie, TV (child) or album request with a reason shown to the requester. Needs an administrator or power user.",
    access: Access::Write,
    families: &["mutation"],
    input_schema,
    handler: run,
    reconcile_with: Some("read_requests"),
};

/// The input schema.
pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "media": media_property(&["movie", "tv", "album"]), "request_id": request_id_property(),
            "reason": {"type": "string", "minLength": 1, "maxLength": 500, "description": "Why the request is denied (shown to the requester)."},
            "is_4k": is_4k_property()
        },
        "required": ["media", "request_id", "reason"],
        "additionalProperties": false,
        "allOf": [is_4k_movie_only()]
    })
}

/// The handler.
pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let req = RequestRef::from_args(args);
    let mut body = req.body();
    body["reason"] = json!(args.str("reason"));
    let er = req.send(&ombi, Method::Put, &req.v1_route("deny"), Some(&body))?;
    Ok(er.reply(req.mutation(Outcome::Completed)))
}

#[cfg(test)]
mod tests;
