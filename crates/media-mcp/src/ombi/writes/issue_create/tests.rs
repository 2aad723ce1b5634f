use crate::testing::{FakeUpstream, call};
use crate::upstream::Method;
use serde_json::json;

fn args() -> serde_json::Value {
    json!({"title": "The Matrix", "request_type": "tv", "provider_id": "1396", "subject": "Audio", "description": "drifts", "category_id": 1})
}

#[test]
fn the_returned_int_is_the_issue_id_and_status_is_never_sent() {
    let up = FakeUpstream::new().fixture(Method::Post, "/api/v1/issues", "v1-issue-create.json");
    let out = call(&up, "write_issue_create", args());
    assert_eq!(
        out["data"],
        json!({"kind": "mutation", "outcome": "completed", "issue_id": 17}),
        "{out}"
    );
    let body: serde_json::Value =
        serde_json::from_slice(up.requests()[0].body.as_ref().unwrap()).unwrap();
    assert_eq!(body["requestType"], 0, "tv is RequestType 0");
    assert!(body.get("status").is_none());
}

#[test]
fn an_answer_without_an_id_is_unknown_not_invented() {
    let up =
        FakeUpstream::new().fixture(Method::Post, "/api/v1/issues", "v1-settings-post-bool.json");
    let out = call(&up, "write_issue_create", args());
    assert_eq!(out["error"]["code"], "UNKNOWN_OUTCOME");
    assert!(out["warnings"].to_string().contains("read_issues"));
}
