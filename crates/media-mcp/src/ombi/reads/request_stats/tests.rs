//! Handler tests for `read_request_stats`.

use super::before;
use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::{HttpResponse, Method};
use serde_json::{Value, json};

fn body(v: Value) -> Result<HttpResponse, crate::upstream::UpstreamError> {
    Ok(json_response(v.to_string().into_bytes()))
}

fn value<'a>(out: &'a Value, name: &str) -> Option<&'a Value> {
    out["data"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
}

#[test]
fn counts_are_four_named_instance_scalars() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/request/count",
        "v1-request-count.json",
    );
    let out = call(&up, "read_request_stats", json!({"scope": "counts"}));
    assert_eq!(
        out["data"]["values"],
        json!([
        {"name": "pending", "value": 4, "scope": "instance", "unit": "requests"},
        {"name": "approved", "value": 2, "scope": "instance", "unit": "requests"},
        {"name": "available", "value": 9, "scope": "instance", "unit": "requests"},
        {"name": "denied", "value": 1, "scope": "instance", "unit": "requests"}])
    );
}

#[test]
fn no_limit_never_becomes_remaining_zero() {
    let up = FakeUpstream::new()
        .fixture(Method::Get, "/api/v1/request/movie/remaining", "v1-request-movie-remaining.json")
        .fixture(Method::Get, "/api/v1/request/tv/remaining", "v1-request-tv-remaining.json")
        .route(Method::Get, "/api/v1/request/music/remaining", body(json!({"hasLimit": false, "limit": 0, "remaining": 0, "nextRequest": "2026-05-02T22:15:40Z"})));
    let out = call(&up, "read_request_stats", json!({"scope": "quota"}));
    assert_eq!(value(&out, "movie.remaining").unwrap()["value"], 3);
    assert_eq!(
        value(&out, "movie.next_request").unwrap()["value"],
        "2026-05-04T00:00:00Z"
    );
    assert_eq!(
        value(&out, "tv.has_limit").unwrap(),
        &json!({"name": "tv.has_limit", "value": false, "scope": "principal"})
    );
    for name in [
        "tv.remaining",
        "tv.limit",
        "tv.next_request",
        "album.remaining",
    ] {
        assert!(
            value(&out, name).is_none(),
            "{name} must be absent without a limit"
        );
    }
}

#[test]
fn selected_user_quota_is_scoped_and_null_quota_is_not_invented() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/identity/user/u1",
        "v1-identity-user-by-id.json",
    );
    let out = call(
        &up,
        "read_request_stats",
        json!({"scope": "quota", "user_id": "u1"}),
    );
    assert_eq!(
        value(&out, "tv.remaining").unwrap(),
        &json!({"name": "tv.remaining", "value": 18, "scope": "selected_user", "unit": "episodes"})
    );
    assert!(value(&out, "album.has_limit").is_none());
    assert!(out["warnings"].to_string().contains("no album quota"));
}

#[test]
fn summary_exposes_seven_totals_and_no_user_graph() {
    let up = FakeUpstream::new().fixture(Method::Get, "/api/v1/stats", "v1-stats.json");
    let out = call(
        &up,
        "read_request_stats",
        json!({"scope": "summary", "from": "2026-04-01", "to": "2026-05-01T00:00:00Z"}),
    );
    assert_eq!(out["ok"], true, "{out}");
    let names: Vec<&str> = out["data"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "total_requests",
            "total_movie_requests",
            "total_tv_requests",
            "total_issues",
            "completed_requests_movies",
            "completed_requests_tv",
            "completed_requests"
        ]
    );
    assert_eq!(value(&out, "total_requests").unwrap()["value"], 3);
    assert!(
        value(&out, "total_issues").unwrap()["value"].is_null(),
        "never-computed zero is not a count"
    );
    let text = out.to_string();
    assert!(!text.contains("alex") && !text.contains("Token") && !text.contains("example.org"));
    assert!(
        up.requests()[0]
            .url
            .contains("from=2026-04-01&to=2026-05-01T00%3A00%3A00Z")
    );
}

#[test]
fn summary_window_must_be_ordered_and_empty_window_500_is_explained() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/stats",
        Ok(HttpResponse {
            status: 500,
            content_type: Some("application/json".into()),
            body: br#"{"error":"Object reference not set"}"#.to_vec(),
            ..Default::default()
        }),
    );
    let out = call(
        &up,
        "read_request_stats",
        json!({"scope": "summary", "from": "2026-05-01", "to": "2026-04-01"}),
    );
    assert_eq!(out["error"]["field"], "to");
    let out = call(
        &up,
        "read_request_stats",
        json!({"scope": "summary", "from": "2026-04-01", "to": "2026-05-01"}),
    );
    assert_eq!(out["error"]["code"], "UPSTREAM_REJECTED");
    assert!(
        out["error"]["message"]
            .as_str()
            .unwrap()
            .contains("wider window")
    );
    let out = call(
        &up,
        "read_request_stats",
        json!({"scope": "summary", "from": "2026-04-01"}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    assert!(
        before("2026-04-01", "2026-04-01T00:00:01Z") && !before("2026-04-02", "2026-04-01T23:00")
    );
}
