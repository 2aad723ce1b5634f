//! [`FakeOmbi`]: a real HTTP/1.1 server on `127.0.0.1:<random port>` (tokio + hyper, on its own
//! thread and runtime, so sync and async callers alike can use it) that answers from the
//! embedded fixtures exactly like `tests/python/fake_ombi.py`:
//!
//! 1. every request is recorded ([`RecordedRequest`]);
//! 2. `/health` → 200 `Healthy` (no key needed);
//! 3. a path under `/api/` without the right key (header `ApiKey`, or `?apikey=`) → 401
//!    `Invalid API Key`;
//! 4. the fixture route (see [`RouteTable`]) answers with its status and body file; an entry
//!    without body file answers its status with an empty body and no content type;
//! 5. no route: GET → 200 `text/html` (Ombi's single-page-app fallback), anything else → 500
//!    `{"error":"Object reference not set to an instance of an object."}`.
//!
//! Tests can replace what a route answers while the server runs ([`FakeOmbi::set_override`])
//! with a [`Reply`]: status, content type, body, extra headers, delay; raw bytes on the socket
//! ending in a close, a reset or a stall (a lying `Content-Length`, a reset mid-body); a huge
//! body made while it streams; or one of several replies picked per request. The
//! [`Fault`]s are built from these, and
//! [`FakeOmbi::set_override_everywhere`] applies one to every `/api/` route. A base path
//! ([`FakeOmbiBuilder::base_path`]) serves everything under a prefix, like Ombi's `BaseUrl`.

mod routes;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::BodyExt;
use hyper::body::Incoming;

use crate::faults::Fault;
use crate::fixtures::fixture;
use crate::lock::lock;
use crate::raw::{Connections, RawSender, accept_loop};
use crate::reply::{Body, JSON, Reply, Responder, fingerprint};
use crate::tls::TestCa;
use routes::RouteTable;

/// The body `fake_ombi.py` sends for an unmatched non-GET route.
pub const UNMATCHED_WRITE_BODY: &[u8] =
    br#"{"error":"Object reference not set to an instance of an object."}"#;

/// One request as the fake saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedRequest {
    /// HTTP method.
    pub method: String,
    /// Path as sent (including any base path), without query.
    pub path: String,
    /// Raw query string (`""` when none).
    pub query: String,
    /// The `ApiKey` header.
    pub api_key: Option<String>,
    /// The `apikey` query parameter.
    pub api_key_query: Option<String>,
    /// The `UserName` header.
    pub user_name: Option<String>,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The request body.
    pub body: Vec<u8>,
}

impl RecordedRequest {
    /// The body as (lossy) UTF-8.
    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

struct Shared {
    api_key: String,
    base_path: String,
    routes: RouteTable,
    requests: Mutex<Vec<RecordedRequest>>,
    overrides: Mutex<HashMap<(String, String), Reply>>,
    /// Answers every `/api/` request (after the key check) when set.
    everywhere: Mutex<Option<Reply>>,
    responder: Responder,
}

/// Configures a [`FakeOmbi`] before starting it.
#[derive(Debug, Clone)]
pub struct FakeOmbiBuilder {
    api_key: String,
    base_path: String,
    tls: Option<Arc<rustls::ServerConfig>>,
}

impl FakeOmbiBuilder {
    /// Serves everything under `prefix` (`/ombi`), like Ombi's `BaseUrl` setting; other paths
    /// get 404.
    pub fn base_path(mut self, prefix: &str) -> Self {
        self.base_path = format!("/{}", prefix.trim_matches('/'));
        if self.base_path == "/" {
            self.base_path.clear();
        }
        self
    }

    /// Serves HTTPS with a leaf certificate of `ca` instead of plain HTTP.
    pub fn tls(mut self, ca: &TestCa) -> Self {
        self.tls = Some(ca.server_config());
        self
    }

