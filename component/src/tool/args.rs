//! Typed access to arguments that already passed [`crate::schema::validate`].
//!
//! Validation guarantees types and ranges, so accessors return plain `Option`s; JSON integers
//! written as `3.0` (valid `integer`s in JSON Schema) read as integers too.

use crate::contract::ToolError;
use crate::prelude::*;
use crate::schema::as_int;
use crate::upstream::path_segment;
use serde_json::{Map, Value};

/// Validated tool arguments.
#[derive(Debug, Clone, Default)]
pub struct Args(Map<String, Value>);

impl Args {
    /// Wraps a validated argument object.
    pub fn new(map: Map<String, Value>) -> Self {
        Self(map)
    }

    /// A string argument.
    pub fn str(&self, name: &str) -> Option<&str> {
        self.0.get(name).and_then(Value::as_str)
    }

    /// A string argument as one URL path segment ([`path_segment`]).
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` naming the argument when it is missing, empty, `.` or `..`.
    pub fn segment(&self, name: &str) -> Result<String, ToolError> {
        segment_argument(name, self.str(name).unwrap_or_default())
    }

    /// An integer argument.
    pub fn int(&self, name: &str) -> Option<i64> {
        as_int(self.0.get(name)?)
    }

    /// A boolean argument.
    pub fn bool(&self, name: &str) -> Option<bool> {
        self.0.get(name).and_then(Value::as_bool)
    }

    /// A list of strings.
    pub fn strs(&self, name: &str) -> Option<Vec<&str>> {
        Some(
            self.0
                .get(name)?
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .collect(),
        )
    }

    /// A raw argument value.
    pub fn value(&self, name: &str) -> Option<&Value> {
        self.0.get(name)
    }

    /// Whether the argument was given.
    pub fn has(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// `offset` (default 0) and `limit` (default 20), the common paging arguments.
    pub fn window(&self) -> Window {
        Window {
            offset: self.int("offset").unwrap_or(0).max(0) as usize,
            limit: self
                .int("limit")
                .unwrap_or(DEFAULT_LIMIT as i64)
                .clamp(1, 100) as usize,
        }
    }
}

/// `value` of argument `field` as one URL path segment ([`path_segment`]).
///
/// # Errors
/// `INVALID_ARGUMENT` naming `field` when `value` is empty, `.` or `..`: as a path segment it
/// would name another route.
pub fn segment_argument(field: &str, value: &str) -> Result<String, ToolError> {
    path_segment(value).ok_or_else(|| {
        ToolError::invalid_argument(
            field,
            format!(
                "must not be empty, \".\" or \"..\" (got {value:?}): it becomes a URL path segment, where such a value names another route"
            ),
        )
    })
}

/// Default page size.
pub const DEFAULT_LIMIT: usize = 20;

/// A requested window of records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Records to skip.
    pub offset: usize,
    /// Most records to return (1..=100).
    pub limit: usize,
}
