//! The fakes' accept loop and raw socket replies: a connection task keeps a second handle on
//! its socket, so a reply can take the connection over from hyper, write exact bytes and end
//! with a close, a reset or a stall (the transport faults no well-behaved server produces).

use std::convert::Infallible;
use std::future::Future;
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

/// Serves HTTP/1 on `listener` until `stop` fires: each request goes to `handle` with a
/// [`RawSender`] through which the reply may instead take the connection over (see [`run_raw`]).
pub(crate) async fn accept_loop<H, F, B>(
    listener: std::net::TcpListener,
    mut stop: tokio::sync::oneshot::Receiver<()>,
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
                let Some((stream, spare)) = duplicate(stream) else { continue };
                let handle = handle.clone();
                tokio::spawn(async move {
                    let (raw_tx, raw_rx) = tokio::sync::oneshot::channel::<RawPlan>();
                    let raw_tx: RawSender = Arc::new(Mutex::new(Some(raw_tx)));
                    let service = hyper::service::service_fn(move |request| {
                        let reply = handle(request, raw_tx.clone());
                        async move { Ok::<_, Infallible>(reply.await) }
                    });
                    let connection = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service);
                    tokio::select! {
                        _ = connection => {}
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
