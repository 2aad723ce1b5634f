//! What the component is linked against, and the per-store state those host functions use.
//!
//! [`ALLOWED_IMPORTS`] is the `plugin` world: `wasi:cli/environment`, `wasi:io/*`,
//! `wasi:clocks/*`, and `wasi:http` types + outgoing-handler behind [`PolicyHooks`].
//! [`STD_RUNTIME_IMPORTS`] are the capability-free interfaces Rust's standard library imports on
//! wasm32-wasip2 (exit, empty stdin, stdout as a sink, stderr kept in memory, no terminal,
//! random seeds). Filesystem and sockets are never linked.

use std::path::Path;

use anyhow::Context as _;
use wasmtime::component::{HasData, Linker, ResourceTable};
use wasmtime::{Engine, StoreLimits};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

use crate::http_hooks::PolicyHooks;

/// The imports the `plugin` world may have (any version of these interfaces).
pub const ALLOWED_IMPORTS: &[&str] = &[
    "wasi:cli/environment",
    "wasi:http/outgoing-handler",
    "wasi:http/types",
    "wasi:io/error",
    "wasi:io/poll",
    "wasi:io/streams",
    "wasi:clocks/monotonic-clock",
    "wasi:clocks/wall-clock",
];

/// Interfaces Rust's std imports on wasm32-wasip2 that grant no capability; linked so such a
/// component runs, but not part of the plugin world (the import test flags them).
pub const STD_RUNTIME_IMPORTS: &[&str] = &[
    "wasi:cli/exit",
    "wasi:cli/stdin",
    "wasi:cli/stdout",
    "wasi:cli/stderr",
    "wasi:cli/terminal-input",
    "wasi:cli/terminal-output",
    "wasi:cli/terminal-stdin",
    "wasi:cli/terminal-stdout",
    "wasi:cli/terminal-stderr",
    "wasi:random/random",
    "wasi:random/insecure",
    "wasi:random/insecure-seed",
];

/// Per-store state: WASI contexts, the resource table, the policy hooks and the limits.
pub(super) struct HostState {
    pub(super) wasi: WasiCtx,
    pub(super) http: WasiHttpCtx,
    pub(super) table: ResourceTable,
    pub(super) hooks: PolicyHooks,
    pub(super) limits: StoreLimits,
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

fn random_view(s: &mut HostState) -> &mut wasmtime_wasi::random::WasiRandomCtx {
    wasmtime_wasi::random::WasiRandomView::random(s)
}

pub(super) fn linker(engine: &Engine) -> anyhow::Result<Linker<HostState>> {
    use wasmtime_wasi::p2::bindings::{cli, clocks, io, random};
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
    // STD_RUNTIME_IMPORTS: no capability behind any of them (see `new_store`).
    let cli = cli_view;
    cli::exit::add_to_linker::<HostState, Cli>(l, cli)?;
    cli::stdin::add_to_linker::<HostState, Cli>(l, cli)?;
    cli::stdout::add_to_linker::<HostState, Cli>(l, cli)?;
    cli::stderr::add_to_linker::<HostState, Cli>(l, cli)?;
    cli::terminal_input::add_to_linker::<HostState, Cli>(l, cli)?;
    cli::terminal_output::add_to_linker::<HostState, Cli>(l, cli)?;
    cli::terminal_stdin::add_to_linker::<HostState, Cli>(l, cli)?;
    cli::terminal_stdout::add_to_linker::<HostState, Cli>(l, cli)?;
    cli::terminal_stderr::add_to_linker::<HostState, Cli>(l, cli)?;
    let random = random_view;
    type Random = wasmtime_wasi::random::WasiRandom;
    random::random::add_to_linker::<HostState, Random>(l, random)?;
    random::insecure::add_to_linker::<HostState, Random>(l, random)?;
    random::insecure_seed::add_to_linker::<HostState, Random>(l, random)?;
    Ok(linker)
}

/// The interface names (without `@version`) a component file imports, sorted.
///
/// # Errors
///
/// The file cannot be read or compiled.
pub fn component_imports(path: &Path) -> anyhow::Result<Vec<String>> {
    let engine = super::engine()?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_runtime_imports_are_disjoint_from_the_plugin_world() {
        assert!(
            STD_RUNTIME_IMPORTS
                .iter()
                .all(|i| !ALLOWED_IMPORTS.contains(i))
        );
        assert!(
            STD_RUNTIME_IMPORTS
                .iter()
                .chain(ALLOWED_IMPORTS)
                .all(|i| !i.starts_with("wasi:filesystem") && !i.starts_with("wasi:sockets"))
        );
    }
}
