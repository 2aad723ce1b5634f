//! Typed access to arguments that already passed [`crate::schema::validate`], with each
//! top-level property's schema `default` filled in once ([`Args::from_schema`]).
//!
//! Validation guarantees types and ranges, and the schema's `required` list and defaults
//! guarantee presence, so there are two kinds of read: `str`, `int`, `bool`, `choice`,
//! `window` for a field the schema makes present (required, or with a `default`), which fail
//! only if handler and schema disagree (an `INTERNAL_ERROR`, never a silent fallback); and
//! `opt_*` for an optional field without a default. JSON integers written as `3.0` (valid
//! `integer`s in JSON Schema) read as integers too.

use crate::contract::ToolError;
use crate::paging::Window;
use crate::prelude::*;
use crate::schema::as_int;
use crate::upstream::path_segment;
use serde_json::{Map, Value};

/// A closed set of labels an argument's `enum` allows, parsed once into a typed value.
pub(crate) trait Choice: Sized {
    /// The value labelled `label`, `None` when the label is not one of the set.
    fn from_label(label: &str) -> Option<Self>;
}

/// Validated tool arguments, schema defaults filled in.
#[derive(Debug, Clone, Default)]
pub struct Args {
    map: Map<String, Value>,
    given: Vec<String>,
    #[cfg(test)]
    reads: core::cell::RefCell<Vec<Read>>,
}

/// How a handler read one field (recorded in tests, where `read_agreement` checks every read
/// against the tool's schema).
#[cfg(test)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Read {
    pub name: String,
    /// Read as present by schema (`str`, `int`, ...) rather than as optional (`opt_*`).
    pub present: bool,
    /// What the read returned.
    pub value: Option<Value>,
}

impl Args {
    /// Validated arguments `map` with the `default` of each property of `schema` that `map`
    /// does not give.
    pub fn from_schema(schema: &Value, mut map: Map<String, Value>) -> Self {
        let given = map.keys().cloned().collect();
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (name, prop) in props {
                if let Some(default) = prop.get("default")
                    && !map.contains_key(name)
                {
                    map.insert(name.clone(), default.clone());
                }
            }
        }
        Self {
            map,
            given,
            #[cfg(test)]
            reads: Default::default(),
        }
    }

    fn get(&self, name: &str, present: bool) -> Option<&Value> {
        let value = self.map.get(name);
        #[cfg(test)]
        self.reads.borrow_mut().push(Read {
            name: name.to_owned(),
            present,
            value: value.cloned(),
        });
        #[cfg(not(test))]
        let _ = present;
        value
    }

    fn present<'a, T>(
        &'a self,
        name: &str,
        read: impl FnOnce(&'a Value) -> Option<T>,
    ) -> Result<T, ToolError> {
        self.get(name, true).and_then(read).ok_or_else(|| {
            ToolError::internal(format!(
                "argument {name} is missing although the tool's schema requires it or gives its default"
            ))
        })
    }

    /// A string field the schema makes present.
    ///
    /// # Errors
    /// `INTERNAL_ERROR` when it is absent (handler and schema disagree).
    pub fn str(&self, name: &str) -> Result<&str, ToolError> {
        self.present(name, Value::as_str)
    }

    /// An optional string field.
    pub fn opt_str(&self, name: &str) -> Option<&str> {
        self.get(name, false).and_then(Value::as_str)
    }

    /// An integer field the schema makes present.
    ///
    /// # Errors
    /// `INTERNAL_ERROR` when it is absent (handler and schema disagree).
    pub fn int(&self, name: &str) -> Result<i64, ToolError> {
        self.present(name, as_int)
    }

    /// An optional integer field.
    pub fn opt_int(&self, name: &str) -> Option<i64> {
        as_int(self.get(name, false)?)
    }

    /// A boolean field the schema makes present.
    ///
    /// # Errors
    /// `INTERNAL_ERROR` when it is absent (handler and schema disagree).
    pub fn bool(&self, name: &str) -> Result<bool, ToolError> {
        self.present(name, Value::as_bool)
    }

    /// An optional boolean field.
    pub fn opt_bool(&self, name: &str) -> Option<bool> {
        self.get(name, false).and_then(Value::as_bool)
    }

    /// An `enum` field the schema makes present, as `T`.
    ///
    /// # Errors
    /// `INTERNAL_ERROR` when it is absent or not one of `T`'s labels (the schema's `enum` and
    /// `T` disagree).
    pub fn choice<T: Choice>(&self, name: &str) -> Result<T, ToolError> {
        self.present(name, |v| v.as_str().and_then(T::from_label))
    }

    /// An optional list of strings.
    pub fn opt_strs(&self, name: &str) -> Option<Vec<&str>> {
        Some(
            self.get(name, false)?
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .collect(),
        )
    }

    /// A field the schema makes present, as raw JSON.
    ///
    /// # Errors
    /// `INTERNAL_ERROR` when it is absent (handler and schema disagree).
    pub fn value(&self, name: &str) -> Result<&Value, ToolError> {
        self.present(name, Some)
    }

    /// An optional field as raw JSON.
    pub fn opt_value(&self, name: &str) -> Option<&Value> {
        self.get(name, false)
    }

    /// A string field the schema makes present as one URL path segment ([`path_segment`]).
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` naming the argument when it is empty, `.` or `..`.
    pub fn segment(&self, name: &str) -> Result<String, ToolError> {
        segment_argument(name, self.str(name)?)
    }

    /// An optional string field as one URL path segment ([`path_segment`]).
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` naming the argument when it is given empty, `.` or `..`.
    pub fn opt_segment(&self, name: &str) -> Result<Option<String>, ToolError> {
        self.opt_str(name)
            .map(|value| segment_argument(name, value))
            .transpose()
    }

    /// Whether the caller gave the field (a filled-in default is not given).
    pub fn given(&self, name: &str) -> bool {
        self.given.iter().any(|g| g == name)
    }

    /// The `offset` and `limit` fields ([`crate::paging::with_paging`] gives their schema and
    /// defaults).
    ///
    /// # Errors
    /// `INTERNAL_ERROR` when the schema has no paging fields.
    pub fn window(&self) -> Result<Window, ToolError> {
        Ok(Window {
            offset: self.int("offset")?.max(0) as usize,
            limit: self.int("limit")?.max(1) as usize,
        })
    }

    /// Every read so far, in order.
    #[cfg(test)]
    pub(crate) fn reads(&self) -> Vec<Read> {
        self.reads.borrow().clone()
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

/// Arguments as a JSON object; empty text is `{}`.
///
/// # Errors
/// `INVALID_ARGUMENT` (`arguments`) when the text is not a JSON object.
pub(crate) fn parse_object(arguments: &str) -> Result<serde_json::Map<String, Value>, ToolError> {
    let text = if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(ToolError::invalid_argument(
            "arguments",
            "arguments must be a JSON object",
        )),
    }
}
