//! The contract's `paging` object.
//!
//! `total` only when the complete collection was seen; `null` `has_more`/`next_offset` when
//! uncertain; `mode` says who windows (`upstream`, `local`, `none`).

use crate::prelude::*;
use crate::tool::args::Window;
use serde_json::{Value, json};

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

/// A page that upstream windowed; `total` unknown unless upstream said.
pub fn upstream(
    window: Window,
    returned: usize,
    total: Option<u64>,
    next: Option<usize>,
    unit: &str,
) -> Value {
    let has_more = total.map(|t| ((window.offset + returned) as u64) < t);
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
mod tests {
    use super::*;

    #[test]
    fn local_pages_know_their_total() {
        let w = Window {
            offset: 0,
            limit: 2,
        };
        let p = local(w, 2, 5, "media");
        assert_eq!(
            (
                p["total"].as_u64(),
                p["has_more"].as_bool(),
                p["next_offset"].as_u64()
            ),
            (Some(5), Some(true), Some(2))
        );
        let p = local(
            Window {
                offset: 4,
                limit: 2,
            },
            1,
            5,
            "media",
        );
        assert_eq!(
            (p["has_more"].as_bool(), p["next_offset"].is_null()),
            (Some(false), true)
        );
    }

    #[test]
    fn partial_pages_never_claim_a_total() {
        let p = local_partial(
            Window {
                offset: 0,
                limit: 10,
            },
            10,
            false,
            "media",
        );
        assert!(p["total"].is_null() && p["has_more"].is_null() && p["next_offset"].is_null());
    }
}
