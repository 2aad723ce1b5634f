//! What the component is linked against, and the per-store state those host functions use.
//!
//! [`ALLOWED_IMPORTS`] is the `plugin` world: `media-mcp:plugin/host-cache` (in memory, see
//! [`super::host_cache`]), `wasi:cli/environment`, `wasi:io/*`, `wasi:clocks/*`, and
//! `wasi:http` types + outgoing-handler behind [`PolicyHooks`]. Nothing else is linked: no
//! filesystem, sockets, random, exit or stdio.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context as _;
use wasmtime::component::{HasData, Linker, ResourceTable};
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, StoreLimits};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

use super::bindings;
use super::host_cache::HostCache;
use crate::http_hooks::PolicyHooks;

/// The imports the `plugin` world may have (any version of these interfaces).
pub const ALLOWED_IMPORTS: &[&str] = &[
    "media-mcp:plugin/host-cache",
    "wasi:cli/environment",
    "wasi:http/outgoing-handler",
    "wasi:http/types",
    "wasi:io/error",
    "wasi:io/poll",
    "wasi:io/streams",
    "wasi:clocks/monotonic-clock",
    "wasi:clocks/wall-clock",
];

/// Per-store state: WASI contexts, the resource table, the policy hooks and the limits.
pub(super) struct HostState {
    pub(super) wasi: WasiCtx,
    pub(super) http: WasiHttpCtx,
    pub(super) table: ResourceTable,
    pub(super) hooks: PolicyHooks,
    pub(super) limits: StoreLimits,
    /// What the component keeps between calls, shared by all its stores.
    pub(super) cache: Arc<HostCache>,
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl WasiHttpView for HostState {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView {
            ctx: &mut self.http,
            table: &mut self.table,
            hooks: &mut self.hooks,
        }
    }
}

/// `HasData` projection for the `wasi:io` host traits, which live on the resource table.
struct IoTable;

impl HasData for IoTable {
    type Data<'a> = &'a mut ResourceTable;
}

fn cli_view(s: &mut HostState) -> wasmtime_wasi::cli::WasiCliCtxView<'_> {
    wasmtime_wasi::cli::WasiCliView::cli(s)
}

fn clocks_view(s: &mut HostState) -> wasmtime_wasi::clocks::WasiClocksCtxView<'_> {
    wasmtime_wasi::clocks::WasiClocksView::clocks(s)
}

pub(super) fn linker(engine: &Engine) -> anyhow::Result<Linker<HostState>> {
    use wasmtime_wasi::p2::bindings::{cli, clocks, io};
    let mut linker = Linker::<HostState>::new(engine);
    let l = &mut linker;
    io::error::add_to_linker::<HostState, IoTable>(l, |s| &mut s.table)?;
    io::poll::add_to_linker::<HostState, IoTable>(l, |s| &mut s.table)?;
    io::streams::add_to_linker::<HostState, IoTable>(l, |s| &mut s.table)?;
    type Clocks = wasmtime_wasi::clocks::WasiClocks;
    clocks::monotonic_clock::add_to_linker::<HostState, Clocks>(l, clocks_view)?;
    clocks::wall_clock::add_to_linker::<HostState, Clocks>(l, clocks_view)?;
    type Cli = wasmtime_wasi::cli::WasiCli;
    cli::environment::add_to_linker::<HostState, Cli>(l, cli_view)?;
    wasmtime_wasi_http::p2::add_only_http_to_linker_async(l)?;
    add_host_cache(l)?;
    Ok(linker)
}

/// [`linker`] plus `wasi:random/random`, which the HTTP transport imports for correlation ids
/// (see [`super::Gateway`]).
pub(super) fn gateway_linker(engine: &Engine) -> anyhow::Result<Linker<HostState>> {
    let mut linker = linker(engine)?;
    wasmtime_wasi::p2::bindings::random::random::add_to_linker::<
        HostState,
        wasmtime_wasi::random::WasiRandom,
    >(&mut linker, |s| {
        wasmtime_wasi::random::WasiRandomView::random(s)
    })?;
    Ok(linker)
}

