use super::*;
use serde_json::json;

fn api_schema() -> Value {
    json!({
        "type": "object",
        "oneOf": [{"$ref": "#/$defs/search"}, {"$ref": "#/$defs/detail"}],
        "$defs": {
            "search": {"type": "object", "properties": {"operation_id": {"const": "media.search"}, "query": {"$ref": "#/$defs/q"}},
                       "required": ["operation_id", "query"], "additionalProperties": false},
            "detail": {"type": "object", "properties": {"operation_id": {"const": "media.detail"}, "path_params": {"type": "object"}},
                       "required": ["operation_id", "path_params"], "additionalProperties": false},
            "q": {"type": "object", "properties": {"title": {"type": "string", "pattern": "^(?=.)"}}, "required": ["title"]}
        }
    })
}

#[test]
fn refs_are_followed_and_branches_chosen_by_const() {
    let s = api_schema();
    assert!(
        check(
            &s,
            &json!({"operation_id": "media.search", "query": {"title": "x"}})
        )
        .is_ok()
    );
    assert!(
        check(
            &s,
            &json!({"operation_id": "media.detail", "path_params": {}})
        )
        .is_ok()
    );
    let e = check(&s, &json!({"operation_id": "media.search", "query": {}})).unwrap_err();
    assert_eq!(
        e.code,
        crate::contract::ErrorCode::InvalidArgument,
        "{}",
        e.message
    );
    assert!(
        check(
            &s,
            &json!({"operation_id": "media.search", "query": {"title": 3}})
        )
        .is_err()
    );
}

