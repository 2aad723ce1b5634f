//! Resources, prompts and view links over HTTP, in both eras.

use super::*;

const VIEWED: &[&str] = &["read_search", "read_requests", "write_request_create"];

fn tools(more: &[&'static str]) -> FakeTools {
    FakeTools {
        more: more.to_vec(),
        ..FakeTools::default()
    }
}

fn legacy(t: &FakeTools, method: &str, params: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    post(t, &body.to_string()).1
}

#[test]
fn initialize_and_discover_declare_resources_prompts_and_the_ui_extension() {
    let caps = media_mcp_apps::server_capabilities();
    assert_eq!(
        caps["extensions"]["io.modelcontextprotocol/ui"]["mimeTypes"][0],
        "text/html;profile=mcp-app"
    );
    assert!(caps["resources"].is_object() && caps["prompts"].is_object());
}

#[test]
fn exactly_the_tools_with_views_carry_the_ui_link() {
    let t = tools(VIEWED);
    let listed = legacy(&t, "tools/list", json!({}));
    let metas: Vec<(&str, &Value)> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| (tool["name"].as_str().unwrap(), &tool["_meta"]))
        .collect();
    assert_eq!(metas[0], ("echo", &Value::Null));
    assert_eq!(metas[1].1["ui"]["resourceUri"], "ui://media-mcp/titles");
    assert_eq!(metas[1].1["ui/resourceUri"], "ui://media-mcp/titles");
    assert_eq!(metas[2].1["ui"]["resourceUri"], "ui://media-mcp/requests");
    assert_eq!(metas[3], ("write_request_create", &Value::Null));
}

#[test]
fn a_result_of_a_view_with_request_buttons_says_whether_requesting_is_offered() {
    let offered = legacy(&tools(VIEWED), "tools/call", json!({"name": "read_search"}));
    let result = &offered["result"];
    assert_eq!(
        result["_meta"]["media-mcp/actions"]["request"]["offered"],
        true
    );
    assert_eq!(result["structuredContent"], json!({"ok": true, "args": {}}));
    let refused = legacy(
        &tools(&["read_search"]),
        "tools/call",
        json!({"name": "read_search"}),
    );
    let request = &refused["result"]["_meta"]["media-mcp/actions"]["request"];
    assert_eq!(request["offered"], false);
    assert_eq!(request["reason"], media_mcp_apps::NOT_OFFERED);
    let plain = legacy(
        &tools(VIEWED),
        "tools/call",
        json!({"name": "read_requests"}),
    );
    assert!(plain["result"].get("_meta").is_none());
}

#[test]
fn legacy_resources_and_prompts_have_no_cache_hints_and_unknown_uris_are_32002() {
    let t = tools(&[]);
    let listed = legacy(&t, "resources/list", json!({}));
    assert_eq!(listed["result"], media_mcp_apps::list_resources());
    let read = legacy(
        &t,
        "resources/read",
        json!({"uri": "ui://media-mcp/titles"}),
    );
    assert_eq!(
        read["result"],
        media_mcp_apps::read_resource("ui://media-mcp/titles").unwrap()
    );
    let templates = legacy(&t, "resources/templates/list", json!({}));
    assert_eq!(templates["result"], json!({"resourceTemplates": []}));
    let prompts = legacy(&t, "prompts/list", json!({}));
    assert_eq!(prompts["result"], media_mcp_apps::prompts::list());
    let missing = legacy(&t, "resources/read", json!({"uri": "ui://media-mcp/nope"}));
    assert_eq!(missing["error"]["code"], -32002);
    assert_eq!(missing["error"]["data"]["uri"], "ui://media-mcp/nope");
    let long = "ui://".to_owned() + &"x".repeat(2000);
    let unechoed = legacy(&t, "resources/read", json!({"uri": long}));
    assert!(unechoed["error"].get("data").is_none(), "{unechoed}");
    assert!(unechoed["error"]["message"].as_str().unwrap().len() < 200);
    let bad = legacy(&t, "resources/read", json!({}));
    assert_eq!(bad["error"]["code"], -32602);
    let got = legacy(
        &t,
        "prompts/get",
        json!({"name": "why_not_available", "arguments": {"title": "Dune"}}),
    );
    assert!(
        got["result"]["messages"][0]["content"]["text"]
            .as_str()
            .unwrap()
            .contains("\"Dune\"")
    );
    let refused = legacy(&t, "prompts/get", json!({"name": "why_not_available"}));
    assert_eq!(refused["error"]["code"], -32602);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("title is required")
    );
}

#[test]
fn modern_resources_and_prompts_are_complete_with_cache_hints_and_unknown_uris_are_32602() {
    let t = tools(&[]);
    for method in ["resources/list", "resources/templates/list", "prompts/list"] {
        let v = body(&modern_post(&t, json!(1), method, json!({}), AS_SENT));
        assert_eq!(v["result"]["ttlMs"], cache::TTL_MS, "{method}");
        assert_eq!(v["result"]["cacheScope"], "public", "{method}");
        assert_eq!(v["result"]["resultType"], "complete", "{method}");
        assert_eq!(v["result"]["_meta"][meta::SERVER_INFO]["name"], SERVER_NAME);
    }
    let uri = "ui://media-mcp/requests";
    let read = modern_post(
        &t,
        json!(2),
        "resources/read",
        json!({"uri": uri}),
        [(2, Some(uri))],
    );
    let v = body(&read);
    assert_eq!(
        v["result"]["contents"][0]["mimeType"],
        "text/html;profile=mcp-app"
    );
    assert_eq!(v["result"]["ttlMs"], cache::TTL_MS);
    let nope = "ui://media-mcp/nope";
    let missing = body(&modern_post(
        &t,
        json!(3),
        "resources/read",
        json!({"uri": nope}),
        [(2, Some(nope))],
    ));
    assert_eq!(missing["error"]["code"], -32602);
    let got = body(&modern_post(
        &t,
        json!(4),
        "prompts/get",
        json!({"name": "whats_new"}),
        AS_SENT,
    ));
    assert_eq!(got["result"]["resultType"], "complete");
    assert_eq!(got["result"]["messages"][0]["role"], "user");
}
