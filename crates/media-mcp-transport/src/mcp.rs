//! MCP over one JSON-RPC message per POST, statelessly, in both eras ([`crate::era`]):
//!
//! - legacy (2025-11-25 and earlier): `initialize`, `ping`, `tools/list`, `tools/call`, and the
//!   resource and prompt methods of [`apps`];
//! - modern (2026-07-28): `server/discover`, `tools/list`, `tools/call`,
//!   `subscriptions/listen` and [`apps`]'s methods; every result carries `resultType:
//!   "complete"` and the server's identity in `_meta`, `tools/list`, `server/discover` and the
//!   resource and prompt lists carry caching hints ([`media_mcp_wire::cache`]); any other
//!   method is 404 with -32601.
//!
//! Notifications and client responses are acknowledged with 202. No session id is issued, so
//! any replica can answer any request. Tool results are mapped as the stdio harness maps them
//! ([`media_mcp_wire::tool::map_outcome`]); an unknown tool is JSON-RPC -32602.

use serde_json::{Map, Value, json};

use media_mcp_safe_text::{Needles, quote_bounded, rewrite_strings};
pub use media_mcp_wire::{PRINCIPAL_META_KEY, SERVER_NAME, ToolOutcome, ToolRecord, code};
use media_mcp_wire::{cache, meta, method, tool, version};

pub use media_mcp_wire::MAX_ECHO_CHARS;

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
        other if let Some(answer) = apps::answer(other, call.params, Era::Legacy) => {
            answer.map_err(RpcError::from)
        }
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
        other if let Some(answer) = apps::answer(other, call.params, Era::Modern) => answer?,
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

/// An answer to request `id` that a host serving this transport writes itself (job and task
/// answers): `outcome` is the result, or the JSON-RPC error object; a modern result keeps a
/// `resultType` it has (`"task"`) and is otherwise marked complete, and is signed with the
/// server's identity, as this transport's own answers are.
pub fn host_reply(
    format: ReplyFormat,
    id: &Value,
    outcome: Result<Value, Value>,
    modern: bool,
) -> Response {
    let message = match outcome {
        Ok(mut result) => {
            if modern {
                let kind = result.get("resultType").cloned();
                complete(&mut result);
                if let Some(kind) = kind {
                    result["resultType"] = kind;
                }
            }
            json!({"jsonrpc": "2.0", "id": id, "result": result})
        }
        Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
    };
    match format {
        ReplyFormat::Json => Response::json(200, &message),
        ReplyFormat::EventStream => event_stream(&[message]),
    }
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
        "capabilities": apps::capabilities(),
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

impl From<apps::Refused> for RpcError {
    fn from(r: apps::Refused) -> RpcError {
        RpcError {
            data: r.data,
            ..RpcError::new(r.code, r.message)
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
        "capabilities": apps::capabilities(),
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
        if let Some(meta) = apps::tool_meta(&t.name) {
            tool.insert("_meta".into(), meta);
        }
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
    let mut result = mapped.into_result().to_json();
    apps::add_result_meta(&mut result, name, || {
        call.tools
            .list()
            .iter()
            .any(|t| t.name == media_mcp_apps::REQUEST_TOOL)
    });
    Ok(result)
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

mod apps;

#[cfg(test)]
mod tests;
