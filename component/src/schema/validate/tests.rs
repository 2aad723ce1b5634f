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
