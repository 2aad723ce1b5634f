//! Why a call produced no answer, as a [`Failure`] whose message is safe to show to clients:
//! the epoch interrupt and the wall-clock timeout are `Timeout`, a refused memory growth is
//! `OutOfMemory`, anything else (a trap, `wasi:cli/exit`, a host error) is `Trap`.

use std::time::Duration;

use wasmtime::Trap;

/// Why a call did not produce an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The call exceeded its wall-clock or CPU budget.
    Timeout,
    /// The guest hit its memory limit.
    OutOfMemory,
    /// The guest trapped (panic, unreachable, ...).
    Trap,
    /// The component could not be instantiated.
    Instantiate,
}

/// A call that failed in the sandbox; `message` is safe to show to clients.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What happened.
    pub kind: FailureKind,
    /// A short human-readable explanation.
    pub message: String,
    /// Outgoing requests the guest attempted before it failed (a write's mutation may have
    /// been delivered when this is not 0).
    pub requests_attempted: usize,
}

pub(super) fn timeout_failure(call_timeout: Duration) -> Failure {
    Failure {
        kind: FailureKind::Timeout,
        message: format!(
            "the call did not finish within {} s",
            call_timeout.as_secs()
        ),
        requests_attempted: 0,
    }
}

/// Maps an error from a guest call to a [`Failure`]: the epoch interrupt is a timeout, a refused
/// memory growth is out-of-memory, anything else (trap, `exit`, host error) a failed plugin.
pub(super) fn classify(
    error: &wasmtime::Error,
    call_timeout: Duration,
    memory_limit_bytes: usize,
) -> Failure {
    if error.downcast_ref::<Trap>() == Some(&Trap::Interrupt) {
        return timeout_failure(call_timeout);
    }
    if format!("{error:#}").contains("forcing trap when growing memory") {
        return Failure {
            kind: FailureKind::OutOfMemory,
            message: format!(
                "the plugin ran out of memory (limit {} MiB)",
                memory_limit_bytes >> 20
            ),
            requests_attempted: 0,
        };
    }
    let summary = if let Some(trap) = error.downcast_ref::<Trap>() {
        trap.to_string()
    } else if let Some(exit) = error.downcast_ref::<wasmtime_wasi::I32Exit>() {
        format!("it exited with status {}", exit.0)
    } else {
        "unexpected host error".to_owned()
    };
    Failure {
        kind: FailureKind::Trap,
        message: format!("the plugin failed ({summary})"),
        requests_attempted: 0,
    }
}

pub(super) fn instantiate_failure(error: wasmtime::Error) -> Failure {
    crate::log_error!("cannot instantiate the component: {error:#}");
    Failure {
        kind: FailureKind::Instantiate,
        message: "the plugin could not be started".to_owned(),
        requests_attempted: 0,
    }
}

#[cfg(test)]
mod tests;
