//! Handler tests for the MoviePilot backend: a scripted MoviePilot (JSON-RPC by body) on
//! [`FakeUpstream`], one test per rule of the backend.

mod cached;
mod calls;
mod compact;
mod jobs;
mod listing;
mod selection;

use crate::catalogue::Plugin;
use crate::config::Config;
use crate::testing::{Answer, FakeUpstream};
use crate::tool::{CallContext, UnknownTool};
use crate::upstream::{HttpRequest, HttpResponse, Method};
use serde_json::{Value, json};
use std::collections::HashMap;

pub const URL: &str = "http://mp.test/api/v1/mcp";
/// The setting that publishes every schema complete (the default is compact).
pub const FULL: (&str, &str) = ("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE", "full");

/// A plugin with MoviePilot at [`URL`] plus `extra` settings.
pub fn plugin_with(extra: &[(&str, &str)]) -> Plugin {
    let mut map: HashMap<String, String> = extra
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    map.entry("MOVIEPILOT_URL".into())
        .or_insert_with(|| URL.into());
    Plugin::new(Config::from_lookup(|k| map.get(k).cloned()))
}

pub fn body(req: &HttpRequest) -> Value {
    req.body
        .as_deref()
        .and_then(|b| serde_json::from_slice(b).ok())
        .unwrap_or(Value::Null)
}

pub fn json_answer(status: u16, v: Value) -> Answer {
    Ok(HttpResponse {
        status,
        content_type: Some("application/json".into()),
        body: v.to_string().into_bytes(),
        ..Default::default()
    })
}

/// A JSON-RPC `result` answering `req`.
pub fn result(req: &HttpRequest, v: Value) -> Answer {
    json_answer(
        200,
        json!({"jsonrpc": "2.0", "id": body(req)["id"], "result": v}),
    )
}

/// A JSON-RPC `error` answering `req` with HTTP `status`.
pub fn rpc_error(
    req: &HttpRequest,
    status: u16,
    code: i64,
    message: &str,
    data: Option<&str>,
) -> Answer {
    let mut err = json!({"code": code, "message": message});
    if let Some(d) = data {
        err["data"] = json!(d);
    }
    json_answer(
        status,
        json!({"jsonrpc": "2.0", "id": body(req)["id"], "error": err}),
    )
}

/// A `tools/call` result holding one text block.
pub fn text(req: &HttpRequest, text: &str, is_error: bool) -> Answer {
    let mut r = json!({"content": [{"type": "text", "text": text}]});
    if is_error {
        r["isError"] = json!(true);
    }
    result(req, r)
}

pub fn tool(name: &str, schema: Value) -> Value {
    json!({"name": name, "description": format!("{name} does things"), "inputSchema": schema})
}

pub fn open_schema() -> Value {
    json!({"type": "object", "properties": {}})
}

/// MoviePilot's usual tools (schemas small enough to come unprojected).
pub fn standard_tools() -> Vec<Value> {
    vec![
        tool(
            "search_media",
            json!({"type": "object", "properties": {"title": {"type": "string", "description": "title"}}, "required": ["title"]}),
        ),
        tool(
            "add_subscribe",
            json!({"type": "object", "properties": {"title": {"type": "string"}, "tmdb_id": {"type": "integer"}}, "required": ["title"]}),
        ),
        tool(
            "database_operation",
            json!({"type": "object", "properties": {"action": {"enum": ["tables", "schema", "query", "write"]}, "arguments": {"type": "object"}}, "required": ["action"]}),
        ),
        tool(
            "moviepilot_api",
            json!({"type": "object", "properties": {"operation_id": {"type": "string"}, "query": {"type": "object"}, "body": {}}, "required": ["operation_id"]}),
        ),
    ]
}

/// A MoviePilot that handshakes, lists `tools` and answers `tools/call` through `call`.
pub fn moviepilot(
    tools: Vec<Value>,
    call: impl Fn(&HttpRequest, &str, &Value) -> Answer + 'static,
) -> FakeUpstream {
    FakeUpstream::new().script(mp_script(tools, call))
}

/// The script behind [`moviepilot`], for fakes that override some answers first.
pub fn mp_script(
    tools: Vec<Value>,
    call: impl Fn(&HttpRequest, &str, &Value) -> Answer + 'static,
) -> impl Fn(&HttpRequest) -> Option<Answer> + 'static {
    move |req: &HttpRequest| {
        if req.method != Method::Post || req.url != URL {
            return None;
        }
        let b = body(req);
        Some(match b["method"].as_str().unwrap_or("") {
            "initialize" => result(
                req,
                json!({"protocolVersion": b["params"]["protocolVersion"], "capabilities": {"tools": {"listChanged": false}, "logging": {}}, "serverInfo": {"name": "MoviePilot", "version": "2.0"}}),
            ),
            "notifications/initialized" => Ok(HttpResponse {
                status: 204,
                ..Default::default()
            }),
            "tools/list" => result(req, json!({"tools": tools})),
            "tools/call" => call(
                req,
                b["params"]["name"].as_str().unwrap_or(""),
                &b["params"]["arguments"],
            ),
            _ => rpc_error(req, 200, -32601, "Method not found", None),
        })
    }
}

/// Calls `tool` and checks the envelope against the tool's published `outputSchema`.
pub fn call(plugin: &Plugin, up: &FakeUpstream, tool: &str, args: Value) -> Value {
    try_call(plugin, up, tool, &args.to_string()).expect("tool is known")
}

pub fn try_call(
    plugin: &Plugin,
    up: &FakeUpstream,
    tool: &str,
    args: &str,
) -> Result<Value, UnknownTool> {
    let ctx = CallContext {
        correlation_id: "mp-1".into(),
        principal: None,
    };
    let rendered = plugin.call_tool(tool, args, &ctx, up)?;
    let schema = super::republish::output_schema(tool);
    let validator = jsonschema::validator_for(&schema).expect("valid output schema");
    if let Err(e) = validator.validate(&rendered.structured) {
        panic!(
            "{tool}: result breaks its outputSchema: {e}\n{}",
            rendered.structured
        );
    }
    assert_eq!(rendered.is_error, rendered.structured["ok"] == false);
    Ok(rendered.structured)
}

/// The JSON-RPC methods sent, in order (GETs as `GET <path tail>`).
pub fn methods(up: &FakeUpstream) -> Vec<String> {
    up.requests()
        .iter()
        .map(|r| match r.method {
            Method::Post => body(r)["method"].as_str().unwrap_or("?").to_owned(),
            m => format!("{} {}", m.as_str(), r.url.trim_start_matches(URL)),
        })
        .collect()
}

pub fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}