    /// Binds `127.0.0.1:0` and starts serving on a background thread.
    ///
    /// # Errors
    ///
    /// The socket cannot be bound or the thread cannot start.
    pub fn start(self) -> std::io::Result<FakeOmbi> {
        let index = fixture("index.json")
            .ok_or_else(|| std::io::Error::other("index.json is not embedded"))?;
        let routes = RouteTable::from_index(index).map_err(std::io::Error::other)?;
        let shared = Arc::new(Shared {
            api_key: self.api_key,
            base_path: self.base_path,
            routes,
            requests: Mutex::new(Vec::new()),
            overrides: Mutex::new(HashMap::new()),
            everywhere: Mutex::new(None),
            responder: Responder::new("Kestrel"),
        });
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let connections = Connections::new(self.tls);
        let thread_connections = connections.clone();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let server_shared = shared.clone();
        let thread = std::thread::Builder::new()
            .name("fake-ombi".into())
            .spawn(move || {
                let handler = move |request, raw: RawSender| {
                    let shared = server_shared.clone();
                    async move { handle(&shared, request, &raw).await }
                };
                runtime.block_on(accept_loop(listener, stop_rx, thread_connections, handler));
            })?;
        Ok(FakeOmbi {
            addr,
            shared,
            connections,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }
}

/// A fake Ombi on loopback; stops when dropped.
pub struct FakeOmbi {
    addr: SocketAddr,
    shared: Arc<Shared>,
    connections: Arc<Connections>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for FakeOmbi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeOmbi")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl FakeOmbi {
    /// A builder for a fake that accepts `api_key`.
    pub fn builder(api_key: &str) -> FakeOmbiBuilder {
        FakeOmbiBuilder {
            api_key: api_key.to_owned(),
            base_path: String::new(),
            tls: None,
        }
    }

    /// Starts a fake that accepts `api_key`, with no base path.
    ///
    /// # Errors
    ///
    /// The socket cannot be bound or the thread cannot start.
    pub fn start(api_key: &str) -> std::io::Result<FakeOmbi> {
        Self::builder(api_key).start()
    }

    /// The socket address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The base URL to configure as `OMBI_URL` (`http://127.0.0.1:PORT[/base]`, `https://`
    /// when serving TLS).
    pub fn url(&self) -> String {
        let scheme = if self.connections.is_tls() {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://{}{}", self.addr, self.shared.base_path)
    }

    /// TCP connections accepted so far.
    pub fn connections_accepted(&self) -> usize {
        self.connections.accepted()
    }

    /// Closes every idle connection, as a server whose keep-alive timeout ran out.
    pub fn close_idle_connections(&self) {
        self.connections.close_idle();
    }

    /// Every request so far, oldest first.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.requests).clone()
    }

    /// Forgets the recorded requests.
    pub fn clear_requests(&self) {
        lock(&self.shared.requests).clear();
    }

    /// Makes the route `method` + `template` (as written in `index.json`, query excluded)
    /// answer `reply` from now on. Matching is case-insensitive, as for routing.
    pub fn set_override(&self, method: &str, template: &str, reply: Reply) {
        lock(&self.shared.overrides).insert(override_key(method, template), reply);
    }

    /// Restores one route's fixture answer.
    pub fn clear_override(&self, method: &str, template: &str) {
        lock(&self.shared.overrides).remove(&override_key(method, template));
    }

    /// Restores every route's fixture answer (and clears [`FakeOmbi::set_override_everywhere`]).
    pub fn clear_overrides(&self) {
        lock(&self.shared.overrides).clear();
        *lock(&self.shared.everywhere) = None;
    }

    /// Makes the route answer with `fault` from now on.
    pub fn set_fault(&self, method: &str, template: &str, fault: &Fault) {
        self.set_override(method, template, fault.reply());
    }

    /// Makes every `/api/` request with the right key (routed or not) answer `reply`, before
    /// any per-route override; `None` restores routing.
    pub fn set_override_everywhere(&self, reply: Option<Reply>) {
        *lock(&self.shared.everywhere) = reply;
    }

    /// Filler bytes that [`Reply::Streamed`] bodies have handed to sockets so far: a reader
    /// that stops at its byte cap leaves this far below the announced size.
    pub fn streamed_bytes(&self) -> u64 {
        self.shared.responder.streamed_bytes()
    }
}

impl Drop for FakeOmbi {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn override_key(method: &str, template: &str) -> (String, String) {
    let template = template.split('?').next().unwrap_or(template);
    (method.to_ascii_uppercase(), template.to_ascii_lowercase())
}

async fn handle(shared: &Shared, request: Request<Incoming>, raw: &RawSender) -> Response<Body> {
    let (parts, body) = request.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let query = parts.uri.query().unwrap_or_default().to_owned();
    let record = RecordedRequest {
        method: parts.method.as_str().to_owned(),
        path: parts.uri.path().to_owned(),
        api_key: header("apikey"),
        api_key_query: query_param(&query, "apikey"),
        user_name: header("username"),
        content_type: header("content-type"),
        query,
        body: body.to_vec(),
    };
    let key_ok = record
        .api_key
        .as_deref()
        .or(record.api_key_query.as_deref())
        == Some(shared.api_key.as_str());
    let method = record.method.clone();
    let full_path = record.path.clone();
    let fingerprint = fingerprint(&[
        record.method.as_bytes(),
        record.path.as_bytes(),
        record.query.as_bytes(),
        &record.body,
    ]);
    lock(&shared.requests).push(record);

    let Some(path) = strip_base(&full_path, &shared.base_path) else {
        return shared.responder.respond(
            404,
            Some("text/plain"),
            Bytes::from_static(b"Not Found"),
            &[],
        );
    };
    if path.eq_ignore_ascii_case("/health") {
        return shared.responder.respond(
            200,
            Some("text/plain"),
            Bytes::from_static(b"Healthy"),
            &[],
        );
    }
    if path.to_ascii_lowercase().starts_with("/api/") && !key_ok {
        return shared.responder.respond(
            401,
            Some("text/plain"),
            Bytes::from_static(b"Invalid API Key"),
            &[],
        );
    }
    let everywhere = lock(&shared.everywhere).clone();
    if let Some(reply) = everywhere
        && path.to_ascii_lowercase().starts_with("/api/")
    {
        return shared.responder.send(reply, fingerprint, raw).await;
    }
    let Some(route) = shared.routes.find(&method, path) else {
        return if method == "GET" {
            let page = fixture("err-spa-fallback-html.txt").unwrap_or_default();
            shared
                .responder
                .respond(200, Some("text/html"), Bytes::from_static(page), &[])
        } else {
            shared.responder.respond(
                500,
                Some("application/json"),
                Bytes::from_static(UNMATCHED_WRITE_BODY),
                &[],
            )
        };
    };
    let reply = lock(&shared.overrides)
        .get(&override_key(&method, &route.template))
        .cloned();
    if let Some(reply) = reply {
        return shared.responder.send(reply, fingerprint, raw).await;
    }
    match &route.body_file {
        None => shared
            .responder
            .respond(route.status, None, Bytes::new(), &[]),
        Some(file) => {
            let data = fixture(file).unwrap_or_default();
            shared.responder.respond(
                route.status,
                Some(route.content_type.as_deref().unwrap_or(JSON)),
                Bytes::from_static(data),
                &[],
            )
        }
    }
}

fn strip_base<'a>(path: &'a str, base: &str) -> Option<&'a str> {
    if base.is_empty() {
        return Some(path);
    }
    let head = path.get(..base.len())?;
    let rest = &path[base.len()..];
    (head.eq_ignore_ascii_case(base) && (rest.is_empty() || rest.starts_with('/')))
        .then_some(if rest.is_empty() { "/" } else { rest })
}

fn query_param(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (k == name).then(|| routes::percent_decode(&v.replace('+', " ")))
    })
}

#[cfg(test)]
mod tests;
