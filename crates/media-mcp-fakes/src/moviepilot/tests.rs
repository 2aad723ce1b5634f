//! The fake behaves like MoviePilot's endpoint (status codes and JSON-RPC errors per the source).

use super::*;
use std::io::{Read, Write};

/// A blocking one-shot HTTP/1.1 exchange; returns status, headers (lower-case) and body.
fn http(
    fake: &FakeMoviePilot,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    let mut s = std::net::TcpStream::connect(fake.addr).unwrap();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_owned())
}

fn post(fake: &FakeMoviePilot, body: &str, extra: &[(&str, &str)]) -> (u16, Value) {
    let mut h = vec![
        ("x-api-key", DEFAULT_KEY),
        ("content-type", "application/json"),
    ];
    h.extend_from_slice(extra);
    let (status, _, body) = http(fake, "POST", MCP_PATH, &h, body);
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

#[test]
fn protocol_errors_use_moviepilot_status_codes() {
    let fake = FakeMoviePilot::start();
    assert_eq!(http(&fake, "POST", MCP_PATH, &[], "{}").0, 401);
    assert_eq!(
        http(
            &fake,
            "POST",
            &format!("{MCP_PATH}?apikey={DEFAULT_KEY}"),
            &[],
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
        )
        .0,
        200
    );
    let (s, v) = post(&fake, "not json", &[]);
    assert_eq!(
        (s, v["error"]["code"].as_i64(), v["id"].clone()),
        (400, Some(-32700), Value::Null)
    );
    assert_eq!(post(&fake, "[1]", &[]).1["error"]["code"], -32600);
    assert_eq!(
        post(&fake, r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, &[]).0,
        400
    );
    assert_eq!(
        post(
            &fake,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            &[]
        )
        .0,
        204
    );
    assert_eq!(
        post(
            &fake,
            r#"{"jsonrpc":"2.0","id":2,"method":"notifications/initialized"}"#,
            &[]
        )
        .1["error"]["code"],
        -32600
    );
    let (s, v) = post(
        &fake,
        r#"{"jsonrpc":"2.0","id":3,"method":"resources/list"}"#,
        &[],
    );
    assert_eq!((s, v["error"]["code"].as_i64()), (200, Some(-32601)));
    let (s, v) = post(
        &fake,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}"#,
        &[],
    );
    assert_eq!((s, v["error"]["code"].as_i64()), (400, Some(-32602)));
    assert_eq!(
        http(&fake, "DELETE", MCP_PATH, &[("x-api-key", DEFAULT_KEY)], "").0,
        204
    );
}

#[test]
fn initialize_echoes_supported_versions_only() {
    let fake = FakeMoviePilot::start();
    for (asked, got) in [("2024-11-05", "2024-11-05"), ("1999-01-01", "2025-11-25")] {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": asked}}).to_string();
        assert_eq!(post(&fake, &body, &[]).1["result"]["protocolVersion"], got);
    }
}

