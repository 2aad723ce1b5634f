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

#[test]
fn a_streamed_window_is_the_page_of_the_whole_list() {
    let all: Vec<Value> = (0..57).map(|i| json!({"id": i})).collect();
    for (offset, limit) in [(0, 20), (40, 20), (56, 1), (57, 5), (100, 10), (0, 100)] {
        let window = Window { offset, limit };
        let mut streamed = LocalWindow::new(window);
        for record in all.iter().cloned() {
            streamed.push(record);
        }
        assert_eq!(
            streamed.into_page("x_page", "xs"),
            local_page("x_page", all.clone(), window, "xs"),
            "{offset} {limit}"
        );
    }
}
