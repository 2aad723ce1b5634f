//! Handler tests for `read_server` against the fake Ombi.

use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::{HttpResponse, Method};
use serde_json::{Value, json};

fn body(v: Value) -> crate::testing::Answer {
    Ok(json_response(v.to_string().into_bytes()))
}

fn metric<'a>(out: &'a Value, name: &str) -> Option<&'a Value> {
    out["data"]["values"]
        .as_array()?
        .iter()
        .find(|m| m["name"] == name)
}

#[test]
fn status_reports_up_version_and_wizard_with_instance_scope() {
    let up = FakeUpstream::new()
        .fixture(Method::Get, "/api/v1/Status", "v1-status.json")
        .fixture(Method::Get, "/api/v1/Status/info", "v1-status-info.json")
        .fixture(
            Method::Get,
            "/api/v1/Status/Wizard",
            "v1-status-wizard.json",
        );
    let out = call(&up, "read_server", json!({"view": "status"}));
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(
        metric(&out, "up").unwrap(),
        &json!({"name": "up", "value": true, "scope": "instance"})
    );
    assert_eq!(metric(&out, "version").unwrap()["value"], "4.59.3");
    assert_eq!(metric(&out, "wizard_completed").unwrap()["value"], true);
}

#[test]
fn a_failed_part_is_a_partial_failure_never_a_false() {
    let up = FakeUpstream::new()
        .fixture(Method::Get, "/api/v1/Status", "v1-status.json")
        .fixture(Method::Get, "/api/v1/Status/info", "v1-status-info.json")
        .route(
            Method::Get,
            "/api/v1/Status/Wizard",
            Ok(HttpResponse {
                status: 500,
                body: br#"{"error":"boom"}"#.to_vec(),
                ..Default::default()
            }),
        );
    let out = call(&up, "read_server", json!({"view": "status"}));
    assert_eq!(out["ok"], false);
    assert_eq!(out["error"]["code"], "PARTIAL_FAILURE");
    assert!(
        metric(&out, "wizard_completed").is_none(),
        "no invented false"
    );
    assert_eq!(metric(&out, "up").unwrap()["value"], true);
}

#[test]
fn about_keeps_only_safe_fields() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/Settings/about",
        "v1-settings-about.json",
    );
    let out = call(&up, "read_server", json!({"view": "about"}));
    let text = out["data"].to_string();
    for secret in [
        "/app/Ombi",
        "/config",
        "Linux 6.8",
        "ConnectionString",
        "storage",
    ] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
    assert_eq!(
        out["data"]["items"][0],
        json!({"name": "version", "value": "4.59.3", "category": "about"})
    );
    assert_eq!(out["data"]["page"]["total"], 8);
}

#[test]
fn update_reads_the_cached_flag_and_never_a_side_effect_route() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/Job/updateCached",
        "v1-job-updatecached.json",
    );
    let out = call(&up, "read_server", json!({"view": "update"}));
    assert_eq!(metric(&out, "update_available").unwrap()["value"], false);
    let paths: Vec<String> = up
        .requests()
        .iter()
        .map(|r| r.url.to_ascii_lowercase())
        .collect();
    assert!(paths.iter().all(|p| !p.ends_with("/api/v1/update")
        && !p.ends_with("/job/update")
        && !p.contains("landingpage")
        && !p.contains("demo")));
}

#[test]
fn media_servers_view_is_not_offered() {
    let up = FakeUpstream::new();
    let out = call(&up, "read_server", json!({"view": "media_servers"}));
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    assert!(up.requests().is_empty());
}

#[test]
fn request_counts_are_the_four_named_scalars_and_absent_stays_absent() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/Request/count",
        "v1-request-count.json",
    );
    let out = call(&up, "read_server", json!({"view": "request_counts"}));
    let names: Vec<&str> = out["data"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["pending", "approved", "available", "denied"]);
    assert_eq!(metric(&out, "available").unwrap()["value"], 9);
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/Request/count",
        body(json!({"pending": 1, "approved": null})),
    );
    let out = call(&up, "read_server", json!({"view": "request_counts"}));
    assert_eq!(out["data"]["values"].as_array().unwrap().len(), 1);
}

#[test]
fn capabilities_are_booleans_and_features_are_named() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/Settings/issuesenabled",
            "v1-settings-issuesenabled.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/Settings/voteenabled",
            "v1-settings-voteenabled.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/Settings/lidarrenabled",
            "v1-settings-lidarrenabled.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/Settings/notifications/email/enabled",
            "v1-settings-email-enabled.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/Sonarr/enabled",
            "v1-sonarr-enabled.json",
        )
        .fixture(Method::Get, "/api/v2/Features", "v2-features.json")
        .route(
            Method::Get,
            "/api/v1/Radarr/enabled",
            Ok(HttpResponse {
                status: 403,
                ..Default::default()
            }),
        );
    let out = call(&up, "read_server", json!({"view": "capabilities"}));
    assert_eq!(out["error"]["code"], "PARTIAL_FAILURE", "{out}");
    assert_eq!(metric(&out, "issues_enabled").unwrap()["value"], true);
    assert_eq!(
        metric(&out, "feature:Movie4KRequests").unwrap()["value"],
        true
    );
    assert!(metric(&out, "radarr_enabled").is_none());
    assert!(out["warnings"].to_string().contains("radarr_enabled"));
}

#[test]
fn health_reads_the_text_check_without_the_key_and_503_is_unhealthy() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/health",
        Ok(HttpResponse {
            status: 503,
            content_type: Some("text/plain".into()),
            body: b"Unhealthy".to_vec(),
            ..Default::default()
        }),
    );
    let out = call(&up, "read_server", json!({"view": "health"}));
    assert_eq!(metric(&out, "health").unwrap()["value"], "Unhealthy");
    assert!(up.requests()[0].url.ends_with("/health"));
    assert!(up.requests()[0].headers.iter().all(|(k, _)| k != "apikey"));
    // Health checks disabled: Ombi's page for unknown routes.
    let up = FakeUpstream::new();
    let out = call(&up, "read_server", json!({"view": "health"}));
    assert_eq!(out["error"]["code"], "UNSUPPORTED_CAPABILITY");
}
