use super::*;

#[test]
fn timeout_envelope_has_the_contract_shape() {
    let f = Failure {
        kind: FailureKind::Timeout,
        message: "slow".into(),
        requests_attempted: 1,
    };
    let v = failure_envelope("read_search", "c-1", &f, false);
    assert_eq!(
        v,
        json!({"ok": false, "operation": "read_search",
               "error": {"code": "TIMEOUT", "message": "slow", "retryable": false},
               "warnings": [], "truncated": false, "correlation_id": "c-1"})
    );
}

#[test]
fn a_write_ended_by_the_host_after_a_request_is_an_unknown_outcome() {
    for kind in [
        FailureKind::Timeout,
        FailureKind::Trap,
        FailureKind::OutOfMemory,
    ] {
        let f = Failure {
            kind,
            message: "the call did not finish within 5 s".into(),
            requests_attempted: 2,
        };
        let v = failure_envelope("write_request_create", "c-1", &f, true);
        assert_eq!(v["error"]["code"], "UNKNOWN_OUTCOME", "{kind:?}");
        assert_eq!(v["error"]["retryable"], false);
        assert_eq!(v["warnings"], json!([RECONCILE_WARNING]));
        assert!(RECONCILE_WARNING.contains("before retrying"));
        // Nothing sent yet, or a read: the plain sandbox failure.
        let unsent = Failure {
            requests_attempted: 0,
            ..f.clone()
        };
        let v = failure_envelope("write_request_create", "c-1", &unsent, true);
        assert_eq!(v["error"]["code"], error_code(kind).as_str());
        let v = failure_envelope("read_search", "c-1", &f, false);
        assert_eq!(v["error"]["code"], error_code(kind).as_str());
    }
}

#[test]
fn traps_and_memory_are_internal_errors() {
    for kind in [
        FailureKind::Trap,
        FailureKind::OutOfMemory,
        FailureKind::Instantiate,
    ] {
        assert_eq!(error_code(kind), ErrorCode::InternalError);
    }
}
