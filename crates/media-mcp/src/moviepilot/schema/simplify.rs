//! A weakened schema rewritten to check the same values with fewer nodes, because the stored
//! forms are parsed and walked on every call:
//!
//! - an `anyOf` alternative that is itself only an `anyOf` is spliced into its parent, an
//!   alternative equal to an earlier one is left out, and an `anyOf` with one alternative left
//!   becomes that alternative;
//! - `anyOf` alternatives of distinct types, each with keywords that apply to its type alone
//!   (`minimum` to numbers, `pattern` to strings...), become one with the list of types;
//! - an `anyOf` with an alternative that accepts everything (`{}` or `true`) is dropped, and so
//!   is an `additionalProperties` that accepts everything;
//! - a definition referred to once replaces its reference when the reference stands alone and
//!   is reached from the schema itself (a recursive definition has a reference besides the one
//!   reaching it, so it stays).
//!
//! `const` and `enum` hold values, not schemas, and are left as they are.

use crate::prelude::*;
use alloc::collections::BTreeMap;
use serde_json::{Map, Value};

/// Keywords whose object value maps names to schemas (the map itself is not a schema).
const SCHEMA_MAPS: [&str; 4] = ["properties", "$defs", "definitions", "patternProperties"];

/// Most levels of objects and arrays inlining may nest a schema to (serde_json parses 128).
const MAX_DEPTH: usize = 48;

/// Most alternatives an `anyOf` alternative is compared with to find it repeated, so a schema
/// with a huge `anyOf` costs linear time (a repeat past them is kept, which checks the same).
const COMPARED: usize = 32;

/// `node` and its `defs` (weakened definitions by the pointer references use) simplified: the
/// definitions inlined are removed from `defs`.
pub fn simplify(node: &mut Value, defs: &mut Map<String, Value>) {
    let mut counts = BTreeMap::new();
    count_references(node, &mut counts);
    defs.values().for_each(|d| count_references(d, &mut counts));
    inline_single_use(node, 0, defs, &counts);
    shrink(node);
    defs.values_mut().for_each(shrink);
}

/// The schemas directly under `map`: values of keywords, and of the names of [`SCHEMA_MAPS`].
fn children(map: &Map<String, Value>) -> impl Iterator<Item = &Value> {
    map.iter()
        .filter(|(k, _)| !matches!(k.as_str(), "const" | "enum"))
        .flat_map(|(k, v)| match v {
            Value::Object(named) if SCHEMA_MAPS.contains(&k.as_str()) => {
                named.values().collect::<Vec<_>>()
            }
            v => vec![v],
        })
}

/// [`children`], to change.
fn children_mut(map: &mut Map<String, Value>) -> impl Iterator<Item = &mut Value> {
    map.iter_mut()
        .filter(|(k, _)| !matches!(k.as_str(), "const" | "enum"))
        .flat_map(|(k, v)| {
            if SCHEMA_MAPS.contains(&k.as_str())
                && let Value::Object(named) = v
            {
                return named.values_mut().collect::<Vec<_>>();
            }
            vec![v]
        })
}

/// Counts the `$ref`s under `node` by pointer.
fn count_references(node: &Value, counts: &mut BTreeMap<String, usize>) {
    match node {
        Value::Object(map) => {
            if let Some(r) = map.get("$ref").and_then(Value::as_str) {
                *counts.entry(r.to_owned()).or_default() += 1;
            }
            children(map).for_each(|v| count_references(v, counts));
        }
        Value::Array(items) => items.iter().for_each(|v| count_references(v, counts)),
        _ => {}
    }
}

/// Replaces each reference under `node` (which sits `depth` levels down) that stands alone and
/// is the only reference to its definition with the definition, and goes on inside what it
/// put in place. A definition that refers to itself, directly or through others, has a
/// reference besides the one reaching it, so each definition is entered once at most and
/// recursive ones stay. Nothing is inlined past [`MAX_DEPTH`] levels: the stored forms are
/// parsed again, and a chain of definitions would otherwise nest without bound.
fn inline_single_use(
    node: &mut Value,
    depth: usize,
    defs: &mut Map<String, Value>,
    counts: &BTreeMap<String, usize>,
) {
    let alone = match node {
        Value::Object(map) if map.len() == 1 => map.get("$ref").and_then(Value::as_str),
        _ => None,
    };
    let fits = |r: &&str| {
        counts.get(*r) == Some(&1)
            && defs
                .get(*r)
                .is_some_and(|body| depth + depth_of(body) <= MAX_DEPTH)
    };
    if let Some(body) = alone
        .filter(fits)
        .map(str::to_owned)
        .and_then(|r| defs.remove(&r))
    {
        *node = body;
        return inline_single_use(node, depth, defs, counts);
    }
    match node {
        Value::Object(map) => {
            // A name map's schemas are two levels down; counted so for every keyword.
            children_mut(map).for_each(|v| inline_single_use(v, depth + 2, defs, counts));
        }
        Value::Array(items) => {
            items
                .iter_mut()
                .for_each(|v| inline_single_use(v, depth + 1, defs, counts));
        }
        _ => {}
    }
}

