//! `write_issue_status` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#issue-status-no-role-check).
//!
//! `POST /api/v1/Issues/status {issueId, status}` → `bool`; `false` means no such issue.
//! `deleted` (3) is left to write_issue_delete.

use super::outcome::{bool_answer, bool_reply, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::codes::IssueStatus;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_issue_status",
    "Change an issue's status",
    "Set an issue to pending, in progress or resolved. To delete an issue use write_issue_delete.",
    "read_issues",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "issue_id": {"type": "integer", "minimum": 1, "description": "The issue (from read_issues)."},
            "status": {"enum": ["pending", "in_progress", "resolved"], "description": "The new status."}
        },
        "required": ["issue_id", "status"],
        "additionalProperties": false
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let id = args.int("issue_id")?;
    let status = args.choice::<IssueStatus>("status")?.code();
    let body = json!({"issueId": id, "status": status});
    let done = bool_answer(write(
        &ombi,
        Method::Post,
        "/api/v1/Issues/status",
        Some(&body),
    )?)?;
    let reply = bool_reply(
        done,
        ToolError::new(ErrorCode::NotFound, "Ombi has no issue with this id"),
    );
    if !done {
        return Ok(reply);
    }
    Ok(if status != 2 {
        reply.warn("Ombi keeps the resolved date of an issue that was resolved before")
    } else {
        reply
    })
}

#[cfg(test)]
mod tests;
