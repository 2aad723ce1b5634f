//! What the movie and TV projections read alike.

use crate::prelude::*;
use serde_json::{Value, json};

/// The names in a view model's `genres` list.
pub(super) fn genre_names(v: &Value) -> Vec<Value> {
    v.get("genres")
        .and_then(Value::as_array)
        .map(|g| {
            g.iter()
                .filter_map(|x| x.get("name").and_then(Value::as_str))
                .map(|s| json!(s))
                .collect()
        })
        .unwrap_or_default()
}
