//! The MoviePilot backend end to end: the release harness runs the real component with
//! `MOVIEPILOT_URL` pointing at [`FakeMoviePilot`] on loopback, over real stdio pipes.

use media_mcp_fakes::moviepilot::FakeMoviePilot;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_tests::{Env, Harness, assert_no_secret, structured};
use serde_json::{Value, json};

fn env(fake: &FakeMoviePilot) -> Env {
    Env::new()
        .set("MOVIEPILOT_URL", &fake.mcp_url())
        .set("MOVIEPILOT_API_KEY", fake.key())
}

fn tools(h: &mut Harness) -> Vec<Value> {
    let r = h.rpc("tools/list", json!({}));
    r["result"]["tools"].as_array().expect("tools").clone()
}

fn names(tools: &[Value]) -> Vec<String> {
    tools
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_harness_lists_moviepilot_tools_with_full_schemas_and_our_output_contract() {
    // A MoviePilot that projects large schemas whatever the client asks for, and a plugin
    // asking for full schemas.
    let fake = FakeMoviePilot::builder().ignore_full_mode(true).start();
    let env = env(&fake).set("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE", "full");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let listed = tools(&mut h);
    let got = names(&listed);
    for want in [
        "search_media",
        "query_subscribes",
        "add_subscribe",
        "database_operation",
        "moviepilot_api",
        "plugin_notes",
    ] {
        assert!(
            got.contains(&want.to_owned()),
            "{want} missing from {got:?}"
        );
    }
    let api = listed
        .iter()
        .find(|t| t["name"] == "moviepilot_api")
        .unwrap();
    assert!(
        api["inputSchema"].get("oneOf").is_some(),
        "the projected schema was completed"
    );
    assert!(
        api["inputSchema"]
            .get("x-moviepilot-schema-projection")
            .is_none()
    );
    assert_eq!(
        api["outputSchema"]["properties"]["data"]["oneOf"][0]["$ref"],
        "#/$defs/moviepilot_result"
    );
    assert_eq!(api["annotations"]["destructiveHint"], true);
    let db = listed
        .iter()
        .find(|t| t["name"] == "database_operation")
        .unwrap();
    assert_eq!(
        db["annotations"]["readOnlyHint"], true,
        "read-only by policy by default"
    );
    let add = listed
        .iter()
        .find(|t| t["name"] == "add_subscribe")
        .unwrap();
    assert!(
        !add["description"]
            .as_str()
            .unwrap()
            .chars()
            .any(char::is_control)
    );
    // The key reached MoviePilot as X-API-KEY and never in a URL.
    let reqs = fake.requests();
    assert!(
        reqs.iter()
            .all(|r| r.header("x-api-key") == Some(fake.key()) && !r.query.contains(fake.key()))
    );
    assert!(
        reqs.iter()
            .any(|r| r.path.ends_with("/tools/moviepilot_api/schema"))
    );
    assert_no_secret(&h.stdout(), fake.key(), "stdout");
}

#[test]
fn calls_go_through_with_honest_results() {
    let fake = FakeMoviePilot::start();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let _ = tools(&mut h);

    // The compact listing never needs the helper endpoint.
    assert!(fake.requests().iter().all(|r| !r.path.ends_with("/schema")));
    let r = h.call_tool("search_media", json!({"title": "盗梦空间"}));
    let s = structured(&r);
    assert_eq!(s["ok"], true, "{s}");
    assert_eq!(s["data"]["data"][0]["tmdb_id"], 27205);

    let r = h.call_tool(
        "moviepilot_api",
        json!({"operation_id": "subscription.add", "body": {"name": "沙丘", "type": "电影"}}),
    );
    let s = structured(&r);
    assert_eq!(s["ok"], true, "{s}");
    assert!(s["warnings"].to_string().contains("pending"));
    assert_eq!(fake.subscriptions(), ["沙丘"]);

    let s = structured(&h.call_tool(
        "moviepilot_api",
        json!({"operation_id": "subscription.list", "query": {"count": 500}}),
    ))
    .clone();
    assert_eq!(s["error"]["code"], "INVALID_ARGUMENT", "{s}");
    assert!(s["data"]["input_contract"].is_object());

    let s = structured(&h.call_tool("moviepilot_api", json!({"operation_id": "history.export"})))
        .clone();
    assert_eq!(
        (s["ok"].clone(), s["truncated"].clone()),
        (json!(true), json!(true)),
        "{s}"
    );

    let s = structured(&h.call_tool("moviepilot_api", json!({"operation_id": "system.restart"})))
        .clone();
    assert_eq!(
        (s["error"]["code"].clone(), s["error"]["retryable"].clone()),
        (json!("UNKNOWN_OUTCOME"), json!(false))
    );

    let s = structured(&h.call_tool("plugin_notes", json!({}))).clone();
    // A tool not known to be a read: its prose is passed back, never marked a success.
    assert_eq!(s["ok"], true, "{s}");
    assert!(s["data"].get("success").is_none(), "{s}");
    assert!(s["warnings"].to_string().contains("not confirmed"), "{s}");
    assert!(s["data"]["text"].as_str().unwrap().contains("备忘录"));

    let r = h.call_tool(
        "moviepilot_api",
        json!({"operation_id": "media.search", "query": {}}),
    );
    assert_eq!(
        structured(&r)["error"]["code"],
        "INVALID_ARGUMENT",
        "checked against the full schema locally"
    );
}

#[test]
fn the_safety_policy_refuses_before_moviepilot_sees_anything() {
    let fake = FakeMoviePilot::start();
    let env = env(&fake).set("MEDIA_MCP_MOVIEPILOT_API_DENY", "system.restart");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let _ = tools(&mut h);
    let cases = [
        (
            "database_operation",
            json!({"action": "write", "arguments": {"sql": "delete from subscribe"}}),
            "MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES",
        ),
        (
            "database_operation",
            json!({"action": "query", "arguments": {"sql": "select * from systemconfig", "show_secrets": true}}),
            "MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS",
        ),
        (
            "moviepilot_api",
            json!({"operation_id": "system.restart"}),
            "MEDIA_MCP_MOVIEPILOT_API_DENY",
        ),
    ];
    for (tool, args, setting) in cases {
        let s = structured(&h.call_tool(tool, args)).clone();
        assert_eq!(s["error"]["code"], "FORBIDDEN", "{s}");
        assert!(
            s["error"]["message"].as_str().unwrap().contains(setting),
            "{s}"
        );
    }
    assert!(
        fake.requests()
            .iter()
            .all(|r| r.rpc_method().as_deref() != Some("tools/call"))
    );
    let s = structured(&h.call_tool(
        "database_operation",
        json!({"action": "tables", "arguments": {}}),
    ))
    .clone();
    assert_eq!(s["ok"], true, "{s}");
}

#[test]
fn a_wrong_key_is_reported_as_authentication_failed() {
    let fake = FakeMoviePilot::start();
    let env = env(&fake).set("MOVIEPILOT_API_KEY", "wrong-key");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let listed = tools(&mut h);
    assert_eq!(names(&listed), ["moviepilot_status"]);
    let s = structured(&h.call_tool("moviepilot_status", json!({}))).clone();
    assert_eq!(s["error"]["code"], "AUTHENTICATION_FAILED", "{s}");
}

#[test]
fn both_backends_serve_from_one_component() {
    let mp = FakeMoviePilot::start();
    let ombi = FakeOmbi::start("ombi-key").expect("fake ombi");
    let env = env(&mp)
        .set("OMBI_URL", &ombi.url())
        .set("OMBI_API_KEY", "ombi-key");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let got = names(&tools(&mut h));
    assert!(
        got.contains(&"read_search".to_owned()) && got.contains(&"search_media".to_owned()),
        "{got:?}"
    );
    assert_eq!(
        structured(&h.call_tool("search_media", json!({"title": "x"})))["ok"],
        true
    );
    assert!(ombi.requests().iter().all(|r| !r.path.contains("/mcp")));
}

#[test]
fn request_bodies_carry_content_length_not_chunked_encoding() {
    // Some servers and proxies refuse chunked request bodies; the plugin holds every body in
    // full, so it declares its length.
    let fake = FakeMoviePilot::start();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let _ = tools(&mut h);
    let r = h.call_tool("search_media", json!({"title": "盗梦空间"}));
    assert_eq!(structured(&r)["ok"], true, "{r}");
    let posts: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST")
        .collect();
    assert!(!posts.is_empty());
    for r in posts {
        assert_eq!(
            (
                r.header("content-length").map(str::to_owned),
                r.header("transfer-encoding")
            ),
            (Some(r.body.len().to_string()), None),
            "{:?}",
            r.rpc_method()
        );
    }
}

#[test]
fn compact_mode_lists_abridged_schemas_and_serves_one_operations_contract() {
    let fake = FakeMoviePilot::start();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let listed = tools(&mut h);
    let api = listed
        .iter()
        .find(|t| t["name"] == "moviepilot_api")
        .unwrap();
    let ops = api["inputSchema"]["properties"]["operation_id"]["enum"]
        .as_array()
        .expect("the operation list is kept");
    assert!(ops.contains(&json!("media.search")), "{ops:?}");
    assert!(api["inputSchema"].get("oneOf").is_none(), "abridged");
    assert!(names(&listed).contains(&"moviepilot_input_contract".to_owned()));
    assert!(fake.requests().iter().all(|r| !r.path.ends_with("/schema")));

    let r = h.call_tool(
        "moviepilot_input_contract",
        json!({"tool": "moviepilot_api", "operation": "media.search"}),
    );
    let s = structured(&r);
    assert_eq!(s["ok"], true, "{s}");
    let schema = &s["data"]["input_contract"]["input_schema"];
    assert_eq!(
        schema["properties"]["operation_id"]["const"],
        "media.search"
    );
    assert!(
        schema["$defs"].get("MediaSearchQuery").is_some(),
        "{schema}"
    );
    assert!(schema["$defs"].get("SubscribeBody").is_none(), "{schema}");

    // Arguments are still checked against the full contract: a field only it knows passes,
    // a missing required one is refused before MoviePilot sees the call.
    fake.clear_requests();
    let r = h.call_tool(
        "moviepilot_api",
        json!({"operation_id": "media.search", "query": {"title": "盗梦空间", "count": 5}}),
    );
    assert_eq!(structured(&r)["ok"], true, "{r}");
    let r = h.call_tool(
        "moviepilot_api",
        json!({"operation_id": "media.search", "query": {"count": 5}}),
    );
    assert_eq!(structured(&r)["error"]["code"], "INVALID_ARGUMENT", "{r}");
    assert_eq!(fake.tool_calls("moviepilot_api"), 1);
    h.finish();
}

#[test]
fn the_compact_listing_is_smaller_than_the_full_one() {
    let fake = FakeMoviePilot::start();
    let size = |mode: &str| {
        let env = env(&fake).set("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE", mode);
        let mut h = Harness::serve_initialized(&env, "2025-11-25");
        let listed = h.rpc("tools/list", json!({}));
        h.finish();
        let api = listed["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "moviepilot_api")
            .unwrap()["inputSchema"]
            .to_string()
            .len();
        (listed["result"].to_string().len(), api)
    };
    let (compact, compact_api) = size("compact");
    let (full, full_api) = size("full");
    eprintln!(
        "tools/list result: compact {compact} bytes (moviepilot_api inputSchema {compact_api}), full {full} bytes (inputSchema {full_api})"
    );
    assert!(compact_api < full_api, "{compact_api} >= {full_api}");
    assert!(compact < full, "{compact} >= {full}");
}

/// The requests the fake counted, as `(method, count)` pairs, sorted by method.
fn counts(fake: &FakeMoviePilot) -> Vec<(String, usize)> {
    fake.request_counts().into_iter().collect()
}

fn only_calls(n: usize) -> Vec<(String, usize)> {
    vec![("tools/call".to_owned(), n)]
}

#[test]
fn in_steady_state_each_bridged_call_is_one_tools_call_post() {
    for mode in ["compact", "full"] {
        let fake = FakeMoviePilot::start();
        let env = env(&fake).set("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE", mode);
        let mut h = Harness::serve_initialized(&env, "2025-11-25");
        let _ = tools(&mut h);
        let search = json!({"operation_id": "media.search", "query": {"title": "沙丘"}});
        // Warm-up: compact mode reads moviepilot_api's full schema once, at its first call.
        structured(&h.call_tool("moviepilot_api", search.clone()));
        fake.clear_requests();
        for _ in 0..5 {
            let s = structured(&h.call_tool("search_media", json!({"title": "沙丘"}))).clone();
            assert_eq!(s["ok"], true, "{s}");
            let s = structured(&h.call_tool("moviepilot_api", search.clone())).clone();
            assert_eq!(s["ok"], true, "{s}");
        }
        assert_eq!(counts(&fake), only_calls(10), "{mode}");
        // The local check still runs against the full schema, and its refusal costs no
        // upstream request.
        fake.clear_requests();
        let s = structured(&h.call_tool(
            "moviepilot_api",
            json!({"operation_id": "media.search", "query": {}}),
        ))
        .clone();
        assert_eq!(s["error"]["code"], "INVALID_ARGUMENT", "{s}");
        assert_eq!(fake.tool_calls("moviepilot_api"), 0);
        assert!(fake.request_counts().is_empty(), "{:?}", counts(&fake));
    }
}

#[test]
fn a_tool_moviepilot_removed_is_refreshed_once_and_unknown() {
    let fake = FakeMoviePilot::start();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let _ = tools(&mut h);
    structured(&h.call_tool("query_subscribes", json!({})));
    fake.remove_tool("query_subscribes");
    fake.clear_requests();
    let r = h.call_tool("query_subscribes", json!({}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let got = fake.request_counts();
    // The component refreshes its catalogue once; the harness then lists the tools again (a
    // listing always asks MoviePilot), so the client's next tools/list no longer has the tool.
    assert_eq!(
        (got["tools/call"], got["initialize"]),
        (1, 2),
        "one call, one refresh, one listing: {got:?}"
    );
    let listed: Vec<String> = tools(&mut h)
        .iter()
        .map(|t| t["name"].as_str().expect("name").to_owned())
        .collect();
    assert!(
        !listed.contains(&"query_subscribes".to_owned()),
        "{listed:?}"
    );
    // The refreshed catalogue is kept: other tools are one POST again.
    fake.clear_requests();
    structured(&h.call_tool("search_media", json!({"title": "沙丘"})));
    assert_eq!(counts(&fake), only_calls(1));
}

#[test]
fn a_changed_schema_is_refreshed_once_and_a_write_is_never_sent_twice() {
    let fake = FakeMoviePilot::start();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let _ = tools(&mut h);
    fake.set_schema(
        "add_subscribe",
        json!({"type": "object", "properties": {"title": {"type": "string"}, "year": {"type": "string"}}, "required": ["title", "year"]}),
    );
    fake.clear_requests();
    let s = structured(&h.call_tool("add_subscribe", json!({"title": "沙丘"}))).clone();
    assert_eq!(s["error"]["code"], "INVALID_ARGUMENT", "{s}");
    assert_eq!(
        s["error"]["field"], "year",
        "checked against the new schema: {s}"
    );
    let got = fake.request_counts();
    assert_eq!((got["tools/call"], got["initialize"]), (1, 1), "{got:?}");
    assert!(fake.subscriptions().is_empty());
    fake.clear_requests();
    let s =
        structured(&h.call_tool("add_subscribe", json!({"title": "沙丘", "year": "2021"}))).clone();
    assert_eq!(s["ok"], true, "{s}");
    assert_eq!(counts(&fake), only_calls(1));
    assert_eq!(fake.subscriptions(), ["沙丘"]);
}
