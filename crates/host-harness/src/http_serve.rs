//! `serve --http ADDR`: an HTTP/1.1 listener in front of the [`Gateway`]. The harness adds
//! what a host owes the transport component, in the order a request meets it:
//!
//! * at most a cap of connections ([`connections`], fitted to the descriptor limit by
//!   [`descriptors`]); a failed `accept` (out of descriptors, a connection aborted) is logged
//!   once per burst and retried with back-off, never the end of the server;
//! * no connection idle past the idle timeout (from its acceptance or its last request), and
//!   a request's headers within the header timeout from their first byte;
//! * the transport's admission on the headers alone ([`admission`]): an unauthenticated or
//!   malformed request is answered without reading its body, taking a slot or parsing JSON;
//! * the body within the body timeout and the 4 MiB cap, still without a slot;
//! * at most `max_in_flight` calls run at once (others wait, and get 503 if no slot frees
//!   within the call timeout), each bounded by the call timeout;
//!
//! Health probes (`GET /healthz`, `GET /readyz`) are answered before all of this, without a
//! token or a slot; `/readyz` is 503 once shutdown began.
//!
//! SIGINT/SIGTERM stop accepting (the connections the kernel already completed are
//! still served: [`listener_stop`]), let requests in flight finish (for up to the call
//! timeout) and return.
//!
//! Long calls ([`calls`]): a `tools/call` whose request carries `_meta.progressToken` from a
//! client that accepts `text/event-stream` and that is still running after one progress
//! interval is answered as an event stream: `notifications/progress` every interval, then the
//! answer, then the end. A client that closes the connection before its answer stops the
//! call: hyper drops the request's future, which aborts the component's task (its instance,
//! store and upstream request in flight are dropped), and the call is logged.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::server::conn::http1;
use media_mcp_transport::Settings as Admission;
use media_mcp_transport::health;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tokio::time::Instant;
use wasmtime_wasi_http::io::TokioIo;

use crate::sandbox::Gateway;
use crate::sandbox::{GatewayResponse, error_response};

mod admission;
mod calls;
mod connections;
mod descriptors;
mod jobs;
mod listener_stop;

use connections::{Connections, Due, Guarded, Held, Watched};
use listener_stop::HANDSHAKE_SETTLE;

use calls::{Abandoned, ChannelBody};
use jobs::{HttpJobs, Route};

/// What the listener answers with: a whole answer, or an event stream.
type HttpResponse = hyper::Response<BoxBody<Bytes, Infallible>>;

/// How long a connection asked to close (idle past its timeout, or its place wanted) may take
/// to finish what it was sending before it is dropped.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// How long a connection keeps serving once shutdown began. A balancer may already be sending
/// a request on a kept-alive connection when the listener closes; closing the connection then
/// would lose that request (the balancer cannot tell whether a POST ran, so it does not retry).
/// Requests in this window are answered with `Connection: close`, which ends the connection
/// after the answer; a connection still open after it finishes what it has and closes.
const DRAIN_GRACE: Duration = Duration::from_secs(1);

/// The longest pause between two attempts to accept after `accept` failed.
const MAX_ACCEPT_BACKOFF: Duration = Duration::from_secs(1);

/// How the listener behaves.
#[derive(Debug, Clone, Copy)]
pub struct HttpOptions {
    /// Requests handled at once.
    pub max_in_flight: usize,
    /// How long a request may wait for a slot (then 503).
    pub queue_timeout: Duration,
    /// How long shutdown waits for requests in flight.
    pub shutdown_grace: Duration,
    /// How often a long call reports progress to a client that asked for it.
    pub progress_interval: Duration,
    /// Connections held at once (before the descriptor limit lowers it).
    pub max_connections: usize,
    /// Pooled upstream sockets the harness may keep idle (they share the descriptor limit).
    pub upstream_idle: usize,
    /// Time to send a request's headers.
    pub header_timeout: Duration,
    /// Time a connection may stay open between requests.
    pub idle_timeout: Duration,
    /// Time to send a body.
    pub body_timeout: Duration,
}

