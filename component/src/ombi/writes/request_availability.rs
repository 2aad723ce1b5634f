//! `write_request_availability` → `mutation`.
//!
//! `POST /api/v1/Request/{movie|tv}/{available|unavailable}`, `/api/v1/request/music/...` →
//! `RequestEngineResult`. TV marks every episode of the child; marking available notifies.

use super::common::{
    RequestRef, is_4k_movie_only, is_4k_property, media_property, request_id_property,
};
use super::outcome::Outcome;
use crate::contract::{Reply, ToolError};
use crate::ombi::Call;
use crate::ombi::OmbiTool;
use crate::ombi::codes::RequestKind;
use crate::tool::Access;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

/// The tool.
pub(super) static TOOL: OmbiTool = OmbiTool {
    name: "write_request_availability",
    title: "Mark a request (un)available",
    description: "Mark a movie, TV (child) or album request as available (notifies the requester) or unavailable. Needs an administrator or power user.",
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
            "available": {"type": "boolean", "description": "true marks the request available (and notifies the requester), false marks it unavailable."},
            "is_4k": is_4k_property()
        },
        "required": ["media", "request_id", "available"],
        "additionalProperties": false,
        "allOf": [is_4k_movie_only()]
    })
}

/// The handler.
pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let req = RequestRef::from_args(args);
    let available = args.bool("available").unwrap_or(false);
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
