//! media-mcp: typed, honest access to self-hosted media-request servers for MCP hosts.
//!
//! The crate builds natively (all logic, unit-tested with `cargo test -p media-mcp`) and for
//! `wasm32-wasip2`, where [`guest`] adds the thin WIT glue and the wasi:http client.
//!
//! - `catalogue`: merges the backends' tools, applies the operator's selection and routes each
//!   call (each backend checks its own arguments against the tool's input schema).
//! - `backends`: the backends the configuration enables, in listing order.
//! - `tool`: what every backend's tools are made of and the `Backend` trait the catalogue merges.
//! - [`contract`]: output schemas, the result envelope, errors and budgets.
//! - [`ombi`]: the Ombi backend.
//! - [`seerr`]: the Seerr backend (the same tools and contract as Ombi's, over Seerr).
//! - [`moviepilot`]: the MoviePilot backend (its own MCP tools, bridged).
//! - [`upstream`]: outbound HTTP types and Ombi's failure shapes.
//! - `host_cache`: what the host keeps for the plugin between calls.

#![cfg_attr(target_arch = "wasm32", no_std)]

extern crate alloc;

/// What `std`'s prelude provides, for the `no_std` wasm build (`use crate::prelude::*;`).
pub(crate) mod prelude {
    pub use alloc::borrow::ToOwned;
    pub use alloc::boxed::Box;
    pub use alloc::string::{String, ToString};
    pub use alloc::vec::Vec;
    pub use alloc::{format, vec};
}

mod backends;
mod catalogue;
mod config;
pub mod contract;
mod host_cache;
pub mod moviepilot;
pub mod ombi;
mod paging;
pub mod schema;
pub mod seerr;
mod tool;
pub mod upstream;

#[cfg(test)]
mod testing;

#[cfg(target_arch = "wasm32")]
#[allow(
    unsafe_code,
    reason = "wit-bindgen generates the canonical-ABI glue and export symbols"
)]
mod guest;

pub use catalogue::Plugin;
pub use config::Config;
pub use host_cache::{HostCache, NoCache};
pub use tool::{CallContext, ToolDescriptor, UnknownTool};
