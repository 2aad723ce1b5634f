//! The host's time limits for an upstream whose tools have their own deadlines
//! (`media_mcp_wire::upstreams::Upstream::tool_deadlines`), derived from the longest of them.
//! The component ends the call itself at that deadline; the host's limits sit above it, so
//! they only catch a component that does not.

use std::time::Duration;

use media_mcp_wire::settings::ToolDeadlines;

/// How much longer than the component's longest tool deadline the host waits for the
/// upstream's first response byte: the component's deadline, measured from the start of the
/// call, fires first.
pub(crate) const FIRST_BYTE_MARGIN_SECS: u64 = 30;

/// How much longer than the longest built-in tool deadline a whole call may take by default:
/// the handshake and tool discovery (four requests for MoviePilot) run before the tool, and the
/// first-byte wait must end before the call's wall-clock limit does.
pub(crate) const CALL_MARGIN_SECS: u64 = 60;

/// The longest built-in tool deadline of `deadlines`, in whole seconds.
pub const fn longest_tool_secs(deadlines: &ToolDeadlines) -> u64 {
    deadlines.longest_default_ms().div_ceil(1000)
}

/// The default wall-clock limit of one call when an upstream with `deadlines` is configured.
pub(crate) const fn default_call_timeout_secs(deadlines: &ToolDeadlines) -> u64 {
    longest_tool_secs(deadlines) + CALL_MARGIN_SECS
}

/// The host's cap on the wait for the upstream's first response byte when the component may
/// wait `longest_deadline_ms` for a call and the call's wall-clock limit is
/// `call_timeout_secs`: the deadline plus [`FIRST_BYTE_MARGIN_SECS`], kept below the call's
/// limit. The configuration refuses a call limit that does not outlast the deadline, so the cap
/// never falls below the deadline.
pub(crate) fn first_byte_cap(longest_deadline_ms: u64, call_timeout_secs: u64) -> Duration {
    let deadline_secs = longest_deadline_ms.div_ceil(1000);
    Duration::from_secs(
        (deadline_secs + FIRST_BYTE_MARGIN_SECS)
            .min(call_timeout_secs.saturating_sub(1))
            .max(deadline_secs),
    )
}

#[cfg(test)]
mod tests;
