//! One projection per Ombi view model of a movie or TV show, shared by every tool that reads
//! one. A full-info (detail) projection starts from the list projection of the same title and
//! adds what only the detail route carries.

pub(crate) mod movie;
pub(crate) mod tv;

use crate::prelude::*;
use serde_json::{Value, json};

/// The names in a view model's `genres` list.
fn genre_names(v: &Value) -> Vec<Value> {
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
