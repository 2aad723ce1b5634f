//! MCP over one JSON-RPC message per POST, statelessly, in both eras ([`crate::era`]):
//!
//! - legacy (2025-11-25 and earlier): `initialize`, `ping`, `tools/list`, `tools/call`;
//! - modern (2026-07-28): `server/discover`, `tools/list`, `tools/call` and
//!   `subscriptions/listen`; every result carries `resultType: "complete"` and the server's
//!   identity in `_meta`, `tools/list` and `server/discover` carry caching hints
//!   ([`media_mcp_wire::cache`]); any other method is 404 with -32601.
//!
//! Notifications and client responses are acknowledged with 202. No session id is issued, so
//! any replica can answer any request. Tool results are mapped as the stdio harness maps them
//! ([`media_mcp_wire::tool::map_outcome`]); an unknown tool is JSON-RPC -32602.

use serde_json::{Map, Value, json};

use media_mcp_safe_text::{Needles, quote_bounded, rewrite_strings};
pub use media_mcp_wire::{PRINCIPAL_META_KEY, SERVER_NAME, ToolOutcome, ToolRecord, code};
use media_mcp_wire::{cache, meta, method, tool, version};

/// Longest part of caller input (a method or tool name) an error quotes, as over stdio.
pub const MAX_ECHO_CHARS: usize = 64;

use crate::auth::Identity;
use crate::era::{self, Era, Refusal};
pub use crate::http::SUPPORTED_PROTOCOL_VERSIONS;
use crate::http::{Admitted, ReplyFormat, Response};
use crate::prelude::*;

/// The plugin as the transport sees it.
pub trait Tools {
    /// The catalogue.
    fn list(&self) -> Vec<ToolRecord>;
    /// A new id, unique per call, echoed as the result's `correlation_id`.
    fn correlation_id(&self) -> String;
    /// Calls one tool as `principal` (`None`: the plugin's default user).
    ///
    /// # Errors
    ///
    /// The name of a tool the plugin does not have.
    fn call(
        &self,
        name: &str,
        arguments: &str,
        correlation_id: &str,
        principal: Option<String>,
    ) -> Result<ToolOutcome, String>;
}

/// Answers one admitted POST body. `secrets` are replaced in every tool result.
pub fn handle(body: &[u8], admitted: &Admitted, tools: &dyn Tools, secrets: &[String]) -> Response {
    let message: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(_) => {
            return Response::error(400, code::PARSE_ERROR, "parse error: the body is not JSON");
        }
    };
    let Value::Object(message) = message else {
        let what = if message.is_array() {
            "batch requests are not supported: send one JSON-RPC message per POST"
        } else {
            "invalid request: the body must be a JSON-RPC message object"
        };
        return Response::error(400, code::INVALID_REQUEST, what);
    };
    let id = message.get("id").filter(|id| valid_id(id));
    let refuse = |code: i64, what: &str| {
        reply(
            admitted.format,
            id.unwrap_or(&Value::Null),
            Err(RpcError::new(code, what.to_owned()).with_status(400)),
        )
    };
    if message.get("jsonrpc") != Some(&Value::String("2.0".into())) {
        return refuse(
            code::INVALID_REQUEST,
            "invalid request: jsonrpc must be \"2.0\"",
        );
    }
    let Some(method) = message.get("method") else {
        // A client's response to a server request (there are none) is acknowledged.
        let response =
            id.is_some() && (message.contains_key("result") || message.contains_key("error"));
        return if response {
            Response::accepted()
        } else {
            refuse(
                code::INVALID_REQUEST,
                "invalid request: neither a request, a notification nor a response",
            )
        };
    };
    let Value::String(method) = method else {
        return refuse(
            code::INVALID_REQUEST,
            "invalid request: method must be a string",
        );
    };
    let Some(id) = message.get("id") else {
        // A notification: no era rules beyond a version this server speaks.
        return match era::header_version(&admitted.mcp) {
            Ok(_) => Response::accepted(),
            Err(refusal) => reply(admitted.format, &Value::Null, Err(refusal.into())),
        };
    };
    if !valid_id(id) {
        return refuse(
            code::INVALID_REQUEST,
            "invalid request: id must be a string or an integer within 64 bits",
        );
    }
    let era = match era::classify(method, message.get("params"), &admitted.mcp) {
        Ok(era) => era,
        Err(refusal) => return reply(admitted.format, id, Err(refusal.into())),
    };
    let params = match message.get("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(p)) => p.clone(),
        Some(_) => {
            return reply(
                admitted.format,
                id,
                Err(invalid_params("params must be an object")),
            );
        }
    };
    let call = Call {
        params: &params,
        identity: &admitted.identity,
        tools,
        secrets,
    };
    match era {
        Era::Legacy => reply(admitted.format, id, legacy(method, &call)),
        Era::Modern => {
            if let Err(refusal) = era::check_headers(method, &params, &admitted.mcp) {
                return reply(admitted.format, id, Err(refusal.into()));
            }
            if method == method::SUBSCRIPTIONS_LISTEN {
                return listen(admitted, id);
            }
            reply(admitted.format, id, modern(method, &call))
        }
    }
}

