//! The MCP Apps views, resources and prompts over real stdio, in both eras: the view links on
//! exactly the tools with views, the shapes of every resource and prompt method (the same JSON
//! the HTTP transport sends, from `media-mcp-apps`), the unknown-resource codes of each era, and
//! the result `_meta` that tells a view whether it may request.

use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_tests::{Env, Harness, canary_key};
use serde_json::{Value, json};

fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

fn linked(list: &Value) -> Vec<(String, String)> {
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t.get("_meta").is_some())
        .map(|t| {
            let meta = &t["_meta"];
            assert_eq!(meta["ui"]["resourceUri"], meta["ui/resourceUri"], "{t}");
            (
                t["name"].as_str().unwrap().to_owned(),
                meta["ui"]["resourceUri"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn legacy_stdio_serves_the_views_and_prompts() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    let list = h.rpc("tools/list", json!({}));
    let titles = "ui://media-mcp/titles".to_owned();
    assert_eq!(
        linked(&list),
        [
            ("read_search".to_owned(), titles.clone()),
            ("read_media".to_owned(), titles.clone()),
            ("read_discover".to_owned(), titles),
            (
                "read_requests".to_owned(),
                "ui://media-mcp/requests".to_owned()
            ),
        ]
    );
    let resources = h.rpc("resources/list", json!({}));
    assert_eq!(resources["result"], media_mcp_apps::list_resources());
    let read = h.rpc("resources/read", json!({"uri": "ui://media-mcp/titles"}));
    assert_eq!(
        read["result"],
        media_mcp_apps::read_resource("ui://media-mcp/titles").unwrap()
    );
    let templates = h.rpc("resources/templates/list", json!({}));
    assert_eq!(templates["result"], json!({"resourceTemplates": []}));
    let missing = h.rpc("resources/read", json!({"uri": "ui://media-mcp/nope"}));
    assert_eq!(missing["error"]["code"], -32002, "{missing}");
    assert_eq!(missing["error"]["data"]["uri"], "ui://media-mcp/nope");
    let prompts = h.rpc("prompts/list", json!({}));
    assert_eq!(prompts["result"], media_mcp_apps::prompts::list());
    let got = h.rpc(
        "prompts/get",
        json!({"name": "request_title", "arguments": {"title": "The Matrix"}}),
    );
    assert_eq!(got["result"]["messages"][0]["role"], "user", "{got}");
    let bad = h.rpc(
        "prompts/get",
        json!({"name": "request_title", "arguments": {"bogus": "1"}}),
    );
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("bogus is not an argument")
    );
    let call = h.call_tool("read_search", json!({"query": "matrix", "media": "movie"}));
    assert_eq!(
        call["result"]["_meta"]["media-mcp/actions"]["request"]["offered"], true,
        "{call}"
    );
    assert!(h.finish().status.success());
}

#[test]
fn modern_stdio_answers_carry_cache_hints_and_unknown_uris_are_invalid_params() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::spawn(&["serve"], &Env::ombi(&fake, &key));
    for method in ["resources/list", "resources/templates/list", "prompts/list"] {
        let answer = h.rpc(method, json!({"_meta": modern_meta()}));
        let result = &answer["result"];
        assert_eq!(result["resultType"], "complete", "{method}: {answer}");
        assert_eq!(
            (result["ttlMs"].as_u64(), &result["cacheScope"]),
            (Some(300_000), &json!("public")),
            "{method}"
        );
    }
    let read = h.rpc(
        "resources/read",
        json!({"uri": "ui://media-mcp/requests", "_meta": modern_meta()}),
    );
    assert_eq!(read["result"]["cacheScope"], "public", "{read}");
    assert_eq!(
        read["result"]["contents"][0]["_meta"]["ui"]["csp"]["resourceDomains"],
        json!(media_mcp_apps::resource_domains())
    );
    let missing = h.rpc(
        "resources/read",
        json!({"uri": "ui://media-mcp/nope", "_meta": modern_meta()}),
    );
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
    let got = h.rpc(
        "prompts/get",
        json!({"name": "whats_new", "_meta": modern_meta()}),
    );
    assert_eq!(got["result"]["resultType"], "complete", "{got}");
    let discover = h.rpc("server/discover", json!({"_meta": modern_meta()}));
    assert_eq!(
        discover["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/ui"],
        json!({"mimeTypes": ["text/html;profile=mcp-app"]})
    );
    assert!(h.finish().status.success());
}

#[test]
fn in_read_only_mode_a_view_is_told_requesting_is_not_offered() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let env = Env::ombi(&fake, &key).set("MEDIA_MCP_READ_ONLY", "1");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let call = h.call_tool(
        "read_discover",
        json!({"media": "movie", "category": "popular"}),
    );
    let request = &call["result"]["_meta"]["media-mcp/actions"]["request"];
    assert_eq!(request["offered"], false, "{call}");
    assert_eq!(request["reason"], media_mcp_apps::NOT_OFFERED);
    let requests = h.call_tool("read_requests", json!({}));
    assert!(requests["result"].get("_meta").is_none(), "{requests}");
    assert!(h.finish().status.success());
}
