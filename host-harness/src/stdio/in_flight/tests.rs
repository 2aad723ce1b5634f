use super::*;

fn call(id: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "t"}})
}

fn answer(id: Value) -> Vec<u8> {
    // The layout rmcp writes.
    let message = ClientJsonRpcMessage::deserialize(&call(id.clone())).unwrap();
    let JsonRpcMessage::Request(request) = message else {
        unreachable!()
    };
    let response: rmcp::model::ServerJsonRpcMessage = JsonRpcMessage::response(
        rmcp::model::ServerResult::EmptyResult(rmcp::model::EmptyResult {}),
        request.id,
    );
    serde_json::to_vec(&response).unwrap()
}

#[test]
fn a_reused_id_is_refused_until_its_answer_is_written() {
    let flight = InFlight::default();
    assert_eq!(flight.admit(&call(json!(7))), Admit::Forward);
    let Admit::Refuse(refusal) = flight.admit(&call(json!(7))) else {
        panic!("not refused")
    };
    let refusal: Value = serde_json::from_str(&refusal).unwrap();
    assert_eq!(
        (refusal["id"].clone(), refusal["error"]["code"].clone()),
        (json!(7), json!(-32600))
    );
    // The same number written as a float is the same id for rmcp; a string is another.
    assert!(matches!(flight.admit(&call(json!(7.0))), Admit::Refuse(_)));
    assert_eq!(flight.admit(&call(json!("7"))), Admit::Forward);
    assert!(flight.settle(&answer(json!(7))));
    assert_eq!(flight.admit(&call(json!(7))), Admit::Forward);
    // Notifications, client responses and messages rmcp cannot read are not recorded.
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(flight.admit(&note), Admit::Forward);
    assert_eq!(
        flight.admit(&json!({"jsonrpc": "1.0", "id": 9, "method": "ping"})),
        Admit::Forward
    );
    assert_eq!(
        flight.admit(&json!({"jsonrpc": "1.0", "id": 9, "method": "ping"})),
        Admit::Forward
    );
}

#[test]
fn a_cancelled_request_keeps_its_id_until_it_ends_and_its_answer_is_dropped() {
    let flight = InFlight::default();
    assert_eq!(flight.admit(&call(json!("c"))), Admit::Forward);
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "c"}});
    assert_eq!(flight.admit(&cancel), Admit::Drop);
    assert!(matches!(flight.admit(&call(json!("c"))), Admit::Refuse(_)));
    assert!(
        !flight.settle(&answer(json!("c"))),
        "the cancelled answer is dropped"
    );
    assert_eq!(flight.admit(&call(json!("c"))), Admit::Forward);
    // A cancellation for an id not in flight goes on to rmcp.
    let other = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "z"}});
    assert_eq!(flight.admit(&other), Admit::Forward);
}

#[test]
fn answer_ids_are_read_from_rmcp_lines_and_other_layouts() {
    assert_eq!(answer_id(&answer(json!(12))), Some(RequestId::Number(12)));
    assert_eq!(
        answer_id(&answer(json!("a\"b"))),
        Some(RequestId::String("a\"b".into()))
    );
    let error = br#"{"jsonrpc":"2.0","id":"e","error":{"code":-32601,"message":"m"}}"#;
    assert_eq!(answer_id(error), Some(RequestId::String("e".into())));
    let reordered = br#"{"result":{},"id":3,"jsonrpc":"2.0"}"#;
    assert_eq!(answer_id(reordered), Some(RequestId::Number(3)));
    let request = br#"{"jsonrpc":"2.0","id":4,"method":"roots/list"}"#;
    assert_eq!(answer_id(request), None);
    let notification = br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#;
    assert_eq!(answer_id(notification), None);
    let no_id = br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"}}"#;
    assert_eq!(answer_id(no_id), None);
}
