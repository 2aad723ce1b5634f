use serde_json::{Value, json};
use tokio::io::BufReader;

use super::answers::*;
use super::lines::{BoundedLines, Line};
use super::message;

fn read_all(input: &[u8], max: usize) -> Vec<(Line, Vec<u8>)> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        // A tiny buffer, so lines span many fill_buf calls.
        let mut lines = BoundedLines::new(BufReader::with_capacity(3, input), max);
        let mut out = Vec::new();
        loop {
            let kind = lines.next().await.unwrap();
            if kind == Line::Eof {
                return out;
            }
            out.push((kind, lines.line.clone()));
        }
    })
}

#[test]
fn long_lines_are_skipped_and_the_next_line_is_read() {
    let lines = read_all(b"short\nmuch too long\nok\nlast", 8);
    assert_eq!(
        lines,
        vec![
            (Line::Complete, b"short".to_vec()),
            (Line::TooLong, vec![]),
            (Line::Complete, b"ok".to_vec()),
            (Line::Complete, b"last".to_vec()),
        ]
    );
    assert_eq!(read_all(b"12345678\n123456789", 8)[1].0, Line::TooLong);
}

#[test]
fn rmcp_errors_without_an_id_get_a_null_id() {
    let fixed =
        with_null_id(br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}"#)
            .unwrap();
    let v: Value = serde_json::from_slice(&fixed).unwrap();
    assert_eq!(v["id"], Value::Null);
    assert_eq!(v["error"]["code"], -32600);
    assert!(
        with_null_id(br#"{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"m"}}"#).is_none()
    );
    assert!(with_null_id(br#"{"jsonrpc":"2.0","id":3,"result":{"error":1}}"#).is_none());
}

#[test]
fn echoes_are_bounded_and_escaped() {
    assert_eq!(quote_bounded("read_search"), "\"read_search\"");
    let long = "n".repeat(1 << 20);
    assert_eq!(
        quote_bounded(&long),
        format!("\"{}\"… (1048576 bytes)", "n".repeat(MAX_ECHO_CHARS))
    );
    assert_eq!(
        quote_bounded("a\u{202e}b\u{200b}c\nd"),
        "\"a\\u{202e}b\\u{200b}c\\nd\""
    );
    let wide = "\u{e9}".repeat(MAX_ECHO_CHARS + 1);
    assert!(quote_bounded(&wide).ends_with("… (130 bytes)"));
}

#[test]
fn a_key_given_twice_is_named_in_params_and_the_message() {
    let answer = |line: &str| {
        let parsed = message::parse(line.as_bytes()).unwrap();
        duplicate_key_response(&parsed.value, &parsed.duplicate.unwrap())
            .map(|a| serde_json::from_str::<Value>(&a).unwrap())
    };
    let a = answer(
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"a","name":"b"}}"#,
    )
    .unwrap();
    assert_eq!(
        (a["id"].clone(), a["error"]["code"].clone()),
        (json!(3), json!(-32602))
    );
    assert_eq!(
        a["error"]["message"],
        "Invalid params: the key \"name\" appears twice in \"params\""
    );
    let a = answer(r#"{"jsonrpc":"2.0","id":3,"id":4,"method":"ping"}"#).unwrap();
    assert_eq!(
        (a["id"].clone(), a["error"]["code"].clone()),
        (Value::Null, json!(-32600))
    );
    assert!(a["error"]["message"].as_str().unwrap().contains("\"id\""));
    // Notifications and client responses get no answer.
    assert!(
        answer(r#"{"jsonrpc":"2.0","method":"notifications/x","params":{"a":1,"a":2}}"#).is_none()
    );
    assert!(answer(r#"{"jsonrpc":"2.0","id":1,"result":{"a":1,"a":2}}"#).is_none());
}

#[test]
fn tools_call_params_of_the_wrong_type_are_invalid_params() {
    let answer = |m: Value| {
        invalid_call_params_response(&m).map(|a| serde_json::from_str::<Value>(&a).unwrap())
    };
    for params in [
        json!("x"),
        json!({"name": 5}),
        json!({"name": "t", "arguments": "x"}),
        json!({"name": "t", "_meta": 1}),
    ] {
        let a =
            answer(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": params}))
                .expect("an answer");
        assert_eq!(
            (a["id"].clone(), a["error"]["code"].clone()),
            (json!(9), json!(-32602))
        );
    }
    assert!(answer(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "t", "arguments": {}}})).is_none());
    // Notifications get no answer; other methods are rmcp's business.
    assert!(answer(json!({"jsonrpc": "2.0", "method": "tools/call", "params": 1})).is_none());
    assert!(answer(json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": 1})).is_none());
}

/// Whether the handshake's gate is open after the transport read `input` (and, with `answer`,
/// sent a `tools/list` answer).
fn gate_after(input: &'static [u8], answer_list: bool) -> bool {
    use rmcp::model::{JsonRpcMessage, JsonRpcResponse, JsonRpcVersion2_0, ListToolsResult};
    use rmcp::model::{RequestId, ServerResult};
    use rmcp::transport::Transport as _;

    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let gate = crate::background::Gate::closed();
    let extras = super::Extras {
        listings: None,
        handshake: Some(gate.clone()),
    };
    let (out, _written) = tokio::sync::mpsc::unbounded_channel();
    let mut transport =
        super::transport::Filtered::new(BufReader::new(input), out, Default::default(), extras);
    runtime.block_on(async {
        while transport.receive().await.is_some() {}
        if answer_list {
            let answer = JsonRpcMessage::Response(JsonRpcResponse {
                jsonrpc: JsonRpcVersion2_0,
                id: RequestId::Number(2),
                result: ServerResult::ListToolsResult(ListToolsResult::with_all_items(vec![])),
            });
            transport.send(answer).await.unwrap();
        }
    });
    gate.is_open()
}

#[test]
fn start_up_work_waits_until_tools_list_is_answered_or_a_call_arrives() {
    let handshake: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"ping"}
{"jsonrpc":"2.0","id":3,"method":"tools/list"}
"#;
    assert!(!gate_after(handshake, false));
    assert!(gate_after(handshake, true));
    let call: &[u8] =
        br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t","arguments":{}}}
"#;
    assert!(gate_after(call, false));
}
