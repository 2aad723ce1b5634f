use crate::testing::{FakeUpstream, call};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn deny_puts_the_reason_and_ignores_the_misleading_message() {
    let up = FakeUpstream::new().fixture(
        Method::Put,
        "/api/v1/request/movie/deny",
        "v1-request-movie-deny.json",
    );
    let out = call(
        &up,
        "write_request_deny",
        json!({"media": "movie", "request_id": 12, "reason": "not on any service"}),
    );
    assert_eq!(out["data"]["outcome"], "completed", "{out}");
    assert!(
        out["data"].get("message").is_none(),
        "'successfully deleted' must not be passed on"
    );
    let sent = &up.requests()[0];
    assert_eq!(sent.method, Method::Put);
    let body: serde_json::Value = serde_json::from_slice(sent.body.as_ref().unwrap()).unwrap();
    assert_eq!(
        body,
        json!({"id": 12, "reason": "not on any service", "is4K": false})
    );
}

#[test]
fn deny_needs_a_reason() {
    let up = FakeUpstream::new();
    let out = call(
        &up,
        "write_request_deny",
        json!({"media": "tv", "request_id": 3}),
    );
    assert_eq!(out["error"]["field"], "reason");
}

#[test]
fn tv_deny_has_no_4k_flag_and_targets_the_child() {
    let up = FakeUpstream::new().fixture(
        Method::Put,
        "/api/v1/request/tv/deny",
        "v1-request-tv-deny.json",
    );
    let out = call(
        &up,
        "write_request_deny",
        json!({"media": "tv", "request_id": 3, "reason": "x"}),
    );
    assert_eq!(out["data"]["target"], json!({"kind": "tv_child", "id": 3}));
    let body: serde_json::Value =
        serde_json::from_slice(up.requests()[0].body.as_ref().unwrap()).unwrap();
    assert!(body.get("is4K").is_none());
}