/// One request's parameters and what answering it needs.
struct Call<'a> {
    params: &'a Map<String, Value>,
    identity: &'a Identity,
    tools: &'a dyn Tools,
    secrets: &'a [String],
}

fn legacy(name: &str, call: &Call<'_>) -> Result<Value, RpcError> {
    match name {
        method::INITIALIZE => Ok(initialize(call.params)),
        method::PING => Ok(json!({})),
        method::TOOLS_LIST => list_tools(call.tools),
        method::TOOLS_CALL => call_tool(call),
        other => Err(RpcError::new(
            code::METHOD_NOT_FOUND,
            format!("method not found: {}", shown(other)),
        )),
    }
}

fn modern(name: &str, call: &Call<'_>) -> Result<Value, RpcError> {
    let mut result = match name {
        method::SERVER_DISCOVER => discover(),
        method::TOOLS_LIST => {
            let mut listed = list_tools(call.tools)?;
            listed["ttlMs"] = json!(cache::TTL_MS);
            listed["cacheScope"] = json!(cache::TOOLS_LIST_SCOPE);
            listed
        }
        method::TOOLS_CALL => call_tool(call)?,
        other => {
            return Err(RpcError::new(
                code::METHOD_NOT_FOUND,
                format!("method not found: {}", shown(other)),
            )
            .with_status(404));
        }
    };
    complete(&mut result);
    Ok(result)
}

/// Marks a modern result complete and signs it with the server's identity.
fn complete(result: &mut Value) {
    result["resultType"] = json!("complete");
    if !result["_meta"].is_object() {
        result["_meta"] = json!({});
    }
    result["_meta"][meta::SERVER_INFO] = server_info();
}

fn server_info() -> Value {
    json!({"name": SERVER_NAME, "version": media_mcp_wire::SERVER_VERSION})
}

fn discover() -> Value {
    json!({
        "supportedVersions": version::SUPPORTED,
        "capabilities": {"tools": {}},
        "ttlMs": cache::TTL_MS,
        "cacheScope": cache::DISCOVER_SCOPE,
    })
}

/// `subscriptions/listen`: this server sends no change notifications (its catalogue is fixed
/// for the life of the process), so the stream acknowledges an empty filter and ends at once
/// with the final result, the graceful end the spec defines. A client that does not accept an
/// event stream gets the final result alone.
fn listen(admitted: &Admitted, id: &Value) -> Response {
    let mut result = json!({"_meta": {meta::SUBSCRIPTION_ID: id}});
    complete(&mut result);
    let last = json!({"jsonrpc": "2.0", "id": id, "result": result});
    if !admitted.event_stream {
        return Response::json(200, &last);
    }
    let ack = json!({
        "jsonrpc": "2.0",
        "method": method::SUBSCRIPTIONS_ACKNOWLEDGED,
        "params": {"_meta": {meta::SUBSCRIPTION_ID: id}, "notifications": {}},
    });
    event_stream(&[ack, last])
}

/// A string, or an integer that fits 64 bits: a larger number would come back rounded (JSON
/// numbers are read as `f64` past that), so it is refused rather than answered wrongly.
fn valid_id(id: &Value) -> bool {
    match id {
        Value::String(_) => true,
        Value::Number(n) => n.is_i64() || n.is_u64(),
        _ => false,
    }
}

/// A JSON-RPC error, with the HTTP status it is sent with (200 unless the request itself was
/// refused).
#[derive(Debug)]
struct RpcError {
    status: u16,
    code: i64,
    message: String,
    data: Option<Value>,
}

impl RpcError {
    fn new(code: i64, message: String) -> RpcError {
        RpcError {
            status: 200,
            code,
            message,
            data: None,
        }
    }

    fn with_status(mut self, status: u16) -> RpcError {
        self.status = status;
        self
    }
}

impl From<Refusal> for RpcError {
    fn from(r: Refusal) -> RpcError {
        RpcError {
            status: r.status,
            code: r.code,
            message: r.message,
            data: r.data,
        }
    }
}

fn invalid_params(message: &str) -> RpcError {
    RpcError::new(code::INVALID_PARAMS, message.to_owned())
}

fn reply(format: ReplyFormat, id: &Value, outcome: Result<Value, RpcError>) -> Response {
    let message = match outcome {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(e) => {
            let mut error = json!({"code": e.code, "message": e.message});
            if let Some(data) = e.data {
                error["data"] = data;
            }
            let message = json!({"jsonrpc": "2.0", "id": id, "error": error});
            if e.status != 200 {
                return Response::json(e.status, &message);
            }
            message
        }
    };
    match format {
        ReplyFormat::Json => Response::json(200, &message),
        ReplyFormat::EventStream => event_stream(&[message]),
    }
}

/// One `message` event per JSON-RPC message. `X-Accel-Buffering: no` keeps nginx-based
/// proxies from holding the events back.
fn event_stream(messages: &[Value]) -> Response {
    let mut body = String::new();
    for message in messages {
        body.push_str("event: message\ndata: ");
        body.push_str(&message.to_string());
        body.push_str("\n\n");
    }
    Response {
        status: 200,
        headers: vec![
            ("content-type", "text/event-stream".to_owned()),
            ("cache-control", "no-cache".to_owned()),
            ("x-accel-buffering", "no".to_owned()),
        ],
        body: body.into_bytes(),
    }
}

