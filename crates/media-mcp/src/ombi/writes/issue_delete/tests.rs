use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn delete_true_completes_and_false_is_not_found() {
    let up =
        FakeUpstream::new().fixture(Method::Delete, "/api/v1/issues/5", "v1-issue-delete.json");
    assert_eq!(
        call(&up, "write_issue_delete", json!({"issue_id": 5}))["data"],
        json!({"kind": "mutation", "outcome": "completed", "upstream_result": true}),
        "the caller's issue id is not Ombi's answer"
    );
    let up = FakeUpstream::new().route(
        Method::Delete,
        "/api/v1/issues/5",
        Ok(json_response(b"false".to_vec())),
    );
    assert_eq!(
        call(&up, "write_issue_delete", json!({"issue_id": 5}))["error"]["code"],
        "NOT_FOUND"
    );
}
