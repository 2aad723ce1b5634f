//! Shared building blocks of upstream shapes and contract records used by every tool group:
//! array/object bodies, `metric` records and local pages.

use crate::contract::ToolError;
use crate::paging::{self, Window};
use crate::prelude::*;
use serde_json::{Map, Value, json};

/// The upstream body of a list route as an array. 204/empty and JSON `null` (ASP.NET answers a
/// `null` result with 204) are not an empty list: what the list holds is unknown, so they are
/// a schema mismatch like anything else that is not an array.
///
/// # Errors
/// `UPSTREAM_SCHEMA_MISMATCH` naming `what`.
pub fn array(body: Option<Value>, what: &str) -> Result<Vec<Value>, ToolError> {
    match body {
        None | Some(Value::Null) => Err(ToolError::schema_mismatch(format!(
            "Ombi answered the list of {what} with no content (HTTP 204 or null), which does not say the list is empty"
        ))),
        other => array_or_empty(other, what),
    }
}

/// The body as an array, `null`/204 read as an empty list; [`array`] refuses those first, and
/// disabled integrations are read through `Ombi::get_each_or_none` instead.
///
/// # Errors
/// `UPSTREAM_SCHEMA_MISMATCH` naming `what`.
fn array_or_empty(body: Option<Value>, what: &str) -> Result<Vec<Value>, ToolError> {
    match body {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => Err(ToolError::schema_mismatch(format!(
            "expected a JSON array of {what} from upstream"
        ))),
    }
}

/// Like [`array`], for lists of records: an element that is not a JSON object means the body
/// is not the documented shape (projecting it would invent empty records).
///
/// # Errors
/// `UPSTREAM_SCHEMA_MISMATCH` naming `what`.
pub fn records(body: Option<Value>, what: &str) -> Result<Vec<Value>, ToolError> {
    let rows = array(body, what)?;
    if rows.iter().any(|r| !r.is_object()) {
        return Err(ToolError::schema_mismatch(format!(
            "expected a JSON array of {what} (objects) from upstream"
        )));
    }
    Ok(rows)
}

/// The upstream object, `None` for 204/`null`, a schema mismatch for anything else.
///
/// # Errors
/// `UPSTREAM_SCHEMA_MISMATCH` when the body is not an object.
pub fn object(body: Option<Value>, what: &str) -> Result<Option<Map<String, Value>>, ToolError> {
    match body {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(o)) => Ok(Some(o)),
        Some(_) => Err(ToolError::schema_mismatch(format!(
            "expected a JSON object ({what}) from upstream"
        ))),
    }
}

/// A contract `metric` record.
pub fn metric(name: &str, value: Value, scope: &str, unit: Option<&str>) -> Value {
    let mut m = json!({"name": name, "value": value, "scope": scope});
    if let Some(u) = unit {
        m["unit"] = json!(u);
    }
    m
}

/// A locally windowed page built while a list streams by: it counts every record and keeps
/// only those inside the window, so a list of any length costs at most one page of records.
#[derive(Debug)]
pub struct LocalWindow {
    window: Window,
    total: usize,
    items: Vec<Value>,
}

impl LocalWindow {
    /// An empty page for `window`.
    pub fn new(window: Window) -> Self {
        Self {
            window,
            total: 0,
            items: Vec::new(),
        }
    }

    /// Counts the next record of the list, keeping it when it falls inside the window.
    pub fn push(&mut self, record: Value) {
        let at = self.total;
        self.total += 1;
        if at >= self.window.offset && self.items.len() < self.window.limit {
            self.items.push(record);
        }
    }

    /// The records kept and how many were counted.
    pub fn into_parts(self) -> (Vec<Value>, usize) {
        (self.items, self.total)
    }

    /// The page of `family`, as [`local_page`] would make it from the whole list.
    pub fn into_page(self, family: &str, unit: &str) -> Value {
        let window = self.window;
        let (items, total) = self.into_parts();
        let page = paging::local(window, items.len(), total, unit);
        json!({"kind": family, "items": items, "page": page})
    }
}

/// A locally windowed page of `family` out of the complete list `all`.
pub fn local_page(family: &str, all: Vec<Value>, window: Window, unit: &str) -> Value {
    let total = all.len();
    let items = paging::slice(all, window);
    let page = paging::local(window, items.len(), total, unit);
    json!({"kind": family, "items": items, "page": page})
}

#[cfg(test)]
mod tests;
