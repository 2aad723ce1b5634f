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
