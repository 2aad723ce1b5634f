//! Runs the component: one [`Engine`] (epoch interruption on), the component compiled once
//! (or loaded from the [`artifact_cache`](crate::artifact_cache)), pre-instantiated once
//! ([`PluginPre`]), then **a fresh [`Store`] and instance for every call**. Calls share
//! nothing mutable but the bounded [`host_cache`] the plugin imports (a map behind a lock held
//! only to copy one entry in or out), so they run concurrently, and a call that traps, times
//! out or runs out of memory takes only its own store down.
//!
//! Instances come from wasmtime's pooling allocator ([`linker::pooled_engine`]): a fresh
//! instance reuses an earlier one's memory slot and stack instead of mapping new ones. The pool
//! holds [`INSTANCE_SLOTS`] instances; a call beyond that many at once waits for a slot, and the
//! wait counts against its call timeout.
//!
//! Per call: [`StoreLimits`] caps linear memory; the epoch deadline is re-armed so the guest
//! yields to tokio every tick (10 ms) and is interrupted once it has run for the call timeout;
//! `tokio::time::timeout` bounds the wall-clock time of the whole call, including time parked
//! in host I/O where epochs do not count, and drops the store when it fires.
//!
//! The linker provides exactly what the `plugin` world needs ([`ALLOWED_IMPORTS`]:
//! `media-mcp:plugin/host-cache`, `wasi:cli/environment`, `wasi:io/*`, `wasi:clocks/*`, and `wasi:http` types +
//! outgoing-handler behind [`PolicyHooks`]); stdin, stdout and stderr are closed or sinks. A
//! component importing anything else (filesystem, sockets, random, exit, stdio...) fails to load.

use std::path::Path;
use std::time::Instant;

use tokio::sync::{Semaphore, SemaphorePermit};

use anyhow::Context as _;
use wasmtime::Store;

use crate::artifact_cache;
use crate::policy::Policy;
use crate::tool::ListedTool;

mod failure;
mod gateway;
mod host_cache;
mod linker;
mod store;

pub use failure::{Failure, FailureKind};
pub use gateway::{GATEWAY_EXTRA_IMPORTS, Gateway, GatewayResponse, error_response};
pub use linker::{ALLOWED_IMPORTS, INSTANCE_SLOTS, component_imports};
use store::StoreRecipe;
pub use store::{LoadReport, SandboxOptions};

use failure::{classify, instantiate_failure, timeout_failure};
use linker::{HostState, PoolShape, linker, pooled_engine};

mod bindings;

use bindings::PluginPre;
use bindings::exports::media_mcp::plugin::tools as wit;

/// What the host passes with each call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallContext {
    /// Unique per call; the guest echoes it as `correlation_id`.
    pub correlation_id: String,
    /// Upstream user to act as; `None` = the configured default.
    pub principal: Option<String>,
}

/// The component's answer to a call that ran to completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallOutcome {
    /// A tool result (success or tool-level failure).
    Result {
        /// The result envelope, JSON text.
        structured: String,
        /// The same object as text for the content block.
        text: String,
        /// MCP `isError`.
        is_error: bool,
    },
    /// No tool of that name.
    UnknownTool(String),
}

/// The loaded component, ready for concurrent calls.
pub struct Sandbox {
    pre: PluginPre<HostState>,
    recipe: StoreRecipe,
    /// One permit per pooled instance slot; held while a store lives.
    slots: Semaphore,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("call_timeout", &self.recipe.call_timeout)
            .finish_non_exhaustive()
    }
}

/// Which engine [`precompile`] compiles for: the plugin's (`serve`, `tools`, `call`) or the HTTP
/// gateway's (`serve --http`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compiled {
    /// `media_mcp.wasm`.
    Plugin,
    /// `media_mcp_http.wasm`.
    Gateway,
}

