use super::*;
use crate::contract::error::ErrorCode;

#[test]
fn success_has_data_and_no_error() {
    let r = render(
        "read_search",
        "c-1",
        Reply::ok(json!({"kind":"metrics","values":[]})),
    );
    assert_eq!(r.structured["ok"], true);
    assert!(r.structured.get("error").is_none());
    assert!(!r.is_error);
    assert_eq!(
        serde_json::from_str::<Value>(&r.text).unwrap(),
        r.structured
    );
    // Byte for byte: the guest hands the text over as the structured result too.
    assert_eq!(r.text, r.structured.to_string());
}

#[test]
fn failure_sets_is_error_and_keeps_warnings() {
    let reply = Reply::failure(ToolError::new(ErrorCode::UnknownOutcome, "lost"))
        .warn("reconcile with read_requests");
    let r = render("write_request_create", "c-2", reply);
    assert!(r.is_error);
    assert_eq!(r.structured["ok"], false);
    assert_eq!(r.structured["error"]["code"], "UNKNOWN_OUTCOME");
    assert_eq!(r.structured["warnings"][0], "reconcile with read_requests");
}
