use super::*;
use rmcp::model::ContentBlock;
use serde_json::json;

fn with(structured: Value, is_error: bool) -> CallToolResult {
    let mut r = if is_error {
        CallToolResult::error(vec![])
    } else {
        CallToolResult::success(vec![ContentBlock::text("x")])
    };
    r.structured_content = Some(structured);
    r
}

#[test]
fn media_pages_list_titles() {
    let r = with(
        json!({"ok": true, "data": {"kind": "media_page", "items": [
            {"media": "movie", "title": "The Matrix", "year": 1999, "available": true, "identifiers": []}
        ]}, "warnings": [], "truncated": false}),
        false,
    );
    assert_eq!(
        result_summary(&r),
        "  ok: media_page, 1 item(s)\n    - The Matrix (1999) [movie] - available\n"
    );
}

#[test]
fn errors_show_code_and_message() {
    let r = with(
        json!({"ok": false, "error": {"code": "TIMEOUT", "message": "slow"}}),
        true,
    );
    assert_eq!(result_summary(&r), "  error TIMEOUT: slow\n");
}

#[test]
fn mutations_show_outcome() {
    let r = with(
        json!({"ok": true, "data": {"kind": "mutation", "outcome": "accepted", "request_id": 3}}),
        false,
    );
    assert_eq!(
        result_summary(&r),
        "  ok: mutation, outcome accepted, request 3\n"
    );
}
