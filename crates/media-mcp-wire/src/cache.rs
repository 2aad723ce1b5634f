//! Caching hints (`ttlMs`, `cacheScope`) for modern peers, on `tools/list`,
//! `server/discover`, the resource and prompt lists and `resources/read`.
//!
//! The catalogue is fixed for the life of a process (no `listChanged`), so a client may keep
//! it for a while; a restart with new settings or a new plugin can change it, and five
//! minutes bounds how long a client keeps the old one. `tools/list` is `private`: the list
//! may differ between authorization contexts (read-only mode today, the scopes of an OAuth
//! token when those decide access), and a shared cache must not hand one caller's list to
//! another. `server/discover` names versions, capabilities and the server, the same for every
//! caller, so it is `public`; so are the views, the (empty) template list and the prompts,
//! which are built into the binary and the same for every caller.

/// How long a client may consider `tools/list`, `server/discover`, the resource and prompt
/// lists and a read view fresh.
pub const TTL_MS: u64 = 300_000;

/// `cacheScope` of `tools/list`.
pub const TOOLS_LIST_SCOPE: &str = "private";

/// `cacheScope` of `server/discover`.
pub const DISCOVER_SCOPE: &str = "public";

/// `cacheScope` of `resources/list`, `resources/templates/list`, `resources/read` and
/// `prompts/list`.
pub const BUILT_IN_SCOPE: &str = "public";
