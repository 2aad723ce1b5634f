//! [`FakeSeerr`]: a real HTTP/1.1 server on `127.0.0.1:<random port>` (its own thread and
//! runtime) answering Seerr v3.1.0's `/api/v1` as it was recorded ([`recorded`]): its route
//! table and request validation, its key check (`X-Api-Key`) and its answers, acting as the
//! user `X-API-User` names. Every request is recorded ([`SeerrRequest`]).

pub mod recorded;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::BodyExt;
use hyper::body::Incoming;

use crate::lock::lock;
use crate::raw::{Connections, RawSender, accept_loop};
use crate::reply::{Body, Responder};
use recorded::{Asked, Auth, Replay};

/// The API key the recordings were made with; [`FakeSeerr::start`] accepts any key given.
pub const RECORDED_KEY: &str = "seerr-test-key-0123456789";

/// One request as the fake saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeerrRequest {
    /// HTTP method.
    pub method: String,
    /// Path as sent, without query.
    pub path: String,
    /// Raw query string (`""` when none).
    pub query: String,
    /// The `X-Api-Key` header.
    pub api_key: Option<String>,
    /// The `X-API-User` header.
    pub api_user: Option<String>,
    /// The request body.
    pub body: Vec<u8>,
}

struct Shared {
    api_key: String,
    requests: Mutex<Vec<SeerrRequest>>,
    replay: Mutex<Replay>,
    responder: Responder,
}

/// A fake Seerr on loopback; stops when dropped.
pub struct FakeSeerr {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for FakeSeerr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeSeerr")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl FakeSeerr {
    /// Starts a fake that accepts `api_key`.
    ///
    /// # Errors
    ///
    /// The socket cannot be bound or the thread cannot start.
    pub fn start(api_key: &str) -> std::io::Result<FakeSeerr> {
        Self::serve(api_key, Replay::default())
    }

    /// Starts a fake that accepts `api_key`, in the state the recordings were in when
    /// `scenario` began (`search`, `requests`, `decisions`, `issues`, `users`, `server`...).
    ///
    /// # Errors
    ///
    /// The socket cannot be bound or the thread cannot start.
    ///
    /// # Panics
    ///
    /// No scenario of that name was recorded.
    pub fn start_at(api_key: &str, scenario: &str) -> std::io::Result<FakeSeerr> {
        Self::serve(api_key, Replay::from_scenario(scenario))
    }

    fn serve(api_key: &str, replay: Replay) -> std::io::Result<FakeSeerr> {
        let shared = Arc::new(Shared {
            api_key: api_key.to_owned(),
            requests: Mutex::new(Vec::new()),
            replay: Mutex::new(replay),
            responder: Responder::new("Express"),
        });
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let connections = Connections::new(None);
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let server_shared = shared.clone();
        let thread = std::thread::Builder::new()
            .name("fake-seerr".into())
            .spawn(move || {
                let handler = move |request, _raw: RawSender| {
                    let shared = server_shared.clone();
                    async move { handle(&shared, request).await }
                };
                runtime.block_on(accept_loop(listener, stop_rx, connections, handler));
            })?;
        Ok(FakeSeerr {
            addr,
            shared,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// The base URL to configure as `SEERR_URL` (`http://127.0.0.1:PORT`).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request so far, oldest first.
    pub fn requests(&self) -> Vec<SeerrRequest> {
        lock(&self.shared.requests).clone()
    }
}

impl Drop for FakeSeerr {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn handle(shared: &Shared, request: Request<Incoming>) -> Response<Body> {
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
    let record = SeerrRequest {
        method: parts.method.as_str().to_owned(),
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().unwrap_or_default().to_owned(),
        api_key: header("x-api-key"),
        api_user: header("x-api-user"),
        body: body.to_vec(),
    };
    lock(&shared.requests).push(record.clone());
    let Some(path) = record.path.strip_prefix("/api/v1") else {
        return shared.responder.respond(
            404,
            Some("text/plain"),
            Bytes::from_static(b"no ui"),
            &[],
        );
    };
    let auth = match record.api_key.as_deref() {
        Some(k) if k == shared.api_key => Auth::Key,
        Some(_) => Auth::Wrong,
        None => Auth::None,
    };
    let asked = Asked {
        method: &record.method,
        path,
        query: &record.query,
        auth,
        user: record.api_user.as_deref(),
        body: serde_json::from_slice(&record.body).ok(),
    };
    let (status, answer) = lock(&shared.replay).answer(&asked);
    match answer {
        Some(v) => shared.responder.respond(
            status,
            Some("application/json; charset=utf-8"),
            Bytes::from(v.to_string()),
            &[],
        ),
        None => shared.responder.respond(status, None, Bytes::new(), &[]),
    }
}

#[cfg(test)]
mod tests;
