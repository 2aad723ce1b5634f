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
    fit(&mut env, Vec::new());
    assert!(size_of(&env) <= MAX_STRUCTURED_BYTES);
    let returned = env["data"]["items"].as_array().unwrap().len();
    assert!(returned > 0 && returned < 100);
    assert_eq!(env["data"]["page"]["returned"], returned);
    assert_eq!(env["data"]["page"]["next_offset"], returned);
    assert_eq!(env["truncated"], true);
    assert!(env["warnings"][0].as_str().unwrap().contains("64 KiB"));
}

#[test]
fn a_single_huge_record_has_its_free_text_shortened_and_nothing_else() {
    let hash = "a".repeat(5000);
    let mut env = envelope_with(vec![json!({
        "media": "movie",
        "identifiers": [{"kind": "tmdb", "value": "603"}],
        "release_date": "1999-03-31",
        "hash": hash,
        "provider_id": "x".repeat(100),
        "overview": "y ".repeat(100_000),
        "tagline": "short words",
        "runtime": 136
    })]);
    let before = env["data"]["items"][0].clone();
    fit(&mut env, Vec::new());
    assert!(size_of(&env) <= MAX_STRUCTURED_BYTES);
    assert_eq!(env["truncated"], true);
    assert_eq!(env["ok"], true);
    let item = &env["data"]["items"][0];
    for key in [
        "media",
        "identifiers",
        "release_date",
        "hash",
        "provider_id",
        "tagline",
        "runtime",
    ] {
        assert_eq!(item[key], before[key], "{key} is never shortened");
    }
    let overview = item["overview"].as_str().unwrap();
    assert!(overview.ends_with('…') && overview.len() < 64 * 1024);
    assert_eq!(env["data"]["kind"], "media_page");
    assert!(env["warnings"].to_string().contains("shortened"));
}

#[test]
fn a_result_that_cannot_fit_without_cutting_identifiers_fails_clearly() {
    // No free text and no list to shorten: only identifiers, which are never cut.
    let ids: Vec<Value> = (0..100)
        .map(|i| json!(format!("{i}-{}", "h".repeat(700))))
        .collect();
    let mut env = json!({"ok": true, "operation": "t", "data": {"kind": "mutation", "ids": ids},
        "warnings": [], "truncated": false, "correlation_id": "c"});
    fit(&mut env, Vec::new());
    assert!(size_of(&env) <= MAX_STRUCTURED_BYTES);
    assert_eq!(env["ok"], false, "{env}");
    assert!(env.get("data").is_none());
    assert_eq!(env["error"]["code"], "INTERNAL_ERROR");
    assert!(env["error"]["message"].as_str().unwrap().contains("64 KiB"));
}

#[test]
fn warnings_count_in_the_64_kib() {
    let items: Vec<Value> = (0..100)
        .map(|i| json!({"media": "movie", "identifiers": [], "overview": "x".repeat(600), "n": i}))
        .collect();
    // 100 distinct warnings of 500 three-byte characters: 150 KB on their own.
    let warnings: Vec<String> = (0..100)
        .map(|i| format!("{i} {}", "警".repeat(500)))
        .collect();
    let mut env = envelope_with(items);
    fit(&mut env, warnings);
    assert!(
        size_of(&env) <= MAX_STRUCTURED_BYTES,
        "{} bytes",
        size_of(&env)
    );
    assert!(!env["data"]["items"].as_array().unwrap().is_empty());
    assert!(
        env["warnings"]
            .to_string()
            .contains("further warnings omitted")
    );
}

