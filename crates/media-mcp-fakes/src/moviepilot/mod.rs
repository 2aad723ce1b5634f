//! [`FakeMoviePilot`]: a real HTTP/1.1 server on `127.0.0.1:<random port>` (tokio + hyper on its
//! own thread and runtime, so sync and async tests alike can use it) that behaves like
//! MoviePilot's MCP endpoint as MoviePilot's source (`app/api/endpoints/mcp.py`) does:
//!
//! 1. every request needs the key (`X-API-KEY` header or `?apikey=`), else 401 `{"detail": ...}`;
//! 2. `POST /api/v1/mcp` takes one JSON-RPC object: not JSON → 400 / -32700 (`id: null`); not an
//!    object or not `jsonrpc: "2.0"` → 400 / -32600; `notifications/initialized` without an id →
//!    204, with an id → 400 / -32600; unknown method → 200 / -32601; `tools/call` without a name
//!    → 400 / -32602 with the reason in `data`;
//! 3. `initialize` echoes a supported version (2025-11-25, 2025-06-18, 2024-11-05), else answers
//!    2025-11-25; `ping` → `{}`; stateless: no session id;
//! 4. `tools/list` pages with `nextCursor` ([`FakeMoviePilotBuilder::page_size`]); unless the
//!    request says `X-MCP-Schema-Mode: full`, a schema over 4096 bytes is projected (required
//!    fields and the operation enum kept, combinators and `$defs` dropped, marked
//!    `x-moviepilot-schema-projection`); the full one is at `GET /api/v1/mcp/tools/{name}/schema`
//!    (bare, or in the REST wrapper with [`FakeMoviePilotBuilder::wrapped_schema`]);
//! 5. `tools/call` answers text blocks holding JSON (`success`, `message`, `data`, `error` +
//!    `input_contract`, `execution_outcome`, `collection`, `tool_result_truncated`) or prose, and
//!    `isError` with `错误: ...` for hidden or unknown tools (see [`tools`]);
//! 6. `DELETE /api/v1/mcp` → 204; anything else → 404 `{"detail": "Not Found"}`.
//!
//! That is the endpoint MoviePilot documents ([`Version::Documented`], the default). With
//! [`FakeMoviePilotBuilder::version`] `V2_9_15` it answers `initialize`, `tools/list` and
//! `tools/call` as the real v2.9.15 application did, from recordings ([`recorded`]).
//!
//! Tests can take a tool away ([`FakeMoviePilot::remove_tool`]) or change its schema
//! ([`FakeMoviePilot::set_schema`]), and count the requests by JSON-RPC method
//! ([`FakeMoviePilot::request_counts`]).
//!
//! Tests can spoil the answer to `tools/call` of one tool ([`FakeMoviePilot::set_call_fault`])
//! with a [`CallFault`]: late, reset, stalled, a failure status, a JSON-RPC error, prose, an
//! unknown outcome. Raw-byte faults take the socket over from hyper, as the fake Ombi does.

pub mod faults;
pub mod recorded;
mod tools;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use serde_json::{Value, json};

use crate::lock::lock;
use crate::raw::{Connections, RawSender, accept_loop};
use crate::reply::{Body, Responder};
use crate::tls::TestCa;
use faults::CallFault;

/// The API key the fake expects unless told otherwise.
pub const DEFAULT_KEY: &str = "mp-test-key";
/// The MCP endpoint path.
pub const MCP_PATH: &str = "/api/v1/mcp";
/// Schemas above this size are projected unless full schemas are asked for.
pub const PROJECTION_THRESHOLD: usize = 4096;
const SUPPORTED_VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2024-11-05"];

/// One request as the fake saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedRequest {
    /// HTTP method.
    pub method: String,
    /// Path without query.
    pub path: String,
    /// Raw query (`""` when none).
    pub query: String,
    /// Request headers, names lower-case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl RecordedRequest {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC method, for POSTs to the endpoint.
    pub fn rpc_method(&self) -> Option<String> {
        let v: Value = serde_json::from_slice(&self.body).ok()?;
        v.get("method")?.as_str().map(str::to_owned)
    }
}