fn initialize(params: &Map<String, Value>) -> Value {
    let requested = params.get("protocolVersion").and_then(Value::as_str);
    let version = requested
        .filter(|v| version::LEGACY.contains(v))
        .unwrap_or(version::NEWEST_LEGACY);
    json!({
        "protocolVersion": version,
        "capabilities": {"tools": {}},
        "serverInfo": server_info(),
    })
}

fn json_object(field: &str, text: &str, tool: &str) -> Result<Value, RpcError> {
    match serde_json::from_str(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        _ => Err(RpcError::new(
            code::INTERNAL_ERROR,
            format!("the plugin listed tool {tool:?} with a {field} that is not a JSON object"),
        )),
    }
}

fn list_tools(tools: &dyn Tools) -> Result<Value, RpcError> {
    let mut listed = Vec::new();
    for t in tools.list() {
        let mut tool = Map::new();
        tool.insert("name".into(), Value::String(t.name.clone()));
        if !t.title.is_empty() {
            tool.insert("title".into(), Value::String(t.title));
        }
        tool.insert("description".into(), Value::String(t.description));
        tool.insert(
            "inputSchema".into(),
            json_object("inputSchema", &t.input_schema, &t.name)?,
        );
        tool.insert(
            "outputSchema".into(),
            json_object("outputSchema", &t.output_schema, &t.name)?,
        );
        tool.insert(
            "annotations".into(),
            json_object("annotations", &t.annotations, &t.name)?,
        );
        listed.push(Value::Object(tool));
    }
    Ok(json!({"tools": listed}))
}

fn call_tool(call: &Call<'_>) -> Result<Value, RpcError> {
    let params = call.params;
    let Some(Value::String(name)) = params.get("name") else {
        return Err(invalid_params(
            "params.name must be the tool name (a string)",
        ));
    };
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => "{}".to_owned(),
        Some(v @ Value::Object(_)) => v.to_string(),
        Some(_) => return Err(invalid_params("params.arguments must be an object")),
    };
    if let Some(Value::Object(meta)) = params.get("_meta")
        && meta.contains_key(PRINCIPAL_META_KEY)
    {
        return Err(invalid_params(&format!(
            "_meta[\"{PRINCIPAL_META_KEY}\"] is not accepted over HTTP: the user a call acts as \
             comes from its bearer token"
        )));
    }
    let principal = match call.identity {
        Identity::User(user) => Some(user.clone()),
        Identity::Default => None,
    };
    let correlation_id = call.tools.correlation_id();
    let outcome = call
        .tools
        .call(name, &arguments, &correlation_id, principal)
        .map_err(|unknown| invalid_params(&tool::unknown_tool_message(&shown(&unknown))))?;
    let mapped = tool::map_outcome(name, &correlation_id, outcome, |value| {
        redact(value, call.secrets)
    });
    Ok(mapped.into_result().to_json())
}

/// A client-supplied name as an error quotes it: bounded, as over stdio.
fn shown(value: &str) -> String {
    quote_bounded(value, MAX_ECHO_CHARS)
}

/// Replaces every secret inside `value` (strings and object keys) with `[redacted]`; `true`
/// when something was replaced. Secrets are found in any letter case and when split by
/// characters that show nothing (line breaks, U+200B, U+202E, …), as the harness finds them.
fn redact(value: &mut Value, secrets: &[String]) -> bool {
    if secrets.is_empty() {
        return false;
    }
    let needles = Needles::new(secrets.iter().map(String::as_str));
    rewrite_strings(value, &mut |text| needles.redact(text, "[redacted]"))
}

/// A version-4 UUID (the harness's correlation-id format) from 128 random bits.
pub fn uuid_v4(a: u64, b: u64) -> String {
    let a = (a & !0xf000) | 0x4000;
    let b = (b & !(0xc000 << 48)) | (0x8000 << 48);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xffff,
        b >> 48,
        b & 0xffff_ffff_ffff
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::era::McpHeaders;
    use core::cell::RefCell;

    /// A plugin with one tool, `echo`, recording who each call acted as.
    #[derive(Default)]
    struct FakeTools {
        calls: RefCell<Vec<(String, String, Option<String>)>>,
        structured: Option<String>,
    }

    impl Tools for FakeTools {
        fn list(&self) -> Vec<ToolRecord> {
            vec![ToolRecord {
                name: "echo".into(),
                title: "Echo".into(),
                description: "Echoes".into(),
                input_schema: r#"{"type":"object"}"#.into(),
                output_schema: r#"{"type":"object"}"#.into(),
                annotations: r#"{"readOnlyHint":true}"#.into(),
            }]
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
            if name != "echo" {
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
        assert_eq!(result["capabilities"], json!({"tools": {}}));
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
                "resources/list",
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
            assert_eq!(v["result"]["capabilities"], json!({"tools": {}}));
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
                r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#,
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
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{long}"}}}}"#
            ),
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
}
