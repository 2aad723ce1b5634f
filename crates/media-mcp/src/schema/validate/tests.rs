use super::*;
use serde_json::json;

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "maxLength": 5, "pattern": "^[a-z]+$"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
            "include": {"type": "array", "items": {"enum": ["a", "b"]}, "uniqueItems": true},
            "media": {"enum": ["movie", "tv"]}
        },
        "required": ["query"],
        "additionalProperties": false,
        "allOf": [{"if": {"properties": {"media": {"const": "tv"}}, "required": ["media"]},
                   "then": {"required": ["limit"]}}]
    })
}

fn err(v: Value) -> Violation {
    validate(&schema(), &v).unwrap_err()
}

#[test]
fn names_the_field_at_fault() {
    assert_eq!(err(json!({})).field, "query");
    assert_eq!(err(json!({"query": "abc", "zzz": 1})).field, "zzz");
    assert_eq!(err(json!({"query": "abc", "limit": 0})).field, "limit");
    assert_eq!(err(json!({"query": "abc", "limit": 1.5})).field, "limit");
    assert_eq!(err(json!({"query": "ABC"})).field, "query");
    assert_eq!(
        err(json!({"query": "abc", "include": ["a", "a"]})).field,
        "include[1]"
    );
    assert_eq!(
        err(json!({"query": "abc", "include": ["c"]})).field,
        "include[0]"
    );
    assert_eq!(err(json!({"query": "abc", "media": "tv"})).field, "limit");
}

#[test]
fn accepts_valid_arguments() {
    assert!(validate(&schema(), &json!({"query": "abc"})).is_ok());
    assert!(
        validate(
            &schema(),
            &json!({"query": "abc", "media": "tv", "limit": 3})
        )
        .is_ok()
    );
    assert!(validate(&schema(), &json!({"query": "abc", "limit": 3.0})).is_ok());
}

#[test]
fn a_failure_deep_in_a_recursive_any_of_is_named_where_it_is() {
    // A JSON value whose containers refer back to the definition, with strings bounded.
    let s = json!({"$ref": "#/$defs/v", "$defs": {"v": {"anyOf": [
        {"type": "string", "maxLength": 3},
        {"type": "integer"},
        {"type": "array", "items": {"$ref": "#/$defs/v"}},
        {"type": "object", "additionalProperties": {"$ref": "#/$defs/v"}}]}}});
    assert!(validate(&s, &json!({"a": [1, "ok", {"b": ["x"]}]})).is_ok());
    let v = validate(&s, &json!({"a": [1, "ok", {"b": ["x", "toolong"]}]})).unwrap_err();
    assert_eq!(v.field, "a[2].b[1]");
    assert!(v.message.starts_with("must be"), "{}", v.message);
    let v = validate(&s, &json!([true])).unwrap_err();
    assert_eq!(v.field, "[0]");
}
