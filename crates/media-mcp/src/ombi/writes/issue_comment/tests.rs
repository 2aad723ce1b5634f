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
    assert_eq!(
        out["data"],
        json!({"kind": "mutation", "outcome": "completed", "upstream_result": true}),
        "the caller's comment id is not Ombi's answer: {out}"
    );
    let out = call(
        &up,
        "write_issue_comment",
        json!({"action": "delete", "comment_id": 9, "comment": "x"}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
}
