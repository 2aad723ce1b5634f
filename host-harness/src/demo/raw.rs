//! Raw socket replies for the fake upstreams (issue 7's transport faults): a connection task
//! keeps a second handle on its socket, so a reply can take the connection over from hyper,
//! write exact bytes and end with a close, a reset or a stall. Shared by the fake Ombi here and
//! the fake MoviePilot in the tests crate.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;

pub use super::fake_ombi::RawEnd;
/// hyper I/O over a tokio stream, for fakes serving HTTP/1 by hand.
pub use wasmtime_wasi_http::io::TokioIo;

/// A raw reply handed from the service to the connection task.
pub struct RawPlan {
    /// Bytes written as they are (status line and headers included).
    pub bytes: Bytes,
    /// How the connection ends after them.
    pub end: RawEnd,
    /// Wait before writing.
    pub delay: Duration,
}

/// The service's one-shot handle to the connection task's raw reply.
pub type RawSender = Arc<Mutex<Option<tokio::sync::oneshot::Sender<RawPlan>>>>;

/// Splits an accepted stream into the handle hyper serves and a spare for a raw reply; dropping
/// hyper's handle closes nothing while the spare lives.
pub fn duplicate(
    stream: tokio::net::TcpStream,
) -> Option<(tokio::net::TcpStream, std::net::TcpStream)> {
    let std_stream = stream.into_std().ok()?;
    let spare = std_stream.try_clone().ok()?;
    Some((tokio::net::TcpStream::from_std(std_stream).ok()?, spare))
}

/// Writes `plan` on the spare handle and ends the connection as it says.
pub async fn run_raw(spare: std::net::TcpStream, plan: RawPlan) {
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
