//! The MoviePilot backend: MoviePilot serves MCP itself, so the plugin is its MCP
//! client and republishes its tools with the plugin's own honest envelope.
//!
//! Each guest call runs in a fresh instance; what one call learns for the next lives in the
//! host cache ([`crate::host_cache`], laid out by [`memo`]). `list-tools` runs the handshake and
//! full discovery and stores what it found. A call to a bridged tool reads the stored catalogue,
//! checks the arguments against the tool's stored checking form and the safety policy, and
//! sends only `tools/call` (MoviePilot's endpoint keeps no session). With nothing stored (first
//! call, or a host without a cache) the call runs the handshake and discovery itself, completing
//! only that tool's projected schema. Stored knowledge is refreshed once in a call when it
//! cannot be trusted: the tool is not in it, or MoviePilot answers that it does not know the tool
//! or that the arguments break its current contract. Arguments the stored form refuses are
//! refused without a request (the form accepts whatever MoviePilot accepts). Only those answers prove nothing ran, so only after
//! them is `tools/call` sent again, once, and only when the refreshed form differs. A tool
//! MoviePilot no longer lists is an unknown tool. When MoviePilot cannot be reached at listing
//! time, or a name collides with an Ombi tool, a `moviepilot_status` tool is listed whose
//! description and result say what is wrong.
//!
//! `backend.rs` is what the catalogue sees; `bridge.rs` runs one call.
//!
//! In compact schema mode (the default) listing asks MoviePilot for its compact projection and
//! publishes large schemas abridged, plus (when some schema was abridged)
//! `moviepilot_input_contract`, which returns one operation's full contract; a call still checks its arguments against the tool's full schema,
//! read once from the helper endpoint and stored as its checking form.

mod backend;
mod bridge;
mod client;
pub(crate) mod config;
mod contract_tool;
mod discovery;
mod memo;
mod policy;
mod prose;
mod republish;
mod result;
mod schema;
mod status;

#[cfg(test)]
mod tests;

pub(crate) use backend::MoviePilotBackend;
pub(crate) use config::MoviePilotConfig;
