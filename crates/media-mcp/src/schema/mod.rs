//! Argument validation against each tool's own advertised `inputSchema`.
//!
//! One source of truth: the schema a tool publishes is the schema its arguments are checked
//! against, by a small interpreter of the JSON Schema keywords our schemas use
//! ([`SUPPORTED_KEYWORDS`]). The full `jsonschema` crate would add 2.7 MB to the artifact; native
//! tests prove this interpreter agrees with it on generated valid and invalid arguments.

pub(crate) mod number;
pub(crate) mod pattern;
mod validate;

#[cfg(test)]
mod portable;

pub(crate) use number::as_int;
pub use validate::{SUPPORTED_KEYWORDS, Violation, resolve, validate};
