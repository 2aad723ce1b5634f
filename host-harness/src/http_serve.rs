//! `serve --http ADDR`: an HTTP/1.1 listener in front of the [`Gateway`]. The harness adds
//! what a host owes the transport component: at most `max_in_flight` requests run at once
//! (others wait, and get 503 if no slot frees within the call timeout), each bounded by the
//! call timeout, and SIGINT/SIGTERM stop accepting, let requests in flight finish (for up to
//! the call timeout) and return.
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
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio::time::Instant;
use wasmtime_wasi_http::io::TokioIo;

use crate::sandbox::Gateway;
use crate::sandbox::{GatewayResponse, error_response};

mod calls;

use calls::{Abandoned, ChannelBody};

/// What the listener answers with: a whole answer, or an event stream.
type HttpResponse = hyper::Response<BoxBody<Bytes, Infallible>>;

/// The largest request body the host reads before the component (the component's own cap);
/// larger or unsized bodies go to the component unread, without progress.
const MAX_PEEKED_BODY: u64 = 4 << 20;

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
}

/// Serves `gateway` on `listener` until `shutdown` resolves, then drains.
///
/// # Errors
///
/// Accepting connections fails.
pub async fn serve(
    gateway: Arc<Gateway>,
    listener: TcpListener,
    options: HttpOptions,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    let slots = Arc::new(Semaphore::new(options.max_in_flight.max(1)));
    let (stop, stopping) = watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted.context("accepting a connection")?,
        };
        let _ = stream.set_nodelay(true);
        let (gateway, slots, mut stopping) = (gateway.clone(), slots.clone(), stopping.clone());
        connections.spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let (gateway, slots) = (gateway.clone(), slots.clone());
                async move {
                    Ok::<_, std::convert::Infallible>(
                        answer(&gateway, &slots, options, request).await,
                    )
                }
            });
            let connection = http1::Builder::new()
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), service);
            tokio::pin!(connection);
            let result = tokio::select! {
                result = connection.as_mut() => result,
                _ = stopping.changed() => {
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(e) = result {
                crate::log_debug!("connection from {peer}: {e}");
            }
        });
        // Reap finished connections so the set does not grow.
        while connections.try_join_next().is_some() {}
    }
    crate::log_info!("shutting down: no new connections, finishing requests in flight");
    let _ = stop.send(true);
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
    Ok(())
}

async fn answer(
    gateway: &Arc<Gateway>,
    slots: &Arc<Semaphore>,
    options: HttpOptions,
    request: hyper::Request<hyper::body::Incoming>,
) -> HttpResponse {
    let Ok(Ok(permit)) =
        tokio::time::timeout(options.queue_timeout, slots.clone().acquire_owned()).await
    else {
        let mut busy = error_response(503, "the server is busy: try again");
        busy.headers_mut().insert(
            hyper::header::RETRY_AFTER,
            hyper::header::HeaderValue::from_static("1"),
        );
        return whole(busy);
    };
    let started = Instant::now();
    let (parts, body) = request.into_parts();
    let declared = parts
        .headers
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if parts.method != hyper::Method::POST || declared.is_none_or(|n| n > MAX_PEEKED_BODY) {
        return whole(
            gateway
                .handle(hyper::Request::from_parts(parts, body))
                .await,
        );
    }
    let read = Limited::new(body, MAX_PEEKED_BODY as usize).collect();
    let body = match tokio::time::timeout(options.queue_timeout, read).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        _ => return whole(error_response(400, "the request body could not be read")),
    };
    let call = calls::tool_call(&body);
    let stream = calls::accepts_event_stream(&parts.headers);
    let request = hyper::Request::from_parts(
        parts,
        Full::new(body)
            .map_err(|never: Infallible| -> wasmtime_wasi_http::Error { match never {} }),
    );
    let Some(call) = call else {
        return whole(gateway.handle(request).await);
    };
    let mut watch = Abandoned::new(call);
    let token = watch.call.progress_token.clone().filter(|_| stream);
    let Some(token) = token else {
        let response = gateway.handle(request).await;
        watch.answered();
        return whole(response);
    };
    let gateway = gateway.clone();
    let mut handle: Pending = Box::pin(async move { gateway.handle(request).await });
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
            watch.call.id
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
