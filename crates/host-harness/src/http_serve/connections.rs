//! The connections held, at most a cap: when it is reached, the connection idle the longest
//! (waiting for a request, or sending its headers) is closed to make room; when none is idle,
//! new connections wait in the listen queue.
//!
//! Each connection keeps two clocks of its own ([`Connection::deadline`]): the idle clock runs
//! from its acceptance or the end of its last request until a byte of the next request
//! arrives, and the header clock from that byte until the request's headers are complete. A
//! [`Place`] is taken before `accept` (so a full registry stops accepting) and becomes a
//! registered connection, its idle clock started, only once a connection has been accepted
//! into it ([`Place::open`]); the bytes are seen by [`Watched`], the connection's socket.

use std::collections::BTreeMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// The open connections.
pub(super) struct Connections {
    slots: Arc<Semaphore>,
    open: Mutex<BTreeMap<u64, Arc<Connection>>>,
    next_id: AtomicU64,
}

/// One open connection, as the registry sees it.
pub(super) struct Connection {
    /// Requests whose answer has not been produced yet.
    requests: AtomicUsize,
    /// When the last request ended (or the connection was accepted).
    last_active: Mutex<Instant>,
    /// When the first byte of a request arrived while no request ran; cleared when the
    /// request's headers are complete.
    head_since: Mutex<Option<Instant>>,
    /// Asks the connection to close (it is idle and its slot is wanted).
    pub(super) close: Notify,
}

/// Room for one connection, taken before one is accepted: released when dropped.
pub(super) struct Place {
    registry: Arc<Connections>,
    slot: OwnedSemaphorePermit,
}

/// A connection's place: released when dropped.
pub(super) struct Held {
    registry: Arc<Connections>,
    id: u64,
    pub(super) connection: Arc<Connection>,
    _slot: OwnedSemaphorePermit,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.registry
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
    }
}

/// Marks a request of a connection as running; dropped when its answer has been sent (it
/// travels in the answer's body, [`Guarded`], so a streamed answer keeps its connection busy).
pub(super) struct Busy(Arc<Connection>);

/// An answer's body that keeps its connection marked busy until the body is done with.
pub(super) struct Guarded<B> {
    pub(super) body: B,
    pub(super) _busy: Busy,
}

impl<B: http_body::Body + Unpin> http_body::Body for Guarded<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<B::Data>, B::Error>>> {
        std::pin::Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        *self
            .0
            .last_active
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Instant::now();
        self.0.requests.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Why a connection's [`deadline`](Connection::deadline) is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Due {
    /// No request since the idle timeout.
    Idle(Instant),
    /// A request's headers began arriving and did not complete within the header timeout.
    Headers(Instant),
}

impl Due {
    pub(super) fn at(self) -> Instant {
        match self {
            Due::Idle(at) | Due::Headers(at) => at,
        }
    }
}

impl Connection {
    /// Marks a request as running until the returned guard is dropped: its headers are
    /// complete.
    pub(super) fn busy(self: &Arc<Self>) -> Busy {
        self.requests.fetch_add(1, Ordering::SeqCst);
        *self
            .head_since
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = None;
        Busy(self.clone())
    }

    fn idle(&self) -> bool {
        self.requests.load(Ordering::SeqCst) == 0
    }

    /// Notes that bytes arrived: while no request runs, they begin the next request's head.
    fn bytes_arrived(&self) {
        if self.idle() {
            self.head_since
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert_with(Instant::now);
        }
    }

    /// When the connection should close: the header timeout after the first byte of a
    /// request whose headers are incomplete, else the idle timeout after its acceptance or
    /// last request; `None` while a request runs.
    pub(super) fn deadline(&self, idle_timeout: Duration, header_timeout: Duration) -> Option<Due> {
        if !self.idle() {
            return None;
        }
        if let Some(since) = *self
            .head_since
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
        {
            return Some(Due::Headers(since + header_timeout));
        }
        let last = *self
            .last_active
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        Some(Due::Idle(last + idle_timeout))
    }
}

/// A connection's socket, telling its [`Connection`] when bytes arrive.
pub(super) struct Watched<S> {
    pub(super) inner: S,
    pub(super) connection: Arc<Connection>,
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(read, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.connection.bytes_arrived();
        }
        read
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, data)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

impl Connections {
    /// A registry holding at most `cap` connections.
    pub(super) fn new(cap: usize) -> Arc<Connections> {
        Arc::new(Connections {
            slots: Arc::new(Semaphore::new(cap)),
            open: Mutex::new(BTreeMap::new()),
            next_id: AtomicU64::new(0),
        })
    }