/// Compiles the component at `path` into the cache in `dir` (or finds it there) with the engine
/// a start of that kind uses, so the start loads it from there.
///
/// # Errors
///
/// The file cannot be read or compiled, or the cache cannot be written.
pub fn precompile(
    path: &Path,
    kind: Compiled,
    dir: &Path,
) -> anyhow::Result<artifact_cache::Provenance> {
    let wasm = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let digest = artifact_cache::component_digest(&wasm);
    let shape = match kind {
        Compiled::Plugin => PoolShape::PLUGIN,
        Compiled::Gateway => PoolShape::GATEWAY,
    };
    let engine = pooled_engine(INSTANCE_SLOTS, shape)?;
    let (_, provenance) = artifact_cache::load_component(&engine, &wasm, &digest, Some(dir))
        .with_context(|| format!("compiling {}", path.display()))?;
    anyhow::ensure!(
        provenance != artifact_cache::Provenance::Compiled,
        "cannot write the cache directory {}",
        dir.display()
    );
    artifact_cache::share(dir, &artifact_cache::cache_key(&engine, &digest))?;
    Ok(provenance)
}

impl Sandbox {
    /// The outbound policy (also what [`Policy::redact_secrets`] cleans results with).
    pub fn policy(&self) -> &Policy {
        &self.recipe.policy
    }

    /// Reads, compiles (or loads from cache) and pre-instantiates the component at `path`.
    ///
    /// # Errors
    ///
    /// The file is missing or not a component, or it imports something the linker does not
    /// provide.
    pub fn load(path: &Path, options: SandboxOptions) -> anyhow::Result<(Sandbox, LoadReport)> {
        let started = Instant::now();
        let wasm = std::fs::read(path)
            .with_context(|| format!("reading the component {}", path.display()))?;
        let (sandbox, mut report) = Self::from_bytes(&wasm, &path.display().to_string(), options)?;
        report.elapsed = started.elapsed();
        Ok((sandbox, report))
    }

    /// [`Sandbox::load`] from bytes (a component binary, or its text format); `label` names it
    /// in errors.
    ///
    /// # Errors
    ///
    /// Not a component, or it imports something the linker does not provide.
    pub fn from_bytes(
        wasm: &[u8],
        label: &str,
        options: SandboxOptions,
    ) -> anyhow::Result<(Sandbox, LoadReport)> {
        let digest = artifact_cache::component_digest(wasm);
        Self::from_bytes_with_digest(wasm, digest, label, options)
    }

    /// [`Sandbox::from_bytes`] when the caller has hashed the component already
    /// ([`artifact_cache::component_digest`]), so a start hashes it once.
    ///
    /// # Errors
    ///
    /// Not a component, or it imports something the linker does not provide.
    pub fn from_bytes_with_digest(
        wasm: &[u8],
        component_digest: [u8; 32],
        label: &str,
        options: SandboxOptions,
    ) -> anyhow::Result<(Sandbox, LoadReport)> {
        Self::load_pooled(wasm, component_digest, label, options, INSTANCE_SLOTS)
    }

    fn load_pooled(
        wasm: &[u8],
        component_digest: [u8; 32],
        label: &str,
        options: SandboxOptions,
        slots: u32,
    ) -> anyhow::Result<(Sandbox, LoadReport)> {
        let started = Instant::now();
        let engine = pooled_engine(slots, PoolShape::PLUGIN)?;
        let (component, provenance) = artifact_cache::load_component(
            &engine,
            wasm,
            &component_digest,
            options.cache_dir.as_deref(),
        )
        .with_context(|| format!("compiling the component {label}"))?;
        let instance_pre = linker(&engine)?.instantiate_pre(&component).map_err(|e| {
            anyhow::Error::from(e).context(format!(
                "linking the component {label} (it may import an interface the harness does not provide)"
            ))
        })?;
        let pre = PluginPre::new(instance_pre).map_err(|e| {
            anyhow::Error::from(e).context("the component does not export media-mcp:plugin/tools")
        })?;
        let sandbox = Sandbox {
            pre,
            recipe: StoreRecipe::new(options, &engine),
            slots: Semaphore::new(slots as usize),
        };
        Ok((
            sandbox,
            LoadReport {
                provenance,
                elapsed: started.elapsed(),
                wasm_bytes: wasm.len(),
                component_digest,
            },
        ))
    }

    fn new_store(&self) -> Store<HostState> {
        self.recipe.store(self.pre.engine())
    }

