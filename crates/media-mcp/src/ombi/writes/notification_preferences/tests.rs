use crate::testing::{FakeUpstream, call, call_as};
use crate::upstream::{HttpResponse, Method};
use serde_json::json;

const PATH: &str = "/api/v1/identity/notificationpreferences";

#[test]
fn one_item_is_sent_with_the_agent_code_and_the_value_is_never_echoed() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        PATH,
        "v1-identity-notificationpreferences-post.json",
    );
    let out = call_as(
        &up,
        "write_notification_preferences",
        json!({"user_id": "u1", "agent": "telegram", "value": "secret-chat-4242"}),
        Some("admin"),
    );
    assert_eq!(out["data"]["outcome"], "completed", "{out}");
    assert_eq!(out["data"]["user_id"], "u1");
    assert!(!out.to_string().contains("secret-chat-4242"));
    assert!(
        out["warnings"]
            .to_string()
            .contains("without authentication"),
        "the anonymous read route is warned about"
    );
    let body: serde_json::Value =
        serde_json::from_slice(up.requests()[0].body.as_ref().unwrap()).unwrap();
    assert_eq!(
        body,
        json!([{"agent": 4, "userId": "u1", "value": "secret-chat-4242", "enabled": true}])
    );
}

#[test]
fn refused_edits_are_forbidden_not_bad_credentials() {
    let up = FakeUpstream::new().route(
        Method::Post,
        PATH,
        Ok(HttpResponse {
            status: 401,
            ..Default::default()
        }),
    );
    let out = call(
        &up,
        "write_notification_preferences",
        json!({"user_id": "u2", "agent": "discord", "value": ""}),
    );
    assert_eq!(out["error"]["code"], "FORBIDDEN", "{out}");
    assert!(out["warnings"].to_string().contains("OMBI_USER"));
}