/// How many levels of objects and arrays `node` nests.
fn depth_of(node: &Value) -> usize {
    match node {
        Value::Object(map) => 1 + map.values().map(depth_of).max().unwrap_or(0),
        Value::Array(items) => 1 + items.iter().map(depth_of).max().unwrap_or(0),
        _ => 0,
    }
}

/// Whether `node` accepts every value.
fn accepts_all(node: &Value) -> bool {
    match node {
        Value::Bool(b) => *b,
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

/// The local rewrites of the module documentation, children first.
fn shrink(node: &mut Value) {
    let map = match node {
        Value::Object(map) => map,
        Value::Array(items) => return items.iter_mut().for_each(shrink),
        _ => return,
    };
    children_mut(map).for_each(shrink);
    if map.get("additionalProperties").is_some_and(accepts_all) {
        map.remove("additionalProperties");
    }
    let alternatives = match map.remove("anyOf") {
        Some(Value::Array(a)) => a,
        Some(other) => {
            map.insert("anyOf".into(), other);
            return;
        }
        None => return,
    };
    let mut flat: Vec<Value> = Vec::with_capacity(alternatives.len());
    for alternative in alternatives {
        let spliced = match alternative {
            Value::Object(mut inner) if inner.len() == 1 && inner.contains_key("anyOf") => {
                match inner.remove("anyOf") {
                    Some(Value::Array(items)) => items,
                    other => {
                        inner.insert("anyOf".into(), other.unwrap_or_default());
                        vec![Value::Object(inner)]
                    }
                }
            }
            other => vec![other],
        };
        for a in spliced {
            if !flat.iter().take(COMPARED).any(|kept| kept == &a) {
                flat.push(a);
            }
        }
    }
    merge_by_type(&mut flat);
    if flat.iter().any(accepts_all) {
        // Dropped: it accepts everything.
    } else if flat.len() == 1 && map.is_empty() {
        *node = flat.remove(0);
    } else {
        map.insert("anyOf".into(), Value::Array(flat));
    }
}

/// The family of types a keyword applies to alone (`minimum` to numbers...).
fn family_of_keyword(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "minimum" | "maximum" => "number",
        "minLength" | "maxLength" | "pattern" => "string",
        "items" | "minItems" | "maxItems" | "uniqueItems" => "array",
        "properties" | "required" | "additionalProperties" | "minProperties" => "object",
        _ => return None,
    })
}

/// The family of a type: `integer` values are numbers.
fn family_of_type(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "null" => "null",
        "boolean" => "boolean",
        "integer" | "number" => "number",
        "string" => "string",
        "array" => "array",
        "object" => "object",
        _ => return None,
    })
}

/// An alternative that is a `type` (one or a list) with keywords that apply to those types
/// alone: its types and families.
fn typed_alone(alternative: &Value) -> Option<(Vec<&str>, Vec<&'static str>)> {
    let map = alternative.as_object()?;
    let types: Vec<&str> = match map.get("type")? {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().map(Value::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    let families: Vec<&'static str> = types
        .iter()
        .map(|t| family_of_type(t))
        .collect::<Option<_>>()?;
    let own = map
        .keys()
        .filter(|k| *k != "type")
        .all(|k| family_of_keyword(k).is_some_and(|f| families.contains(&f)));
    own.then_some((types, families))
}

/// The keywords of `map` that apply to `family`.
fn keywords_of<'m>(map: &'m Map<String, Value>, family: &str) -> Vec<(&'m String, &'m Value)> {
    map.iter()
        .filter(|(k, _)| family_of_keyword(k) == Some(family))
        .collect()
}

/// Alternatives that are types with keywords of their own, joined into one alternative with
/// the list of types, as long as the alternatives that share a family of types (`integer`
/// and `number` are one) have the same keywords for it.
fn merge_by_type(alternatives: &mut Vec<Value>) {
    let mut merged = Map::new();
    let mut types: Vec<String> = Vec::new();
    let mut families: Vec<&'static str> = Vec::new();
    let mut joined: Vec<usize> = Vec::new();
    for (i, alternative) in alternatives.iter().enumerate() {
        let Some((its_types, its_families)) = typed_alone(alternative) else {
            continue;
        };
        let map = alternative
            .as_object()
            .expect("typed alternatives are objects");
        let agrees = its_families
            .iter()
            .filter(|f| families.contains(f))
            .all(|f| keywords_of(map, f) == keywords_of(&merged, f));
        if !agrees {
            continue;
        }
        for (k, v) in map.iter().filter(|(k, _)| *k != "type") {
            merged.insert(k.clone(), v.clone());
        }
        for t in its_types {
            if !types.iter().any(|known| known == t) {
                types.push(t.to_owned());
            }
        }
        families.extend(its_families);
        joined.push(i);
    }
    if joined.len() < 2 {
        return;
    }
    let first = joined[0];
    let mut index = 0;
    alternatives.retain(|_| {
        let kept = joined.binary_search(&index).is_err();
        index += 1;
        kept
    });
    merged.insert(
        "type".into(),
        Value::Array(types.into_iter().map(Value::String).collect()),
    );
    alternatives.insert(first, Value::Object(merged));
}

#[cfg(test)]
mod tests;