    /// How many connections are open.
    pub(super) fn len(&self) -> usize {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// A place for the next connection: at once when there is room; else the oldest idle
    /// connection is asked to close, and this waits for a place to free.
    pub(super) async fn place(self: &Arc<Self>) -> Place {
        let slot = match self.slots.clone().try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                self.close_oldest_idle();
                let Ok(slot) = self.slots.clone().acquire_owned().await else {
                    unreachable!("the semaphore is never closed")
                };
                slot
            }
        };
        Place {
            registry: self.clone(),
            slot,
        }
    }

    fn close_oldest_idle(&self) {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(idle) = open.values().find(|c| c.idle()) {
            idle.close.notify_one();
        }
    }
}

impl Place {
    /// Registers the connection just accepted into this place; its idle clock starts now.
    pub(super) fn open(self) -> Held {
        let Place { registry, slot } = self;
        let id = registry.next_id.fetch_add(1, Ordering::SeqCst);
        let connection = Arc::new(Connection {
            requests: AtomicUsize::new(0),
            last_active: Mutex::new(Instant::now()),
            head_since: Mutex::new(None),
            close: Notify::new(),
        });
        registry
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, connection.clone());
        Held {
            registry,
            id,
            connection,
            _slot: slot,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_registry_closes_the_oldest_idle_connection() {
        let registry = Connections::new(2);
        let first = registry.place().await.open();
        let second = registry.place().await.open();
        let _running = second.connection.busy();
        let waiting = tokio::spawn({
            let registry = registry.clone();
            async move { registry.place().await.open().id }
        });
        // The first (idle) connection is asked to close; the busy one is not.
        tokio::time::timeout(Duration::from_secs(5), first.connection.close.notified())
            .await
            .expect("the idle connection is asked to close");
        drop(first);
        assert_eq!(waiting.await.unwrap(), 2);
        assert!(second.connection.deadline(SECOND, SECOND).is_none());
    }

    const SECOND: Duration = Duration::from_secs(1);
    const IDLE: Duration = Duration::from_secs(30);
    const HEADERS: Duration = Duration::from_secs(10);

    fn due(held: &Held) -> Due {
        held.connection.deadline(IDLE, HEADERS).unwrap()
    }

    #[tokio::test]
    async fn a_connection_accepted_after_a_quiet_spell_starts_its_own_idle_clock() {
        let registry = Connections::new(4);
        // The place is taken at once and then waits in `accept` through a quiet spell.
        let place = registry.place().await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        let accepted = Instant::now();
        let held = place.open();
        assert!(matches!(due(&held), Due::Idle(at) if at >= accepted + IDLE));
        // The end of its own request restarts the clock.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let ended = Instant::now();
        drop(held.connection.busy());
        assert!(matches!(due(&held), Due::Idle(at) if at >= ended + IDLE));
    }

    #[tokio::test]
    async fn the_header_clock_runs_from_a_request_s_first_byte_to_its_headers() {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        let registry = Connections::new(4);
        let held = registry.place().await.open();
        let (mut client, server) = tokio::io::duplex(64);
        let mut watched = Watched {
            inner: server,
            connection: held.connection.clone(),
        };
        let mut buf = [0u8; 16];
        // Nothing has arrived: the idle clock.
        assert!(matches!(due(&held), Due::Idle(_)));
        client.write_all(b"POST /").await.unwrap();
        let first_byte = Instant::now();
        let _ = watched.read(&mut buf).await.unwrap();
        let Due::Headers(at) = due(&held) else {
            panic!("a request began: {:?}", due(&held))
        };
        assert!(at >= first_byte + HEADERS && at < first_byte + IDLE);
        // More of the same head does not restart it.
        client.write_all(b"mcp").await.unwrap();
        let _ = watched.read(&mut buf).await.unwrap();
        assert_eq!(due(&held), Due::Headers(at));
        // The headers complete: the request runs, and its body's bytes start no clock.
        let running = held.connection.busy();
        client.write_all(b"{}").await.unwrap();
        let _ = watched.read(&mut buf).await.unwrap();
        assert!(held.connection.deadline(IDLE, HEADERS).is_none());
        let ended = Instant::now();
        drop(running);
        assert!(matches!(due(&held), Due::Idle(at) if at >= ended + IDLE));
    }
}
