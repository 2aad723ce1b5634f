//! Handler tests for `write_settings_update`.

use crate::ombi::settings_revision::revision;
use crate::testing::{FakeUpstream, call, fixture, json_response};
use crate::upstream::{Method, UpstreamError};
use serde_json::{Value, json};

fn ombi_section() -> Value {
    serde_json::from_slice(&fixture("v1-settings-ombi.json")).unwrap()
}

/// The revision of the features fixture.
fn features_revision() -> String {
    revision(
        "features",
        &serde_json::from_slice(&fixture("v2-features.json")).unwrap(),
    )
    .unwrap()
}

fn posted(up: &FakeUpstream) -> Value {
    let post = up
        .requests()
        .into_iter()
        .find(|r| r.method == Method::Post)
        .expect("a POST");
    serde_json::from_slice(post.body.as_ref().unwrap()).unwrap()
}

#[test]
fn write_back_keeps_secrets_and_every_other_field() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/settings/ombi",
            "v1-settings-ombi.json",
        )
        .fixture(
            Method::Post,
            "/api/v1/settings/ombi",
            "v1-settings-post-bool.json",
        );
    let rev = revision("ombi", &ombi_section()).unwrap();
    let out = call(
        &up,
        "write_settings_update",
        json!({"section": "ombi", "revision": rev, "changes": [{"name": "/hideRequestsUsers", "value": false}]}),
    );
    assert_eq!(out["data"]["outcome"], "completed", "{out}");
    let mut want = ombi_section();
    want["hideRequestsUsers"] = json!(false);
    assert_eq!(
        posted(&up),
        want,
        "the full upstream object with only the change applied"
    );
    assert!(
        !out.to_string().contains("0123456789abcdef0123456789abcdef"),
        "the key is never echoed"
    );
}

#[test]
fn a_stale_revision_is_a_conflict_and_nothing_is_posted() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/settings/vote",
        "v1-settings-vote.json",
    );
    let stale = revision(
        "vote",
        &json!({"enabled": false, "movieVoteMax": 5, "musicVoteMax": 5, "tvShowVoteMax": 5}),
    )
    .unwrap();
    let out = call(
        &up,
        "write_settings_update",
        json!({"section": "vote", "revision": stale, "changes": [{"name": "/movieVoteMax", "value": 3}]}),
    );
    assert_eq!(out["error"]["code"], "CONFLICT", "{out}");
    assert_eq!(out["data"]["outcome"], "rejected");
    assert!(up.requests().iter().all(|r| r.method == Method::Get));
}

#[test]
fn secrets_and_unknown_fields_are_not_writable_and_types_are_checked() {
    let up = FakeUpstream::new();
    let out = call(
        &up,
        "write_settings_update",
        json!({"section": "ombi", "changes": [{"name": "/apiKey", "value": "x"}]}),
    );
    assert_eq!(
        (
            out["error"]["code"].as_str(),
            out["error"]["field"].as_str()
        ),
        (Some("INVALID_ARGUMENT"), Some("changes[0].name"))
    );
    let out = call(
        &up,
        "write_settings_update",
        json!({"section": "vote", "changes": [{"name": "/enabled", "value": "yes"}]}),
    );
    assert_eq!(out["error"]["field"], "changes[0].value");
    let out = call(
        &up,
        "write_settings_update",
        json!({"section": "user_management", "changes": [{"name": "/movieRequestLimitType", "value": 7}]}),
    );
    assert_eq!(out["error"]["field"], "changes[0].value");
    assert!(up.requests().is_empty());
}

#[test]
fn without_a_revision_it_warns_and_false_is_rejected() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/settings/issues",
            "v1-settings-issues.json",
        )
        .route(
            Method::Post,
            "/api/v1/settings/issues",
            Ok(json_response(b"false".to_vec())),
        );
    let out = call(
        &up,
        "write_settings_update",
        json!({"section": "issues", "changes": [{"name": "/enabled", "value": false}]}),
    );
    assert_eq!(out["error"]["code"], "UPSTREAM_REJECTED", "{out}");
    assert_eq!(out["data"]["outcome"], "rejected");
    assert!(out["warnings"].to_string().contains("no revision"));
}

