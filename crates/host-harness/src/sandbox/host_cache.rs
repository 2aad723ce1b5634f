//! `media-mcp:plugin/host-cache`: text entries the plugin keeps between calls (each call runs in
//! a fresh instance), in memory, shared by every instance of one loaded component, bounded in
//! bytes. When an entry would pass the bound, the oldest writes are dropped first; the plugin
//! reads a missing entry as "ask the upstream again", so dropping is always safe.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use super::bindings::media_mcp::plugin::host_cache;

/// Bytes of keys and values kept at most per loaded component.
pub const CAPACITY_BYTES: usize = 32 << 20;

/// The entries and their write order.
#[derive(Debug, Default)]
struct Entries {
    /// Key → (value, the write that stored it).
    map: HashMap<String, (String, u64)>,
    /// Writes, oldest first (a replaced entry's old write is skipped when reached).
    order: VecDeque<(String, u64)>,
    bytes: usize,
    writes: u64,
}

/// The cache of one loaded component.
#[derive(Debug)]
pub struct HostCache {
    capacity: usize,
    entries: Mutex<Entries>,
}

impl Default for HostCache {
    fn default() -> Self {
        Self::with_capacity(CAPACITY_BYTES)
    }
}

impl HostCache {
    /// A cache keeping at most `capacity` bytes of keys and values.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            capacity,
            entries: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        // The entries stay consistent between statements, so a panic elsewhere leaves them usable.
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<String> {
        self.lock().map.get(key).map(|(v, _)| v.clone())
    }

    /// Stores `value` under `key`, dropping the oldest entries past the bound; an entry larger
    /// than the whole bound is not kept (and the older value under `key` is dropped).
    pub fn set(&self, key: String, value: String) {
        let size = key.len() + value.len();
        let mut e = self.lock();
        if let Some((old, _)) = e.map.remove(&key) {
            e.bytes -= key.len() + old.len();
        }
        if size > self.capacity {
            return;
        }
        e.writes += 1;
        let write = e.writes;
        e.order.push_back((key.clone(), write));
        e.map.insert(key, (value, write));
        e.bytes += size;
        while e.bytes > self.capacity {
            let Some((oldest, w)) = e.order.pop_front() else {
                break;
            };
            if e.map.get(&oldest).is_some_and(|(_, current)| *current == w)
                && let Some((v, _)) = e.map.remove(&oldest)
            {
                e.bytes -= oldest.len() + v.len();
            }
        }
        // Writes of replaced entries pile up in `order`; drop them once they outnumber entries.
        if e.order.len() > 2 * e.map.len() + 64 {
            let Entries { map, order, .. } = &mut *e;
            order.retain(|(k, w)| map.get(k).is_some_and(|(_, current)| current == w));
        }
    }

    /// Bytes of keys and values held.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.lock().bytes
    }
}

impl host_cache::Host for &HostCache {
    fn capacity(&mut self) -> u64 {
        self.capacity as u64
    }

    fn get(&mut self, key: String) -> Option<String> {
        HostCache::get(self, &key)
    }

    fn set(&mut self, key: String, value: String) {
        HostCache::set(self, key, value);
    }
}

#[cfg(test)]
mod tests;
