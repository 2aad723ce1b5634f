use super::{drop_references, reached, universal};
use alloc::collections::BTreeSet;
use serde_json::{Map, Value, json};

const SELF: &str = "#/$defs/J";

/// MoviePilot's `JsonData-Input` as the weakener leaves it (numeric strings and single items
/// accepted too), referring to itself as `#/$defs/J`.
fn json_data() -> Value {
    json!({"anyOf": [
        {"additionalProperties": {"$ref": SELF}, "type": "object"},
        {"anyOf": [{"items": {"$ref": SELF}, "type": "array"},
            {"allOf": [{"type": ["string", "number", "boolean", "object"]}, {"$ref": SELF}]}]},
        {"type": "string"},
        {"anyOf": [{"type": "integer"}, {"pattern": "^ *-?[0-9]+ *$", "type": "string"}]},
        {"anyOf": [{"type": "number"}, {"pattern": "^[0-9]+$", "type": "string"}]},
        {"type": "boolean"}, {"type": "null"}]})
}

fn defs(entries: &[(&str, Value)]) -> Map<String, Value> {
    entries
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn a_recursive_json_value_accepts_everything() {
    assert_eq!(universal(&defs(&[(SELF, json_data())])), set(&[SELF]));
}

#[test]
fn a_definition_that_refuses_some_value_does_not() {
    let mut without_null = json_data();
    without_null["anyOf"].as_array_mut().unwrap().pop();
    let mut integers_only = json_data();
    integers_only["anyOf"].as_array_mut().unwrap().remove(4);
    let bounded = json!({"anyOf": [json_data(), {"type": "string"}], "maxLength": 3});
    let narrow_items = json!({"anyOf": [
        {"additionalProperties": {"$ref": SELF}, "type": "object"},
        {"items": {"type": "string"}, "type": "array"},
        {"type": ["string", "number", "boolean", "null"]}]});
    for (what, def) in [
        ("no null", without_null),
        ("integers but not all numbers", integers_only),
        ("a keyword that refuses", bounded),
        ("arrays of strings only", narrow_items),
        ("false", json!(false)),
    ] {
        assert!(universal(&defs(&[(SELF, def)])).is_empty(), "{what}");
    }
}

#[test]
fn a_definition_accepts_everything_only_when_those_it_refers_to_do() {
    let other = "#/$defs/K";
    let through = json!({"anyOf": [{"additionalProperties": {"$ref": other}, "type": "object"},
        {"items": {"$ref": SELF}, "type": "array"}, {"type": ["string", "number", "boolean", "null"]}]});
    let all = defs(&[
        (SELF, through.clone()),
        (
            other,
            json_data()
                .to_string()
                .replace(SELF, other)
                .parse()
                .unwrap(),
        ),
    ]);
    assert_eq!(universal(&all), set(&[SELF, other]));
    let narrow = defs(&[(SELF, through), (other, json!({"type": "object"}))]);
    assert!(universal(&narrow).is_empty());
}

#[test]
fn references_to_them_are_dropped_and_what_is_left_reached_is_found() {
    let mut node = json!({"properties": {"body": {"$ref": SELF}, "query": {"$ref": "#/$defs/P"}},
        "additionalProperties": {"$ref": SELF, "type": "object"}});
    drop_references(&mut node, &set(&[SELF]));
    assert_eq!(
        node,
        json!({"properties": {"body": {}, "query": {"$ref": "#/$defs/P"}},
        "additionalProperties": {"type": "object"}})
    );
    let table = defs(&[
        ("#/$defs/P", json!({"items": {"$ref": "#/$defs/Q"}})),
        ("#/$defs/Q", json!({})),
        (SELF, json_data()),
    ]);
    assert_eq!(reached(&node, &table), set(&["#/$defs/P", "#/$defs/Q"]));
}
