//! media-mcp-wire: the protocol facts the stdio harness, the HTTP transport component and the
//! plugin share, so each is written once.
//!
//! - [`method`], [`code`], [`meta`]: MCP method names, JSON-RPC error codes, `_meta` keys.
//! - [`error_code`]: the contract's 13 error codes of a failed tool result.
//! - [`version`]: the protocol versions every transport speaks (the same set on stdio and
//!   HTTP), which of them are modern (per-request `_meta`, no `initialize`).
//! - [`cache`]: the caching hints of `tools/list` and `server/discover` for modern peers.
//! - [`variables`]: every configuration variable (name, help, scope, kind, docs); [`reference`]
//!   renders the configuration reference's tables from them.
//! - [`settings`]: the grammar a host and the components both apply to the variables.
//! - [`plugin_settings`]: the plugin's own variables read by that grammar, each problem naming
//!   its variable; the plugin reads its configuration with it and a host checks it at start.
//! - [`upstreams`]: every upstream once (its variables, key header and keyless routes).
//! - [`user`]: the one rule for a user name to act as.
//! - [`job`]: job handles for long calls (the `job` result family, `job_status`, `job_cancel`).
//! - [`artwork`]: the image hosts artwork may come from (the plugin's rule, the views' CSP).
//! - [`tool`]: the tool record the plugin lists, its answer to a call, and how that answer
//!   becomes an MCP `CallToolResult` (`structuredContent` + one text block + `isError`).

#![cfg_attr(not(test), no_std)]

extern crate alloc;

pub mod artwork;
pub mod cache;
pub mod code;
pub mod error_code;
pub mod job;
pub mod meta;
pub mod method;
pub mod plugin_settings;
pub mod reference;
pub mod settings;
pub mod tool;
pub mod upstreams;
pub mod user;
pub mod variables;
pub mod version;

pub use tool::{ToolOutcome, ToolRecord};

/// Longest part of caller input (a method or tool name, a duplicated key) an error quotes,
/// over stdio and HTTP alike.
pub const MAX_ECHO_CHARS: usize = 64;

/// The server's name in `serverInfo`.
pub const SERVER_NAME: &str = "media-mcp";

/// The `_meta` key the stdio harness reads the acting user from; over HTTP the user comes from
/// authentication only, so a request carrying it is refused.
pub const PRINCIPAL_META_KEY: &str = "media-mcp/principal";

/// The server's version in `serverInfo` (the workspace version).
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");