/// Serves `gateway` on `listener` until `shutdown` resolves, then drains. `admission` is the
/// transport's configuration, read from the component's environment.
///
/// # Errors
///
/// None today: failures to accept are retried.
pub async fn serve(
    gateway: Arc<Gateway>,
    admission: Admission,
    jobs: Option<crate::jobs::Jobs>,
    listener: TcpListener,
    options: HttpOptions,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    let jobs = jobs.map(|jobs| Arc::new(HttpJobs::new(jobs, &admission.auth)));
    let limit = descriptors::raise_limit();
    let cap = descriptors::connection_cap(
        options.max_connections,
        limit,
        options.max_in_flight,
        options.upstream_idle,
    );
    crate::log_info!(
        "at most {cap} connections (descriptor limit {limit}), {} calls at once; timeouts: headers {} s, idle {} s, body {} s",
        options.max_in_flight,
        options.header_timeout.as_secs(),
        options.idle_timeout.as_secs(),
        options.body_timeout.as_secs()
    );
    let open = Connections::new(cap);
    let (stop, stopping) = watch::channel(false);
    let shared = Shared {
        gateway,
        slots: Arc::new(Semaphore::new(options.max_in_flight.max(1))),
        admission: Arc::new(admission),
        jobs: jobs.clone(),
        stopping,
        options,
    };
    let mut connections = JoinSet::new();
    let mut failures = 0u32;
    tokio::pin!(shutdown);
    loop {
        let place = tokio::select! {
            () = &mut shutdown => break,
            place = open.place() => place,
        };
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => {
                if failures > 0 {
                    crate::log_info!(
                        "accepting connections again after {failures} failed attempt(s)"
                    );
                    failures = 0;
                }
                accepted
            }
            Err(e) => {
                failures += 1;
                if failures == 1 {
                    crate::log_warn!(
                        "accepting a connection failed ({e}); retrying with back-off, {} connections open",
                        open.len()
                    );
                }
                let pause = Duration::from_millis(10 << failures.min(7)).min(MAX_ACCEPT_BACKOFF);
                tokio::select! {
                    () = &mut shutdown => break,
                    () = tokio::time::sleep(pause) => continue,
                }
            }
        };
        spawn_connection(&mut connections, &shared, place.open(), stream, peer);
        // Reap finished connections so the set does not grow.
        while connections.try_join_next().is_some() {}
    }
    crate::log_info!("shutting down: no new connections, finishing requests in flight");
    let _ = stop.send(true);
    take_last_connections(&listener, &open, &mut connections, &shared).await;
    drop(listener);
    let drained = tokio::time::timeout(options.shutdown_grace, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        crate::log_warn!(
            "{} connection(s) still open after {} s; closing them",
            connections.len(),
            options.shutdown_grace.as_secs()
        );
        connections.abort_all();
    }
    if let Some(jobs) = jobs {
        crate::jobs::finish_running(jobs.registry(), options.shutdown_grace).await;
    }
    Ok(())
}

/// What every connection's task shares.
#[derive(Clone)]
struct Shared {
    gateway: Arc<Gateway>,
    slots: Arc<Semaphore>,
    admission: Arc<Admission>,
    jobs: Option<Arc<HttpJobs>>,
    stopping: watch::Receiver<bool>,
    options: HttpOptions,
}