#[test]
fn tools_list_pages_and_projects_large_schemas_unless_full() {
    let fake = FakeMoviePilot::start();
    let list = |cursor: Option<&str>, full: bool| {
        let params = cursor.map_or(json!({}), |c| json!({"cursor": c}));
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params})
            .to_string();
        let extra: &[(&str, &str)] = if full {
            &[("x-mcp-schema-mode", "full")]
        } else {
            &[]
        };
        post(&fake, &body, extra).1["result"].clone()
    };
    let (mut names, mut cursor, mut api_schema) = (Vec::new(), None::<String>, Value::Null);
    loop {
        let page = list(cursor.as_deref(), false);
        for t in page["tools"].as_array().unwrap() {
            names.push(t["name"].as_str().unwrap().to_owned());
            if t["name"] == "moviepilot_api" {
                api_schema = t["inputSchema"].clone();
            }
        }
        match page["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(names.len(), tools::catalogue().len());
    assert!(
        api_schema.get("x-moviepilot-schema-projection").is_some()
            && api_schema.get("oneOf").is_none()
    );
    assert!(
        api_schema["properties"]["operation_id"]["enum"]
            .as_array()
            .unwrap()
            .len()
            >= 5
    );
    let full = list(Some("page-3"), true);
    assert!(
        full["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["inputSchema"].get("oneOf").is_some())
    );
    let (s, _, body) = http(
        &fake,
        "GET",
        &format!("{MCP_PATH}/tools/moviepilot_api/schema"),
        &[("x-api-key", DEFAULT_KEY)],
        "",
    );
    let schema: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(s, 200);
    assert!(schema.to_string().len() > PROJECTION_THRESHOLD && schema.get("oneOf").is_some());
    assert_eq!(
        http(
            &fake,
            "GET",
            &format!("{MCP_PATH}/tools/nope/schema"),
            &[("x-api-key", DEFAULT_KEY)],
            ""
        )
        .0,
        404
    );
}

#[test]
fn tool_results_carry_the_business_layers() {
    let fake = FakeMoviePilot::start();
    let call = |name: &str, args: Value| {
        let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": name, "arguments": args}}).to_string();
        let r = post(&fake, &body, &[]).1["result"].clone();
        let text = r["content"][0]["text"].as_str().unwrap().to_owned();
        (
            serde_json::from_str::<Value>(&text).unwrap_or(json!({"prose": text})),
            r["isError"] == true,
        )
    };
    assert_eq!(
        call(
            "moviepilot_api",
            json!({"operation_id": "subscription.add", "body": {"name": "沙丘", "type": "电影"}})
        )
        .0["execution_outcome"],
        "pending"
    );
    assert_eq!(fake.subscriptions(), ["沙丘"]);
    assert_eq!(
        call(
            "moviepilot_api",
            json!({"operation_id": "subscription.list"})
        )
        .0["collection"]["total_count"],
        1
    );
    assert_eq!(
        call(
            "moviepilot_api",
            json!({"operation_id": "subscription.list", "query": {"count": 500}})
        )
        .0["error"],
        "invalid_input"
    );
    assert_eq!(
        call("moviepilot_api", json!({"operation_id": "history.export"})).0["tool_result_truncated"],
        true
    );
    assert_eq!(
        call("moviepilot_api", json!({"operation_id": "system.restart"})).0["execution_outcome"],
        "unknown"
    );
    assert!(call("plugin_notes", json!({})).0.get("prose").is_some());
    let (v, is_error) = call("execute_command", json!({}));
    assert!(is_error && v["prose"].as_str().unwrap().contains("未找到"));
}

#[test]
fn call_faults_spoil_only_their_tools_answer_and_are_counted() {
    let fake = FakeMoviePilot::start();
    let call = |name: &str| {
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": name, "arguments": {"title": "x"}}}).to_string()
    };
    fake.set_call_fault("search_media", CallFault::Unavailable);
    assert_eq!(post(&fake, &call("search_media"), &[]).0, 503);
    assert_eq!(post(&fake, &call("query_subscribes"), &[]).0, 200);
    fake.set_call_fault("search_media", CallFault::RpcError(-32603));
    let (status, v) = post(&fake, &call("search_media"), &[]);
    assert_eq!(
        (status, v["error"]["code"].as_i64(), v["id"].as_i64()),
        (200, Some(-32603), Some(5))
    );
    // A raw fault takes the socket over: the reset leaves no HTTP answer at all.
    fake.set_call_fault(
        "search_media",
        CallFault::Transport(crate::Fault::ResetBeforeHeaders),
    );
    let mut s = std::net::TcpStream::connect(fake.addr).unwrap();
    let body = call("search_media");
    write!(
        s,
        "POST {MCP_PATH} HTTP/1.1\r\nhost: x\r\nx-api-key: {DEFAULT_KEY}\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    assert_eq!(fake.tool_calls("search_media"), 3);
    fake.clear_call_faults();
    assert_eq!(post(&fake, &call("search_media"), &[]).0, 200);
    fake.clear_requests();
    assert_eq!(fake.tool_calls("search_media"), 0);
}

fn call_v2_9_15(fake: &FakeMoviePilot, name: &str, args: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": args}});
    let (status, v) = post(fake, &body.to_string(), &[]);
    assert_eq!(status, 200);
    v["result"].clone()
}

#[test]
fn v2_9_15_lists_its_39_recorded_tools_at_once_and_every_one_was_recorded() {
    let fake = FakeMoviePilot::builder().version(Version::V2_9_15).start();
    let (_, init) = post(
        &fake,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#,
        &[],
    );
    assert_eq!(init["result"]["serverInfo"]["version"], "v2.9.15");
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    let (_, list) = post(
        &fake,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        &[],
    );
    let tools = list["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 39);
    assert!(list["result"].get("nextCursor").is_none());
    assert!(!tools.iter().any(|t| t["name"] == "moviepilot_api"));
    for t in tools {
        let name = t["name"].as_str().unwrap();
        assert!(
            recorded::recorded_calls().any(|(_, n, _, _)| n == name),
            "{name} has a recorded call"
        );
    }
}

#[test]
fn v2_9_15_answers_calls_as_recorded_per_state() {
    let fake = FakeMoviePilot::builder().version(Version::V2_9_15).start();
    let r = call_v2_9_15(
        &fake,
        "add_subscribe",
        json!({"explanation": "e", "title": "Dune", "year": "2021", "media_type": "film"}),
    );
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("错误：无效的媒体类型 'film'")
    );
    assert!(r.get("isError").is_none());
    let r = call_v2_9_15(&fake, "nope", json!({}));
    assert_eq!(
        r["content"][0]["text"],
        r#"{"error": "工具 'nope' 未找到"}"#
    );
    assert!(r.get("isError").is_none());
    let r = call_v2_9_15(&fake, "execute_command", json!({}));
    assert_eq!(r["isError"], true);
    fake.remove_tool("query_sites");
    let r = call_v2_9_15(&fake, "query_sites", json!({}));
    assert_eq!(
        r["content"][0]["text"],
        r#"{"error": "工具 'query_sites' 未找到"}"#
    );
    let many = FakeMoviePilot::builder()
        .version(Version::V2_9_15)
        .recorded_state(recorded::MANY_SUBSCRIPTIONS)
        .start();
    let r = call_v2_9_15(&many, "query_subscribes", json!({"explanation": "e"}));
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("注意：查询结果共找到")
    );
}
