//! MoviePilot's time limits on the host side, derived from one number: how long its slowest tool
//! may take. The component has its own deadline for that tool (its default equals
//! [`MOVIEPILOT_LONGEST_TOOL_SECS`]; `tests/it/moviepilot.rs` fails if the two disagree) and ends
//! the call itself; the host's limits sit above it, so they only catch a component that does not.

use std::time::Duration;

/// The longest a MoviePilot tool may take before answering: `search.torrents`, which searches
/// every configured site, is given 300 s.
pub const MOVIEPILOT_LONGEST_TOOL_SECS: u64 = 300;

/// How much longer than [`MOVIEPILOT_LONGEST_TOOL_SECS`] the host waits for MoviePilot's first
/// response byte: the component's deadline, measured from the start of the call, fires first.
pub(crate) const MOVIEPILOT_FIRST_BYTE_MARGIN_SECS: u64 = 30;

/// How much longer than [`MOVIEPILOT_LONGEST_TOOL_SECS`] a whole call may take by default: the
/// handshake and tool discovery (four requests) run before the tool, and the first-byte wait
/// must end before the call's wall-clock limit does.
pub(crate) const MOVIEPILOT_CALL_MARGIN_SECS: u64 = 60;

/// The host's cap on the wait for MoviePilot's first response byte.
pub(crate) const MOVIEPILOT_MAX_FIRST_BYTE: Duration =
    Duration::from_secs(MOVIEPILOT_LONGEST_TOOL_SECS + MOVIEPILOT_FIRST_BYTE_MARGIN_SECS);

/// The default wall-clock limit of one call when MoviePilot is configured.
pub(crate) const MOVIEPILOT_DEFAULT_CALL_TIMEOUT_SECS: u64 =
    MOVIEPILOT_LONGEST_TOOL_SECS + MOVIEPILOT_CALL_MARGIN_SECS;

#[cfg(test)]
mod tests;
