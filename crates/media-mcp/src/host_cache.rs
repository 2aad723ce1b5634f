//! Memory the host may keep for the plugin across calls. Each call runs in a fresh instance,
//! so anything worth remembering between calls (MoviePilot's discovered catalogue) lives in the
//! host, behind the `media-mcp:plugin/host-cache` import; a host without a cache plugs in one
//! that remembers nothing ([`NoCache`]), and every call then discovers afresh.

use crate::prelude::*;

/// A string store shared by the plugin's instances. The host may drop any entry at any time,
/// so a reader must treat a missing entry as "ask upstream again".
pub trait HostCache {
    /// Whether anything set may be read back (false for [`NoCache`]).
    fn enabled(&self) -> bool;
    /// The value stored under `key`, if the host still has it.
    fn get(&self, key: &str) -> Option<String>;
    /// Stores `value` under `key`, replacing what was there.
    fn set(&self, key: &str, value: &str);
}

/// A cache that remembers nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoCache;

impl HostCache for NoCache {
    fn enabled(&self) -> bool {
        false
    }

    fn get(&self, _key: &str) -> Option<String> {
        None
    }

    fn set(&self, _key: &str, _value: &str) {}
}
