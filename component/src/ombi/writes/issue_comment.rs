//! `write_issue_comment` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#comments-need-a-user).
//!
//! Add: `POST /api/v1/Issues/comments {comment, issueId}` → `IssueComments` (its `id` is the
//! new comment id; the `issues`/`user` graphs are dropped); 204 means no such issue. Ombi looks
//! the author up by exact user name, which the bare key's 'API' never matches (500), so adding
//! needs a user to act as. Delete: `DELETE /api/v1/Issues/comments/{id}` → `bool`.

use super::outcome::{Mutation, Outcome, bool_answer, bool_reply, failure_with, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::Call;
use crate::ombi::ids::positive_id;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

/// The input schema.
pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "action": {"enum": ["add", "delete"], "description": "add a comment to an issue, or delete a comment."},
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

/// The handler.
pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    if args.str("action") == Some("delete") {
        let id = args.int("comment_id").unwrap_or(0);
        let done = bool_answer(write(
            &ombi,
            Method::Delete,
            &format!("/api/v1/Issues/comments/{id}"),
            None,
        )?)?;
        return Ok(bool_reply(
            done,
            "comment_id",
            id,
            ToolError::new(
                ErrorCode::UpstreamRejected,
                "Ombi did not delete the comment",
            ),
        ));
    }
    if ombi.acting_user().is_none() {
        return Err(ToolError::new(
            ErrorCode::UnsupportedCapability,
            "adding a comment needs a user to act as (OMBI_USER or the host's principal): with the bare API key Ombi cannot find the author and fails",
        ));
    }
    let issue = args.int("issue_id").unwrap_or(0);
    let body = json!({"comment": args.str("comment"), "issueId": issue});
    match write(&ombi, Method::Post, "/api/v1/Issues/comments", Some(&body))? {
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
mod tests {
    use crate::testing::{FakeUpstream, call, call_as};
    use crate::upstream::{HttpResponse, Method};
    use serde_json::json;

    #[test]
    fn add_reports_the_new_comment_id_and_drops_the_graphs() {
        let up = FakeUpstream::new().fixture(
            Method::Post,
            "/api/v1/issues/comments",
            "v1-issue-comment-create.json",
        );
        let out = call_as(
            &up,
            "write_issue_comment",
            json!({"action": "add", "issue_id": 5, "comment": "ok"}),
            Some("alice"),
        );
        assert_eq!(out["data"]["outcome"], "completed", "{out}");
        assert_eq!(out["data"]["issue_id"], 5);
        assert!(out["data"]["comment_id"].as_i64().unwrap() > 0);
        assert!(out["data"].get("user").is_none() && !out.to_string().contains("userReported"));
    }

    #[test]
    fn add_with_the_bare_key_is_refused_before_sending() {
        let up = FakeUpstream::new();
        let out = call(
            &up,
            "write_issue_comment",
            json!({"action": "add", "issue_id": 5, "comment": "ok"}),
        );
        assert_eq!(out["error"]["code"], "UNSUPPORTED_CAPABILITY");
        assert!(up.requests().is_empty());
    }

    #[test]
    fn add_to_a_missing_issue_204_is_not_found() {
        let up = FakeUpstream::new().route(
            Method::Post,
            "/api/v1/issues/comments",
            Ok(HttpResponse {
                status: 204,
                ..Default::default()
            }),
        );
        let out = call_as(
            &up,
            "write_issue_comment",
            json!({"action": "add", "issue_id": 5, "comment": "ok"}),
            Some("alice"),
        );
        assert_eq!(out["error"]["code"], "NOT_FOUND");
        assert_eq!(out["data"]["outcome"], "rejected");
    }

    #[test]
    fn delete_uses_the_comment_id() {
        let up = FakeUpstream::new().fixture(
            Method::Delete,
            "/api/v1/issues/comments/9",
            "v1-issue-comment-delete.json",
        );
        let out = call(
            &up,
            "write_issue_comment",
            json!({"action": "delete", "comment_id": 9}),
        );
        assert_eq!(out["data"]["comment_id"], 9, "{out}");
        let out = call(
            &up,
            "write_issue_comment",
            json!({"action": "delete", "comment_id": 9, "comment": "x"}),
        );
        assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    }
}
