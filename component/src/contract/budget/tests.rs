use super::*;

fn envelope_with(items: Vec<Value>) -> Value {
    json!({"ok": true, "operation": "t", "data": {"kind": "media_page", "items": items,
        "page": {"offset": 0, "limit": 100, "returned": 0, "total": null, "has_more": null,
                 "next_offset": null, "mode": "local", "unit": "media"}},
        "warnings": [], "truncated": false, "correlation_id": "c"})
}

#[test]
fn oversized_pages_drop_trailing_records_and_say_so() {
    let items: Vec<Value> = (0..100)
        .map(|i| json!({"media": "movie", "identifiers": [], "overview": "x".repeat(2000), "n": i}))
        .collect();
    let mut env = envelope_with(items);
    let mut warnings = Vec::new();
    fit_bytes(&mut env, &mut warnings);
    assert!(size_of(&env) <= MAX_STRUCTURED_BYTES);
    let returned = env["data"]["items"].as_array().unwrap().len();
    assert!(returned > 0 && returned < 100);
    assert_eq!(env["data"]["page"]["returned"], returned);
    assert_eq!(env["data"]["page"]["next_offset"], returned);
    assert_eq!(env["truncated"], true);
    assert!(warnings[0].contains("64 KiB"));
}

#[test]
fn a_single_huge_record_has_its_text_shortened() {
    let mut env = envelope_with(vec![
        json!({"media": "movie", "identifiers": [], "overview": "y".repeat(200_000)}),
    ]);
    let mut warnings = Vec::new();
    fit_bytes(&mut env, &mut warnings);
    assert!(size_of(&env) <= MAX_STRUCTURED_BYTES);
    assert_eq!(env["truncated"], true);
}

#[test]
fn arrays_are_capped_at_their_limits() {
    let mut data = json!({"items": (0..150).collect::<Vec<_>>(), "lines": vec!["l"; 600]});
    let mut warnings = Vec::new();
    assert!(cap_arrays(&mut data, &mut warnings));
    assert_eq!(data["items"].as_array().unwrap().len(), MAX_ITEMS);
    assert_eq!(data["lines"].as_array().unwrap().len(), MAX_LOG_LINES);
    assert_eq!(warnings.len(), 2);
}
