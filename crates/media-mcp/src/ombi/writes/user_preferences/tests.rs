use crate::testing::{FakeUpstream, call, call_as};
use crate::upstream::{HttpResponse, Method, UpstreamError};
use serde_json::json;

fn empty_ok() -> Result<HttpResponse, UpstreamError> {
    Ok(HttpResponse {
        status: 200,
        ..Default::default()
    })
}

#[test]
fn both_empty_200s_complete_without_counts() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/identity/streamingcountry",
            "v1-identity-streamingcountry.json",
        )
        .route(Method::Post, "/api/v1/identity/language", empty_ok())
        .route(
            Method::Post,
            "/api/v1/identity/streamingcountry",
            empty_ok(),
        );
    let out = call_as(
        &up,
        "write_user_preferences",
        json!({"language": "en", "streaming_country": "US"}),
        Some("alice"),
    );
    assert_eq!(out["data"]["outcome"], "completed", "{out}");
    assert_eq!(out["data"]["item_results"].as_array().unwrap().len(), 2);
    assert!(out["data"].get("affected_count").is_none());
}

#[test]
fn second_call_failing_is_a_partial_failure_with_known_items_only() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/identity/streamingcountry",
            "v1-identity-streamingcountry.json",
        )
        .route(Method::Post, "/api/v1/identity/language", empty_ok())
        .route(
            Method::Post,
            "/api/v1/identity/streamingcountry",
            Err(UpstreamError::Timeout { sent: true }),
        );
    let out = call_as(
        &up,
        "write_user_preferences",
        json!({"language": "en", "streaming_country": "US"}),
        Some("alice"),
    );
    assert_eq!(out["error"]["code"], "PARTIAL_FAILURE", "{out}");
    assert_eq!(out["data"]["outcome"], "partial");
    assert_eq!(
        out["data"]["item_results"][0],
        json!({"identifier": "language", "outcome": "completed"})
    );
    assert_eq!(out["data"]["item_results"][1]["outcome"], "unknown");
    assert!(!out.to_string().contains("rolled back"));
}

#[test]
fn the_bare_key_is_refused_and_unknown_countries_rejected_before_any_change() {
    let up = FakeUpstream::new();
    let out = call(&up, "write_user_preferences", json!({"language": "en"}));
    assert_eq!(out["error"]["code"], "UNSUPPORTED_CAPABILITY");
    assert!(up.requests().is_empty());
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/identity/streamingcountry",
        "v1-identity-streamingcountry.json",
    );
    let out = call_as(
        &up,
        "write_user_preferences",
        json!({"language": "en", "streaming_country": "ZZ"}),
        Some("alice"),
    );
    assert_eq!(out["error"]["field"], "streaming_country");
    assert!(up.requests().iter().all(|r| r.method == Method::Get));
}
