//! The one result envelope the harness writes itself: a call that died in the sandbox (trap,
//! timeout, out of memory) still answers with the shape every tool's `outputSchema` declares
//! (the component's `contract/envelope.rs`): `{ok:false, operation, error:{code, message,
//! retryable:false}, warnings:[], truncated:false, correlation_id}`. Everything else comes from
//! the component.

use serde_json::{Value, json};

use crate::sandbox::{Failure, FailureKind};

/// The contract error code for a sandbox failure.
pub fn error_code(kind: FailureKind) -> &'static str {
    match kind {
        FailureKind::Timeout => "TIMEOUT",
        FailureKind::OutOfMemory | FailureKind::Trap | FailureKind::Instantiate => "INTERNAL_ERROR",
    }
}

/// The failure envelope for `tool`.
pub fn failure_envelope(tool: &str, correlation_id: &str, failure: &Failure) -> Value {
    error_envelope(
        tool,
        correlation_id,
        error_code(failure.kind),
        &failure.message,
    )
}

/// An `ok:false` envelope with the given contract error code.
pub fn error_envelope(tool: &str, correlation_id: &str, code: &str, message: &str) -> Value {
    json!({
        "ok": false,
        "operation": tool,
        "error": { "code": code, "message": message, "retryable": false },
        "warnings": [],
        "truncated": false,
        "correlation_id": correlation_id,
    })
}

#[cfg(test)]
mod tests;
