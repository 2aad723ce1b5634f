use crate::testing::{FakeUpstream, call, call_as};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn subscribe_is_accepted_never_completed() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/request/tv/subscribe/7",
        "v1-request-tv-subscribe.json",
    );
    let out = call_as(
        &up,
        "write_request_subscription",
        json!({"media": "tv", "request_id": 7, "subscribed": true}),
        Some("bob"),
    );
    assert_eq!(out["data"]["outcome"], "accepted", "{out}");
    assert_eq!(out["data"]["target"], json!({"kind": "tv_child", "id": 7}));
    assert!(!out["warnings"].to_string().contains("system user"));
}

#[test]
fn unsubscribe_route_and_a_non_boolean_answer_is_unknown() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/request/movie/unsubscribe/12",
        "v1-request-movie-unsubscribe.json",
    );
    let out = call(
        &up,
        "write_request_subscription",
        json!({"media": "movie", "request_id": 12, "subscribed": false}),
    );
    assert_eq!(out["ok"], true, "{out}");
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/request/movie/subscribe/12",
        "v1-request-movie-approve.json",
    );
    let out = call(
        &up,
        "write_request_subscription",
        json!({"media": "movie", "request_id": 12, "subscribed": true}),
    );
    assert_eq!(out["error"]["code"], "UNKNOWN_OUTCOME");
}
