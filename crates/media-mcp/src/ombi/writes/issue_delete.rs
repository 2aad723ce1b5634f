//! `write_issue_delete` → `mutation`.
//!
//! `DELETE /api/v1/Issues/{id}` (PowerUser) → `bool`: hard-deletes the issue and its comments
//! and notifies; `false` means no such issue.

use super::outcome::{bool_answer, bool_reply, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_issue_delete",
    "Delete an issue",
    "Delete an issue and all its comments for good (administrators and power users). Ombi notifies about the deletion.",
    "read_issues",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"issue_id": {"type": "integer", "minimum": 1, "description": "The issue to delete with all its comments (from read_issues)."}},
        "required": ["issue_id"],
        "additionalProperties": false
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let id = args.int("issue_id")?;
    let done = bool_answer(write(
        &ombi,
        Method::Delete,
        &format!("/api/v1/Issues/{id}"),
        None,
    )?)?;
    Ok(bool_reply(
        done,
        ToolError::new(ErrorCode::NotFound, "Ombi has no issue with this id"),
    ))
}

#[cfg(test)]
mod tests;
