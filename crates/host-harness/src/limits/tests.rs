use super::*;
use media_mcp_wire::settings::MOVIEPILOT_TOOL_DEADLINES;

#[test]
fn the_limits_nest() {
    // The tool's deadline < the first-byte cap < the call's wall-clock limit.
    let longest = longest_tool_secs(&MOVIEPILOT_TOOL_DEADLINES);
    let call = default_call_timeout_secs(&MOVIEPILOT_TOOL_DEADLINES);
    let cap = first_byte_cap(longest * 1000, call);
    assert!(longest < cap.as_secs());
    assert!(cap.as_secs() < call);
    assert_eq!((cap.as_secs(), call), (330, 360));
}

#[test]
fn the_first_byte_cap_follows_the_deadline_and_stays_under_the_call_limit() {
    // A longer deadline moves the cap up with its margin.
    assert_eq!(first_byte_cap(450_000, 600), Duration::from_secs(480));
    // A call limit close to the deadline pulls the cap under it, never under the deadline.
    assert_eq!(first_byte_cap(450_000, 460), Duration::from_secs(459));
    assert_eq!(first_byte_cap(450_001, 452), Duration::from_secs(451));
}