/// `moviepilot_api`'s full schema with `extra` generated operations, as a fake built with
/// [`FakeMoviePilotBuilder::api_operations`] serves it.
pub fn api_schema_with(extra: usize) -> Value {
    tools::generated_api_schema(extra)
}

/// Which MoviePilot the fake answers as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Version {
    /// The endpoint MoviePilot documents: `moviepilot_api` with operation ids and the formal
    /// tools, schema modes, pages.
    #[default]
    Documented,
    /// v2.9.15 as recorded from the real application ([`recorded`]): 39 per-purpose tools.
    V2_9_15,
}

/// Settings of a fake.
#[derive(Debug, Clone)]
pub struct FakeMoviePilotBuilder {
    key: String,
    page_size: usize,
    wrapped_schema: bool,
    ignore_full_mode: bool,
    torrent_search_delay: Duration,
    api_operations: usize,
    overview_chars: usize,
    version: Version,
    state: &'static str,
    tls: Option<Arc<rustls::ServerConfig>>,
}

impl Default for FakeMoviePilotBuilder {
    fn default() -> Self {
        Self {
            key: DEFAULT_KEY.to_owned(),
            page_size: 3,
            wrapped_schema: false,
            ignore_full_mode: false,
            torrent_search_delay: Duration::ZERO,
            api_operations: 0,
            overview_chars: 0,
            version: Version::Documented,
            state: recorded::SEEDED,
            tls: None,
        }
    }
}

impl FakeMoviePilotBuilder {
    /// The API key to require.
    pub fn key(mut self, key: &str) -> Self {
        self.key = key.to_owned();
        self
    }

    /// Tools per `tools/list` page (at least 1).
    pub fn page_size(mut self, n: usize) -> Self {
        self.page_size = n.max(1);
        self
    }

    /// Serve the schema helper in the REST wrapper `{success, message, data}`.
    pub fn wrapped_schema(mut self, yes: bool) -> Self {
        self.wrapped_schema = yes;
        self
    }

    /// Project large schemas even when `X-MCP-Schema-Mode: full` is sent (an older server, or a
    /// proxy that drops the header), so clients must use the schema helper.
    pub fn ignore_full_mode(mut self, yes: bool) -> Self {
        self.ignore_full_mode = yes;
        self
    }

    /// Adds `n` generated operations to `moviepilot_api`'s schema
    /// ([`tools::generated_api_schema`]), for a schema the size of MoviePilot's real one.
    pub fn api_operations(mut self, n: usize) -> Self {
        self.api_operations = n;
        self
    }

    /// Answers as MoviePilot `version`.
    pub fn version(mut self, version: Version) -> Self {
        self.version = version;
        self
    }

    /// For [`Version::V2_9_15`]: answers with the recordings made in `state`
    /// ([`recorded::SEEDED`] unless set) where there are any.
    pub fn recorded_state(mut self, state: &'static str) -> Self {
        self.state = state;
        self
    }

    /// Makes `media.detail`'s overview `n` characters longer (a record with one huge text).
    pub fn overview_chars(mut self, n: usize) -> Self {
        self.overview_chars = n;
        self
    }

    /// How long `search.torrents` takes.
    pub fn torrent_search_delay(mut self, d: Duration) -> Self {
        self.torrent_search_delay = d;
        self
    }

    /// Serves HTTPS with a leaf certificate of `ca` instead of plain HTTP.
    pub fn tls(mut self, ca: &TestCa) -> Self {
        self.tls = Some(ca.server_config());
        self
    }