    /// Calls `list-tools` in a fresh instance; also says how many outgoing requests the guest
    /// attempted meanwhile (none: the listing depends only on the component and its
    /// environment, and may be cached).
    ///
    /// # Errors
    ///
    /// [`Failure`] when the guest traps, times out or cannot be instantiated.
    pub async fn list_tools(&self) -> Result<(Vec<ListedTool>, usize), Failure> {
        let deadline = tokio::time::Instant::now() + self.recipe.call_timeout;
        let _slot = self.slot(deadline).await?;
        let mut store = self.new_store();
        let run = async {
            let instance = self
                .pre
                .instantiate_async(&mut store)
                .await
                .map_err(instantiate_failure)?;
            instance
                .media_mcp_plugin_tools()
                .call_list_tools(&mut store)
                .await
                .map_err(|e| self.classify(e))
        };
        let tools = self.bounded(deadline, run).await?;
        let attempted = store.data().hooks.requests_attempted();
        Ok((tools.into_iter().map(ListedTool::from).collect(), attempted))
    }

    /// Calls `call-tool` in a fresh instance.
    ///
    /// # Errors
    ///
    /// [`Failure`] when the guest traps, times out, runs out of memory or cannot be
    /// instantiated. The store is dropped either way.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: &str,
        context: &CallContext,
    ) -> Result<CallOutcome, Failure> {
        let deadline = tokio::time::Instant::now() + self.recipe.call_timeout;
        // Declared before the store, so dropped after it: the slot is free once released.
        let _slot = self.slot(deadline).await?;
        let mut store = self.new_store();
        let wit_context = wit::CallContext {
            correlation_id: context.correlation_id.clone(),
            principal: context.principal.clone(),
        };
        let run = async {
            let instance = self
                .pre
                .instantiate_async(&mut store)
                .await
                .map_err(instantiate_failure)?;
            instance
                .media_mcp_plugin_tools()
                .call_call_tool(&mut store, name, arguments, &wit_context)
                .await
                .map_err(|e| self.classify(e))
        };
        let outcome = self.bounded(deadline, run).await;
        let attempted = store.data().hooks.requests_attempted();
        let outcome = outcome.map_err(|f| Failure {
            requests_attempted: attempted,
            ..f
        })?;
        Ok(match outcome {
            Ok(r) => CallOutcome::Result {
                structured: r.structured,
                text: r.text,
                is_error: r.is_error,
            },
            Err(wit::CallError::UnknownTool(name)) => CallOutcome::UnknownTool(name),
        })
    }

    /// Waits for a free instance slot until `deadline` (a call's wait counts against its
    /// timeout).
    async fn slot(&self, deadline: tokio::time::Instant) -> Result<SemaphorePermit<'_>, Failure> {
        match tokio::time::timeout_at(deadline, self.slots.acquire()).await {
            Ok(Ok(permit)) => Ok(permit),
            Ok(Err(_closed)) => unreachable!("the slot semaphore is never closed"),
            Err(_elapsed) => Err(self.timeout_failure()),
        }
    }

    async fn bounded<T>(
        &self,
        deadline: tokio::time::Instant,
        run: impl Future<Output = Result<T, Failure>>,
    ) -> Result<T, Failure> {
        match tokio::time::timeout_at(deadline, run).await {
            Ok(result) => result,
            Err(_elapsed) => Err(self.timeout_failure()),
        }
    }

    fn timeout_failure(&self) -> Failure {
        timeout_failure(self.recipe.call_timeout)
    }

    fn classify(&self, error: wasmtime::Error) -> Failure {
        let failure = classify(
            &error,
            self.recipe.call_timeout,
            self.recipe.memory_limit_bytes,
        );
        if failure.kind == FailureKind::Trap {
            crate::log_warn!("guest failure: {error:#}");
        }
        failure
    }
}

impl From<wit::Tool> for ListedTool {
    fn from(t: wit::Tool) -> Self {
        ListedTool {
            name: t.name,
            title: t.title,
            description: t.description,
            input_schema: t.input_schema,
            output_schema: t.output_schema,
            annotations: t.annotations,
        }
    }
}

#[cfg(test)]
mod tests;
