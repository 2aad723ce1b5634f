//! `serve --http ADDR`: an HTTP/1.1 listener in front of the [`Gateway`]. The harness adds
//! what a host owes the transport component: at most `max_in_flight` requests run at once
//! (others wait, and get 503 if no slot frees within the call timeout), each bounded by the
//! call timeout, and SIGINT/SIGTERM stop accepting, let requests in flight finish (for up to
//! the call timeout) and return.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use hyper::server::conn::http1;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use wasmtime_wasi_http::io::TokioIo;

use crate::sandbox::Gateway;
use crate::sandbox::{GatewayResponse, error_response};

/// How the listener behaves.
#[derive(Debug, Clone, Copy)]
pub struct HttpOptions {
    /// Requests handled at once.
    pub max_in_flight: usize,
    /// How long a request may wait for a slot (then 503).
    pub queue_timeout: Duration,
    /// How long shutdown waits for requests in flight.
    pub shutdown_grace: Duration,
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
                        answer(&gateway, &slots, options.queue_timeout, request).await,
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
    gateway: &Gateway,
    slots: &Semaphore,
    queue_timeout: Duration,
    request: hyper::Request<hyper::body::Incoming>,
) -> GatewayResponse {
    let Ok(Ok(_permit)) = tokio::time::timeout(queue_timeout, slots.acquire()).await else {
        let mut busy = error_response(503, "the server is busy: try again");
        busy.headers_mut().insert(
            hyper::header::RETRY_AFTER,
            hyper::header::HeaderValue::from_static("1"),
        );
        return busy;
    };
    gateway.handle(request).await
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
