//! Caching hints (`ttlMs`, `cacheScope`) for modern peers, on `tools/list` and
//! `server/discover`.
//!
//! The catalogue is fixed for the life of a process (no `listChanged`), so a client may keep
//! it for a while; a restart with new settings or a new plugin can change it, and five
//! minutes bounds how long a client keeps the old one. `tools/list` is `private`: the list
//! may differ between authorization contexts (read-only mode today, the scopes of an OAuth
//! token when those decide access), and a shared cache must not hand one caller's list to
//! another. `server/discover` names versions, capabilities and the server, the same for every
//! caller, so it is `public`.

/// How long a client may consider `tools/list` and `server/discover` fresh.
pub const TTL_MS: u64 = 300_000;

/// `cacheScope` of `tools/list`.
pub const TOOLS_LIST_SCOPE: &str = "private";

/// `cacheScope` of `server/discover`.
pub const DISCOVER_SCOPE: &str = "public";