#[test]
fn weakening_never_rejects_what_the_real_schema_accepts() {
    // Two $ref branches that would both look empty without inlining, a recursive $ref, a
    // lookahead pattern the regex engine cannot compile, and a `not` over a keyword it does not know.
    let s = json!({"type": "object", "properties": {
        "a": {"oneOf": [{"$ref": "#/$defs/n"}, {"$ref": "#/$defs/s"}]},
        "tree": {"$ref": "#/$defs/tree"},
        "p": {"type": "string", "pattern": "^(?!x).*$"},
        "f": {"not": {"multipleOf": 2}}},
        "$defs": {"n": {"type": "integer"}, "s": {"type": "string"}, "tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}}}});
    let v = json!({"a": 1, "tree": {"kids": [{"kids": [{}]}]}, "p": "abc", "f": 3});
    assert!(jsonschema::validator_for(&s).unwrap().is_valid(&v));
    assert!(check(&s, &v).is_ok());
    assert!(
        check(&s, &json!({"a": true})).is_err(),
        "still checks what it understands"
    );
}

/// The JSON value MoviePilot's router publishes (`JsonData-Input`): recursive in two branches.
fn json_data() -> Value {
    json!({"anyOf": [
        {"type": "object", "additionalProperties": {"$ref": "#/$defs/JsonData-Input"}},
        {"type": "array", "items": {"$ref": "#/$defs/JsonData-Input"}},
        {"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}
    ]})
}

fn router_schema() -> Value {
    json!({"type": "object", "properties": {
        "operation_id": {"const": "subscription.list"},
        "query": {"type": "object", "properties": {"page": {"type": "integer", "minimum": 1}},
                  "additionalProperties": {"$ref": "#/$defs/JsonData-Input"}},
        "body": {"$ref": "#/$defs/JsonData-Input"}},
        "required": ["operation_id"],
        "$defs": {"JsonData-Input": json_data()}})
}

#[test]
fn a_recursive_definition_is_carried_once_never_expanded() {
    let s = router_schema();
    let weak = weakened(&s, &s);
    // Inlining to any fixed depth multiplies the definition by its two recursive branches per level.
    assert!(
        weak.to_string().len() < 4 * s.to_string().len(),
        "{} bytes from {}",
        weak.to_string().len(),
        s.to_string().len()
    );
    let deep = json!({"operation_id": "subscription.list",
        "query": {"page": 1, "count": 20, "filter": {"a": [1, {"b": [null, "c", [[[[true]]]]]}]}},
        "body": [[[[[[[[[[[[[[[[{"x": {"y": {"z": [1.5]}}}]]]]]]]]]]]]]]]]});
    assert!(check(&s, &deep).is_ok());
    let e = check(
        &s,
        &json!({"operation_id": "subscription.list", "query": {"page": 0}}),
    )
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("query.page"), "{}", e.message);
}

#[test]
fn each_combinator_is_weakened_once() {
    let types = json!([{"const": "a"}, {"type": "boolean"}]);
    let s = json!({"anyOf": types});
    assert_eq!(weakened(&s, &s), s, "an anyOf alone is kept as it is");
    let s = json!({"oneOf": types});
    assert_eq!(weakened(&s, &s), json!({"anyOf": types}));
    let s = json!({"anyOf": types, "oneOf": [{"minLength": 1}], "allOf": [{"maxLength": 9}]});
    assert_eq!(
        weakened(&s, &s),
        json!({"anyOf": types, "allOf": [{"maxLength": 9}, {"minLength": 1}]}),
        "the oneOf joins the allOf (its one alternative in place of an anyOf of it)"
    );
}

#[test]
fn values_stay_values_and_annotations_are_left_out() {
    let s = json!({"type": "object", "description": "a long text", "title": "T", "properties": {
        "shape": {"const": {"type": "integer", "properties": {"a": {}}}, "description": "d"},
        "kind": {"enum": [{"type": "string"}, "x"], "default": "x", "examples": ["x"]}},
        "required": ["shape", "kind"]});
    let weak = weakened(&s, &s);
    assert!(!weak.to_string().contains("description"), "{weak}");
    let v =
        json!({"shape": {"type": "integer", "properties": {"a": {}}}, "kind": {"type": "string"}});
    assert!(jsonschema::validator_for(&s).unwrap().is_valid(&v));
    assert!(check(&s, &v).is_ok());
    assert!(check(&s, &json!({"shape": {"type": "integer"}, "kind": "x"})).is_err());
}

#[test]
fn arguments_deep_in_a_recursive_definition_cost_their_size() {
    // Each level enters `JsonData-Input` once; checking its `anyOf` twice per level would cost
    // 2^64 steps here.
    let mut value = json!("leaf");
    for level in 0..64 {
        value = if level % 2 == 0 {
            json!({"k": value})
        } else {
            json!([value])
        };
    }
    let args = json!({"operation_id": "subscription.list", "query": {"page": 1, "filter": value}, "body": value});
    let s = router_schema();
    assert!(check(&s, &args).is_ok());
}

#[test]
fn a_reference_that_refers_to_itself_accepts_instead_of_looping() {
    let s = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}, "y": {"$ref": "#"}},
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}});
    assert!(check(&s, &json!({"x": 1, "y": {"y": {"x": "z"}}})).is_ok());
}

#[test]
fn moviepilots_own_coercions_are_accepted_locally() {
    let s = json!({"type": "object", "properties": {
        "id": {"type": "integer", "minimum": 1},
        "score": {"type": "number"},
        "sites": {"type": "array", "items": {"type": "integer"}},
        "name": {"type": "string"}},
        "required": ["name"], "additionalProperties": false});
    assert!(
        check(
            &s,
            &json!({"name": "x", "id": null, "score": null, "sites": null})
        )
        .is_ok()
    );
    assert!(
        check(
            &s,
            &json!({"name": "x", "id": "1", "score": "2.5", "sites": "3"})
        )
        .is_ok()
    );
    assert!(check(&s, &json!({"name": "x", "sites": 3})).is_ok());
    // What MoviePilot would not coerce is still refused, naming the field.
    let e = check(&s, &json!({"name": "x", "id": "one"})).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("id"), "{}", e.message);
    let e = check(&s, &json!({"name": null})).unwrap_err();
    assert_eq!(
        e.field.as_deref(),
        Some("name"),
        "a required field stays required: {}",
        e.message
    );
    assert!(check(&s, &json!({"name": "x", "sites": "a"})).is_err());
}
