//! Helpers shared by the admin read tools: strict decoding of
//! upstream arrays and fields, `reference` records with clean-label selection (contract
//! `reference_page` rules), `metric` records, and compound reads that may partly fail.

use crate::contract::{ErrorCode, Reply, ToolError};
pub use crate::ombi::shape::{array, local_page};
use crate::prelude::*;
use serde_json::{Map, Value, json};

/// A required integer field of an upstream row.
///
/// # Errors
/// `UPSTREAM_SCHEMA_MISMATCH` when it is missing or not an integer.
pub fn req_int(row: &Value, key: &str, what: &str) -> Result<i64, ToolError> {
    row.get(key).and_then(crate::schema::as_int).ok_or_else(|| {
        ToolError::schema_mismatch(format!("a {what} record from Ombi has no integer `{key}`"))
    })
}

/// A required string field of an upstream row (may be empty).
///
/// # Errors
/// `UPSTREAM_SCHEMA_MISMATCH` when it is missing or not a string.
pub fn req_str<'v>(row: &'v Value, key: &str, what: &str) -> Result<&'v str, ToolError> {
    row.get(key).and_then(Value::as_str).ok_or_else(|| {
        ToolError::schema_mismatch(format!("a {what} record from Ombi has no string `{key}`"))
    })
}

/// An optional string field: `Ok(None)` for absent/null, a mismatch for any other type.
///
/// # Errors
/// `UPSTREAM_SCHEMA_MISMATCH` when present with a non-string type.
pub fn opt_str<'v>(row: &'v Value, key: &str, what: &str) -> Result<Option<&'v str>, ToolError> {
    match row.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(ToolError::schema_mismatch(format!(
            "a {what} record from Ombi has a non-string `{key}`"
        ))),
    }
}

/// Whether a label is upstream mojibake: it contains U+FFFD, or every visible character is `?`.
pub fn is_corrupted(label: &str) -> bool {
    let visible: Vec<char> = label.chars().filter(|c| !c.is_whitespace()).collect();
    label.contains('\u{FFFD}') || (!visible.is_empty() && visible.iter().all(|c| *c == '?'))
}

/// The label to show out of `candidates`, in priority order (deterministic): the first clean,
/// non-empty one; else the first non-empty corrupted one, flagged `true`.
pub fn select_label<'a>(candidates: &[Option<&'a str>]) -> Option<(&'a str, bool)> {
    let present = || {
        candidates
            .iter()
            .flatten()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
    };
    present()
        .find(|s| !is_corrupted(s))
        .map(|s| (s, false))
        .or_else(|| present().next().map(|s| (s, true)))
}

/// A contract `reference` record.
pub fn reference(id: Option<String>, name: &str, value: Value, category: Option<&str>) -> Value {
    let mut o = Map::new();
    if let Some(id) = id {
        o.insert("id".into(), json!(id));
    }
    o.insert("name".into(), json!(name));
    o.insert("value".into(), value);
    if let Some(c) = category {
        o.insert("category".into(), json!(c));
    }
    Value::Object(o)
}

/// Whether `name` contains `query`, ignoring case (a local filter over a complete list).
pub fn matches(name: &str, query: Option<&str>) -> bool {
    query.is_none_or(|q| name.to_lowercase().contains(&q.trim().to_lowercase()))
}

/// The reply of a compound read: all parts succeeded → `ok`; some failed → `PARTIAL_FAILURE`
/// carrying the data that was read and naming the failed parts; all failed → the first error.
pub fn compound(data: Value, failures: Vec<(String, ToolError)>, parts: usize) -> Reply {
    match failures.len() {
        0 => Reply::ok(data),
        n if n == parts => Reply::failure(failures.into_iter().next().expect("n > 0").1),
        _ => {
            let named: Vec<String> = failures
                .iter()
                .map(|(p, e)| format!("{p} ({})", e.code.as_str()))
                .collect();
            let mut reply = Reply::ok(data);
            reply.error = Some(ToolError::new(
                ErrorCode::PartialFailure,
                format!("some values could not be read: {}", named.join(", ")),
            ));
            reply.warn_all(
                failures
                    .into_iter()
                    .map(|(p, e)| format!("{p}: {}", e.message)),
            )
        }
    }
}

#[cfg(test)]
mod tests;
