use serde::Deserialize as _;
use serde_json::Value;

use super::*;

fn call(id: Value) -> ClientJsonRpcMessage {
    message(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "t"}}))
}

fn message(value: Value) -> ClientJsonRpcMessage {
    ClientJsonRpcMessage::deserialize(&value).unwrap()
}

fn id(value: Value) -> RequestId {
    RequestId::deserialize(&value).unwrap()
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
    assert!(flight.settle(&id(json!(7))));
    assert_eq!(flight.admit(&call(json!(7))), Admit::Forward);
    // Notifications and client responses are not recorded.
    let note = message(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert_eq!(flight.admit(&note), Admit::Forward);
    let response = message(json!({"jsonrpc": "2.0", "id": 9, "result": {}}));
    assert_eq!(flight.admit(&response), Admit::Forward);
    assert_eq!(flight.admit(&response), Admit::Forward);
}

#[test]
fn a_cancelled_request_keeps_its_id_until_it_ends_and_its_answer_is_dropped() {
    let flight = InFlight::default();
    assert_eq!(flight.admit(&call(json!("c"))), Admit::Forward);
    let cancel = message(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "c"}}),
    );
    assert_eq!(flight.admit(&cancel), Admit::Drop);
    assert!(matches!(flight.admit(&call(json!("c"))), Admit::Refuse(_)));
    assert!(
        !flight.settle(&id(json!("c"))),
        "the cancelled answer is dropped"
    );
    assert_eq!(flight.admit(&call(json!("c"))), Admit::Forward);
    // A cancellation for an id not in flight goes on to rmcp.
    let other = message(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "z"}}),
    );
    assert_eq!(flight.admit(&other), Admit::Forward);
}
