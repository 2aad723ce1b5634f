//! The fakes' accept loop and raw socket replies: a connection task keeps a second handle on
//! its socket, so a reply can take the connection over from hyper, write exact bytes and end
//! with a close, a reset or a stall (the transport faults no well-behaved server produces).

use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use hyper::body::Incoming;

use wasmtime_wasi_http::io::TokioIo;

/// How a [`Reply::Raw`] connection ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawEnd {
    /// An orderly close (FIN) after the bytes.
    Close,
    /// A reset (RST, `SO_LINGER` 0) after the bytes.
    Reset,
    /// Keep the connection open and silent for this long, then close.
    Stall(Duration),
}

/// A raw reply handed from the service to the connection task.
pub(crate) struct RawPlan {
    /// Bytes written as they are (status line and headers included).
    pub(crate) bytes: Bytes,
    /// How the connection ends after them.
    pub(crate) end: RawEnd,
    /// Wait before writing.
    pub(crate) delay: Duration,
}

/// The service's one-shot handle to the connection task's raw reply.
pub(crate) type RawSender = Arc<Mutex<Option<tokio::sync::oneshot::Sender<RawPlan>>>>;

/// Splits an accepted stream into the handle hyper serves and a spare for a raw reply; dropping
/// hyper's handle closes nothing while the spare lives.
fn duplicate(
    stream: tokio::net::TcpStream,
) -> Option<(tokio::net::TcpStream, std::net::TcpStream)> {
    let std_stream = stream.into_std().ok()?;
    let spare = std_stream.try_clone().ok()?;
    Some((tokio::net::TcpStream::from_std(std_stream).ok()?, spare))
}

/// Writes `plan` on the spare handle and ends the connection as it says.
async fn run_raw(spare: std::net::TcpStream, plan: RawPlan) {
    use tokio::io::AsyncWriteExt as _;
    let Ok(mut stream) = tokio::net::TcpStream::from_std(spare) else {
        return;
    };
    if !plan.delay.is_zero() {
        tokio::time::sleep(plan.delay).await;
    }
    if !plan.bytes.is_empty() {
        let _ = stream.write_all(&plan.bytes).await;
        let _ = stream.flush().await;
    }
    match plan.end {
        RawEnd::Close => {
            let _ = stream.shutdown().await;
        }
        // Zero linger makes the close send RST; the socket is non-blocking, so nothing blocks.
        RawEnd::Reset => {
            let _ = stream.set_zero_linger();
        }
        RawEnd::Stall(duration) => tokio::time::sleep(duration).await,
    }
}

/// What a fake's connections share: how many were accepted, a signal that closes the idle
/// ones, and the TLS configuration when the fake serves HTTPS.
pub(crate) struct Connections {
    accepted: AtomicUsize,
    close_idle: tokio::sync::watch::Sender<u64>,
    tls: Option<tokio_rustls::TlsAcceptor>,
}

impl Connections {
    /// Plain HTTP, or HTTPS with `tls`.
    pub(crate) fn new(tls: Option<Arc<rustls::ServerConfig>>) -> Arc<Connections> {
        Arc::new(Connections {
            accepted: AtomicUsize::new(0),
            close_idle: tokio::sync::watch::channel(0).0,
            tls: tls.map(tokio_rustls::TlsAcceptor::from),
        })
    }

    /// Whether connections are HTTPS.
    pub(crate) fn is_tls(&self) -> bool {
        self.tls.is_some()
    }

    /// TCP connections accepted so far (TLS handshakes that failed included).
    pub(crate) fn accepted(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }

    /// Closes every connection that is between requests now (a request in progress is
    /// answered first, then its connection closes), as a server whose keep-alive ran out.
    pub(crate) fn close_idle(&self) {
        self.close_idle.send_modify(|generation| *generation += 1);
    }
}

/// Serves HTTP/1 on `listener` until `stop` fires: each request goes to `handle` with a
/// [`RawSender`] through which the reply may instead take the connection over (see
/// [`run_raw`]; its bytes are written on the TCP socket, so over TLS only the byte-less endings
/// make sense).
pub(crate) async fn accept_loop<H, F, B>(
    listener: std::net::TcpListener,
    mut stop: tokio::sync::oneshot::Receiver<()>,
    connections: Arc<Connections>,
    handle: H,
) where
    H: Fn(Request<Incoming>, RawSender) -> F + Clone + Send + Sync + 'static,
    F: Future<Output = Response<B>> + Send + 'static,
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
        return;
    };
    loop {
        tokio::select! {
            _ = &mut stop => return,
            accepted = listener.accept() => {
                let Ok((stream, _peer)) = accepted else { continue };
                connections.accepted.fetch_add(1, Ordering::SeqCst);
                let Some((stream, spare)) = duplicate(stream) else { continue };
                let handle = handle.clone();
                let connections = connections.clone();
                tokio::spawn(async move {
                    let (raw_tx, raw_rx) = tokio::sync::oneshot::channel::<RawPlan>();
                    let raw_tx: RawSender = Arc::new(Mutex::new(Some(raw_tx)));
                    let service = hyper::service::service_fn(move |request| {
                        let reply = handle(request, raw_tx.clone());
                        async move { Ok::<_, Infallible>(reply.await) }
                    });
                    let close_idle = connections.close_idle.subscribe();
                    let served = async {
                        match &connections.tls {
                            None => serve(stream, service, close_idle).await,
                            Some(acceptor) => {
                                if let Ok(tls) = acceptor.accept(stream).await {
                                    serve(tls, service, close_idle).await;
                                }
                            }
                        }
                    };
                    tokio::select! {
                        () = served => {}
                        plan = raw_rx => {
                            if let Ok(plan) = plan {
                                run_raw(spare, plan).await;
                            }
                        }
                    }
                });
            }
        }
    }
}

/// Serves one connection until it ends, closing it when `close_idle` changes while it is idle.
async fn serve<S, Svc, B>(
    stream: S,
    service: Svc,
    mut close_idle: tokio::sync::watch::Receiver<u64>,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
    Svc: hyper::service::Service<Request<Incoming>, Response = Response<B>, Error = Infallible>,
    Svc::Future: Send + 'static,
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let connection =
        hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service);
    let mut connection = std::pin::pin!(connection);
    let mut signalled = false;
    loop {
        tokio::select! {
            _ = connection.as_mut() => return,
            changed = close_idle.changed(), if !signalled => {
                signalled = changed.is_err();
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}
