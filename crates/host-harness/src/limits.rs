//! MoviePilot's time limits on the host side, derived from one number: how long its slowest tool
//! may take by default, the component's own built-in deadline for it
//! (`media_mcp_wire::settings::MOVIEPILOT_DEFAULT_DEADLINES`). The component ends the call
//! itself at that deadline; the host's limits sit above it, so they only catch a component that
//! does not.

use std::time::Duration;

/// The longest a MoviePilot tool may take before answering by default, in whole seconds.
pub const MOVIEPILOT_LONGEST_TOOL_SECS: u64 =
    media_mcp_wire::settings::moviepilot_longest_default_ms().div_ceil(1000);

/// How much longer than the component's longest MoviePilot deadline the host waits for
/// MoviePilot's first response byte: the component's deadline, measured from the start of the
/// call, fires first.
pub(crate) const MOVIEPILOT_FIRST_BYTE_MARGIN_SECS: u64 = 30;

/// How much longer than [`MOVIEPILOT_LONGEST_TOOL_SECS`] a whole call may take by default: the
/// handshake and tool discovery (four requests) run before the tool, and the first-byte wait
/// must end before the call's wall-clock limit does.
pub(crate) const MOVIEPILOT_CALL_MARGIN_SECS: u64 = 60;

/// The host's cap on the wait for MoviePilot's first response byte when the component may wait
/// `longest_deadline_ms` for a MoviePilot call and the call's wall-clock limit is
/// `call_timeout_secs`: the deadline plus [`MOVIEPILOT_FIRST_BYTE_MARGIN_SECS`], kept below the
/// call's limit. The configuration refuses a call limit that does not outlast the deadline, so
/// the cap never falls below the deadline.
pub(crate) fn moviepilot_first_byte_cap(
    longest_deadline_ms: u64,
    call_timeout_secs: u64,
) -> Duration {
    let deadline_secs = longest_deadline_ms.div_ceil(1000);
    Duration::from_secs(
        (deadline_secs + MOVIEPILOT_FIRST_BYTE_MARGIN_SECS)
            .min(call_timeout_secs.saturating_sub(1))
            .max(deadline_secs),
    )
}

/// The default wall-clock limit of one call when MoviePilot is configured.
pub(crate) const MOVIEPILOT_DEFAULT_CALL_TIMEOUT_SECS: u64 =
    MOVIEPILOT_LONGEST_TOOL_SECS + MOVIEPILOT_CALL_MARGIN_SECS;

#[cfg(test)]
mod tests;
