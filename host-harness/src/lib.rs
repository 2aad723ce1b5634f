//! # host-harness
//!
//! Runs the `media-mcp` WebAssembly component (`wit/world.wit`, world `plugin`) inside wasmtime
//! and publishes its tools over MCP on stdio. The component holds the Ombi logic; this crate is
//! the trusted side around it:
//!
//! * [`config`] turns environment variables and an optional config file into validated
//!   [`config::Settings`];
//! * [`policy`] decides what the sandbox may reach (the configured upstream origins only), which
//!   credentials the host adds on the way out, and which variables the guest can see;
//! * [`http_hooks`] enforces that policy on every outgoing `wasi:http` request;
//! * [`sandbox`] compiles (or loads from the [`artifact_cache`]) and runs the component, one
//!   fresh store per call, with memory, CPU and wall-clock limits;
//! * [`server`] maps the WIT `tools` interface to MCP (`tools/list`, `tools/call`);
//! * [`stdio`] frames MCP messages on stdin/stdout;
//! * [`demo`] is an embedded fake Ombi on loopback, for the `demo` command and for tests;
//! * [`cli`], [`app`] and [`present`] are the command line.
//!
//! ```text
//! OMBI_URL=https://ombi.example OMBI_API_KEY=... host-harness serve
//! host-harness demo
//! ```

#![warn(missing_docs)]

pub mod logging;

pub mod app;
pub mod artifact_cache;
pub mod cli;
pub mod config;
pub mod demo;
pub mod envelope;
pub mod http_hooks;
pub mod policy;
pub mod present;
pub mod sandbox;
pub mod server;
pub mod stdio;