#[test]
fn a_moviepilot_record_with_a_huge_text_keeps_its_other_fields() {
    let overview = "梦境".repeat(60_000);
    let mut env = json!({"ok": true, "operation": "moviepilot_api", "data": {"kind": "moviepilot_result",
        "tool": "moviepilot_api", "success": true,
        "data": {"title": "盗梦空间", "tmdb_id": 27205, "overview": overview, "release_date": "2010-07-15",
                 "vote_average": 8.4, "status": "Released", "genres": [{"id": 28, "name": "动作"}]}},
        "warnings": [], "truncated": false, "correlation_id": "c"});
    fit(&mut env, Vec::new());
    assert!(size_of(&env) <= MAX_STRUCTURED_BYTES);
    assert_eq!(env["truncated"], true);
    let record = &env["data"]["data"];
    assert!(
        record.is_object(),
        "the record keeps its structure: {record}"
    );
    assert_eq!(record["release_date"], "2010-07-15");
    assert_eq!(record["tmdb_id"], 27205);
    assert_eq!(record["vote_average"], 8.4);
    assert_eq!(record["status"], "Released");
    assert_eq!(record["genres"][0]["id"], 28);
    assert!(record["overview"].as_str().unwrap().ends_with('…'));
    assert!(
        env["warnings"].to_string().contains("`overview`"),
        "{}",
        env["warnings"]
    );
}

#[test]
fn moviepilot_payloads_are_cut_as_a_whole_with_a_marker() {
    // What cannot be shortened (a hash) is still too large: the payload is cut as a whole.
    let mut env = json!({"ok": true, "operation": "some_tool", "data": {"kind": "moviepilot_result",
        "tool": "some_tool", "success": true,
        "data": {"torrents": "t ".repeat(30_000), "site": "x".repeat(30_000), "hash": "h".repeat(70_000)}},
        "warnings": [], "truncated": false, "correlation_id": "c"});
    fit(&mut env, Vec::new());
    assert!(size_of(&env) <= MAX_STRUCTURED_BYTES);
    assert_eq!(env["ok"], true);
    assert_eq!(env["truncated"], true);
    assert_eq!(env["data"]["kind"], "moviepilot_result");
    assert_eq!(env["data"]["tool"], "some_tool");
    let cut = env["data"]["data"]
        .as_str()
        .expect("the payload as cut JSON text");
    assert!(
        cut.starts_with("{\"") && cut.ends_with(CUT_MARKER),
        "{}",
        &cut[cut.len() - 80..]
    );
    assert!(env["warnings"].to_string().contains("data.data"));
    // A list payload loses records from the end first.
    let items: Vec<Value> = (0..100)
        .map(|i| json!({"id": i, "title": "z".repeat(1000)}))
        .collect();
    let mut env = json!({"ok": true, "operation": "s", "data": {"kind": "moviepilot_result",
        "tool": "s", "data": items}, "warnings": [], "truncated": false, "correlation_id": "c"});
    fit(&mut env, Vec::new());
    assert!(size_of(&env) <= MAX_STRUCTURED_BYTES);
    let kept = env["data"]["data"].as_array().expect("still records");
    assert!(kept.len() > 10 && kept.len() < 100);
    assert_eq!(kept[0]["title"], "z".repeat(1000), "records are whole");
    assert!(
        env["warnings"]
            .to_string()
            .contains(&format!("{} of 100", kept.len()))
    );
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

#[test]
fn size_is_counted_without_a_copy_and_equals_the_compact_json_length() {
    for value in [
        json!(null),
        json!({"a": [1, -2, 3.5, 1e300, true], "q\"\\": "line\nbreak\u{1} é 千 😀 \u{202e}"}),
        json!([[], {}, "", {"nested": {"deep": [u64::MAX, i64::MIN]}}]),
    ] {
        assert_eq!(
            size_of(&value),
            serde_json::to_vec(&value).unwrap().len(),
            "{value}"
        );
    }
}

#[test]
fn warnings_bounded_once_are_unchanged_by_the_final_bound() {
    // `fit` returns early for an envelope that fits, skipping the second bound; that is only
    // right when the second bound keeps a bounded list as it is.
    let many: Vec<String> = (0..300).map(|i| format!("warning {i}")).collect();
    let long: Vec<String> = (0..300)
        .map(|i| format!("{i}{}", "w".repeat(400)))
        .collect();
    let odd = vec![
        "a\u{7}b".to_owned(),
        "ab".to_owned(),
        "ab".to_owned(),
        "x".repeat(900),
    ];
    for list in [many, long, odd] {
        let once = bound_warnings(list, MAX_WARNING_BYTES - FIT_WARNING_RESERVE);
        assert_eq!(bound_warnings(once.clone(), MAX_WARNING_BYTES), once);
    }
}
