//! What the plugin [`Sandbox`](super::Sandbox) and the HTTP [`Gateway`](super::Gateway) share:
//! the options they are loaded with, and the recipe each fresh store is made from (guest
//! environment, policy hooks, memory limit, epoch CPU budget), with the thread that advances
//! the epoch.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use wasmtime::component::ResourceTable;
use wasmtime::{Engine, Store, StoreLimitsBuilder, UpdateDeadline};
use wasmtime_wasi::WasiCtx;
use wasmtime_wasi_http::WasiHttpCtx;

use super::host_cache::HostCache;
use super::linker::HostState;
use crate::artifact_cache::Provenance;
use crate::http_hooks::PolicyHooks;
use crate::policy::Policy;
use crate::upstream_pool::UpstreamPool;

/// How often the epoch advances; also how often a running guest yields to tokio.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Everything needed to load the sandbox.
#[derive(Debug, Clone)]
pub struct SandboxOptions {
    /// The guest's environment (see [`crate::policy::guest_env`]).
    pub guest_env: Vec<(String, String)>,
    /// The outbound policy.
    pub policy: Arc<Policy>,
    /// The process's pooled upstream connections.
    pub upstreams: Arc<UpstreamPool>,
    /// Wall-clock (and CPU) limit of one call.
    pub call_timeout: Duration,
    /// Linear-memory limit of one call, in bytes.
    pub memory_limit_bytes: usize,
    /// Compiled-artifact cache directory, if enabled.
    pub cache_dir: Option<std::path::PathBuf>,
}

/// How loading went, for the start-up log and measurements.
#[derive(Debug, Clone, Copy)]
pub struct LoadReport {
    /// Cached, compiled, ...
    pub provenance: Provenance,
    /// Time to read, compile or deserialize, and pre-instantiate.
    pub elapsed: Duration,
    /// Size of the component file.
    pub wasm_bytes: usize,
    /// SHA-256 of the component bytes (the cache keys are derived from it).
    pub component_digest: [u8; 32],
}

/// Advances the engine's epoch every [`EPOCH_TICK`] until dropped.
pub(super) struct EpochTicker {
    stop: Arc<AtomicBool>,
}

impl EpochTicker {
    pub(super) fn start(engine: &Engine) -> EpochTicker {
        let stop = Arc::new(AtomicBool::new(false));
        let (engine, flag) = (engine.clone(), stop.clone());
        std::thread::Builder::new()
            .name("epoch-ticker".into())
            .spawn(move || {
                while !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(EPOCH_TICK);
                    engine.increment_epoch();
                }
            })
            .expect("spawning the epoch thread");
        EpochTicker { stop }
    }
}

impl Drop for EpochTicker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// What each store of a loaded component is made from (the plugin [`Sandbox`] and the HTTP
/// [`Gateway`] alike), and the epoch thread that drives their CPU budget.
pub(super) struct StoreRecipe {
    pub(super) guest_env: Arc<[(String, String)]>,
    pub(super) policy: Arc<Policy>,
    pub(super) upstreams: Arc<UpstreamPool>,
    pub(super) call_timeout: Duration,
    pub(super) memory_limit_bytes: usize,
    pub(super) cache: Arc<HostCache>,
    _ticker: EpochTicker,
}

impl StoreRecipe {
    pub(super) fn new(options: SandboxOptions, engine: &Engine) -> StoreRecipe {
        StoreRecipe {
            guest_env: options.guest_env.into(),
            policy: options.policy,
            upstreams: options.upstreams,
            call_timeout: options.call_timeout,
            memory_limit_bytes: options.memory_limit_bytes,
            cache: Arc::default(),
            _ticker: EpochTicker::start(engine),
        }
    }

    /// A fresh store for one call: the guest's environment and nothing inherited, the policy
    /// hooks, a memory limit, and an epoch deadline that yields to tokio every tick and
    /// interrupts the guest once it has run for the call timeout.
    pub(super) fn store(&self, engine: &Engine) -> Store<HostState> {
        // Nothing inherited: stdin closed, stdout and stderr sinks (the defaults), no preopens.
        let wasi = WasiCtx::builder().envs(&self.guest_env).build();
        let limits = StoreLimitsBuilder::new()
            .memory_size(self.memory_limit_bytes)
            .trap_on_grow_failure(true)
            .build();
        let state = HostState {
            wasi,
            http: WasiHttpCtx::new(),
            table: ResourceTable::new(),
            hooks: PolicyHooks::new(self.policy.clone(), self.upstreams.clone()),
            limits,
            cache: self.cache.clone(),
        };
        let mut store = Store::new(engine, state);
        store.limiter(|s| &mut s.limits);
        // Yield to tokio on every tick (so timeouts and other calls get to run) and interrupt
        // once the guest has been running for the whole call budget.
        let budget_ticks = (self.call_timeout.as_millis() / EPOCH_TICK.as_millis()).max(1);
        let mut ticks = 0u128;
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(move |_| {
            ticks += 1;
            Ok(if ticks >= budget_ticks {
                UpdateDeadline::Interrupt
            } else {
                UpdateDeadline::Yield(1)
            })
        });
        store
    }
}
