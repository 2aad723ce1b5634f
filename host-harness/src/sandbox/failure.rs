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
}

pub(super) fn timeout_failure(call_timeout: Duration) -> Failure {
    Failure {
        kind: FailureKind::Timeout,
        message: format!(
            "the call did not finish within {} s",
            call_timeout.as_secs()
        ),
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
    }
}

pub(super) fn instantiate_failure(error: wasmtime::Error) -> Failure {
    crate::log_error!("cannot instantiate the component: {error:#}");
    Failure {
        kind: FailureKind::Instantiate,
        message: "the plugin could not be started".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMEOUT: Duration = Duration::from_secs(7);

    #[test]
    fn the_epoch_interrupt_is_a_timeout() {
        let f = classify(&wasmtime::Error::new(Trap::Interrupt), TIMEOUT, 64 << 20);
        assert_eq!(
            f,
            Failure {
                kind: FailureKind::Timeout,
                message: "the call did not finish within 7 s".into()
            }
        );
    }

    #[test]
    fn refused_memory_growth_is_out_of_memory() {
        let e = wasmtime::format_err!("forcing trap when growing memory to 134217728 bytes");
        let f = classify(&e, TIMEOUT, 64 << 20);
        assert_eq!(f.kind, FailureKind::OutOfMemory);
        assert!(f.message.contains("64 MiB"), "{}", f.message);
    }

    #[test]
    fn other_traps_and_exits_are_plugin_failures() {
        let f = classify(
            &wasmtime::Error::new(Trap::UnreachableCodeReached),
            TIMEOUT,
            1,
        );
        assert_eq!(f.kind, FailureKind::Trap);
        assert!(f.message.contains("unreachable"), "{}", f.message);
        let f = classify(&wasmtime::Error::new(wasmtime_wasi::I32Exit(3)), TIMEOUT, 1);
        assert_eq!(f.message, "the plugin failed (it exited with status 3)");
    }
}