/// Serves one accepted connection in `place` until it closes, or until shutdown has let it
/// finish what it was doing.
fn spawn_connection(
    connections: &mut JoinSet<()>,
    shared: &Shared,
    place: Held,
    stream: TcpStream,
    peer: SocketAddr,
) {
    let _ = stream.set_nodelay(true);
    let Shared {
        gateway,
        slots,
        admission,
        jobs,
        mut stopping,
        options,
    } = shared.clone();
    connections.spawn(async move {
        let connection = place.connection.clone();
        let draining = stopping.clone();
        let service = hyper::service::service_fn(move |request| {
            let (gateway, slots, admission) = (gateway.clone(), slots.clone(), admission.clone());
            let jobs = jobs.clone();
            let busy = connection.busy();
            let draining = draining.clone();
            async move {
                let mut answer = match probe(&request, &draining) {
                    Some(probe) => probe,
                    None => {
                        let front = Front {
                            gateway: &gateway,
                            admission: &admission,
                            jobs: jobs.as_ref(),
                            slots: &slots,
                        };
                        answer(front, options, request).await
                    }
                };
                if *draining.borrow() {
                    answer.headers_mut().insert(
                        hyper::header::CONNECTION,
                        hyper::header::HeaderValue::from_static("close"),
                    );
                }
                Ok::<_, std::convert::Infallible>(
                    answer.map(|body| Guarded { body, _busy: busy }),
                )
            }
        });
        // The header timeout is the loop's below (hyper's, its only use of a timer here, would
        // also run while a kept-alive connection waits, cutting the idle timeout to it).
        let io = Watched {
            inner: stream,
            connection: place.connection.clone(),
        };
        let served = http1::Builder::new()
            .header_read_timeout(None)
            .keep_alive(true)
            .serve_connection(TokioIo::new(io), service);
        tokio::pin!(served);
        let this = place.connection.clone();
        let (idle, headers) = (options.idle_timeout, options.header_timeout);
        let result = loop {
            let wake = this
                .deadline(idle, headers)
                .map_or_else(|| Instant::now() + idle, Due::at);
            tokio::select! {
                result = served.as_mut() => break result,
                _ = stopping.changed() => {
                    if let Ok(result) = tokio::time::timeout(DRAIN_GRACE, served.as_mut()).await {
                        break result;
                    }
                    served.as_mut().graceful_shutdown();
                    break served.as_mut().await;
                }
                () = this.close.notified() => {
                    served.as_mut().graceful_shutdown();
                    break tokio::time::timeout(CLOSE_GRACE, served.as_mut()).await.unwrap_or(Ok(()));
                }
                () = tokio::time::sleep_until(wake) => {
                    match this.deadline(idle, headers) {
                        Some(Due::Idle(at)) if at <= Instant::now() => {
                            served.as_mut().graceful_shutdown();
                            break tokio::time::timeout(CLOSE_GRACE, served.as_mut()).await.unwrap_or(Ok(()));
                        }
                        Some(Due::Headers(at)) if at <= Instant::now() => {
                            crate::log_debug!(
                                "connection from {peer}: headers incomplete after {} s; closed",
                                headers.as_secs()
                            );
                            break Ok(());
                        }
                        _ => {}
                    }
                }
            }
        };
        drop(place);
        if let Err(e) = result {
            crate::log_debug!("connection from {peer}: {e}");
        }
    });
}

/// Serves the connections that reach the listener as it stops. Closing it would reset them,
/// so new handshakes are refused first, those under way get [`HANDSHAKE_SETTLE`] to complete,
/// and every connection the kernel queued is accepted before it closes ([`listener_stop`]).
async fn take_last_connections(
    listener: &TcpListener,
    open: &Arc<Connections>,
    connections: &mut JoinSet<()>,
    shared: &Shared,
) {
    let settle = match listener_stop::refuse_new_handshakes(listener) {
        Ok(()) => HANDSHAKE_SETTLE,
        Err(e) => {
            crate::log_debug!("new connections are not refused before the listener closes: {e}");
            Duration::ZERO
        }
    };
    let until = Instant::now() + settle;
    let mut taken = 0usize;
    while let Ok(Ok((stream, peer))) = tokio::time::timeout_at(until, listener.accept()).await {
        spawn_connection(connections, shared, open.place().await.open(), stream, peer);
        taken += 1;
    }
    for (stream, peer) in listener_stop::queued(listener) {
        spawn_connection(connections, shared, open.place().await.open(), stream, peer);
        taken += 1;
    }
    if taken > 0 {
        crate::log_debug!("{taken} connection(s) reached the listener as it stopped; serving them");
    }
}