    /// Starts the server.
    ///
    /// # Panics
    /// When no loopback port can be bound or the runtime cannot start.
    pub fn start(self) -> FakeMoviePilot {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener.set_nonblocking(true).expect("nonblocking");
        let addr = listener.local_addr().expect("address");
        let state = tools::State {
            overview_chars: self.overview_chars,
            ..tools::State::default()
        };
        let shared = Arc::new(Shared {
            settings: self,
            log: Mutex::default(),
            state: Mutex::new(state),
            faults: Mutex::default(),
            changes: Mutex::default(),
            responder: Responder::new("uvicorn"),
        });
        let connections = Connections::new(shared.settings.tls.clone());
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel();
        let thread_shared = shared.clone();
        let thread_connections = connections.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            let handler = move |request, raw: RawSender| {
                let shared = thread_shared.clone();
                async move { handle(&shared, request, &raw).await }
            };
            rt.block_on(accept_loop(listener, stop_rx, thread_connections, handler));
        });
        FakeMoviePilot {
            addr,
            shared,
            connections,
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }
}

struct Shared {
    settings: FakeMoviePilotBuilder,
    log: Mutex<Vec<RecordedRequest>>,
    state: Mutex<tools::State>,
    /// Faults on `tools/call`, by tool name.
    faults: Mutex<HashMap<String, CallFault>>,
    /// How the catalogue differs from [`tools::catalogue`].
    changes: Mutex<Changes>,
    responder: Responder,
}

/// Tools taken away and schemas replaced since the start.
#[derive(Debug, Default)]
struct Changes {
    removed: Vec<String>,
    schemas: HashMap<String, Value>,
}

impl Shared {
    /// Whether tool `name` is listed now, without building any schema (`moviepilot_api`'s
    /// generated one is about 0.5 MB).
    fn lists(&self, name: &str) -> bool {
        let known = match self.settings.version {
            Version::Documented => tools::catalogue().iter().any(|t| t.name == name),
            Version::V2_9_15 => recorded::tools().iter().any(|(n, _, _)| *n == name),
        };
        known && !lock(&self.changes).removed.iter().any(|r| r == name)
    }

    /// The tools listed now.
    fn catalogue(&self) -> Vec<tools::FakeTool> {
        let changes = lock(&self.changes);
        let generated = self.settings.api_operations;
        let all = match self.settings.version {
            Version::Documented => tools::catalogue(),
            Version::V2_9_15 => recorded::tools()
                .into_iter()
                .map(|(name, description, schema)| tools::FakeTool {
                    name,
                    description,
                    schema: schema.clone(),
                })
                .collect(),
        };
        all.into_iter()
            .filter(|t| !changes.removed.iter().any(|r| r == t.name))
            .map(|mut t| {
                if let Some(s) = changes.schemas.get(t.name) {
                    t.schema = s.clone();
                } else if t.name == "moviepilot_api" && generated > 0 {
                    t.schema = tools::generated_api_schema(generated);
                }
                t
            })
            .collect()
    }
}

