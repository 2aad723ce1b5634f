use super::*;
use crate::era::McpHeaders;
use core::cell::RefCell;

/// A plugin with one tool, `echo`, recording who each call acted as.
#[derive(Default)]
struct FakeTools {
    calls: RefCell<Vec<(String, String, Option<String>)>>,
    structured: Option<String>,
    /// More tools listed after `echo` (read-only when named `read_*`), answered like it.
    more: Vec<&'static str>,
}

impl Tools for FakeTools {
    fn list(&self) -> Vec<ToolRecord> {
        let mut listed = vec![ToolRecord {
            name: "echo".into(),
            title: "Echo".into(),
            description: "Echoes".into(),
            input_schema: r#"{"type":"object"}"#.into(),
            output_schema: r#"{"type":"object"}"#.into(),
            annotations: r#"{"readOnlyHint":true}"#.into(),
        }];
        for name in &self.more {
            let read = name.starts_with("read_");
            listed.push(ToolRecord {
                name: (*name).into(),
                annotations: format!(r#"{{"readOnlyHint":{read}}}"#),
                ..listed[0].clone()
            });
        }
        listed
    }

    fn correlation_id(&self) -> String {
        format!("c-{}", self.calls.borrow().len())
    }

    fn call(
        &self,
        name: &str,
        arguments: &str,
        _correlation_id: &str,
        principal: Option<String>,
    ) -> Result<ToolOutcome, String> {
        if name != "echo" && !self.more.contains(&name) {
            return Err(name.to_owned());
        }
        self.calls
            .borrow_mut()
            .push((name.into(), arguments.into(), principal));
        let structured = self
            .structured
            .clone()
            .unwrap_or_else(|| format!(r#"{{"ok":true,"args":{arguments}}}"#));
        Ok(ToolOutcome {
            text: structured.clone(),
            is_error: structured.contains(r#""ok":false"#),
            structured,
        })
    }
}

fn admitted(identity: Identity) -> Admitted {
    Admitted {
        identity,
        format: ReplyFormat::Json,
        body_cap: 1 << 20,
        event_stream: true,
        mcp: McpHeaders::default(),
    }
}

/// A modern POST of `method` with `params` (the `_meta` added) and the headers a modern
/// client sends; `headers` replaces any of them (`None`: left out).
fn modern_post(
    tools: &FakeTools,
    id: Value,
    method: &str,
    mut params: Value,
    headers: Replace,
) -> Response {
    params["_meta"][meta::PROTOCOL_VERSION] = json!("2026-07-28");
    params["_meta"][meta::CLIENT_CAPABILITIES] = json!({});
    let name = params["name"].as_str().map(str::to_owned);
    let mut sent = [Some("2026-07-28".to_owned()), Some(method.to_owned()), name];
    for (i, v) in headers {
        if i < 3 {
            sent[i] = v.map(str::to_owned);
        }
    }
    let mut a = admitted(Identity::User("alice".into()));
    let [v, m, n] = sent;
    a.mcp = McpHeaders {
        protocol_version: v.map(String::into_bytes),
        method: m.map(String::into_bytes),
        name: n.map(String::into_bytes),
    };
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    handle(body.to_string().as_bytes(), &a, tools, &[])
}

fn body(r: &Response) -> Value {
    serde_json::from_slice(&r.body).unwrap()
}

/// Which header a case replaces (0 version, 1 method, 2 name; 9: none) and with what.
type Replace = [(usize, Option<&'static str>); 1];

const AS_SENT: Replace = [(9, None)];

#[test]
fn modern_discover_lists_versions_capabilities_and_identity() {
    let t = FakeTools::default();
    let r = modern_post(&t, json!("d"), "server/discover", json!({}), AS_SENT);
    assert_eq!(r.status, 200);
    let v = body(&r);
    assert_eq!(v["id"], "d");
    let result = &v["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"], json!(version::SUPPORTED));
    assert_eq!(
        result["capabilities"],
        media_mcp_apps::server_capabilities()
    );
    assert_eq!(result["_meta"][meta::SERVER_INFO]["name"], SERVER_NAME);
    assert_eq!(result["ttlMs"], cache::TTL_MS);
    assert_eq!(result["cacheScope"], cache::DISCOVER_SCOPE);
}

#[test]
fn modern_list_and_call_are_complete_results_with_cache_hints_on_the_list() {
    let t = FakeTools::default();
    let v = body(&modern_post(&t, json!(1), "tools/list", json!({}), AS_SENT));
    assert_eq!(v["result"]["resultType"], "complete");
    assert_eq!(v["result"]["ttlMs"], cache::TTL_MS);
    assert_eq!(v["result"]["cacheScope"], cache::TOOLS_LIST_SCOPE);
    assert_eq!(v["result"]["tools"][0]["name"], "echo");
    let v = body(&modern_post(
        &t,
        json!(2),
        "tools/call",
        json!({"name": "echo", "arguments": {"q": 1}}),
        AS_SENT,
    ));
    assert_eq!(v["result"]["resultType"], "complete");
    assert_eq!(v["result"]["isError"], false);
    assert!(v["result"].get("ttlMs").is_none());
    assert_eq!(t.calls.borrow()[0].2.as_deref(), Some("alice"));
}

#[test]
fn legacy_results_are_unchanged() {
    let t = FakeTools::default();
    let (_, v) = post(&t, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#);
    assert_eq!(
        v["result"].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["tools"]
    );
}

#[test]
fn modern_refusals_carry_the_id_and_their_status() {
    let t = FakeTools::default();
    let cases: [(&str, Value, Replace, u16, i64); 7] = [
        (
            "initialize",
            json!({}),
            AS_SENT,
            404,
            code::METHOD_NOT_FOUND,
        ),
        ("ping", json!({}), AS_SENT, 404, code::METHOD_NOT_FOUND),
        (
            "logging/setLevel",
            json!({}),
            AS_SENT,
            404,
            code::METHOD_NOT_FOUND,
        ),
        (
            "tools/list",
            json!({}),
            [(1, None)],
            400,
            code::HEADER_MISMATCH,
        ),
        (
            "tools/list",
            json!({}),
            [(1, Some("prompts/list"))],
            400,
            code::HEADER_MISMATCH,
        ),
        (
            "tools/call",
            json!({"name": "echo"}),
            [(2, Some("other"))],
            400,
            code::HEADER_MISMATCH,
        ),
        (
            "tools/list",
            json!({}),
            [(0, Some("9999-01-01"))],
            400,
            code::UNSUPPORTED_PROTOCOL_VERSION,
        ),
    ];
    for (method, params, headers, status, code) in cases {
        let r = modern_post(&t, json!(7), method, params, headers);
        let v = body(&r);
        assert_eq!(
            (r.status, v["error"]["code"].as_i64()),
            (status, Some(code)),
            "{method}: {v}"
        );
        assert_eq!(v["id"], 7);
    }
    let r = modern_post(&t, json!(8), "tools/call", json!({"name": "nope"}), AS_SENT);
    assert_eq!(
        (r.status, body(&r)["error"]["code"].as_i64()),
        (200, Some(code::INVALID_PARAMS))
    );
    assert!(t.calls.borrow().is_empty());
}

#[test]
fn missing_meta_is_invalid_params_with_400() {
    let t = FakeTools::default();
    let mut a = admitted(Identity::Default);
    a.mcp.protocol_version = Some(b"2026-07-28".to_vec());
    a.mcp.method = Some(b"server/discover".to_vec());
    let r = handle(
        br#"{"jsonrpc":"2.0","id":101,"method":"server/discover","params":{}}"#,
        &a,
        &t,
        &[],
    );
    let v = body(&r);
    assert_eq!(
        (r.status, v["error"]["code"].as_i64(), v["id"].as_i64()),
        (400, Some(code::INVALID_PARAMS), Some(101))
    );
}

#[test]
fn listen_acknowledges_nothing_and_ends_gracefully() {
    let t = FakeTools::default();
    let r = modern_post(
        &t,
        json!(5),
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
        AS_SENT,
    );
    assert!(r.headers.contains(&("x-accel-buffering", "no".to_owned())));
    let text = String::from_utf8(r.body).unwrap();
    let events: Vec<Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    assert_eq!(
        events[0]["method"],
        "notifications/subscriptions/acknowledged"
    );
    assert_eq!(events[0]["params"]["notifications"], json!({}));
    assert_eq!(events[0]["params"]["_meta"][meta::SUBSCRIPTION_ID], 5);
    assert_eq!(events[1]["id"], 5);
    assert_eq!(events[1]["result"]["resultType"], "complete");
    assert_eq!(events[1]["result"]["_meta"][meta::SUBSCRIPTION_ID], 5);
}

fn post(tools: &FakeTools, body: &str) -> (u16, Value) {
    let r = handle(
        body.as_bytes(),
        &admitted(Identity::User("alice".into())),
        tools,
        &[],
    );
    let v = if r.body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&r.body).unwrap()
    };
    (r.status, v)
}

#[test]
fn uuids_have_version_4_and_the_rfc_variant() {
    assert_eq!(uuid_v4(0, 0), "00000000-0000-4000-8000-000000000000");
    assert_eq!(
        uuid_v4(u64::MAX, u64::MAX),
        "ffffffff-ffff-4fff-bfff-ffffffffffff"
    );
    assert_eq!(
        uuid_v4(0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210),
        "01234567-89ab-4def-bedc-ba9876543210"
    );
}

#[test]
fn initialize_negotiates_supported_versions() {
    let t = FakeTools::default();
    for (asked, answered) in [
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2024-11-05", "2024-11-05"),
        ("2026-07-28", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
    ] {
        let (status, v) = post(
            &t,
            &format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{asked}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
            ),
        );
        assert_eq!(status, 200);
        assert_eq!(v["id"], 1);
        assert_eq!(v["result"]["protocolVersion"], answered);
        assert_eq!(
            v["result"]["capabilities"],
            media_mcp_apps::server_capabilities()
        );
        assert_eq!(v["result"]["serverInfo"]["name"], "media-mcp");
    }
}

#[test]
fn ping_and_list() {
    let t = FakeTools::default();
    let (_, v) = post(&t, r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    assert_eq!(v, json!({"jsonrpc":"2.0","id":"p","result":{}}));
    let (_, v) = post(
        &t,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#,
    );
    assert_eq!(
        v["result"]["tools"],
        json!([{"name":"echo","title":"Echo","description":"Echoes",
                    "inputSchema":{"type":"object"},"outputSchema":{"type":"object"},
                    "annotations":{"readOnlyHint":true}}])
    );
}

#[test]
fn calls_act_as_the_authenticated_user_and_map_results() {
    let t = FakeTools::default();
    let (status, v) = post(
        &t,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"q":1}}}"#,
    );
    assert_eq!(status, 200);
    let r = &v["result"];
    assert_eq!(r["isError"], false);
    assert_eq!(
        r["structuredContent"],
        json!({"ok": true, "args": {"q": 1}})
    );
    assert_eq!(
        r["content"],
        json!([{"type":"text","text":"{\"ok\":true,\"args\":{\"q\":1}}"}])
    );
    assert_eq!(
        t.calls.borrow().as_slice(),
        [("echo".into(), r#"{"q":1}"#.into(), Some("alice".into()))]
    );
    let r = handle(
        br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo"}}"#,
        &admitted(Identity::Default),
        &t,
        &[],
    );
    assert_eq!(r.status, 200);
    assert_eq!(t.calls.borrow()[1], ("echo".into(), "{}".into(), None));
}

#[test]
fn tool_failures_are_results_with_is_error() {
    let t = FakeTools {
        structured: Some(r#"{"ok":false,"error":{"code":"NOT_FOUND"}}"#.into()),
        ..FakeTools::default()
    };
    let (_, v) = post(
        &t,
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo"}}"#,
    );
    assert_eq!(v["result"]["isError"], true);
    assert_eq!(
        v["result"]["structuredContent"]["error"]["code"],
        "NOT_FOUND"
    );
}

#[test]
fn the_principal_cannot_be_overridden_with_meta() {
    let t = FakeTools::default();
    let (status, v) = post(
        &t,
        r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","_meta":{"media-mcp/principal":"admin"}}}"#,
    );
    assert_eq!(status, 200);
    assert_eq!(v["error"]["code"], code::INVALID_PARAMS);
    assert!(t.calls.borrow().is_empty());
    // Other _meta keys (progress tokens) are fine.
    let (_, v) = post(
        &t,
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","_meta":{"progressToken":1}}}"#,
    );
    assert_eq!(v["result"]["isError"], false);
}

#[test]
fn protocol_errors() {
    let t = FakeTools::default();
    let cases = [
        ("{", 400, code::PARSE_ERROR),
        (
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            400,
            code::INVALID_REQUEST,
        ),
        ("3", 400, code::INVALID_REQUEST),
        (r#"{"id":1,"method":"ping"}"#, 400, code::INVALID_REQUEST),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":7}"#,
            400,
            code::INVALID_REQUEST,
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            400,
            code::INVALID_REQUEST,
        ),
        (
            r#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#,
            400,
            code::INVALID_REQUEST,
        ),
        (r#"{"jsonrpc":"2.0","id":1}"#, 400, code::INVALID_REQUEST),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel"}"#,
            200,
            code::METHOD_NOT_FOUND,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}"#,
            200,
            code::INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
            200,
            code::INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":[1]}}"#,
            200,
            code::INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[]}"#,
            200,
            code::INVALID_PARAMS,
        ),
    ];
    for (body, status, code) in cases {
        let (s, v) = post(&t, body);
        assert_eq!(
            (s, v["error"]["code"].as_i64()),
            (status, Some(code)),
            "{body}: {v}"
        );
    }
    let (_, v) = post(
        &t,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}"#,
    );
    assert_eq!(v["error"]["message"], r#"unknown tool: "nope""#);
    assert_eq!(v["id"], 1);
}

#[test]
fn echoes_are_bounded_and_ids_beyond_64_bits_refused() {
    let t = FakeTools::default();
    let long = "m".repeat(1 << 20);
    for body in [
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{long}"}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{long}"}}}}"#),
    ] {
        let (_, v) = post(&t, &body);
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.len() < 200, "{} bytes", message.len());
        assert!(message.ends_with("(1048576 bytes)"), "{message}");
    }
    for id in [
        "18446744073709551616",
        "1180591620717411303424",
        "1.5",
        "-9223372036854775809",
    ] {
        let (s, v) = post(
            &t,
            &format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
        );
        assert_eq!(
            (s, v["error"]["code"].as_i64()),
            (400, Some(code::INVALID_REQUEST)),
            "{id}"
        );
    }
    for id in ["18446744073709551615", "-9223372036854775808", "\"x\""] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
        let (s, v) = post(&t, &body);
        assert_eq!(s, 200, "{id}");
        assert_eq!(v["id"].to_string(), id, "{id}");
    }
}

