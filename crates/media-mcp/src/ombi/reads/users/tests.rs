use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn list_keeps_only_non_secret_fields() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/identity/users",
        "v1-identity-users.json",
    );
    let out = call(&up, "read_users", json!({"view": "list"}));
    assert_eq!(out["ok"], true, "{out}");
    let text = out.to_string();
    for secret in [
        "@example.org",
        "claims",
        "Quota",
        "password",
        "userQualityProfiles",
    ] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
    for item in out["data"]["items"].as_array().unwrap() {
        for key in item.as_object().unwrap().keys() {
            assert!(
                ["id", "user_name", "alias", "language", "streaming_country"]
                    .contains(&key.as_str()),
                "{key}"
            );
        }
    }
}

#[test]
fn directory_drops_email_and_detail_is_one_user() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/identity/dropdown/users",
            "v1-identity-users-dropdown.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/identity/user/7e1f2c44-8b9a-4c6e-b1d5-2f3a4b5c6d02",
            "v1-identity-user-by-id.json",
        );
    let out = call(&up, "read_users", json!({"view": "directory"}));
    assert_eq!(
        out["data"]["items"][2],
        json!({"id": "b3d9a7e1-2c4f-4e8b-9f6a-5d7c8e9f0a03", "user_name": "sam"})
    );
    assert!(!out.to_string().contains("example.org"));
    let out = call(
        &up,
        "read_users",
        json!({"view": "detail", "user_id": "7e1f2c44-8b9a-4c6e-b1d5-2f3a4b5c6d02"}),
    );
    assert_eq!(
        out["data"]["items"][0],
        json!({"id": "7e1f2c44-8b9a-4c6e-b1d5-2f3a4b5c6d02", "user_name": "alex.plex", "streaming_country": "GB"})
    );
    assert_eq!(out["data"]["page"]["mode"], "none");
}

#[test]
fn online_users_are_marked_online() {
    let up = FakeUpstream::new().fixture(Method::Get, "/api/v2/hub/users", "v2-hub-users.json");
    let out = call(&up, "read_users", json!({"view": "online"}));
    assert_eq!(
        out["data"]["items"][0],
        json!({"id": "0c6b9d2e-5d3f-4f0a-9a35-1b8f4ad2a001", "alias": "Jamie", "online": true})
    );
}

#[test]
fn preferences_name_configured_agents_and_never_their_values() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/notificationpreferences/u1",
        "v1-identity-notificationpreferences-user.json",
    );
    let out = call(
        &up,
        "read_users",
        json!({"view": "notification_preferences", "user_id": "u1"}),
    );
    assert_eq!(out["data"]["kind"], "reference_page", "{out}");
    assert_eq!(
        out["data"]["items"],
        json!([{"id": "4", "name": "Telegram", "value": true, "category": "notification_agent"}])
    );
    assert!(!out.to_string().contains("123456789"));
}

#[test]
fn unknown_agent_codes_warn() {
    let body = json!([{"userId": "u", "agent": 42, "enabled": false, "value": "x", "id": 1}]);
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/identity/notificationpreferences",
        Ok(json_response(body.to_string().into_bytes())),
    );
    let out = call(
        &up,
        "read_users",
        json!({"view": "notification_preferences"}),
    );
    assert_eq!(out["data"]["items"][0]["name"], "agent 42");
    assert!(out["warnings"].to_string().contains("42"));
}

#[test]
fn detail_needs_a_user_id() {
    let out = call(
        &FakeUpstream::new(),
        "read_users",
        json!({"view": "detail"}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
}

#[test]
fn dot_segment_user_ids_are_refused_unsent() {
    for (view, id) in [
        ("detail", ".."),
        ("detail", "."),
        ("notification_preferences", ".."),
    ] {
        let up = FakeUpstream::new();
        let out = call(&up, "read_users", json!({"view": view, "user_id": id}));
        assert_eq!(out["error"]["code"], "INVALID_ARGUMENT", "{out}");
        assert!(out["error"].to_string().contains("user_id"), "{out}");
        assert!(up.requests().is_empty(), "{:?}", up.requests());
    }
}