#[test]
fn invalid_cron_is_rejected_with_ombis_message() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/settings/jobs",
            "v1-settings-jobs.json",
        )
        .fixture(
            Method::Post,
            "/api/v1/settings/jobs",
            "v1-settings-jobs-post.json",
        );
    let out = call(
        &up,
        "write_settings_update",
        json!({"section": "jobs", "changes": [{"name": "/newsletter", "value": "nope"}]}),
    );
    assert_eq!(out["error"]["code"], "UPSTREAM_REJECTED");
    assert!(
        out["data"]["message"].as_str().unwrap().contains("CRON"),
        "{out}"
    );
}

#[test]
fn features_switch_one_by_one_with_item_results() {
    let up = FakeUpstream::new()
        .fixture(Method::Get, "/api/v2/features", "v2-features.json")
        .fixture(
            Method::Post,
            "/api/v2/features/enable",
            "v2-features-enable.json",
        )
        .route(
            Method::Post,
            "/api/v2/features/disable",
            Err(UpstreamError::Timeout { sent: true }),
        );
    let rev = features_revision();
    let out = call(
        &up,
        "write_settings_update",
        json!({"section": "features", "revision": rev, "changes": [
        {"name": "/Movie4KRequests", "value": true}, {"name": "/PlayedSync", "value": false}]}),
    );
    assert_eq!(out["error"]["code"], "PARTIAL_FAILURE", "{out}");
    assert_eq!(
        out["data"]["item_results"],
        json!([
        {"identifier": "/Movie4KRequests", "outcome": "completed"},
        {"identifier": "/PlayedSync", "outcome": "unknown", "message": out["data"]["item_results"][1]["message"]}])
    );
    assert!(!out.to_string().to_lowercase().contains("rolled back"));
    assert!(
        out["warnings"]
            .to_string()
            .contains("check with read_settings"),
        "an unknown item is reconciled with a read: {out}"
    );
}

#[test]
fn a_flag_ombis_answer_does_not_confirm_is_unknown_with_the_read_settings_warning() {
    // Ombi answers the enable with a list where the flag is still off.
    let up = FakeUpstream::new()
        .fixture(Method::Get, "/api/v2/features", "v2-features.json")
        .route(
            Method::Post,
            "/api/v2/features/enable",
            Ok(json_response(
                br#"[{"name":"Movie4KRequests","enabled":false}]"#.to_vec(),
            )),
        );
    let rev = features_revision();
    let out = call(
        &up,
        "write_settings_update",
        json!({"section": "features", "revision": rev, "changes": [
        {"name": "/Movie4KRequests", "value": true}]}),
    );
    assert_eq!(
        (out["ok"].clone(), out["data"]["outcome"].clone()),
        (json!(true), json!("unknown")),
        "{out}"
    );
    assert!(
        out["warnings"]
            .to_string()
            .contains("check with read_settings"),
        "{out}"
    );
}

#[test]
fn a_500_on_the_post_is_unknown_outcome_with_the_read_settings_warning() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/settings/vote",
        "v1-settings-vote.json",
    );
    let out = call(
        &up,
        "write_settings_update",
        json!({"section": "vote", "changes": [{"name": "/enabled", "value": true}]}),
    );
    assert_eq!(out["error"]["code"], "UNKNOWN_OUTCOME");
    assert!(out["warnings"].to_string().contains("read_settings"));
}

#[test]
fn a_bare_field_name_is_taken_as_its_pointer() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/settings/vote",
            "v1-settings-vote.json",
        )
        .fixture(
            Method::Post,
            "/api/v1/settings/vote",
            "v1-settings-post-bool.json",
        );
    let out = call(
        &up,
        "write_settings_update",
        json!({"section": "vote", "changes": [{"name": "movieVoteMax", "value": 3}]}),
    );
    assert_eq!(out["data"]["outcome"], "completed", "{out}");
    assert_eq!(posted(&up)["movieVoteMax"], 3);
}
