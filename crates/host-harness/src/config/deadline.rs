//! The host's wall-clock limit of one call, which must outlast the longest deadline the
//! component may use (read by the component's own rule, `media_mcp_wire::settings`).

use std::time::Duration;

use media_mcp_wire::settings::{CALL_DEADLINE, ToolDeadlines};

use super::raw::{ConfigError, RawSettings};
use super::table::{CALL_TIMEOUT_SECS, Kind};
use crate::limits::default_call_timeout_secs;

/// How much longer than the component's longest deadline the host's limit must be at least.
const DEADLINE_SLACK_SECS: u64 = 1;
/// How much longer a default limit is made when a configured deadline needs it raised.
const DEFAULT_EXTRA_SECS: u64 = 29;

/// The call timeout (`MEDIA_MCP_CALL_TIMEOUT_SECS`, or its default raised to outlast the
/// component's longest deadline) and that deadline in ms.
///
/// # Errors
///
/// A timeout out of bounds, or one given shorter than the longest deadline needs.
/// `long` holds the tool deadlines of the configured upstreams that have them.
pub(super) fn host_call_timeout(
    raw: &RawSettings,
    long: &[&ToolDeadlines],
) -> Result<(Duration, u64), ConfigError> {
    let (deadline_ms, deadline_setting) = longest_guest_deadline(raw, long);
    let Kind::Number {
        max,
        default: table_default,
        ..
    } = CALL_TIMEOUT_SECS.kind
    else {
        unreachable!("the call timeout is a number in the table")
    };
    let needed_secs = deadline_ms.div_ceil(1000) + DEADLINE_SLACK_SECS;
    // The host's limit must outlast the component's own deadline, or a call the component
    // would have ended cleanly is cut by the host instead.
    let default = long
        .iter()
        .map(|deadlines| default_call_timeout_secs(deadlines))
        .fold(table_default, u64::max)
        .max(needed_secs + DEFAULT_EXTRA_SECS)
        .min(max);
    let secs = raw.number_or(&CALL_TIMEOUT_SECS, default)?;
    if secs < needed_secs {
        return Err(ConfigError::new(
            CALL_TIMEOUT_SECS.name,
            format!(
                "is {secs} s, but the component may wait {deadline_ms} ms ({deadline_setting}); the host's limit must be at least {needed_secs} s: raise it or lower that deadline"
            ),
        ));
    }
    Ok((Duration::from_secs(secs), deadline_ms))
}

/// The longest whole-call deadline the component will use, in ms, and the setting it comes
/// from: `MEDIA_MCP_CALL_DEADLINE_MS` and, for each of `long`, its variable's entries over its
/// built-in deadlines. Values the component refuses (it then keeps its default and reports the
/// problem) are skipped here the same way.
fn longest_guest_deadline(raw: &RawSettings, long: &[&ToolDeadlines]) -> (u64, String) {
    let call = raw
        .get(CALL_DEADLINE.name)
        .and_then(|text| CALL_DEADLINE.parse(text))
        .unwrap_or(CALL_DEADLINE.default);
    let mut longest = (call, CALL_DEADLINE.name.to_owned());
    for deadlines in long {
        let variable = deadlines.variable.name;
        let mut per_tool: Vec<(&str, u64)> = deadlines.defaults.to_vec();
        for (name, ms) in deadlines
            .entries(raw.get(variable).unwrap_or(""))
            .filter_map(Result::ok)
        {
            per_tool.retain(|(other, _)| *other != name);
            per_tool.push((name, ms));
        }
        for (name, ms) in per_tool {
            if ms > longest.0 {
                longest = (ms, format!("{variable} {name}"));
            }
        }
    }
    longest
}
