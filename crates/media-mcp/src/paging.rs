//! Paging, in one place: the `offset`/`limit` argument schemas (whose defaults the argument
//! reader fills in), the [`Window`] a handler reads from them, and the contract's `paging`
//! object every page carries.
//!
//! `total` only when the complete collection was seen; `null` `has_more`/`next_offset` when
//! uncertain; `mode` says who windows (`upstream`, `local`, `none`).

use crate::prelude::*;
use serde_json::{Value, json};

/// Default page size (the `limit` schema's `default`).
pub const DEFAULT_LIMIT: usize = 20;
/// Largest page size (the `limit` schema's `maximum`).
pub const MAX_LIMIT: usize = 100;

/// A requested window of records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Records to skip.
    pub offset: usize,
    /// Most records to return (1..=[`MAX_LIMIT`]).
    pub limit: usize,
}

/// The `offset` property of every list-style tool.
pub fn offset_schema() -> Value {
    offset_schema_described("Records to skip.")
}

/// The `offset` property, described as `description`.
pub fn offset_schema_described(description: &str) -> Value {
    json!({"type": "integer", "minimum": 0, "default": 0, "description": description})
}

/// The `limit` property of every list-style tool.
pub fn limit_schema() -> Value {
    limit_schema_described("Most records to return (1-100).")
}

/// The `limit` property, described as `description`.
pub fn limit_schema_described(description: &str) -> Value {
    json!({"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT, "description": description})
}

/// `properties` with the common paging properties added.
pub fn with_paging(mut properties: Value) -> Value {
    if let Some(p) = properties.as_object_mut() {
        p.insert("offset".into(), offset_schema());
        p.insert("limit".into(), limit_schema());
    }
    properties
}

/// The warning every paged list carries.
pub const NO_SNAPSHOT_WARNING: &str =
    "upstream paging has no snapshot guarantee: concurrent changes may shift offsets";

/// A page windowed locally out of a complete upstream list of `total` records.
pub fn local(window: Window, returned: usize, total: usize, unit: &str) -> Value {
    let end = window.offset + returned;
    let has_more = end < total;
    json!({
        "offset": window.offset, "limit": window.limit, "returned": returned,
        "total": total, "has_more": has_more,
        "next_offset": if has_more { json!(end) } else { Value::Null },
        "mode": "local", "unit": unit,
    })
}

/// A page windowed locally out of an upstream list that may be incomplete: no total.
pub fn local_partial(window: Window, returned: usize, more_seen: bool, unit: &str) -> Value {
    let end = window.offset + returned;
    json!({
        "offset": window.offset, "limit": window.limit, "returned": returned,
        "total": Value::Null,
        "has_more": if more_seen { json!(true) } else { Value::Null },
        "next_offset": if more_seen { json!(end) } else { Value::Null },
        "mode": "local", "unit": unit,
    })
}

/// What is known about the records after a page that upstream windowed.
#[derive(Clone, Copy, Debug)]
pub enum Beyond {
    /// Upstream reported `total` records (if it did); `consumed` upstream rows lie behind this
    /// page, which can exceed the items returned when rows were left out.
    Total { total: Option<u64>, consumed: usize },
    /// No total: a short upstream page (`ended`) is the last one, otherwise the next page
    /// starts at `next` and whether it holds anything is unknown.
    Open { ended: bool, next: usize },
    /// Nothing is known about the end; a continuation may still be offered.
    Unknown { next: Option<usize> },
}

/// A page that upstream windowed; `total` unknown unless upstream said.
pub fn upstream(window: Window, returned: usize, beyond: Beyond, unit: &str) -> Value {
    let (total, has_more, next) = match beyond {
        Beyond::Total { total, consumed } => {
            let end = window.offset + consumed;
            let has_more = total.map(|t| (end as u64) < t);
            (total, has_more, (has_more == Some(true)).then_some(end))
        }
        Beyond::Open { ended: true, .. } => (None, Some(false), None),
        Beyond::Open { ended: false, next } => (None, None, Some(next)),
        Beyond::Unknown { next } => (None, None, next),
    };
    json!({
        "offset": window.offset, "limit": window.limit, "returned": returned,
        "total": total, "has_more": has_more,
        "next_offset": next, "mode": "upstream", "unit": unit,
    })
}

/// A single-object result.
pub fn single(returned: usize, unit: &str) -> Value {
    json!({
        "offset": 0, "limit": returned.max(1), "returned": returned, "total": returned,
        "has_more": false, "next_offset": Value::Null, "mode": "none", "unit": unit,
    })
}

/// The slice of `items` inside `window`.
pub fn slice<T>(items: Vec<T>, window: Window) -> Vec<T> {
    items
        .into_iter()
        .skip(window.offset)
        .take(window.limit)
        .collect()
}

#[cfg(test)]
mod tests;