/// The answer to a health probe (`/healthz`, `/readyz`), whatever the MCP path, the
/// authentication or the calls in flight: it is not admitted, takes no slot and reads no body.
/// Ready until shutdown begins: serving starts once the component is loaded and the
/// configuration checked.
fn probe(
    request: &hyper::Request<hyper::body::Incoming>,
    draining: &watch::Receiver<bool>,
) -> Option<HttpResponse> {
    let path = request
        .uri()
        .path_and_query()
        .map_or("/", hyper::http::uri::PathAndQuery::as_str);
    let ready = if *draining.borrow() {
        Err(health::NotReady::Draining)
    } else {
        Ok(())
    };
    health::probe(request.method().as_str(), path, ready).map(|r| whole(admission::to_hyper(r)))
}

/// What answering a request needs.
#[derive(Clone, Copy)]
struct Front<'a> {
    gateway: &'a Arc<Gateway>,
    admission: &'a Admission,
    jobs: Option<&'a Arc<HttpJobs>>,
    slots: &'a Arc<Semaphore>,
}

async fn answer(
    front: Front<'_>,
    options: HttpOptions,
    request: hyper::Request<hyper::body::Incoming>,
) -> HttpResponse {
    let Front {
        gateway,
        admission,
        jobs,
        slots,
    } = front;
    let (parts, body) = request.into_parts();
    let admitted = match admission::check(admission, &parts) {
        Ok(admitted) => admitted,
        Err(refusal) => return whole(refusal),
    };
    let read = Limited::new(body, admitted.body_cap).collect();
    let body = match tokio::time::timeout(options.body_timeout, read).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            return whole(admission::too_large());
        }
        Ok(Err(_)) => {
            return whole(admission::body_refusal(
                400,
                "the request body could not be read",
            ));
        }
        Err(_) => {
            crate::log_debug!(
                "a request body did not arrive within {} s",
                options.body_timeout.as_secs()
            );
            return whole(admission::body_refusal(
                408,
                &format!(
                    "request timeout: the body did not arrive within {} s",
                    options.body_timeout.as_secs()
                ),
            ));
        }
    };
    let Ok(Ok(permit)) =
        tokio::time::timeout(options.queue_timeout, slots.clone().acquire_owned()).await
    else {
        crate::log_warn!(
            "a request waited {} s for one of the {} slots and got 503",
            options.queue_timeout.as_secs(),
            options.max_in_flight
        );
        let mut busy = error_response(503, "the server is busy: try again");
        busy.headers_mut().insert(
            hyper::header::RETRY_AFTER,
            hyper::header::HeaderValue::from_static("1"),
        );
        return whole(busy);
    };
    let started = Instant::now();
    let route = jobs.map_or(Route::Forward, |jobs| jobs.route(&body, &admitted));
    let call = calls::tool_call(&body);
    let stream = calls::accepts_event_stream(&parts.headers);
    let owner = jobs.map(|jobs| jobs.owner(&parts, &admitted));
    if let (Some(jobs), Route::JobTool(_) | Route::Task(_)) = (jobs, &route)
        && let Err(refusal) = jobs.authenticated(gateway, &parts).await
    {
        return whole(refusal);
    }
    let request = hyper::Request::from_parts(parts, Full::new(body));
    let pending = pending(gateway, jobs, route, owner.unwrap_or_default(), request);
    let pending = match pending {
        Ok(pending) => pending,
        Err(answered) => {
            let response = answered.await;
            drop(permit);
            return whole(response);
        }
    };
    let Some(call) = call else {
        let response = pending.await;
        drop(permit);
        return whole(response);
    };
    let mut watch = Abandoned::new(call);
    let token = watch.call.progress_token.clone().filter(|_| stream);
    let Some(token) = token else {
        let response = pending.await;
        watch.answered();
        drop(permit);
        return whole(response);
    };
    let mut handle: Pending = pending;
    tokio::select! {
        response = &mut handle => {
            watch.answered();
            return whole(response);
        }
        () = tokio::time::sleep(options.progress_interval) => {}
    }
    // Still running after one interval: answer as an event stream from here on.
    let (sender, receiver) = mpsc::channel(4);
    tokio::spawn(stream_progress(
        handle,
        watch,
        token,
        permit,
        sender,
        started,
        options.progress_interval,
    ));
    let mut response = hyper::Response::new(ChannelBody(receiver).boxed());
    let headers = response.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(
        hyper::header::CACHE_CONTROL,
        hyper::header::HeaderValue::from_static("no-cache"),
    );
    // nginx-based proxies would otherwise hold the progress events back.
    headers.insert(
        "x-accel-buffering",
        hyper::header::HeaderValue::from_static("no"),
    );
    response
}

