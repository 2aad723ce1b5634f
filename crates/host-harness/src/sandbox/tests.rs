use std::sync::Arc;
use std::time::Duration;

use super::*;

/// A sandbox over `testdata/failing_guest.wat`: `loop*` spins, `grow*` asks for 128 MiB,
/// `write*` leaves a mark in memory and `table*` one in a table, either of which makes
/// `list-tools` trap, then each tool traps.
fn failing_sandbox(call_timeout: Duration) -> Sandbox {
    failing_sandbox_with_slots(call_timeout, INSTANCE_SLOTS)
}

fn failing_sandbox_with_slots(call_timeout: Duration, slots: u32) -> Sandbox {
    let options = SandboxOptions {
        guest_env: vec![],
        policy: Arc::new(Policy::default()),
        upstreams: Arc::default(),
        call_timeout,
        memory_limit_bytes: 16 << 20,
        cache_dir: None,
    };
    let wasm = wat::parse_str(include_str!("../testdata/failing_guest.wat")).unwrap();
    let digest = artifact_cache::component_digest(&wasm);
    Sandbox::load_pooled(&wasm, digest, "failing_guest.wat", options, slots)
        .unwrap()
        .0
}

fn context() -> CallContext {
    CallContext {
        correlation_id: "c".into(),
        principal: None,
    }
}

/// A current-thread runtime: a guest that never yielded would block everything on it.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn a_spinning_guest_yields_then_times_out_and_the_next_call_works() {
    let sandbox = failing_sandbox(Duration::from_secs(1));
    runtime().block_on(async {
        let started = Instant::now();
        let ctx = context();
        let spin = sandbox.call_tool("loop", "{}", &ctx);
        let meanwhile = async {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let listed = sandbox.list_tools().await;
            (listed, started.elapsed())
        };
        let (spun, (listed, listed_at)) = tokio::join!(spin, meanwhile);
        assert_eq!(spun.unwrap_err().kind, FailureKind::Timeout);
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(listed.unwrap().0, vec![]);
        assert!(
            listed_at < Duration::from_millis(800),
            "the spinning guest blocked the runtime: {listed_at:?}"
        );
        assert_eq!(
            sandbox.list_tools().await.unwrap().0,
            vec![],
            "the next call works"
        );
    });
}

#[test]
fn a_component_importing_more_than_the_plugin_world_does_not_load() {
    let options = SandboxOptions {
        guest_env: vec![],
        policy: Arc::new(Policy::default()),
        upstreams: Arc::default(),
        call_timeout: Duration::from_secs(1),
        memory_limit_bytes: 16 << 20,
        cache_dir: None,
    };
    for (import, func) in [
        ("wasi:cli/exit@0.2.6", "exit"),
        ("wasi:filesystem/preopens@0.2.12", "get-directories"),
        ("wasi:sockets/tcp-create-socket@0.2.12", "create-tcp-socket"),
    ] {
        let wat = format!(r#"(component (import "{import}" (instance (export "{func}" (func)))))"#);
        let wasm = wat::parse_str(&wat).unwrap();
        let error = Sandbox::from_bytes(&wasm, "importer.wat", options.clone()).unwrap_err();
        assert!(format!("{error:#}").contains(import), "{error:#}");
    }
}

#[test]
fn a_trapping_guest_is_a_failure_and_the_next_call_works() {
    let sandbox = failing_sandbox(Duration::from_secs(5));
    runtime().block_on(async {
        let failure = sandbox
            .call_tool("trap", "{}", &context())
            .await
            .unwrap_err();
        assert_eq!(failure.kind, FailureKind::Trap);
        assert!(
            failure.message.contains("unreachable"),
            "{}",
            failure.message
        );
        assert!(sandbox.list_tools().await.is_ok());
    });
}

#[test]
fn memory_past_the_limit_is_out_of_memory_and_the_next_call_works() {
    let sandbox = failing_sandbox(Duration::from_secs(5));
    runtime().block_on(async {
        let failure = sandbox
            .call_tool("grow", "{}", &context())
            .await
            .unwrap_err();
        assert_eq!(
            failure.kind,
            FailureKind::OutOfMemory,
            "{}",
            failure.message
        );
        assert!(sandbox.list_tools().await.is_ok());
    });
}

#[test]
fn calls_beyond_the_instance_slots_wait_for_one_instead_of_failing() {
    // Two slots, both held by spinning guests until their 1 s timeout: the third call waits
    // and then runs.
    let sandbox = failing_sandbox_with_slots(Duration::from_secs(1), 2);
    runtime().block_on(async {
        let ctx = context();
        let started = Instant::now();
        let (a, b, listed) = tokio::join!(
            sandbox.call_tool("loop", "{}", &ctx),
            sandbox.call_tool("loop", "{}", &ctx),
            async {
                tokio::time::sleep(Duration::from_millis(50)).await;
                sandbox.list_tools().await
            },
        );
        assert_eq!(a.unwrap_err().kind, FailureKind::Timeout);
        assert_eq!(b.unwrap_err().kind, FailureKind::Timeout);
        assert_eq!(listed.unwrap().0, vec![], "the third call got a slot");
        assert!(started.elapsed() >= Duration::from_millis(900));
    });
}

#[test]
fn a_call_that_gets_no_slot_within_its_timeout_times_out_without_running() {
    let sandbox = failing_sandbox_with_slots(Duration::from_secs(1), 1);
    runtime().block_on(async {
        let held = sandbox.slots.acquire().await.unwrap();
        let failure = sandbox
            .call_tool("trap", "{}", &context())
            .await
            .unwrap_err();
        assert_eq!(failure.kind, FailureKind::Timeout, "{}", failure.message);
        assert_eq!(failure.requests_attempted, 0);
        drop(held);
        let failure = sandbox
            .call_tool("trap", "{}", &context())
            .await
            .unwrap_err();
        assert_eq!(failure.kind, FailureKind::Trap, "the freed slot is used");
    });
}

#[test]
fn more_sequential_calls_than_instance_slots_reuse_the_slots() {
    let sandbox = failing_sandbox_with_slots(Duration::from_secs(5), 1);
    runtime().block_on(async {
        for _ in 0..20 {
            let failure = sandbox.call_tool("grow", "{}", &context()).await;
            assert_eq!(failure.unwrap_err().kind, FailureKind::OutOfMemory);
            assert!(sandbox.list_tools().await.is_ok());
        }
    });
}

#[test]
fn what_a_call_wrote_to_memory_or_a_table_is_gone_in_the_next_instance_of_its_slot() {
    // Memory goes back to the kernel; tables are zeroed in place (`TABLE_KEEP_RESIDENT`).
    let sandbox = failing_sandbox_with_slots(Duration::from_secs(5), 1);
    runtime().block_on(async {
        for tool in ["write", "table"].repeat(5) {
            let failure = sandbox.call_tool(tool, "{}", &context()).await;
            assert_eq!(failure.unwrap_err().kind, FailureKind::Trap);
            let listed = sandbox.list_tools().await;
            assert!(
                listed.is_ok(),
                "the mark of `{tool}` survived into the next instance"
            );
        }
    });
}
