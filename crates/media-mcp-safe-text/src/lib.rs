//! Text checks shared by the plugin (`media-mcp`), the HTTP transport and the harness; `no_std`
//! with `alloc`, so the wasm guests use the same code as the host:
//!
//! * [`is_format`], [`is_invisible`]: which characters show nothing;
//! * [`strip_format`]: upstream text without format characters (zero-width spaces,
//!   bidirectional controls, tags), which hide or reorder what a person reads;
//! * [`Needles`]: finding API keys in any letter case and split by invisible characters or
//!   white space ([`splits_keys`]);
//! * [`rewrite_strings`]: applying one of them to every string and object key of a JSON value;
//! * [`quote_bounded`]: caller input quoted in an error, bounded and escaped.

#![cfg_attr(not(test), no_std)]

extern crate alloc;

mod chars;
mod redact;

pub use chars::{is_format, is_invisible, strip_format};
pub use redact::{Needles, splits_keys};

use alloc::format;
use alloc::string::String;
use serde_json::Value;

/// `text` quoted for an error message: at most `max_chars` characters (then `…` and the whole
/// length in bytes), with control, invisible and bidirectional characters escaped, so a caller
/// cannot make an answer large or make it read differently.
pub fn quote_bounded(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => format!("{text:?}"),
        Some((at, _)) => format!("{:?}… ({} bytes)", &text[..at], text.len()),
    }
}

/// Replaces every string and object key inside `value` for which `rewrite` returns a new text;
/// `true` when something was replaced. Maps are rebuilt only when a key changes.
pub fn rewrite_strings(value: &mut Value, rewrite: &mut dyn FnMut(&str) -> Option<String>) -> bool {
    match value {
        Value::String(text) => match rewrite(text) {
            Some(new) => {
                *text = new;
                true
            }
            None => false,
        },
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |hit, item| rewrite_strings(item, rewrite) | hit),
        Value::Object(map) => {
            let mut hit = false;
            if map.keys().any(|k| rewrite(k).is_some()) {
                let entries = core::mem::take(map);
                for (k, v) in entries {
                    map.insert(rewrite(&k).unwrap_or(k), v);
                }
                hit = true;
            }
            map.values_mut()
                .fold(hit, |hit, item| rewrite_strings(item, rewrite) | hit)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;
