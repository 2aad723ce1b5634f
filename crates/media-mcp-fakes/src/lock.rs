//! [`lock`]: the fakes' shared state is locked by request handlers and by test threads alike.

use std::sync::{Mutex, MutexGuard};

/// Locks `m`; a panicking test thread must not poison a fake for the other tests.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
