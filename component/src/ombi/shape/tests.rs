use super::*;

#[test]
fn records_refuse_rows_that_are_not_objects() {
    // A version-mismatched or hostile upstream: projecting these would invent empty records.
    let e = records(Some(json!([["not", "a", "record"]])), "search results").unwrap_err();
    assert_eq!(e.code, crate::contract::ErrorCode::UpstreamSchemaMismatch);
    assert_eq!(records(Some(json!([{"id": 1}])), "x").unwrap().len(), 1);
    // 204/null is not an empty list.
    assert!(records(None, "x").is_err());
    assert!(array(Some(json!(null)), "x").is_err());
    assert!(array_or_empty(None, "x").unwrap().is_empty());
}
