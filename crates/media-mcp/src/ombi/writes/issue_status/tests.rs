use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn status_codes_are_sent_and_false_is_not_found() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/issues/status",
        "v1-issue-status.json",
    );
    let out = call(
        &up,
        "write_issue_status",
        json!({"issue_id": 5, "status": "resolved"}),
    );
    // Ombi answers a bare bool: the id the caller sent is not Ombi's answer.
    assert_eq!(
        out["data"],
        json!({"kind": "mutation", "outcome": "completed", "upstream_result": true}),
        "{out}"
    );
    let body: serde_json::Value =
        serde_json::from_slice(up.requests()[0].body.as_ref().unwrap()).unwrap();
    assert_eq!(body, json!({"issueId": 5, "status": 2}));
    let up = FakeUpstream::new().route(
        Method::Post,
        "/api/v1/issues/status",
        Ok(json_response(b"false".to_vec())),
    );
    let out = call(
        &up,
        "write_issue_status",
        json!({"issue_id": 5, "status": "pending"}),
    );
    assert_eq!(out["error"]["code"], "NOT_FOUND");
    assert_eq!(out["data"]["outcome"], "rejected");
}
