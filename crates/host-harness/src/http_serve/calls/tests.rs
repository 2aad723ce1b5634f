use super::*;

fn headers(accept: &str) -> hyper::HeaderMap {
    let mut map = hyper::HeaderMap::new();
    map.insert(hyper::header::ACCEPT, accept.parse().unwrap());
    map
}

#[test]
fn tool_calls_are_read_with_their_progress_token() {
    let body = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_search","arguments":{},"_meta":{"progressToken":"t"}}}"#;
    assert_eq!(
        tool_call(body),
        Some(ToolCall {
            name: "read_search".into(),
            id: json!(3),
            progress_token: Some(json!("t")),
        })
    );
    let without =
        br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"read_search"}}"#;
    assert_eq!(tool_call(without).unwrap().progress_token, None);
    let odd_token = br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x","_meta":{"progressToken":{"a":1}}}}"#;
    assert_eq!(tool_call(odd_token).unwrap().progress_token, None);
    let long = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{}"}}}}"#,
        "n".repeat(65)
    );
    assert_eq!(tool_call(long.as_bytes()).unwrap().name, "(unnamed tool)");
    for other in [
        &br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#[..],
        br#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x"}}"#,
        br#"not json"#,
    ] {
        assert_eq!(tool_call(other), None);
    }
}

#[test]
fn event_streams_are_accepted_only_when_named_without_q_zero() {
    assert!(accepts_event_stream(&headers(
        "application/json, text/event-stream"
    )));
    assert!(accepts_event_stream(&headers("Text/Event-Stream;q=0.5")));
    assert!(!accepts_event_stream(&headers("application/json")));
    assert!(!accepts_event_stream(&headers(
        "application/json, text/event-stream;q=0"
    )));
    assert!(!accepts_event_stream(&hyper::HeaderMap::new()));
}

#[test]
fn progress_and_the_answer_are_sse_message_events() {
    let call = tool_call(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_search"}}"#,
    )
    .unwrap();
    let event = progress_event(&call, &json!(7), Duration::from_millis(10_250));
    let text = std::str::from_utf8(&event).unwrap();
    let data = text
        .strip_prefix("event: message\ndata: ")
        .and_then(|t| t.strip_suffix("\n\n"))
        .unwrap();
    let message: Value = serde_json::from_str(data).unwrap();
    assert_eq!(
        message,
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
            "progressToken": 7, "progress": 10.25, "message": "read_search: still running after 10 s"}})
    );
    let answer = Bytes::from_static(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    let last = final_event("application/json", &answer).unwrap();
    let data = std::str::from_utf8(&last)
        .unwrap()
        .strip_prefix("event: message\ndata: ")
        .and_then(|t| t.strip_suffix("\n\n"))
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(data).unwrap(),
        json!({"jsonrpc": "2.0", "id": 1, "result": {}})
    );
    let sse = Bytes::from_static(b"event: message\ndata: {}\n\n");
    assert_eq!(final_event("text/event-stream", &sse).unwrap(), sse);
    assert_eq!(
        final_event("text/plain", &Bytes::from_static(b"oops")),
        None
    );
}
