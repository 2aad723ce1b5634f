use super::*;

#[test]
fn the_limits_nest() {
    // The tool's deadline < the first-byte cap < the call's wall-clock limit.
    assert!(MOVIEPILOT_LONGEST_TOOL_SECS < MOVIEPILOT_MAX_FIRST_BYTE.as_secs());
    assert!(MOVIEPILOT_MAX_FIRST_BYTE.as_secs() < MOVIEPILOT_DEFAULT_CALL_TIMEOUT_SECS);
    assert_eq!(
        (
            MOVIEPILOT_MAX_FIRST_BYTE.as_secs(),
            MOVIEPILOT_DEFAULT_CALL_TIMEOUT_SECS
        ),
        (330, 360)
    );
}
