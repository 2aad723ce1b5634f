//! `write_request_delete` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#tv-child-delete-removes-parent).
//!
//! movie `DELETE /api/v1/Request/movie/{id}`, tv_child `DELETE /api/v1/Request/tv/child/{id}`,
//! album `DELETE /api/v1/request/music/{id}` → `RequestEngineResult`; tv_parent
//! `DELETE /api/v1/Request/tv/{id}` → empty 200 (completed by status alone, no count).
//! Ombi throws (500 → UNKNOWN_OUTCOME) for unknown ids, so movie and TV parent ids are looked
//! up first, which turns a missing id into a clean NOT_FOUND with nothing sent.

use super::outcome::{Mutation, Outcome, engine_result, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::ombi::ids::TargetKind;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_request_delete",
    "Delete a request",
    "Delete a movie, TV show (parent, with all its children), TV child or album request from Ombi. Users may delete their own requests; others need an administrator or power user. Deleting a show's last child request also deletes the show's request.",
    "read_requests",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "target_kind": {"enum": ["movie", "tv_parent", "tv_child", "album"], "description": "What the id names: a movie request, a whole TV show request (parent), one TV child request, or an album request."},
            "request_id": {"type": "integer", "minimum": 1, "description": "The Ombi request id of that kind (from read_requests)."}
        },
        "required": ["target_kind", "request_id"],
        "additionalProperties": false
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let id = args.int("request_id")?;
    match args.choice::<TargetKind>("target_kind")? {
        TargetKind::TvParent => {
            ensure_exists(&ombi, &format!("/api/v1/Request/tv/{id}"), "TV request")?;
            // Empty 200 body: success by status only, never a count of removed children.
            write(
                &ombi,
                Method::Delete,
                &format!("/api/v1/Request/tv/{id}"),
                None,
            )?;
            let m = Mutation::new(Outcome::Completed).target(TargetKind::TvParent, Some(id));
            Ok(Reply::ok(m.into_json()).warn("the TV request and all its child requests were deleted; Ombi does not say how many"))
        }
        TargetKind::TvChild => {
            let er = engine_result(write(
                &ombi,
                Method::Delete,
                &format!("/api/v1/Request/tv/child/{id}"),
                None,
            )?)?;
            let reply =
                er.reply(Mutation::new(Outcome::Completed).target(TargetKind::TvChild, Some(id)));
            Ok(if reply.is_ok() {
                reply.warn("when this was the show's last child request, Ombi also deleted the parent TV request")
            } else {
                reply
            })
        }
        TargetKind::Album => {
            let er = engine_result(write(
                &ombi,
                Method::Delete,
                &format!("/api/v1/request/music/{id}"),
                None,
            )?)?;
            Ok(er.reply(Mutation::new(Outcome::Completed).target(TargetKind::Album, Some(id))))
        }
        TargetKind::Movie => {
            ensure_exists(
                &ombi,
                &format!("/api/v1/Request/movie/info/{id}"),
                "movie request",
            )?;
            let er = engine_result(write(
                &ombi,
                Method::Delete,
                &format!("/api/v1/Request/movie/{id}"),
                None,
            )?)?;
            Ok(er.reply(Mutation::new(Outcome::Completed).target(TargetKind::Movie, Some(id))))
        }
    }
}

/// Reads the request before deleting: Ombi answers an unknown id with 204 or an internal error
/// (it dereferences the missing row), which here means NOT_FOUND; nothing has been changed.
fn ensure_exists(ombi: &Ombi<'_>, path: &str, what: &str) -> Result<(), ToolError> {
    let not_found = || {
        ToolError::new(
            ErrorCode::NotFound,
            format!("Ombi has no {what} with this id; nothing was deleted"),
        )
    };
    match ombi.get::<Value>(path) {
        Ok(Some(v)) if v.is_object() => Ok(()),
        Ok(_) => Err(not_found()),
        Err(e) if e.http_status == Some(500) => Err(not_found()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests;
