use super::*;
use serde_json::json;

fn simplified(mut node: Value, defs: Value) -> (Value, Value) {
    let mut defs = match defs {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    simplify(&mut node, &mut defs);
    (node, Value::Object(defs))
}

#[test]
fn nested_alternatives_are_spliced_and_repeats_left_out() {
    let node = json!({"anyOf": [{"type": "null"}, {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}]});
    let (node, _) = simplified(node, json!({}));
    assert_eq!(
        node,
        json!({"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 1}]})
    );
}

#[test]
fn a_lone_alternative_replaces_its_any_of_but_not_beside_other_keywords() {
    let (node, _) = simplified(json!({"anyOf": [{"type": "string"}]}), json!({}));
    assert_eq!(node, json!({"type": "string"}));
    let kept = json!({"type": "object", "anyOf": [{"required": ["a"]}]});
    assert_eq!(simplified(kept.clone(), json!({})).0, kept);
}

#[test]
fn what_accepts_everything_is_dropped() {
    let node = json!({"type": "object", "additionalProperties": {}, "properties": {
        "a": {"anyOf": [{"type": "null"}, {}]},
        "b": {"additionalProperties": true, "type": "object"},
        "c": {"additionalProperties": false}
    }});
    let (node, _) = simplified(node, json!({}));
    assert_eq!(
        node,
        json!({"type": "object", "properties": {"a": {}, "b": {"type": "object"}, "c": {"additionalProperties": false}}})
    );
}

#[test]
fn a_definition_used_once_from_outside_the_definitions_is_inlined() {
    let node = json!({"properties": {"q": {"anyOf": [{"type": "null"}, {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}]}}});
    let defs = json!({"#/$defs/P": {"type": "object", "properties": {"page": {"type": "integer"}}}});
    let (node, defs) = simplified(node, defs);
    assert_eq!(
        node,
        json!({"properties": {"q": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"page": {"type": "integer"}}}]}}})
    );
    assert_eq!(defs, json!({}));
}

#[test]
fn recursive_shared_and_accompanied_definitions_stay() {
    let node = json!({"properties": {
        "tree": {"$ref": "#/$defs/T"},
        "x": {"$ref": "#/$defs/S"}, "y": {"$ref": "#/$defs/S"},
        "z": {"$ref": "#/$defs/A", "type": "object"}
    }});
    let defs = json!({
        "#/$defs/T": {"type": "array", "items": {"$ref": "#/$defs/T"}},
        "#/$defs/S": {"type": "string"},
        "#/$defs/A": {"required": ["a"]}
    });
    let (after, kept) = simplified(node.clone(), defs.clone());
    assert_eq!((after, kept), (node, defs));
}

#[test]
fn values_and_names_are_not_read_as_schemas() {
    let node = json!({
        "const": {"anyOf": [{"anyOf": [1]}], "additionalProperties": {}},
        "enum": [{"$ref": "#/$defs/P"}],
        "properties": {"anyOf": {"type": "string"}, "$ref": {"type": "null"}},
        "x": {"$ref": "#/$defs/P"}
    });
    let defs = json!({"#/$defs/P": {"type": "integer"}});
    let (after, kept) = simplified(node.clone(), defs.clone());
    let mut expected = node;
    expected["x"] = json!({"type": "integer"});
    assert_eq!((after, kept), (expected, json!({})));
}
