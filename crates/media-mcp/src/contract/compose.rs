//! Per-tool `outputSchema` composition (contract: "Envelope template", "Composition rule").
//!
//! Each tool's output schema is the envelope template with `operation` fixed to the tool name,
//! `data.oneOf` listing the tool's result families, and `$defs` holding `error`, those families
//! and the transitive closure of their `$ref`s, copied unchanged from the shared library.

use crate::prelude::*;
use alloc::boxed::Box;
use alloc::collections::BTreeSet;
use once_cell::race::OnceBox;
use serde_json::{Map, Value, json};

/// The shared `$defs` library (`defs.json`), parsed once.
pub fn shared_defs() -> &'static Map<String, Value> {
    static DEFS: OnceBox<Map<String, Value>> = OnceBox::new();
    DEFS.get_or_init(|| {
        let root: Value =
            serde_json::from_str(include_str!("defs.json")).expect("defs.json is valid JSON");
        Box::new(match root {
            Value::Object(mut o) => match o.remove("$defs") {
                Some(Value::Object(defs)) => defs,
                _ => panic!("defs.json has an object `$defs`"),
            },
            _ => panic!("defs.json is an object"),
        })
    })
}

/// Every `#/$defs/NAME` reference inside `node`.
fn collect_refs(node: &Value, out: &mut Vec<String>) {
    match node {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("$ref", Value::String(r)) => {
                        if let Some(name) = r.strip_prefix("#/$defs/") {
                            out.push(name.to_owned());
                        }
                    }
                    _ => collect_refs(value, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

/// `error` + `roots` + every definition reachable from them through `$ref`s.
pub fn defs_closure(roots: &[&str]) -> BTreeSet<String> {
    let defs = shared_defs();
    let mut seen = BTreeSet::new();
    let mut todo: Vec<String> = roots.iter().map(|s| (*s).to_owned()).collect();
    todo.push("error".to_owned());
    while let Some(name) = todo.pop() {
        if seen.contains(&name) {
            continue;
        }
        let def = defs
            .get(&name)
            .unwrap_or_else(|| panic!("`{name}` is not in the shared $defs library"));
        collect_refs(def, &mut todo);
        seen.insert(name);
    }
    seen
}

/// The `outputSchema` of tool `tool` whose results belong to `families`.
pub fn compose_output_schema(tool: &str, families: &[&str]) -> Value {
    let defs = shared_defs();
    let closure: Map<String, Value> = defs_closure(families)
        .into_iter()
        .map(|name| {
            let def = defs[&name].clone();
            (name, def)
        })
        .collect();
    envelope(tool, families, closure)
}

/// As [`compose_output_schema`], with families (and their `$ref`s) looked up in `extra` first,
/// then in the shared library: for a backend's own families, kept out of `defs.json`.
///
/// # Panics
/// When a family or a reference is in neither library (a bug caught by tests).
pub fn compose_output_schema_with(
    tool: &str,
    families: &[&str],
    extra: &Map<String, Value>,
) -> Value {
    let shared = shared_defs();
    let mut closure = Map::new();
    let mut todo: Vec<String> = families.iter().map(|s| (*s).to_owned()).collect();
    todo.push("error".to_owned());
    while let Some(name) = todo.pop() {
        if closure.contains_key(&name) {
            continue;
        }
        let def = extra
            .get(&name)
            .or_else(|| shared.get(&name))
            .unwrap_or_else(|| panic!("`{name}` is in no $defs library"));
        collect_refs(def, &mut todo);
        closure.insert(name, def.clone());
    }
    envelope(tool, families, closure)
}

fn envelope(tool: &str, families: &[&str], closure: Map<String, Value>) -> Value {
    let one_of: Vec<Value> = families
        .iter()
        .map(|f| json!({ "$ref": format!("#/$defs/{f}") }))
        .collect();
    let mut schema =
        media_mcp_wire::tool::envelope_schema(json!({ "const": tool }), json!({ "oneOf": one_of }));
    schema["$defs"] = Value::Object(closure);
    schema
}

#[cfg(test)]
mod tests;
