use super::*;

#[test]
fn the_limits_nest() {
    // The tool's deadline < the first-byte cap < the call's wall-clock limit.
    let cap = moviepilot_first_byte_cap(
        MOVIEPILOT_LONGEST_TOOL_SECS * 1000,
        MOVIEPILOT_DEFAULT_CALL_TIMEOUT_SECS,
    );
    assert!(MOVIEPILOT_LONGEST_TOOL_SECS < cap.as_secs());
    assert!(cap.as_secs() < MOVIEPILOT_DEFAULT_CALL_TIMEOUT_SECS);
    assert_eq!(
        (cap.as_secs(), MOVIEPILOT_DEFAULT_CALL_TIMEOUT_SECS),
        (330, 360)
    );
}

#[test]
fn the_first_byte_cap_follows_the_deadline_and_stays_under_the_call_limit() {
    // A longer deadline moves the cap up with its margin.
    assert_eq!(
        moviepilot_first_byte_cap(450_000, 600),
        Duration::from_secs(480)
    );
    // A call limit close to the deadline pulls the cap under it, never under the deadline.
    assert_eq!(
        moviepilot_first_byte_cap(450_000, 460),
        Duration::from_secs(459)
    );
    assert_eq!(
        moviepilot_first_byte_cap(450_001, 452),
        Duration::from_secs(451)
    );
}
