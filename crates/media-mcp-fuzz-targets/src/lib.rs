//! Hostile-input targets for media-mcp. Each target is a plain function over bytes that panics
//! when a property breaks, so the same code runs under `cargo fuzz` (the `crates/media-mcp-fuzz/` crate outside
//! the workspace, nightly) and under a stable `#[test]` that replays the committed corpus
//! (`crates/media-mcp-fuzz/corpus/<target>/`, see `tests/corpus_replay.rs`; `.ci/run` runs it through
//! `cargo test --workspace`).
//!
//! * [`arguments`]: any bytes as a tool's arguments: the in-guest validator agrees with
//!   `jsonschema` on the tool's own `inputSchema`, refusals name a field, and every result is a
//!   valid envelope;
//! * [`projections`]: any bytes as every upstream answer of a tool call: no panic, and the
//!   envelope validates against the tool's `outputSchema` within the output budget;
//! * [`path_segments`]: any value as an argument that may become a URL path segment, and as
//!   an upstream title that becomes one: no request path has an empty or dot segment;
//! * `framing` (feature `harness`): any bytes on the harness's stdin after a handshake: every
//!   output line is one JSON-RPC message, and the server still answers a ping afterwards;
//! * `redaction` (feature `harness`): any text with a key planted in it (as written,
//!   upper-cased, split by any character): after the harness's redaction no form of the key
//!   is left.
//!
//! [`sample`] builds valid arguments from an input schema (shared with the canary test).

pub mod arguments;
#[cfg(feature = "harness")]
pub mod framing;
pub mod path_segments;
pub mod projections;
#[cfg(feature = "harness")]
pub mod redaction;
pub mod sample;
mod tools;

/// A target: one input in, a panic when a property breaks.
pub type Target = fn(&[u8]);

/// The fuzz targets by name, as `cargo fuzz` and the corpus directories name them.
pub const TARGETS: &[(&str, Target)] = &[
    ("arguments", arguments::run),
    ("projections", projections::run),
    ("path_segments", path_segments::run),
    #[cfg(feature = "harness")]
    ("framing", framing::run),
    #[cfg(feature = "harness")]
    ("redaction", redaction::run),
];
