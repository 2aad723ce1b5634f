//! A JSON Schema (2020-12) interpreter for the keyword subset in [`SUPPORTED_KEYWORDS`].
//!
//! Local `$ref`s (`#/...` JSON pointers into the schema being checked) are resolved when they are
//! reached, never expanded in advance, so a recursive definition (a JSON value whose object and
//! array branches refer back to itself) costs what the value being checked costs. A reference
//! reached again at the same place of the value, without the value getting any smaller, would
//! loop: it accepts there, and the rest of the schema still applies.

use super::pattern::Pattern;
use crate::prelude::*;
use serde_json::{Map, Value};

/// Keywords the interpreter understands; a tool schema using any other is a bug (tested).
pub const SUPPORTED_KEYWORDS: &[&str] = &[
    "$schema",
    "title",
    "description",
    "default",
    "examples",
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "allOf",
    "anyOf",
    "oneOf",
    "if",
    "then",
    "else",
    "not",
    "minProperties",
    "$ref",
    "$defs",
    "definitions",
];

/// The first reason `value` breaks the schema, naming the argument at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The argument path, e.g. `query`, `filters.genre_ids[2]`; empty for the whole object.
    pub field: String,
    /// What is wrong, for a person or a model to fix.
    pub message: String,
}

/// Checks `value` against `schema`. `Ok(())` when valid.
///
/// A first pass only answers yes or no: it builds no paths and no messages, which a schema
/// with many `anyOf` branches would otherwise make for every branch that fails on the way to
/// one that matches. Only when it says no does a second pass find the violation to report.
///
/// # Errors
/// The first [`Violation`] found, in document order.
pub fn validate(schema: &Value, value: &Value) -> Result<(), Violation> {
    let mut cx = Cx {
        root: schema,
        active: Vec::new(),
        quiet: true,
    };
    if cx.check(schema, value, &Path::Root).is_ok() {
        return Ok(());
    }
    cx.quiet = false;
    cx.check(schema, value, &Path::Root)
}

/// The schema references are resolved in, the references being checked now (each with the
/// node of the value it was entered at), and whether failures are only counted (`quiet`) or
/// described.
struct Cx<'a> {
    root: &'a Value,
    active: Vec<(&'a str, *const Value)>,
    quiet: bool,
}

/// Where a value sits, as a chain back to the root, written out only for a violation: `""`
/// for the whole object, else like `filters.genre_ids[2]`.
enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'p str),
    Index(&'p Path<'p>, usize),
}

impl core::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(Path::Root, key) => f.write_str(key),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// The node a local `$ref` (`#` or `#/a/b`, JSON-pointer escapes decoded) points at in `root`.
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    if reference == "#" {
        return Some(root);
    }
    let path = reference.strip_prefix("#/")?;
    path.split('/').try_fold(root, |node, seg| {
        let seg = if seg.contains('~') {
            alloc::borrow::Cow::Owned(seg.replace("~1", "/").replace("~0", "~"))
        } else {
            alloc::borrow::Cow::Borrowed(seg)
        };
        match node {
            Value::Array(items) => items.get(seg.parse::<usize>().ok()?),
            _ => node.get(seg.as_ref()),
        }
    })
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(n) if n.as_f64().is_some_and(super::number::is_whole) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_matches(expected: &str, v: &Value) -> bool {
    let actual = type_name(v);
    actual == expected || (expected == "number" && actual == "integer")
}

