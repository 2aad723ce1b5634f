//! # host-harness (the `media-mcp` binary)
//!
//! Runs the `media-mcp` WebAssembly component (`wit/world.wit`, world `plugin`) inside wasmtime
//! and publishes its tools over MCP on stdio. The component holds the Ombi logic; this crate is
//! the trusted side around it:
//!
//! * [`config`] turns environment variables and an optional config file into validated
//!   [`config::Settings`];
//! * [`policy`] decides what the sandbox may reach (the configured upstream origins only), which
//!   credentials the host adds on the way out, and which variables the guest can see;
//! * [`http_hooks`] enforces that policy on every outgoing `wasi:http` request, which
//!   [`upstream_pool`] sends over pooled connections (one client per configured origin, with
//!   that origin's trust roots);
//! * `sandbox` compiles (or loads from the `artifact_cache`) and runs the component, one fresh
//!   store per call, with memory, CPU and wall-clock limits; [`limits`] holds the time limits
//!   derived from MoviePilot's slowest tool;
//! * `server` maps the WIT `tools` interface (`tool::ListedTool` records) to MCP (`tools/list`,
//!   `tools/call`);
//! * [`stdio`] frames MCP messages on stdin/stdout;
//! * `http_serve` serves the HTTP component (`serve --http`) through the sandbox's gateway,
//!   with a bound on requests in flight and a clean shutdown;
//! * `health` is `host-harness health`, the probe a container's health check runs;
//! * [`cli`], [`app`] and [`present`] are the command line; [`app::Host`] is a loaded component
//!   for programs built on the harness (the demo in `crates/media-mcp-demo/`).
//!
//! Dependencies point down: `app` → `http_serve`/`server` → `sandbox` → `http_hooks` → `upstream_pool` → `policy` →
//! `config` → `limits`/`logging`, with `tool`, `envelope` and `artifact_cache` below the
//! modules that use them; `scripts/module-cycles.py` checks that no two modules import each
//! other.
//!
//! ```text
//! OMBI_URL=https://ombi.example OMBI_API_KEY=... media-mcp serve
//! ```

#![warn(missing_docs)]

// What other crates use: `main.rs` and the demo (`app`, `cli`, `config`, `present`, the
// `log_*!` macros), the integration tests (`config`, `policy`, `http_hooks`, `limits`, the
// component's allowed imports, the stdio message limits) and the fuzz targets (`stdio::serve`
// for framing; `policy::Policy`, `REDACTED` and `is_invisible` for redaction).
pub mod app;
pub mod cli;
pub mod config;
pub mod http_hooks;
mod http_serve;
pub mod limits;
pub mod logging;
pub mod policy;
pub mod present;
pub mod stdio;
pub mod upstream_pool;

mod artifact_cache;
mod background;
mod cancel;
mod envelope;
mod health;
mod jobs;
mod progress;
mod sandbox;
mod server;
mod tool;

pub use sandbox::{ALLOWED_IMPORTS, GATEWAY_EXTRA_IMPORTS, component_imports};
