use super::*;

#[test]
fn stack_traces_and_connection_strings_are_removed() {
    let raw = "Cannot open database. Server=db;User Id=sa;Password=hunter2;\n   at Ombi.Store.Context.OmbiContext..ctor()\n   at X.Y()";
    let s = sanitize(raw);
    assert!(!s.contains("hunter2"), "{s}");
    assert!(!s.contains("Ombi.Store"), "{s}");
    assert!(s.starts_with("Cannot open database."), "{s}");
}

#[test]
fn html_is_reduced_to_text_and_bounded() {
    let page = format!(
        "<html><body><h1>Oops</h1>{}</body></html>",
        "x ".repeat(400)
    );
    let s = sanitize(&page);
    assert!(!s.contains('<'));
    assert!(s.chars().count() <= MAX_MESSAGE_CHARS + 1);
}

#[test]
fn credential_urls_and_tokens_are_redacted() {
    let s = sanitize(
        "failed to reach http://admin:pw@sonarr:8989/api with key 0123456789abcdef0123456789abcdef",
    );
    assert!(!s.contains("admin:pw"), "{s}");
    assert!(!s.contains("0123456789abcdef0123456789abcdef"), "{s}");
}

#[test]
fn error_json_has_only_contract_fields() {
    let e = ToolError::invalid_argument("query", "must not be empty").with_status(400);
    assert_eq!(
        e.to_json(),
        json!({"code":"INVALID_ARGUMENT","message":"must not be empty","retryable":false,"http_status":400,"field":"query"})
    );
}

#[test]
fn unknown_outcome_keeps_its_advice_whatever_is_quoted_before_it() {
    let long = "x ".repeat(400);
    let trace = "db locked\nTraceback (most recent call last):\n  File \"/app/mcp.py\", line 9\nPassword=hunter2";
    for what in [long.as_str(), trace, "short"] {
        let e = ToolError::unknown_outcome(what);
        assert_eq!(e.code, ErrorCode::UnknownOutcome);
        assert!(!e.retryable);
        assert!(
            e.message.ends_with("check with a read before retrying"),
            "{}",
            e.message
        );
        assert!(
            e.message.chars().count() <= MAX_MESSAGE_CHARS,
            "{}",
            e.message
        );
        assert!(!e.message.contains("hunter2") && !e.message.contains('\n'));
    }
}
