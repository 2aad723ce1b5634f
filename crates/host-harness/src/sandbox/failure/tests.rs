use super::*;

const TIMEOUT: Duration = Duration::from_secs(7);

#[test]
fn the_epoch_interrupt_is_a_timeout() {
    let f = classify(&wasmtime::Error::new(Trap::Interrupt), TIMEOUT, 64 << 20);
    assert_eq!(
        f,
        Failure {
            kind: FailureKind::Timeout,
            message: "the call did not finish within 7 s".into(),
            requests_attempted: 0,
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
