//! The one result envelope the harness writes itself: a call that died in the sandbox (trap,
//! timeout, out of memory) still answers with the shape every tool's `outputSchema` declares
//! (the component's `contract/envelope.rs`): `{ok:false, operation, error:{code, message,
//! retryable:false}, warnings, truncated:false, correlation_id}`. Everything else comes from
//! the component.
//!
//! A write tool (not `readOnlyHint`) that died after the guest had sent a request may have
//! changed upstream state: that is `UNKNOWN_OUTCOME` with the component's reconcile warning.
//! The listing does not say which read reconciles which write, so the warning names no tool.

use media_mcp_wire::error_code::ErrorCode;
use serde_json::{Value, json};

use crate::sandbox::{Failure, FailureKind};

/// The contract error code for a sandbox failure.
pub fn error_code(kind: FailureKind) -> ErrorCode {
    match kind {
        FailureKind::Timeout => ErrorCode::Timeout,
        FailureKind::OutOfMemory | FailureKind::Trap | FailureKind::Instantiate => {
            ErrorCode::InternalError
        }
    }
}

/// The warning the component adds to an unknown outcome, with a generic read.
pub const RECONCILE_WARNING: &str =
    "the request may or may not have taken effect: check with a read tool before retrying";

/// Whether a failure of a call to a write tool leaves its effect unknown: the guest had
/// attempted a request (so a mutation may have been delivered) before the host ended it.
pub fn outcome_unknown(failure: &Failure, write: bool) -> bool {
    write && failure.requests_attempted > 0 && failure.kind != FailureKind::Instantiate
}

/// The failure envelope for `tool`; `write`: the tool may change upstream state.
pub fn failure_envelope(tool: &str, correlation_id: &str, failure: &Failure, write: bool) -> Value {
    if outcome_unknown(failure, write) {
        let mut v = error_envelope(
            tool,
            correlation_id,
            ErrorCode::UnknownOutcome,
            &format!(
                "{} after a request had been sent; its effect is unknown, check with a read before retrying",
                failure.message
            ),
        );
        v["warnings"] = json!([RECONCILE_WARNING]);
        return v;
    }
    error_envelope(
        tool,
        correlation_id,
        error_code(failure.kind),
        &failure.message,
    )
}

/// An `ok:false` envelope with the given contract error code.
pub use media_mcp_wire::tool::error_envelope;

#[cfg(test)]
mod tests;
