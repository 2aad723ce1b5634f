use super::*;

#[test]
fn timeout_envelope_has_the_contract_shape() {
    let f = Failure {
        kind: FailureKind::Timeout,
        message: "slow".into(),
    };
    let v = failure_envelope("read_search", "c-1", &f);
    assert_eq!(
        v,
        json!({"ok": false, "operation": "read_search",
               "error": {"code": "TIMEOUT", "message": "slow", "retryable": false},
               "warnings": [], "truncated": false, "correlation_id": "c-1"})
    );
}

#[test]
fn traps_and_memory_are_internal_errors() {
    for kind in [
        FailureKind::Trap,
        FailureKind::OutOfMemory,
        FailureKind::Instantiate,
    ] {
        assert_eq!(error_code(kind), "INTERNAL_ERROR");
    }
}