/// A call in flight in the gateway.
type Pending = std::pin::Pin<Box<dyn Future<Output = GatewayResponse> + Send>>;

/// The answer to `request` by its route: `Ok` for a tool call (answered by the component, or
/// through the job registry, or a job tool), which may report progress; `Err` for the rest.
fn pending(
    gateway: &Arc<Gateway>,
    jobs: Option<&Arc<HttpJobs>>,
    route: Route,
    owner: String,
    request: hyper::Request<Full<Bytes>>,
) -> Result<Pending, Pending> {
    let gateway = gateway.clone();
    let jobs = jobs.cloned();
    Ok(match (route, jobs) {
        (Route::Extend(call), Some(jobs)) => {
            return Err(Box::pin(async move {
                jobs.extend(&call, &gateway, request).await
            }));
        }
        (Route::Task(call), Some(jobs)) => {
            return Err(Box::pin(async move { jobs.task(&call, &owner) }));
        }
        (Route::JobTool(call), Some(jobs)) => {
            Box::pin(async move { jobs.job_tool(&call, &owner).await })
        }
        (Route::Call(call), Some(jobs)) => {
            Box::pin(async move { jobs.call(&call, &owner, gateway, request).await })
        }
        _ => Box::pin(async move { gateway.handle(request).await }),
    })
}

/// Sends progress events into `sender` until `handle` answers, then the answer. When the
/// client goes away (the receiver is dropped), `handle` is dropped, which stops the call, and
/// `watch` logs it.
async fn stream_progress(
    handle: Pending,
    mut watch: Abandoned,
    token: serde_json::Value,
    _permit: OwnedSemaphorePermit,
    sender: mpsc::Sender<Bytes>,
    started: Instant,
    interval: Duration,
) {
    let call = watch.call.clone();
    let report = |sender: &mpsc::Sender<Bytes>| {
        let event = calls::progress_event(&call, &token, started.elapsed());
        let sender = sender.clone();
        async move { sender.send(event).await.is_ok() }
    };
    if !report(&sender).await {
        return;
    }
    let response = tokio::select! {
        response = crate::progress::with_progress(handle, interval, |_| {
            let sent = report(&sender);
            async move { let _ = sent.await; }
        }) => response,
        () = sender.closed() => return,
    };
    watch.answered();
    let content_type = response
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let body = match response.into_body().collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(never) => match never {},
    };
    match calls::final_event(&content_type, &body) {
        Some(last) => {
            let _ = sender.send(last).await;
        }
        None => crate::log_warn!(
            "tools/call {} (request id {}): the component's answer ({content_type}) cannot end an event stream",
            watch.call.name,
            watch.call.shown_id()
        ),
    }
}

fn whole(response: GatewayResponse) -> HttpResponse {
    response.map(http_body_util::BodyExt::boxed)
}

/// Resolves on SIGINT or SIGTERM.
///
/// # Errors
///
/// The signal handlers cannot be installed.
pub fn shutdown_signal() -> anyhow::Result<impl Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt()).context("installing SIGINT")?;
    let mut terminate = signal(SignalKind::terminate()).context("installing SIGTERM")?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

/// Binds `addr` (loopback is the safe default: see the README on TLS and proxies).
///
/// # Errors
///
/// The address is taken or not allowed.
pub async fn bind(addr: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(addr)
        .await
        .with_context(|| format!("listening on {addr}"))
}
