use super::*;

#[test]
fn the_operation_id_is_read_as_parsing_would_read_it() {
    let cases = [
        (
            r#"{"operation_id": "search.torrents"}"#,
            Some("search.torrents"),
        ),
        (
            r#"{"query": {"operation_id": "x", "a": [1, {"b": null}]}, "operation_id": "media.search"}"#,
            Some("media.search"),
        ),
        (r#"{"operation_id": "a", "operation_id": "b"}"#, Some("b")),
        (r#"{"operation_id": "a", "operation_id": 3}"#, None),
        (
            r#"{"\u006fperation_id": "search.\u0074orrents"}"#,
            Some("search.torrents"),
        ),
        (r#"{"operation_id": 7}"#, None),
        (r#"{"query": {}}"#, None),
        (r#"["operation_id", "x"]"#, None),
        (r#"{"operation_id": "x"} trailing"#, None),
        (r#"{"operation_id": "x""#, None),
        ("", None),
    ];
    for (text, expected) in cases {
        let parsed: Option<Value> = serde_json::from_str(text).ok();
        let by_parsing = parsed
            .as_ref()
            .and_then(|v| v.get("operation_id"))
            .and_then(Value::as_str);
        assert_eq!(by_parsing, expected, "{text}");
        assert_eq!(operation_id(text).as_deref(), expected, "{text}");
    }
}
