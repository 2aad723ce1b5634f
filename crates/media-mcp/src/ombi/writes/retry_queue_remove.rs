//! `write_retry_queue_remove` → `mutation`.
//!
//! `DELETE /api/v1/RequestRetry/{queueId}` (Admin) → `true`. The id is the retry queue row
//! (`failedId`), never a request id; an unknown id makes Ombi fail with 500 (UNKNOWN_OUTCOME).

use super::outcome::{bool_answer, bool_reply, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_retry_queue_remove",
    "Drop a failed send from the retry queue",
    "Remove one entry from Ombi's retry queue of failed sends, by its queue id from read_requests (view retry_queue). Needs an administrator.",
    "read_requests",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"queue_id": {"type": "integer", "minimum": 1, "description": "Retry queue id (queue_id from read_requests view retry_queue), not a request id."}},
        "required": ["queue_id"],
        "additionalProperties": false
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let id = args.int("queue_id")?;
    let done = bool_answer(write(
        &ombi,
        Method::Delete,
        &format!("/api/v1/RequestRetry/{id}"),
        None,
    )?)?;
    Ok(bool_reply(
        done,
        ToolError::new(
            ErrorCode::UpstreamRejected,
            "Ombi did not remove the queue entry",
        ),
    ))
}

#[cfg(test)]
mod tests;