#[test]
fn notifications_and_client_responses_are_202_without_body() {
    let t = FakeTools::default();
    for body in [
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
        r#"{"jsonrpc":"2.0","id":9,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"m"}}"#,
    ] {
        let r = handle(body.as_bytes(), &admitted(Identity::Default), &t, &[]);
        assert_eq!((r.status, r.body.len()), (202, 0), "{body}");
    }
}

#[test]
fn event_stream_replies_are_one_message_event() {
    let t = FakeTools::default();
    let mut a = admitted(Identity::Default);
    a.format = ReplyFormat::EventStream;
    let r = handle(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, &a, &t, &[]);
    assert_eq!(
        r.headers[0],
        ("content-type", "text/event-stream".to_owned())
    );
    assert_eq!(
        String::from_utf8(r.body).unwrap(),
        "event: message\ndata: {\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}\n\n"
    );
}

/// Calls a tool whose result is `structured`, with `key` configured as a secret.
fn call_returning(structured: String, key: &str) -> Response {
    let t = FakeTools {
        structured: Some(structured),
        ..FakeTools::default()
    };
    handle(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#,
        &admitted(Identity::Default),
        &t,
        &[key.to_owned()],
    )
}

#[test]
fn secrets_are_redacted_from_structured_content_and_text() {
    let key = "0123456789abcdef0123".to_owned();
    let r = call_returning(
        format!(r#"{{"ok":false,"error":{{"message":"bad key {key}"}},"{key}":[{key:?}]}}"#),
        &key,
    );
    let body = String::from_utf8(r.body).unwrap();
    assert!(!body.contains(&key), "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        v["result"]["structuredContent"]["error"]["message"],
        "bad key [redacted]"
    );
    assert_eq!(
        v["result"]["structuredContent"]["[redacted]"],
        json!(["[redacted]"])
    );
}

#[test]
fn upper_cased_and_invisibly_split_secrets_are_redacted() {
    let upper = "0123456789ABCDEF0123";
    let split = "0123456789\u{200b}abcdef\u{202e}0123";
    let r = call_returning(
        format!(
            r#"{{"ok":false,"error":{{"message":"bad key {upper}"}},"data":["{split}","a\n{upper}b"]}}"#
        ),
        "0123456789abcdef0123",
    );
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    let structured = &v["result"]["structuredContent"];
    assert_eq!(structured["error"]["message"], "bad key [redacted]");
    assert_eq!(structured["data"], json!(["[redacted]", "a\n[redacted]b"]));
    let text = v["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(serde_json::from_str::<Value>(text).unwrap(), *structured);
}

#[test]
fn an_invalid_plugin_result_is_an_internal_error_envelope() {
    let t = FakeTools {
        structured: Some("not json".into()),
        ..FakeTools::default()
    };
    let (_, v) = post(
        &t,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#,
    );
    assert_eq!(v["result"]["isError"], true);
    assert_eq!(
        v["result"]["structuredContent"]["error"]["code"],
        "INTERNAL_ERROR"
    );
    assert_eq!(v["result"]["structuredContent"]["correlation_id"], "c-0");
}

mod apps;
