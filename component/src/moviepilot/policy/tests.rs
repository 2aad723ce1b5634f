use super::*;
use serde_json::json;

fn args(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

#[test]
fn database_reads_pass_and_writes_name_their_setting() {
    let p = Policy::default();
    for ok in [
        json!({"action": "tables", "arguments": {}}),
        json!({"action": "schema", "arguments": {"table_name": "site"}}),
        json!({"action": "query", "arguments": {"sql": "select 1", "write": false}}),
    ] {
        assert!(check("database_operation", &args(ok), &p).is_ok());
    }
    for (bad, setting) in [
        (
            json!({"action": "write", "arguments": {"sql": "delete from site"}}),
            "ALLOW_DB_WRITES",
        ),
        (
            json!({"action": "Write", "arguments": {}}),
            "ALLOW_DB_WRITES",
        ),
        (
            json!({"action": "query", "arguments": {"sql": "x", "write": true}}),
            "ALLOW_DB_WRITES",
        ),
        (
            json!({"action": "query", "arguments": "{\"sql\": \"x\", \"write\": \"yes\"}"}),
            "ALLOW_DB_WRITES",
        ),
        (
            json!({"action": "query", "arguments": {"sql": "select * from systemconfig", "show_secrets": true}}),
            "ALLOW_SECRETS",
        ),
        (
            json!({"action": "tables", "arguments": "{\"show_secrets\": 1}"}),
            "ALLOW_SECRETS",
        ),
    ] {
        let e = check("database_operation", &args(bad.clone()), &p).unwrap_err();
        assert_eq!(e.code, ErrorCode::Forbidden, "{bad}");
        assert!(e.message.contains(setting), "{bad}: {}", e.message);
    }
    let open = Policy {
        allow_db_writes: true,
        allow_secrets: true,
        ..Policy::default()
    };
    assert!(
        check(
            "database_operation",
            &args(json!({"action": "write", "arguments": {"sql": "x", "show_secrets": true}})),
            &open
        )
        .is_ok()
    );
}

#[test]
fn api_operations_pass_the_allow_and_deny_lists() {
    let p = Policy {
        api_allow: Some(vec!["media.search".into(), "subscription.add".into()]),
        api_deny: vec!["subscription.add".into()],
        ..Policy::default()
    };
    assert!(
        check(
            "moviepilot_api",
            &args(json!({"operation_id": "media.search"})),
            &p
        )
        .is_ok()
    );
    let e = check(
        "moviepilot_api",
        &args(json!({"operation_id": "subscription.add"})),
        &p,
    )
    .unwrap_err();
    assert!(e.message.contains("MEDIA_MCP_MOVIEPILOT_API_DENY"));
    let e = check(
        "moviepilot_api",
        &args(json!({"operation_id": "system.restart"})),
        &p,
    )
    .unwrap_err();
    assert!(e.message.contains("MEDIA_MCP_MOVIEPILOT_API_ALLOW"));
    assert!(
        check(
            "moviepilot_api",
            &args(json!({"operation_id": "system.restart"})),
            &Policy::default()
        )
        .is_ok()
    );
}

#[test]
fn only_provable_reads_are_reads() {
    assert!(call_is_read(
        "moviepilot_api",
        &args(json!({"operation_id": "media.search"}))
    ));
    assert!(!call_is_read(
        "moviepilot_api",
        &args(json!({"operation_id": "subscription.add"}))
    ));
    assert!(!call_is_read("add_subscribe", &args(json!({}))));
    assert!(call_is_read(
        "database_operation",
        &args(json!({"action": "query", "arguments": {"sql": "x"}}))
    ));
    assert!(!call_is_read(
        "database_operation",
        &args(json!({"action": "query", "arguments": {"sql": "x", "write": true}}))
    ));
    let p = Policy::default();
    assert!(tool_is_read_only("database_operation", &p));
    assert!(!tool_is_read_only(
        "database_operation",
        &Policy {
            allow_db_writes: true,
            ..p.clone()
        }
    ));
    assert!(!tool_is_read_only("moviepilot_api", &p));
    assert!(tool_is_read_only(
        "moviepilot_api",
        &Policy {
            api_allow: Some(vec!["media.search".into()]),
            ..p.clone()
        }
    ));
    assert!(!tool_is_read_only("some_plugin_tool", &p));
}
