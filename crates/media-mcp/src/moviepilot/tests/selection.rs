//! Read-only mode and tool selection applied to bridged tools.

use super::*;

fn listed(plugin: &Plugin, up: &FakeUpstream) -> Vec<String> {
    plugin.list_tools(up).into_iter().map(|t| t.name).collect()
}

fn refuse_calls(_: &HttpRequest, name: &str, _: &Value) -> Answer {
    panic!("tools/call {name} must not be sent")
}

#[test]
fn read_only_lists_only_bridged_tools_proven_read_only() {
    let up = moviepilot(standard_tools(), refuse_calls);
    let plugin = plugin_with(&[("MEDIA_MCP_READ_ONLY", "1")]);
    // database_operation is read-only while writes are not allowed; moviepilot_api is not
    // proven read-only without an allowlist of known reads.
    assert_eq!(listed(&plugin, &up), ["search_media", "database_operation"]);
    let allowed = plugin_with(&[
        ("MEDIA_MCP_READ_ONLY", "1"),
        (
            "MEDIA_MCP_MOVIEPILOT_API_ALLOW",
            "media.search,media.detail",
        ),
        ("MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES", "1"),
    ]);
    assert_eq!(listed(&allowed, &up), ["search_media", "moviepilot_api"]);
}

#[test]
fn read_only_refuses_bridged_writes_before_anything_is_sent() {
    let up = moviepilot(standard_tools(), refuse_calls);
    let plugin = plugin_with(&[("MEDIA_MCP_READ_ONLY", "on")]);
    for tool in ["add_subscribe", "moviepilot_api"] {
        let r = call(
            &plugin,
            &up,
            tool,
            json!({"title": "x", "operation_id": "system.restart"}),
        );
        assert_eq!(r["error"]["code"], "FORBIDDEN", "{r}");
        assert!(
            r["error"]["message"]
                .as_str()
                .unwrap()
                .contains("MEDIA_MCP_READ_ONLY")
        );
    }
    assert!(up.requests().is_empty(), "{:?}", methods(&up));
    // A read still runs.
    let up = moviepilot(standard_tools(), |req, _, _| {
        text(req, r#"{"success": true, "message": "found"}"#, false)
    });
    let r = call(&plugin, &up, "search_media", json!({"title": "x"}));
    assert_eq!(r["ok"], true, "{r}");
}

#[test]
fn hidden_bridged_tools_are_unknown_and_not_listed() {
    let up = moviepilot(standard_tools(), refuse_calls);
    let plugin = plugin_with(&[(
        "MEDIA_MCP_TOOLS_DENY",
        "moviepilot_api,database_*,*_contract",
    )]);
    assert_eq!(listed(&plugin, &up), ["search_media", "add_subscribe"]);
    let before = up.requests().len();
    let err = try_call(&plugin, &up, "moviepilot_api", "{}").unwrap_err();
    assert_eq!(err, UnknownTool("moviepilot_api".into()));
    assert_eq!(up.requests().len(), before);
}
