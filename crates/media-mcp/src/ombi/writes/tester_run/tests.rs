use crate::testing::{FakeUpstream, call, fixture};
use crate::upstream::Method;
use serde_json::{Value, json};

#[test]
fn saved_settings_are_posted_unchanged_and_never_echoed() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/settings/notifications/discord",
            "v1-settings-notifications-discord.json",
        )
        .fixture(
            Method::Post,
            "/api/v1/tester/discord",
            "v1-tester-discord.json",
        );
    let out = call(&up, "write_tester_run", json!({"target": "discord"}));
    assert_eq!(out["data"]["outcome"], "completed", "{out}");
    assert!(out["warnings"].to_string().contains("delivered"));
    let sent: Value = serde_json::from_slice(up.requests()[1].body.as_ref().unwrap()).unwrap();
    let saved: Value =
        serde_json::from_slice(&fixture("v1-settings-notifications-discord.json")).unwrap();
    assert_eq!(sent, saved);
    assert_eq!(
        out["data"].as_object().unwrap().len(),
        3,
        "kind, outcome, upstream_result only: {out}"
    );
}

#[test]
fn radarr_4k_tests_the_4k_block_and_invalid_is_rejected_with_the_hint() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/settings/radarr",
            "v1-settings-radarr.json",
        )
        .fixture(
            Method::Post,
            "/api/v1/tester/radarr",
            "v1-tester-radarr.json",
        );
    let out = call(&up, "write_tester_run", json!({"target": "radarr_4k"}));
    assert_eq!(out["error"]["code"], "UPSTREAM_REJECTED", "{out}");
    assert_eq!(out["data"]["outcome"], "rejected");
    assert!(
        out["error"]["message"]
            .as_str()
            .unwrap()
            .contains("/radarr")
    );
    let sent: Value = serde_json::from_slice(up.requests()[1].body.as_ref().unwrap()).unwrap();
    let saved: Value = serde_json::from_slice(&fixture("v1-settings-radarr.json")).unwrap();
    assert_eq!(sent, saved["radarr4K"]);
}

#[test]
fn a_missing_server_is_not_found_before_anything_is_sent() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/settings/plex",
        Ok(crate::testing::json_response(
            br#"{"enable": true, "servers": []}"#.to_vec(),
        )),
    );
    let out = call(
        &up,
        "write_tester_run",
        json!({"target": "plex", "server_index": 0}),
    );
    assert_eq!(out["error"]["code"], "NOT_FOUND");
    assert_eq!(up.requests().len(), 1);
}
