//! media-mcp-transport: MCP Streamable HTTP, stateless, as a `wasi:http/incoming-handler`
//! component that calls a composed `media-mcp:plugin/tools`.
//!
//! All of it is plain Rust, unit-tested natively (`cargo test -p media-mcp-transport`); on
//! `wasm32-wasip2`, [`guest`] adds the thin WIT glue.
//!
//! - [`config`]: settings from the environment.
//! - [`auth`]: bearer tokens mapped to upstream users, proxy tokens and their user header.
//! - [`cors`]: browser access for the allowed origins.
//! - [`http`]: what is checked before the body is read (path, Origin, method, auth,
//!   `Content-Type`, `Accept`, size).
//! - [`health`]: `/healthz` and `/readyz`, answered before anything else.
//! - [`era`]: legacy or modern (2026-07-28), and the checks a modern request must pass.
//! - [`mcp`]: one JSON-RPC message per POST, answered in its era.
//! - [`oauth`]: `MEDIA_MCP_HTTP_AUTH=oauth` settings, the identity provider's keys, JWT access tokens.
//! - [`resource_server`]: OAuth metadata, challenges and scopes around [`mcp`].

#![cfg_attr(target_arch = "wasm32", no_std)]

extern crate alloc;

/// What `std`'s prelude provides, for the `no_std` wasm build (`use crate::prelude::*;`).
pub(crate) mod prelude {
    pub use alloc::borrow::ToOwned;
    pub use alloc::string::{String, ToString};
    pub use alloc::vec::Vec;
    pub use alloc::{format, vec};
}

pub mod auth;
pub mod config;
pub mod cors;
pub mod era;
pub mod health;
pub mod http;
pub mod mcp;
pub mod oauth;
pub mod resource_server;

#[cfg(target_arch = "wasm32")]
#[allow(
    unsafe_code,
    reason = "wit-bindgen generates the canonical-ABI glue and export symbols"
)]
mod guest;

pub use config::Settings;
pub use http::{Admitted, Head, Response, admit};
pub use mcp::{ToolOutcome, ToolRecord, Tools, handle};
