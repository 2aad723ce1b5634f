use crate::testing::{FakeUpstream, call};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn removal_reports_the_queue_id() {
    let up = FakeUpstream::new().fixture(
        Method::Delete,
        "/api/v1/requestretry/3",
        "v1-request-retry-delete.json",
    );
    let out = call(&up, "write_retry_queue_remove", json!({"queue_id": 3}));
    assert_eq!(
        out["data"],
        json!({"kind": "mutation", "outcome": "completed", "upstream_result": true})
    );
}

#[test]
fn unknown_queue_id_500_is_unknown_outcome_with_reconcile_warning() {
    let out = call(
        &FakeUpstream::new(),
        "write_retry_queue_remove",
        json!({"queue_id": 999}),
    );
    assert_eq!(out["error"]["code"], "UNKNOWN_OUTCOME");
    assert!(out["warnings"].to_string().contains("read_requests"));
}
