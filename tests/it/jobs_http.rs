//! Job handles and tasks over `serve --http` (the HTTP component under the harness) against a
//! fake MoviePilot whose torrent search outlasts the job threshold: the job tools appended to
//! the component's listing, a handle whose connection is gone while the search goes on,
//! `job_status` with the tool's own result, one upstream call for identical calls, another
//! user's id not found, and tasks with the extension in `server/discover`.

use std::time::Duration;

use media_mcp_fakes::moviepilot::{FakeMoviePilot, Version};
use media_mcp_tests::{HttpServer, post, torrent_search};
use serde_json::{Value, json};

const ALICE: &str = "alice-token-0123456789abcdef";
const BOB: &str = "bob-token-0123456789abcdef01";
const MODERN: &str = "2026-07-28";

fn started(version: Version) -> (FakeMoviePilot, HttpServer) {
    let fake = FakeMoviePilot::builder()
        .version(version)
        .torrent_search_delay(Duration::from_secs(3))
        .start();
    let tokens = format!("alice={ALICE},bob={BOB}");
    let server = HttpServer::start(&[
        ("MOVIEPILOT_URL", &fake.mcp_url()),
        ("MOVIEPILOT_API_KEY", fake.key()),
        ("MEDIA_MCP_HTTP_TOKENS", &tokens),
        ("MEDIA_MCP_JOB_AFTER_MS", "1000"),
    ]);
    (fake, server)
}

/// The JSON-RPC answer to `method` with `params` as `token`'s user; `modern` adds the
/// 2026-07-28 headers and `_meta` (declaring the Tasks extension when `tasks`).
fn rpc(server: &HttpServer, token: &str, method: &str, params: Value, era: Era) -> Value {
    let mut params = params;
    let mut headers = vec![format!("Authorization: Bearer {token}")];
    if let Era::Modern { tasks } = era {
        let extensions = if tasks {
            json!({"io.modelcontextprotocol/tasks": {}})
        } else {
            json!({})
        };
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {"extensions": extensions},
            "io.modelcontextprotocol/clientInfo": {"name": "it", "version": "0"},
        });
        headers.push(format!("MCP-Protocol-Version: {MODERN}"));
        headers.push(format!("Mcp-Method: {method}"));
        if let Some(name) = params.get("name").and_then(Value::as_str) {
            headers.push(format!("Mcp-Name: {name}"));
        }
    }
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let message = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    let (status, _, body) = post(server.addr, &headers, &message);
    assert_eq!(status, 200, "{method}: {body}");
    let json = body
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap_or(&body);
    serde_json::from_str(json).unwrap_or_else(|_| panic!("{method}: not JSON: {body}"))
}

#[derive(Clone, Copy)]
enum Era {
    Legacy,
    Modern { tasks: bool },
}

fn call(server: &HttpServer, token: &str, tool: &str, args: &Value) -> Value {
    let answer = rpc(
        server,
        token,
        "tools/call",
        json!({"name": tool, "arguments": args}),
        Era::Legacy,
    );
    answer["result"]["structuredContent"].clone()
}

#[test]
fn over_http_a_long_search_becomes_a_job_read_back_with_job_status() {
    for version in [Version::Documented, Version::V2_9_15] {
        let (fake, server) = started(version);
        let listed = rpc(&server, ALICE, "tools/list", json!({}), Era::Legacy);
        let names = listed["result"]["tools"].to_string();
        assert!(names.contains("\"job_status\"") && names.contains("\"job_cancel\""));
        let (tool, args) = torrent_search(version);
        // The connection closes with the handle: the search goes on without it.
        let handle = call(&server, ALICE, tool, &args);
        assert_eq!(handle["data"]["kind"], "job", "{handle}");
        assert_eq!(handle["operation"], tool);
        let id = handle["data"]["job_id"].as_str().unwrap().to_owned();
        let mut done = Value::Null;
        for _ in 0..10 {
            done = call(&server, ALICE, "job_status", &json!({"job_id": id}));
            if done["data"]["kind"] != "job" {
                break;
            }
        }
        assert_eq!(done["operation"], tool, "{done}");
        assert_eq!(done["ok"], true, "{done}");
        assert_eq!(done["data"]["kind"], "moviepilot_result", "{done}");
        assert_eq!(fake.tool_calls(tool), 1, "{version:?}");

        let theirs = call(&server, BOB, "job_status", &json!({"job_id": id}));
        assert_eq!(theirs["error"]["code"], "NOT_FOUND", "{theirs}");
        assert!(
            theirs["error"]["message"]
                .as_str()
                .unwrap()
                .contains("another replica")
        );
    }
}

#[test]
fn over_http_identical_calls_share_one_job() {
    let (fake, server) = started(Version::Documented);
    let _ = rpc(&server, ALICE, "tools/list", json!({}), Era::Legacy);
    let (tool, args) = torrent_search(Version::Documented);
    let ids: Vec<Value> = std::thread::scope(|scope| {
        let calls: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| call(&server, ALICE, tool, &args)["data"]["job_id"].clone()))
            .collect();
        calls.into_iter().map(|c| c.join().unwrap()).collect()
    });
    assert!(ids[0].is_string(), "{ids:?}");
    assert_eq!(ids[0], ids[1]);
    let done = call(
        &server,
        ALICE,
        "job_status",
        &json!({"job_id": ids[0], "wait_ms": 1000}),
    );
    let _ = done;
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(fake.tool_calls(tool), 1);
}

#[test]
fn over_http_a_client_that_declares_tasks_polls_a_task() {
    let (_fake, server) = started(Version::Documented);
    let modern = Era::Modern { tasks: true };
    let discover = rpc(&server, ALICE, "server/discover", json!({}), modern);
    assert_eq!(
        discover["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({}),
        "{discover}"
    );
    let _ = rpc(&server, ALICE, "tools/list", json!({}), modern);
    let (tool, args) = torrent_search(Version::Documented);
    let created = rpc(
        &server,
        ALICE,
        "tools/call",
        json!({"name": tool, "arguments": args}),
        modern,
    );
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    assert!(created["result"]["ttlMs"].as_u64().unwrap() >= 900_000);
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let mut state = Value::Null;
    for _ in 0..40 {
        state = rpc(&server, ALICE, "tasks/get", json!({"taskId": id}), modern);
        if state["result"]["status"] != "working" {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(state["result"]["status"], "completed", "{state}");
    assert_eq!(state["result"]["resultType"], "complete");
    assert_eq!(state["result"]["result"]["structuredContent"]["ok"], true);
    let theirs = rpc(&server, BOB, "tasks/get", json!({"taskId": id}), modern);
    assert_eq!(theirs["error"]["code"], -32602, "{theirs}");
    let undeclared = rpc(
        &server,
        ALICE,
        "tasks/get",
        json!({"taskId": id}),
        Era::Modern { tasks: false },
    );
    assert_eq!(undeclared["error"]["code"], -32021, "{undeclared}");
}
