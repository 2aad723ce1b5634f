//! The connections held, at most a cap: when it is reached, the connection idle the longest
//! (waiting for a request, or sending its headers) is closed to make room; when none is idle,
//! new connections wait in the listen queue. Each connection also closes itself after the idle
//! timeout.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

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
    /// When the last request ended (or the connection opened).
    last_active: Mutex<Instant>,
    /// Asks the connection to close (it is idle and its slot is wanted).
    pub(super) close: Notify,
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

impl Connection {
    /// Marks a request as running until the returned guard is dropped.
    pub(super) fn busy(self: &Arc<Self>) -> Busy {
        self.requests.fetch_add(1, Ordering::SeqCst);
        Busy(self.clone())
    }

    fn idle(&self) -> bool {
        self.requests.load(Ordering::SeqCst) == 0
    }

    /// When the connection, idle since its last request, should close; `None` while a request
    /// runs.
    pub(super) fn idle_deadline(&self, idle_timeout: Duration) -> Option<Instant> {
        self.idle().then(|| {
            *self
                .last_active
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                + idle_timeout
        })
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
    pub(super) async fn place(self: &Arc<Self>) -> Held {
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
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let connection = Arc::new(Connection {
            requests: AtomicUsize::new(0),
            last_active: Mutex::new(Instant::now()),
            close: Notify::new(),
        });
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, connection.clone());
        Held {
            registry: self.clone(),
            id,
            connection,
            _slot: slot,
        }
    }

    fn close_oldest_idle(&self) {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(idle) = open.values().find(|c| c.idle()) {
            idle.close.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_registry_closes_the_oldest_idle_connection() {
        let registry = Connections::new(2);
        let first = registry.place().await;
        let second = registry.place().await;
        let _running = second.connection.busy();
        let waiting = tokio::spawn({
            let registry = registry.clone();
            async move { registry.place().await.id }
        });
        // The first (idle) connection is asked to close; the busy one is not.
        tokio::time::timeout(Duration::from_secs(5), first.connection.close.notified())
            .await
            .expect("the idle connection is asked to close");
        drop(first);
        assert_eq!(waiting.await.unwrap(), 2);
        assert!(
            second
                .connection
                .idle_deadline(Duration::from_secs(1))
                .is_none()
        );
    }
}