fn describe(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

impl<'a> Cx<'a> {
    /// A violation at `path`, described only when the pass is not quiet.
    fn fail(&self, path: &Path<'_>, message: impl FnOnce() -> String) -> Result<(), Violation> {
        Err(if self.quiet {
            Violation {
                field: String::new(),
                message: String::new(),
            }
        } else {
            Violation {
                field: path.to_string(),
                message: message(),
            }
        })
    }

    fn check(
        &mut self,
        schema: &'a Value,
        value: &Value,
        path: &Path<'_>,
    ) -> Result<(), Violation> {
        let Some(s) = schema.as_object() else {
            return match schema {
                Value::Bool(false) => self.fail(path, || "is not allowed".into()),
                _ => Ok(()),
            };
        };
        self.check_type(s, value, path)?;
        if let Some(allowed) = s.get("enum").and_then(Value::as_array)
            && !allowed.contains(value)
        {
            return self.fail(path, || {
                let list: Vec<String> = allowed.iter().map(describe).collect();
                format!("must be one of {}", list.join(", "))
            });
        }
        if let Some(c) = s.get("const")
            && c != value
        {
            return self.fail(path, || format!("must be {}", describe(c)));
        }
        match value {
            Value::Number(n) => self.check_number(s, n.as_f64().unwrap_or(f64::NAN), path)?,
            Value::String(text) => self.check_string(s, text, path)?,
            Value::Array(items) => self.check_array(s, items, path)?,
            Value::Object(map) => self.check_object(s, map, path)?,
            _ => {}
        }
        self.check_combinators(s, value, path)?;
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) => self.check_ref(r, value, path),
            None => Ok(()),
        }
    }

    /// `$ref`: the target checked where it is reached; an unresolvable one accepts anything.
    fn check_ref(
        &mut self,
        reference: &'a str,
        value: &Value,
        path: &Path<'_>,
    ) -> Result<(), Violation> {
        let Some(target) = resolve(self.root, reference) else {
            return Ok(());
        };
        // The same node of the value is the same place in it.
        let node: *const Value = value;
        if self
            .active
            .iter()
            .any(|(r, n)| *r == reference && *n == node)
        {
            return Ok(());
        }
        self.active.push((reference, node));
        let result = self.check(target, value, path);
        self.active.pop();
        result
    }
}

impl Cx<'_> {
    fn check_type(
        &self,
        s: &Map<String, Value>,
        value: &Value,
        path: &Path<'_>,
    ) -> Result<(), Violation> {
        let ok = match s.get("type") {
            None => true,
            Some(Value::String(t)) => type_matches(t, value),
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .any(|t| type_matches(t, value)),
            Some(_) => true,
        };
        if ok {
            return Ok(());
        }
        self.fail(path, || {
            let want = match s.get("type") {
                Some(Value::Array(ts)) => ts
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(" or "),
                Some(t) => t.as_str().unwrap_or("?").to_owned(),
                None => String::new(),
            };
            format!("must be of type {want}, got {}", type_name(value))
        })
    }

    fn check_number(
        &self,
        s: &Map<String, Value>,
        n: f64,
        path: &Path<'_>,
    ) -> Result<(), Violation> {
        if let Some(min) = s.get("minimum").and_then(Value::as_f64)
            && n < min
        {
            return self.fail(path, || format!("must be at least {min}"));
        }
        if let Some(max) = s.get("maximum").and_then(Value::as_f64)
            && n > max
        {
            return self.fail(path, || format!("must be at most {max}"));
        }
        Ok(())
    }

    fn check_string(
        &self,
        s: &Map<String, Value>,
        text: &str,
        path: &Path<'_>,
    ) -> Result<(), Violation> {
        let len = text.chars().count() as u64;
        if let Some(min) = s.get("minLength").and_then(Value::as_u64)
            && len < min
        {
            return self.fail(path, || format!("must be at least {min} characters long"));
        }
        if let Some(max) = s.get("maxLength").and_then(Value::as_u64)
            && len > max
        {
            return self.fail(path, || format!("must be at most {max} characters long"));
        }
        if let Some(p) = s.get("pattern").and_then(Value::as_str)
            && !pattern_matches(p, text)
        {
            return self.fail(path, || format!("must match the pattern {p}"));
        }
        Ok(())
    }
}

/// ECMA-262 patterns as our schemas use them (anchors, classes, repetition, groups).
fn pattern_matches(pattern: &str, text: &str) -> bool {
    // An uncompilable pattern rejects everything rather than letting anything through.
    Pattern::new(pattern).is_some_and(|re| re.is_match(text))
}

impl<'a> Cx<'a> {
    fn check_array(
        &mut self,
        s: &'a Map<String, Value>,
        items: &[Value],
        path: &Path<'_>,
    ) -> Result<(), Violation> {
        if let Some(min) = s.get("minItems").and_then(Value::as_u64)
            && (items.len() as u64) < min
        {
            return self.fail(path, || format!("must have at least {min} items"));
        }
        if let Some(max) = s.get("maxItems").and_then(Value::as_u64)
            && (items.len() as u64) > max
        {
            return self.fail(path, || format!("must have at most {max} items"));
        }
        if s.get("uniqueItems") == Some(&Value::Bool(true)) {
            for (i, a) in items.iter().enumerate() {
                if items[..i].contains(a) {
                    return self.fail(&Path::Index(path, i), || format!("repeats {}", describe(a)));
                }
            }
        }
        if let Some(item_schema) = s.get("items") {
            for (i, item) in items.iter().enumerate() {
                self.check(item_schema, item, &Path::Index(path, i))?;
            }
        }
        Ok(())
    }

