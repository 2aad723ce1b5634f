//! MCP 2026-07-28 over real stdio pipes, beside the legacy handshake: `server/discover`,
//! per-request `_meta` (validated by rmcp), `resultType` and caching hints for modern peers
//! only, removed methods, `subscriptions/listen`, the principal per request; and rmcp's own
//! client preferring only 2026-07-28.

use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_tests::{Env, Harness, assert_no_secret, canary_key, harness_binary};
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _};
use serde_json::{Value, json};

const MODERN: &str = "2026-07-28";

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "it", "version": "0"},
    })
}

fn started() -> (FakeOmbi, String, Harness) {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let harness = Harness::spawn(&["serve"], &Env::ombi(&fake, &key));
    (fake, key, harness)
}

#[test]
fn discover_then_stateless_requests_are_served_in_the_modern_era() {
    let (fake, key, mut h) = started();
    let discover = h.rpc("server/discover", json!({"_meta": meta()}));
    let result = &discover["result"];
    assert_eq!(result["resultType"], "complete", "{discover}");
    assert_eq!(
        result["supportedVersions"],
        json!([
            "2026-07-28",
            "2025-11-25",
            "2025-06-18",
            "2025-03-26",
            "2024-11-05"
        ])
    );
    // Job mode is on by default: the Tasks extension is served beside the MCP Apps one.
    let mut capabilities = media_mcp_apps::server_capabilities();
    capabilities["extensions"]["io.modelcontextprotocol/tasks"] = json!({});
    assert_eq!(result["capabilities"], capabilities);
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "media-mcp"
    );
    assert_eq!(
        (result["ttlMs"].as_u64(), &result["cacheScope"]),
        (Some(300_000), &json!("public"))
    );

    let list = h.rpc("tools/list", json!({"_meta": meta()}));
    assert_eq!(list["result"]["resultType"], "complete");
    assert_eq!(list["result"]["ttlMs"], 300_000);
    assert_eq!(list["result"]["cacheScope"], "private");
    assert!(list["result"]["tools"].as_array().unwrap().len() > 30);

    let mut call_meta = meta();
    call_meta["media-mcp/principal"] = json!("alice");
    let call = h.rpc(
        "tools/call",
        json!({"name": "read_search", "arguments": {"query": "matrix", "media": "movie"}, "_meta": call_meta}),
    );
    assert_eq!(call["result"]["resultType"], "complete", "{call}");
    assert_eq!(call["result"]["isError"], false);
    assert_eq!(call["result"]["structuredContent"]["ok"], true);
    assert_eq!(
        fake.requests().last().unwrap().user_name.as_deref(),
        Some("alice")
    );

    // Removed in 2026-07-28.
    let ping = h.rpc("ping", json!({"_meta": meta()}));
    assert_eq!(ping["error"]["code"], -32601, "{ping}");
    let done = h.finish();
    assert!(done.status.success(), "{}", done.stderr);
    assert_no_secret(&done.stderr, &key, "stderr");
}

#[test]
fn modern_errors_carry_the_id_and_the_modern_codes() {
    let (_fake, _key, mut h) = started();
    let missing = h.rpc(
        "tools/list",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}),
    );
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
    assert!(missing["id"].is_number());
    let mut old = meta();
    old["io.modelcontextprotocol/protocolVersion"] = json!("1900-01-01");
    let unsupported = h.rpc("server/discover", json!({"_meta": old}));
    assert_eq!(unsupported["error"]["code"], -32022, "{unsupported}");
    assert_eq!(unsupported["error"]["data"]["requested"], "1900-01-01");
    assert!(
        unsupported["error"]["data"]["supported"]
            .as_array()
            .unwrap()
            .contains(&json!(MODERN))
    );
    // The harness's own line filter answers modern requests as it answers legacy ones.
    let typed = h.rpc("tools/call", json!({"name": 5, "_meta": meta()}));
    assert_eq!(typed["error"]["code"], -32602, "{typed}");
    assert!(typed["id"].is_number(), "{typed}");
    h.send_line(&format!(
        r#"{{"jsonrpc":"2.0","id":99,"method":"tools/list","params":{{"_meta":{},"x":1,"x":2}}}}"#,
        meta()
    ));
    let duplicate = h.response(99);
    assert_eq!(duplicate["error"]["code"], -32602, "{duplicate}");
    // Still serving.
    let list = h.rpc("tools/list", json!({"_meta": meta()}));
    assert_eq!(list["result"]["resultType"], "complete", "{list}");
    assert!(h.finish().status.success());
}

#[test]
fn listen_acknowledges_an_empty_filter_and_ends() {
    let (_fake, _key, mut h) = started();
    let id = h.request(
        "subscriptions/listen",
        json!({"_meta": meta(), "notifications": {"toolsListChanged": true}}),
    );
    let ack = h
        .next_message(std::time::Duration::from_secs(30))
        .expect("an acknowledgment");
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        id
    );
    assert_eq!(ack["params"]["notifications"], json!({}));
    let end = h.response(id);
    assert_eq!(end["result"]["resultType"], "complete", "{end}");
    assert!(h.finish().status.success());
}

#[test]
fn legacy_results_carry_no_modern_fields() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    let list = h.rpc("tools/list", json!({}));
    for field in ["resultType", "ttlMs", "cacheScope", "_meta"] {
        assert!(list["result"].get(field).is_none(), "{field}");
    }
    let call = h.call_tool("read_search", json!({"query": "matrix", "media": "movie"}));
    assert!(call["result"].get("resultType").is_none(), "{call}");
    assert!(h.finish().status.success());
}

#[test]
fn rmcp_client_preferring_only_2026_07_28_lists_and_calls() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut command = tokio::process::Command::new(harness_binary());
        command
            .arg("serve")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true);
        Env::ombi(&fake, &key).apply(command.as_std_mut());
        let mut child = command.spawn().unwrap();
        let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
        let client = ()
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("a modern session");
        let info = client.peer_info().expect("server info");
        assert_eq!(info.protocol_version, ProtocolVersion::V_2026_07_28);
        assert_eq!(info.server_info.as_ref().unwrap().name, "media-mcp");
        let tools = client.list_all_tools().await.unwrap();
        assert!(tools.iter().any(|t| t.name == "read_search"));
        let mut call = CallToolRequestParams::new("read_search");
        call.arguments = json!({"query": "matrix", "media": "movie"})
            .as_object()
            .cloned();
        let result = client.call_tool(call).await.unwrap();
        assert_eq!(result.is_error, Some(false));
        assert_eq!(result.structured_content.unwrap()["ok"], true);
        let _ = client.cancel().await;
    });
}
