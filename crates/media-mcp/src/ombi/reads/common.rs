//! Shared pieces of the request/people read tools: a record builder
//! that keeps absent values absent, and the upstream enum tables.
//!
//! Enum rule (contract "Reference/metric names"): an upstream code without a verified label
//! keeps its `*_code` where the shared schema admits the value, loses the label, and is
//! reported in `warnings`; it never fails the call.

use crate::ombi::codes::RequestKind;
pub use crate::ombi::shape::{array, metric, object};
use crate::prelude::*;
use serde_json::{Map, Value, json};

/// A contract record under construction: setters ignore absent, null, empty and
/// `0001-01-01` values, so nothing unknown becomes `false`, `0` or `""`.
#[derive(Debug, Clone, Default)]
pub struct Rec(Map<String, Value>);

/// Longest free text kept in a record, in characters.
pub const MAX_TEXT_CHARS: usize = 1000;

impl Rec {
    /// An empty record.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `key` to a JSON value unconditionally.
    pub fn set(&mut self, key: &str, v: Value) -> &mut Self {
        self.0.insert(key.into(), v);
        self
    }

    /// Sets a string from a non-empty upstream string (cut to [`MAX_TEXT_CHARS`]).
    pub fn text(&mut self, key: &str, v: Option<&Value>) -> &mut Self {
        if let Some(s) = v
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let (s, _) = super::super::media::bounded(s, MAX_TEXT_CHARS);
            self.0.insert(key.into(), json!(s));
        }
        self
    }

    /// Sets a boolean only when upstream gave a boolean (`null` stays absent).
    pub fn flag(&mut self, key: &str, v: Option<&Value>) -> &mut Self {
        if let Some(b) = v.and_then(Value::as_bool) {
            self.0.insert(key.into(), json!(b));
        }
        self
    }

    /// Sets a positive integer id (0, negative and non-numbers stay absent).
    pub fn id(&mut self, key: &str, v: Option<&Value>) -> &mut Self {
        if let Some(i) = super::super::ids::positive_id(v) {
            self.0.insert(key.into(), json!(i));
        }
        self
    }

    /// Sets a non-negative count.
    pub fn count(&mut self, key: &str, v: Option<&Value>) -> &mut Self {
        if let Some(i) = v.and_then(Value::as_i64).filter(|i| *i >= 0) {
            self.0.insert(key.into(), json!(i));
        }
        self
    }

    /// Sets a date string unless it is DateTime.MinValue (`0001-01-01…`).
    pub fn date(&mut self, key: &str, v: Option<&Value>) -> &mut Self {
        if let Some(d) = v.and_then(Value::as_str).and_then(real_date) {
            self.0.insert(key.into(), json!(d));
        }
        self
    }

    /// Sets the calendar date (`YYYY-MM-DD`) of a date-time Ombi writes in server-local time
    /// with a `Z` it does not mean, unless it is DateTime.MinValue.
    pub fn day(&mut self, key: &str, v: Option<&Value>) -> &mut Self {
        if let Some(d) = v
            .and_then(Value::as_str)
            .and_then(real_date)
            .and_then(|d| d.get(..10))
        {
            self.0.insert(key.into(), json!(d));
        }
        self
    }

    /// Whether `key` was set.
    pub fn has(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }

    /// The finished JSON object.
    pub fn build(&self) -> Value {
        Value::Object(self.0.clone())
    }
}

/// A date string that is not Ombi's DateTime.MinValue sentinel.
pub fn real_date(s: &str) -> Option<&str> {
    let s = s.trim();
    (!s.is_empty() && !s.starts_with("0001-01-01")).then_some(s)
}

/// Sets `request_type` and `request_type_code` from an upstream RequestType. A code outside
/// the table cannot be carried (the shared schema admits only 0–2), so both stay absent and a
/// warning names it.
pub fn put_request_type(rec: &mut Rec, v: Option<&Value>, what: &str, warnings: &mut Vec<String>) {
    let Some(code) = v.and_then(Value::as_i64) else {
        return;
    };
    match RequestKind::from_code(code) {
        Some(kind) => {
            rec.set("request_type", json!(kind.label()))
                .set("request_type_code", json!(code));
        }
        None => warnings.push(format!(
            "{what}: unknown upstream request type code {code}; its type is left out"
        )),
    }
}

#[cfg(test)]
mod tests;
