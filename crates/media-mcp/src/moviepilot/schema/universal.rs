//! Definitions of a weakened schema that accept every JSON value, such as MoviePilot's
//! recursive `JsonData-Input` (an object or array of itself, or any scalar). A reference to one
//! checks nothing, so it is dropped with the definition, and arguments under it are not walked.
//!
//! A definition accepts everything when, for each of the six JSON types, one of its `anyOf`
//! branches accepts every value of that type; an `items` or `additionalProperties` that refers
//! back to the definition counts as accepting everything (the greatest fixed point: a value
//! of any depth is accepted, by induction on its depth). Anything less certain counts as not.

use crate::prelude::*;
use alloc::collections::BTreeSet;
use serde_json::{Map, Value};

/// The JSON types, as bits.
const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const NUMBER: u8 = 4;
const STRING: u8 = 8;
const ARRAY: u8 = 16;
const OBJECT: u8 = 32;
const ALL: u8 = NULL | BOOLEAN | NUMBER | STRING | ARRAY | OBJECT;

/// The pointers among `defs` (weakened definitions by the pointer references use) whose
/// definitions accept every JSON value.
pub fn universal(defs: &Map<String, Value>) -> BTreeSet<String> {
    let mut kept: BTreeSet<String> = defs.keys().cloned().collect();
    loop {
        let before = kept.len();
        let failing: Vec<String> = kept
            .iter()
            .filter(|r| covered(&defs[*r], &kept) != ALL)
            .cloned()
            .collect();
        for r in failing {
            kept.remove(&r);
        }
        if kept.len() == before {
            return kept;
        }
    }
}

/// `node` without the references to definitions in `universal` (each checks nothing).
pub fn drop_references(node: &mut Value, universal: &BTreeSet<String>) {
    match node {
        Value::Object(map) => {
            if map
                .get("$ref")
                .and_then(Value::as_str)
                .is_some_and(|r| universal.contains(r))
            {
                map.remove("$ref");
            }
            map.values_mut().for_each(|v| drop_references(v, universal));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| drop_references(v, universal)),
        _ => {}
    }
}

/// The pointers among `defs` that `node` refers to, directly or through other definitions.
pub fn reached(node: &Value, defs: &Map<String, Value>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut queue = Vec::new();
    references(node, &mut queue);
    while let Some(r) = queue.pop() {
        if let Some(target) = defs.get(&r)
            && found.insert(r)
        {
            references(target, &mut queue);
        }
    }
    found
}

fn references(node: &Value, found: &mut Vec<String>) {
    match node {
        Value::Object(map) => {
            if let Some(r) = map.get("$ref").and_then(Value::as_str) {
                found.push(r.to_owned());
            }
            map.values().for_each(|v| references(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, found)),
        _ => {}
    }
}

/// The types all of whose values `node` accepts, assuming the definitions in `assumed` accept
/// everything.
fn covered(node: &Value, assumed: &BTreeSet<String>) -> u8 {
    let map = match node {
        Value::Bool(true) => return ALL,
        Value::Object(map) => map,
        _ => return 0,
    };
    let everything = |v: &Value| covered(v, assumed) == ALL;
    let mut types = ALL;
    for (key, value) in map {
        types &= match key.as_str() {
            "type" => match value {
                Value::String(t) => type_bit(t),
                Value::Array(ts) => ts
                    .iter()
                    .filter_map(Value::as_str)
                    .map(type_bit)
                    .fold(0, |a, b| a | b),
                _ => 0,
            },
            "items" if everything(value) => ALL,
            "items" => ALL & !ARRAY,
            "additionalProperties" if everything(value) => ALL,
            "additionalProperties" => ALL & !OBJECT,
            "$ref" if value.as_str().is_some_and(|r| assumed.contains(r)) => ALL,
            "anyOf" => value
                .as_array()
                .into_iter()
                .flatten()
                .fold(0, |a, b| a | covered(b, assumed)),
            // Anything else may refuse some value.
            _ => 0,
        };
    }
    types
}

/// The bit of JSON type `name`; `integer` covers only some numbers.
fn type_bit(name: &str) -> u8 {
    match name {
        "null" => NULL,
        "boolean" => BOOLEAN,
        "number" => NUMBER,
        "string" => STRING,
        "array" => ARRAY,
        "object" => OBJECT,
        _ => 0,
    }
}

#[cfg(test)]
mod tests;
