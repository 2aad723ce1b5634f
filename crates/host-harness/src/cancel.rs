//! Requests in flight by JSON-RPC id, each with the signal that stops its call when the client
//! cancels it (`notifications/cancelled`).
//!
//! The stdio line filter records a request when it forwards it ([`Cancellations::begin`]),
//! cancels it on the client's notification ([`Cancellations::cancel`]) and forgets it when its
//! answer goes out ([`Cancellations::end`], which says whether that answer must be dropped);
//! the server looks the signal up by the request's id ([`Cancellations::signal`]) and stops
//! the call when it fires.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::RequestId;
use tokio_util::sync::CancellationToken;

/// Requests in flight and their cancellation signals, shared by the transport and the server.
#[derive(Debug, Clone, Default)]
pub struct Cancellations(Arc<Mutex<HashMap<String, CancellationToken>>>);

impl Cancellations {
    fn ids(&self) -> std::sync::MutexGuard<'_, HashMap<String, CancellationToken>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records a request; `false` (and nothing recorded) when its id is in flight already.
    pub fn begin(&self, id: &RequestId) -> bool {
        let mut ids = self.ids();
        let key = id_key(id);
        if ids.contains_key(&key) {
            return false;
        }
        ids.insert(key, CancellationToken::new());
        true
    }

    /// Cancels the request with this id; `false` when no such request is in flight.
    pub fn cancel(&self, id: &RequestId) -> bool {
        match self.ids().get(&id_key(id)) {
            Some(signal) => {
                signal.cancel();
                true
            }
            None => false,
        }
    }

    /// The signal that fires when the request with this id is cancelled.
    pub fn signal(&self, id: &RequestId) -> Option<CancellationToken> {
        self.ids().get(&id_key(id)).cloned()
    }

    /// Forgets the request with this id: `Some(true)` when it had been cancelled (its answer
    /// must not be sent), `None` when it was not in flight.
    pub fn end(&self, id: &RequestId) -> Option<bool> {
        self.ids()
            .remove(&id_key(id))
            .map(|signal| signal.is_cancelled())
    }
}

/// One key per id as rmcp compares them (`7` and `7.0` are the same number, `"7"` another id).
fn id_key(id: &RequestId) -> String {
    serde_json::to_string(id).unwrap_or_default()
}

#[cfg(test)]
mod tests;