/// The interface names (without `@version`) a component file imports, sorted.
///
/// # Errors
///
/// The file cannot be read or compiled.
pub fn component_imports(path: &Path) -> anyhow::Result<Vec<String>> {
    let engine = engine()?;
    let wasm = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let component = wasmtime::component::Component::new(&engine, &wasm)?;
    let mut names: Vec<String> = component
        .component_type()
        .imports(&engine)
        .map(|(name, _)| name.split('@').next().unwrap_or(name).to_owned())
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// The engine configuration every sandbox uses (also part of the cache key).
pub(super) fn engine() -> anyhow::Result<Engine> {
    Ok(Engine::new(&base_config())?)
}

fn base_config() -> Config {
    let mut config = Config::new();
    config.epoch_interruption(true);
    config
}

/// Instances alive at once in a pooled engine (calls or requests running concurrently); more
/// wait for a slot.
pub const INSTANCE_SLOTS: u32 = 256;

/// Per-component bounds of a pooled engine: how many core instances, memories and tables one
/// instance of the component needs.
#[derive(Debug, Clone, Copy)]
pub(super) struct PoolShape {
    core_instances: u32,
    memories: u32,
    tables: u32,
}

impl PoolShape {
    /// The plugin: one core module with its memory plus the small shim and fixup modules
    /// `wasm-component-ld` adds (tables, no memories).
    pub(super) const PLUGIN: PoolShape = PoolShape {
        core_instances: 8,
        memories: 2,
        tables: 8,
    };
    /// The HTTP gateway artifact: the transport and the plugin composed, each with its memory,
    /// shims and fixups.
    pub(super) const GATEWAY: PoolShape = PoolShape {
        core_instances: 16,
        memories: 4,
        tables: 16,
    };
}

/// Bytes at the start of each table of a pooled slot that are zeroed in place when an
/// instance ends, instead of given back to the kernel: each of the guests' tables fits in a page,
/// which every call touches (the start functions fill them, indirect calls initialize their
/// entries lazily), so a call no longer takes a page fault for each.
const TABLE_KEEP_RESIDENT: usize = 64 * 1024;

/// [`engine`] with wasmtime's pooling instance allocator sized for `slots` component instances
/// of `shape` alive at once: an instance reuses the linear memory, tables, instance metadata
/// and async stack of an earlier one (its memory image stays mapped copy-on-write and is reset
/// by `madvise`) instead of mapping and unmapping them per call or request. wasmtime's faster
/// reset (`PoolingAllocationConfig::pagemap_scan` with memory kept resident) is left off: it
/// copies back only the written pages that are present, so a page swapped out or being
/// migrated when an instance ends would keep that call's data for the next one. Compiled code is
/// the same as [`engine`]'s (the allocation strategy is not part of the compatibility hash), so
/// both share the artifact cache. Instantiating more than `slots` at once fails: callers hold a
/// [`tokio::sync::Semaphore`] permit of as many slots for as long as a store lives.
pub(super) fn pooled_engine(slots: u32, shape: PoolShape) -> anyhow::Result<Engine> {
    let mut pool = PoolingAllocationConfig::new();
    pool.total_component_instances(slots)
        .total_core_instances(slots * shape.core_instances)
        .max_core_instances_per_component(shape.core_instances)
        .total_memories(slots * shape.memories)
        .max_memories_per_component(shape.memories)
        .total_tables(slots * shape.tables)
        .max_tables_per_component(shape.tables)
        .total_stacks(slots)
        .table_keep_resident(TABLE_KEEP_RESIDENT);
    let mut config = base_config();
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    Ok(Engine::new(&config)?)
}

struct CacheData;

impl HasData for CacheData {
    type Data<'a> = &'a HostCache;
}

/// Links `media-mcp:plugin/host-cache` to each store's [`HostCache`].
fn add_host_cache(linker: &mut Linker<HostState>) -> anyhow::Result<()> {
    bindings::media_mcp::plugin::host_cache::add_to_linker::<HostState, CacheData>(linker, |s| {
        &*s.cache
    })?;
    Ok(())
}
