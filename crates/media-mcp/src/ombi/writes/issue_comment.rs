//! `write_issue_comment` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#comments-need-a-user).
//!
//! Add: `POST /api/v1/Issues/comments {comment, issueId}` → `IssueComments` (its `id` is the
//! new comment id; the `issues`/`user` graphs are dropped); 204 means no such issue. Ombi looks
//! the author up by exact user name, which the bare key's 'API' never matches (500), so adding
//! needs a user to act as. Delete: `DELETE /api/v1/Issues/comments/{id}` → `bool`.

use super::outcome::{Mutation, Outcome, bool_answer, bool_reply, failure_with, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::ombi::ids::positive_id;
use crate::prelude::*;
use crate::tool::{Args, Gloss, Prose, View, Views};
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_issue_comment",
    "Comment on an issue",
    "Add a comment to an issue (needs a user to act as), or delete a comment (administrators and power users).",
    "read_issues",
    input_schema,
    run,
)
.with_views(&VIEWS);

type ViewFn = fn(&Ombi<'_>, &Args) -> Result<Reply, ToolError>;

static VIEWS: Views<ViewFn> = Views {
    field: "action",
    default: None,
    prose: Prose::Joined {
        intro: "",
        gloss: Gloss::Space,
        sep: ", ",
        last: ", or ",
        end: ".",
    },
    views: &[
        View {
            name: "add",
            description: "a comment to an issue",
            families: &["mutation"],
            handler: add,
        },
        View {
            name: "delete",
            description: "a comment",
            families: &["mutation"],
            handler: delete,
        },
    ],
};

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "action": VIEWS.property(),
            "issue_id": {"type": "integer", "minimum": 1, "description": "The issue to comment on (add)."},
            "comment": {"type": "string", "minLength": 1, "maxLength": 4000, "description": "The comment text (add)."},
            "comment_id": {"type": "integer", "minimum": 1, "description": "The comment to delete (delete; from read_issues)."}
        },
        "required": ["action"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"action": {"const": "add"}}}, "then": {"required": ["issue_id", "comment"], "not": {"required": ["comment_id"]}}},
            {"if": {"properties": {"action": {"const": "delete"}}}, "then": {"required": ["comment_id"], "not": {"anyOf": [{"required": ["issue_id"]}, {"required": ["comment"]}]}}}
        ]
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    (VIEWS.select(args)?.handler)(&ombi, args)
}

fn delete(ombi: &Ombi<'_>, args: &Args) -> Result<Reply, ToolError> {
    let id = args.int("comment_id")?;
    let done = bool_answer(write(
        ombi,
        Method::Delete,
        &format!("/api/v1/Issues/comments/{id}"),
        None,
    )?)?;
    Ok(bool_reply(
        done,
        ToolError::new(
            ErrorCode::UpstreamRejected,
            "Ombi did not delete the comment",
        ),
    ))
}

fn add(ombi: &Ombi<'_>, args: &Args) -> Result<Reply, ToolError> {
    if ombi.acting_user().is_none() {
        return Err(ToolError::new(
            ErrorCode::UnsupportedCapability,
            format!(
                "adding a comment needs a user to act as ({} or the host's principal): with the bare API key Ombi cannot find the author and fails",
                media_mcp_wire::variables::OMBI_USER.name
            ),
        ));
    }
    let issue = args.int("issue_id")?;
    let body = json!({"comment": args.str("comment")?, "issueId": issue});
    match write(ombi, Method::Post, "/api/v1/Issues/comments", Some(&body))? {
        None => Ok(failure_with(
            ToolError::new(
                ErrorCode::NotFound,
                "Ombi has no issue with this id; no comment was added",
            ),
            Mutation::new(Outcome::Rejected),
        )),
        Some(c) => {
            let m = Mutation::new(Outcome::Completed)
                .id("comment_id", positive_id(c.get("id")))
                .id("issue_id", positive_id(c.get("issuesId")));
            Ok(Reply::ok(m.into_json()))
        }
    }
}

#[cfg(test)]
mod tests;