    fn check_object(
        &mut self,
        s: &'a Map<String, Value>,
        map: &Map<String, Value>,
        path: &Path<'_>,
    ) -> Result<(), Violation> {
        let props = s.get("properties").and_then(Value::as_object);
        if let Some(required) = s.get("required").and_then(Value::as_array) {
            for name in required.iter().filter_map(Value::as_str) {
                if !map.contains_key(name) {
                    return self.fail(&Path::Key(path, name), || "is required".into());
                }
            }
        }
        if let Some(min) = s.get("minProperties").and_then(Value::as_u64)
            && (map.len() as u64) < min
        {
            return self.fail(path, || format!("must set at least {min} field(s)"));
        }
        for (key, v) in map {
            let at = Path::Key(path, key);
            match props.and_then(|p| p.get(key)) {
                Some(prop_schema) => self.check(prop_schema, v, &at)?,
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        return self.fail(&at, || "is not a known argument".into());
                    }
                    Some(extra @ Value::Object(_)) => self.check(extra, v, &at)?,
                    _ => {}
                },
            }
        }
        Ok(())
    }

    fn check_combinators(
        &mut self,
        s: &'a Map<String, Value>,
        value: &Value,
        path: &Path<'_>,
    ) -> Result<(), Violation> {
        if let Some(all) = s.get("allOf").and_then(Value::as_array) {
            for sub in all {
                self.check(sub, value, path)?;
            }
        }
        if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
            let mut failures = Vec::new();
            let mut failed = 0;
            for sub in any {
                match self.check(sub, value, path) {
                    Ok(()) => break,
                    Err(_) if self.quiet => failed += 1,
                    Err(v) => {
                        failed += 1;
                        failures.push(v);
                    }
                }
            }
            if failed == any.len() {
                if self.quiet {
                    return self.fail(path, String::new);
                }
                // `anyOf` of bare types (the portable spelling of a type list) reads as the list.
                if let Some(types) = bare_types(any) {
                    return self.fail(path, || {
                        format!(
                            "must be of type {}, got {}",
                            types.join(" or "),
                            type_name(value)
                        )
                    });
                }
                return Err(furthest(failures, path));
            }
        }
        if let Some(one) = s.get("oneOf").and_then(Value::as_array) {
            let mut failures = Vec::new();
            for sub in one {
                if let Err(v) = self.check(sub, value, path) {
                    failures.push(v);
                }
            }
            match one.len() - failures.len() {
                0 => return Err(furthest(failures, path)),
                1 => {}
                _ => return self.fail(path, || "matches more than one allowed form".into()),
            }
        }
        if let Some(cond) = s.get("if") {
            let branch = if self.check(cond, value, path).is_ok() {
                s.get("then")
            } else {
                s.get("else")
            };
            if let Some(b) = branch {
                self.check(b, value, path)?;
            }
        }
        if let Some(not) = s.get("not")
            && self.check(not, value, path).is_ok()
        {
            return self.fail(path, || not_message(not));
        }
        Ok(())
    }
}

/// The violation of the branch that got furthest, so the message names a concrete field.
fn furthest(failures: Vec<Violation>, path: &Path<'_>) -> Violation {
    failures
        .into_iter()
        .max_by_key(|v| v.field.len())
        .unwrap_or_else(|| Violation {
            field: path.to_string(),
            message: "matches no allowed form".into(),
        })
}

/// The types of `branches` when each is `{"type": "<one type>"}` and nothing else.
fn bare_types(branches: &[Value]) -> Option<Vec<&str>> {
    branches
        .iter()
        .map(|b| match b.as_object() {
            Some(o) if o.len() == 1 => o.get("type").and_then(Value::as_str),
            _ => None,
        })
        .collect()
}

fn not_message(not: &Value) -> String {
    if not.as_object().is_some_and(serde_json::Map::is_empty) {
        // `{"not": {}}`, the object form of `false`: nothing is allowed here.
        return "is not allowed".to_owned();
    }
    match not.get("required").and_then(Value::as_array) {
        Some(names) => {
            let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
            format!("must not set {} here", names.join(" and "))
        }
        None => "is not allowed in this form".to_owned(),
    }
}

#[cfg(test)]
mod tests;