/// A running fake MoviePilot; stops when dropped.
pub struct FakeMoviePilot {
    addr: SocketAddr,
    shared: Arc<Shared>,
    connections: Arc<Connections>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FakeMoviePilot {
    /// A builder with the defaults (key [`DEFAULT_KEY`], 3 tools per page, bare helper schemas).
    pub fn builder() -> FakeMoviePilotBuilder {
        FakeMoviePilotBuilder::default()
    }

    /// A fake with the defaults.
    pub fn start() -> Self {
        Self::builder().start()
    }

    /// `http://127.0.0.1:<port>` (`https://` when serving TLS).
    pub fn origin(&self) -> String {
        let scheme = if self.connections.is_tls() {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://{}", self.addr)
    }

    /// TCP connections accepted so far.
    pub fn connections_accepted(&self) -> usize {
        self.connections.accepted()
    }

    /// Closes every idle connection, as a server whose keep-alive timeout ran out.
    pub fn close_idle_connections(&self) {
        self.connections.close_idle();
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The MCP endpoint URL, what `MOVIEPILOT_URL` should be.
    pub fn mcp_url(&self) -> String {
        format!("{}{MCP_PATH}", self.origin())
    }

    /// The key it requires.
    pub fn key(&self) -> &str {
        &self.shared.settings.key
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.log).clone()
    }

    /// Forgets the recorded requests.
    pub fn clear_requests(&self) {
        lock(&self.shared.log).clear();
    }

    /// How many `tools/call` requests for `tool` arrived (since the last
    /// [`FakeMoviePilot::clear_requests`]).
    pub fn tool_calls(&self, tool: &str) -> usize {
        self.tool_call_counts().get(tool).copied().unwrap_or(0)
    }

    /// How many `tools/call` requests arrived for each tool (since the last
    /// [`FakeMoviePilot::clear_requests`]).
    pub fn tool_call_counts(&self) -> std::collections::BTreeMap<String, usize> {
        let mut counts = std::collections::BTreeMap::new();
        for r in lock(&self.shared.log).iter() {
            if r.rpc_method().as_deref() != Some("tools/call") {
                continue;
            }
            let name = serde_json::from_slice::<Value>(&r.body)
                .ok()
                .and_then(|v| v.pointer("/params/name")?.as_str().map(str::to_owned));
            if let Some(name) = name {
                *counts.entry(name).or_insert(0) += 1;
            }
        }
        counts
    }

    /// Answers every later `tools/call` of `tool` with `fault` (the request is still recorded).
    pub fn set_call_fault(&self, tool: &str, fault: CallFault) {
        lock(&self.shared.faults).insert(tool.to_owned(), fault);
    }

    /// Removes every fault: all tools answer normally again.
    pub fn clear_call_faults(&self) {
        lock(&self.shared.faults).clear();
    }

    /// How many JSON-RPC POSTs of each method arrived (since the last
    /// [`FakeMoviePilot::clear_requests`]); other requests count as `"<METHOD> <path>"`.
    pub fn request_counts(&self) -> std::collections::BTreeMap<String, usize> {
        let mut counts = std::collections::BTreeMap::new();
        for r in lock(&self.shared.log).iter() {
            let key = match (r.method.as_str(), r.rpc_method()) {
                ("POST", Some(m)) => m,
                (m, _) => format!("{m} {}", r.path),
            };
            *counts.entry(key).or_insert(0) += 1;
        }
        counts
    }

    /// Stops listing `tool`; calls to it are answered as MoviePilot answers unknown tools.
    pub fn remove_tool(&self, tool: &str) {
        lock(&self.shared.changes).removed.push(tool.to_owned());
    }

    /// Lists (and serves from the schema helper) `schema` for `tool` from now on; a call
    /// lacking one of its top-level `required` arguments is answered `invalid_input` with the
    /// schema as `input_contract`, and runs nothing.
    pub fn set_schema(&self, tool: &str, schema: Value) {
        lock(&self.shared.changes)
            .schemas
            .insert(tool.to_owned(), schema);
    }

    /// The titles subscribed through `add_subscribe` / `subscription.add`.
    pub fn subscriptions(&self) -> Vec<String> {
        lock(&self.shared.state).subscriptions.clone()
    }
}

impl Drop for FakeMoviePilot {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

type Reply = Response<Body>;

fn reply(status: u16, content_type: Option<&str>, body: Vec<u8>) -> Reply {
    let mut b = Response::builder().status(status);
    if let Some(ct) = content_type {
        b = b.header("content-type", ct);
    }
    b.body(Full::new(Bytes::from(body)).boxed())
        .expect("response")
}

fn json_reply(status: u16, v: &Value) -> Reply {
    reply(status, Some("application/json"), v.to_string().into_bytes())
}

fn rpc_error(status: u16, id: &Value, code: i64, message: &str, data: Option<&str>) -> Reply {
    let mut err = json!({"code": code, "message": message});
    if let Some(d) = data {
        err["data"] = json!(d);
    }
    json_reply(status, &json!({"jsonrpc": "2.0", "id": id, "error": err}))
}

fn query_param(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|kv| {
        kv.split_once('=')
            .filter(|(k, _)| *k == name)
            .map(|(_, v)| v.to_owned())
    })
}

async fn handle(shared: &Shared, request: Request<Incoming>, raw: &RawSender) -> Reply {
    let (parts, body) = request.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes().to_vec())
        .unwrap_or_default();
    let record = RecordedRequest {
        method: parts.method.as_str().to_owned(),
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().unwrap_or_default().to_owned(),
        headers: parts
            .headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_ascii_lowercase(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body,
    };
    lock(&shared.log).push(record.clone());
    let key = record
        .header("x-api-key")
        .map(str::to_owned)
        .or_else(|| query_param(&record.query, "apikey"));
    if key.as_deref() != Some(shared.settings.key.as_str()) {
        return json_reply(401, &json!({"detail": "API_TOKEN 无效"}));
    }
    let path = record.path.trim_end_matches('/');
    match (record.method.as_str(), path) {
        ("POST", MCP_PATH) => rpc(shared, &record, raw).await,
        ("DELETE", MCP_PATH) => reply(204, None, Vec::new()),
        ("GET", p) if p.starts_with(MCP_PATH) && p.ends_with("/schema") => {
            let name = p[MCP_PATH.len()..]
                .trim_start_matches("/tools/")
                .trim_end_matches("/schema");
            match shared.catalogue().into_iter().find(|t| t.name == name) {
                Some(t) if shared.settings.wrapped_schema => json_reply(
                    200,
                    &json!({"success": true, "message": "", "data": t.schema}),
                ),
                Some(t) => json_reply(200, &t.schema),
                None => json_reply(404, &json!({"detail": format!("工具 '{name}' 未找到")})),
            }
        }
        _ => json_reply(404, &json!({"detail": "Not Found"})),
    }
}

async fn rpc(shared: &Shared, record: &RecordedRequest, raw: &RawSender) -> Reply {
    let Ok(msg) = serde_json::from_slice::<Value>(&record.body) else {
        return rpc_error(400, &Value::Null, -32700, "Parse error", None);
    };
    if !msg.is_object() || msg.get("jsonrpc") != Some(&json!("2.0")) {
        return rpc_error(
            400,
            msg.get("id").unwrap_or(&Value::Null),
            -32600,
            "Invalid Request",
            None,
        );
    }
    let method = msg.get("method").and_then(Value::as_str).unwrap_or("");
    let Some(id) = msg.get("id").cloned() else {
        // Notifications: accepted without a body.
        return reply(204, None, Vec::new());
    };
    let params = msg.get("params").cloned().unwrap_or(json!({}));
    let ok =
        |result: Value| json_reply(200, &json!({"jsonrpc": "2.0", "id": id, "result": result}));
    match method {
        "notifications/initialized" => rpc_error(
            400,
            &id,
            -32600,
            "Invalid Request",
            Some("notifications carry no id"),
        ),
        "initialize" => {
            let asked = params
                .get("protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or("");
            let version = if SUPPORTED_VERSIONS.contains(&asked) {
                asked
            } else {
                SUPPORTED_VERSIONS[0]
            };
            let mut result = match shared.settings.version {
                Version::Documented => json!({
                    "capabilities": {"tools": {"listChanged": false}, "logging": {}},
                    "serverInfo": {"name": "MoviePilot", "version": "2.9.0", "description": "MoviePilot MCP"},
                    "instructions": "MoviePilot 媒体库自动化管理工具"
                }),
                Version::V2_9_15 => recorded::initialize().clone(),
            };
            result["protocolVersion"] = json!(version);
            ok(result)
        }
        "ping" => ok(json!({})),
        "tools/list" => {
            // v2.9.15 has no schema modes and no pages: every (small) schema, all at once.
            let recorded = shared.settings.version == Version::V2_9_15;
            let full = recorded
                || !shared.settings.ignore_full_mode
                    && (record.header("x-mcp-schema-mode") == Some("full")
                        || query_param(&record.query, "schema_mode").as_deref() == Some("full"));
            let all = shared.catalogue();
            let start: usize = params
                .get("cursor")
                .and_then(Value::as_str)
                .and_then(|c| c.strip_prefix("page-"))
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            let page = if recorded {
                all.len()
            } else {
                shared.settings.page_size
            };
            let end = (start + page).min(all.len());
            let listed: Vec<Value> = all[start.min(end)..end]
                .iter()
                .map(|t| json!({"name": t.name, "description": t.description, "inputSchema": if full { t.schema.clone() } else { project(&t.schema) }}))
                .collect();
            let mut result = json!({"tools": listed});
            if end < all.len() {
                result["nextCursor"] = json!(format!("page-{end}"));
            }
            ok(result)
        }
        "tools/call" => {
            let Some(name) = params.get("name").and_then(Value::as_str) else {
                return rpc_error(400, &id, -32602, "Invalid params", Some("工具名称不能为空"));
            };
            let args = params.get("arguments").cloned().unwrap_or(json!({}));
            let fault = lock(&shared.faults).get(name).cloned();
            if let Some(fault) = fault {
                match fault.reply(&id, &shared.settings.key) {
                    Some(answer) => return shared.responder.send(answer, 0, raw).await,
                    // A late answer: the tool still runs, its answer comes after the wait.
                    None => {
                        if let CallFault::Late(d) = fault {
                            tokio::time::sleep(d).await;
                        }
                    }
                }
            }
            let torrent_search = name == "search_torrents"
                || (name == "moviepilot_api"
                    && args.get("operation_id") == Some(&json!("search.torrents")));
            if torrent_search {
                tokio::time::sleep(shared.settings.torrent_search_delay).await;
            }
            let listed = shared.lists(name);
            if shared.settings.version == Version::V2_9_15 {
                let hidden = tools::HIDDEN.contains(&name);
                return ok(recorded::call(
                    shared.settings.state,
                    name,
                    &args,
                    listed,
                    hidden,
                ));
            }
            // A changed schema is the one the tool is listed with; it is the only one checked.
            let changed = lock(&shared.changes).schemas.get(name).cloned();
            let missing = changed
                .as_ref()
                .and_then(|schema| tools::missing_required(schema, &args).map(|f| (f, schema)));
            let (text, is_error) = match (listed, missing) {
                (false, _) => (format!("错误: 工具 '{name}' 未找到"), true),
                (true, Some((field, schema))) => (tools::invalid_input(field, schema), false),
                (true, None) => tools::call(&mut lock(&shared.state), name, &args),
            };
            let mut result = json!({"content": [{"type": "text", "text": text}]});
            if is_error {
                result["isError"] = json!(true);
            }
            ok(result)
        }
        _ => rpc_error(200, &id, -32601, "Method not found", Some(method)),
    }
}

/// MoviePilot's `auto` mode: a schema over [`PROJECTION_THRESHOLD`] bytes keeps only its
/// top-level object, required fields and the operation/action enum.
fn project(schema: &Value) -> Value {
    if schema.to_string().len() <= PROJECTION_THRESHOLD {
        return schema.clone();
    }
    let required = schema.get("required").cloned().unwrap_or(json!([]));
    let mut props = serde_json::Map::new();
    for key in ["operation_id", "action"] {
        let ops: Vec<Value> = schema
            .get("oneOf")
            .and_then(Value::as_array)
            .map(|b| {
                b.iter()
                    .filter_map(|b| b.pointer(&format!("/properties/{key}/const")).cloned())
                    .collect()
            })
            .unwrap_or_default();
        if !ops.is_empty() {
            props.insert(key.to_owned(), json!({"type": "string", "enum": ops}));
        }
    }
    json!({"type": "object", "properties": props, "required": required, "x-moviepilot-schema-projection": {"mode": "auto", "full_schema_bytes": schema.to_string().len()}})
}

#[cfg(test)]
mod tests;
