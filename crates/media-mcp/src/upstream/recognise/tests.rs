use super::*;

fn resp(status: u16, ct: Option<&str>, body: &str) -> HttpResponse {
    HttpResponse {
        status,
        content_type: ct.map(str::to_owned),
        body: body.as_bytes().to_vec(),
        ..Default::default()
    }
}

#[test]
fn html_page_with_200_is_a_schema_mismatch() {
    let r = resp(
        200,
        Some("text/html"),
        "<!doctype html><html><body>Ombi</body></html>",
    );
    assert_eq!(
        json_body::<Value>(&r).unwrap_err().code,
        ErrorCode::UpstreamSchemaMismatch
    );
}

#[test]
fn middleware_500_is_sanitized_and_not_retryable() {
    let r = resp(
        500,
        Some("application/json"),
        r#"{"error":"Login failed. Server=db;Password=x;\n   at Ombi.X()"}"#,
    );
    let e = status_error(&r, false).unwrap();
    assert_eq!(e.code, ErrorCode::UpstreamRejected);
    assert!(!e.retryable);
    assert!(!e.message.contains("Password"), "{}", e.message);
    assert!(!e.message.contains("Ombi.X"), "{}", e.message);
}

#[test]
fn write_500_and_lost_answers_are_unknown_outcomes() {
    let r = resp(500, Some("application/json"), r#"{"error":"boom"}"#);
    let e = status_error(&r, true).unwrap();
    assert_eq!((e.code, e.retryable), (ErrorCode::UnknownOutcome, false));
    let e = transport_error(&UpstreamError::Timeout { sent: true }, true);
    assert_eq!((e.code, e.retryable), (ErrorCode::UnknownOutcome, false));
    let e = transport_error(&UpstreamError::Timeout { sent: true }, false);
    assert_eq!((e.code, e.retryable), (ErrorCode::Timeout, true));
    let e = transport_error(&UpstreamError::Unreachable, true);
    assert!(e.retryable, "never-sent requests are safe to retry");
}

#[test]
fn problem_details_keep_only_title_and_field_names() {
    let r = resp(
        400,
        Some("application/problem+json"),
        r#"{"type":"x","title":"One or more validation errors occurred.","status":400,"traceId":"00-abc","errors":{"theMovieDbId":["bad"]}}"#,
    );
    let e = status_error(&r, true).unwrap();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert!(e.message.contains("theMovieDbId"));
    assert!(!e.message.contains("00-abc"));
}

#[test]
fn rate_limit_carries_retry_after() {
    let mut r = resp(429, None, "");
    r.retry_after_seconds = Some(7);
    let e = status_error(&r, false).unwrap();
    assert_eq!(
        (e.code, e.retryable, e.retry_after_seconds),
        (ErrorCode::RateLimited, true, Some(7))
    );
    assert!(!status_error(&r, true).unwrap().retryable);
}

#[test]
fn invalid_user_and_invalid_key_are_told_apart() {
    let e = status_error(&resp(401, None, "Invalid User"), false).unwrap();
    assert!(e.message.contains("user"));
    let e = status_error(&resp(401, None, "Invalid API Key"), false).unwrap();
    assert_eq!(e.code, ErrorCode::AuthenticationFailed);
}

#[test]
fn a_redirect_answering_a_write_is_an_unknown_outcome() {
    let r = resp(303, None, "");
    let e = status_error(&r, true).unwrap();
    assert_eq!((e.code, e.retryable), (ErrorCode::UnknownOutcome, false));
    let e = status_error(&r, false).unwrap();
    assert_eq!((e.code, e.retryable), (ErrorCode::UpstreamRejected, false));
}

#[test]
fn no_content_is_none() {
    assert_eq!(json_body::<Value>(&resp(204, None, "")).unwrap(), None);
}

#[test]
fn array_elements_are_handed_over_one_at_a_time() {
    let mut seen = Vec::new();
    let n = json_elements(
        &resp(200, Some("application/json"), r#"[1, {"a": [2]}, "x"]"#),
        &mut |v| {
            seen.push(v);
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(n, Some(3));
    assert_eq!(
        seen,
        [
            serde_json::json!(1),
            serde_json::json!({"a": [2]}),
            serde_json::json!("x")
        ]
    );
    for empty in ["null", " ", ""] {
        let r = resp(200, Some("application/json"), empty);
        assert_eq!(
            json_elements(&r, &mut |_| Ok(())).unwrap(),
            None,
            "{empty:?}"
        );
    }
    for bad in [r#"{"a": 1}"#, "[1, 2", "[1] 2", "\"s\""] {
        let r = resp(200, Some("application/json"), bad);
        let e = json_elements(&r, &mut |_| Ok(())).unwrap_err();
        assert_eq!(e.code, ErrorCode::UpstreamSchemaMismatch, "{bad}");
    }
}

#[test]
fn the_first_error_of_the_consumer_ends_decoding() {
    let mut calls = 0;
    let e = json_elements(&resp(200, None, "[1, 2, 3]"), &mut |_| {
        calls += 1;
        Err(ToolError::schema_mismatch("row 1 is wrong"))
    })
    .unwrap_err();
    assert_eq!(calls, 1);
    assert_eq!(e.message, "row 1 is wrong");
}

#[test]
fn bounded_decoding_keeps_the_first_elements_and_spills_the_rest_with_their_place() {
    let body = r#"{"a": [1, 2, 3], "b": {"c": [[4, 5, 6], [7]]}, "d": 1.5, "e": null}"#;
    let mut spilled = Vec::new();
    let v = json_bounded(&resp(200, None, body), 2, &mut |place, el| {
        spilled.push((place.to_owned(), el));
    })
    .unwrap()
    .unwrap();
    assert_eq!(
        v,
        serde_json::json!({"a": [1, 2], "b": {"c": [[4, 5], [7]]}, "d": 1.5, "e": null})
    );
    assert_eq!(
        spilled,
        [
            ("a".to_owned(), serde_json::json!(3)),
            ("b/c/*".to_owned(), serde_json::json!(6)),
        ]
    );
    // With room for every element it decodes as `json_body` does.
    let unbounded = json_bounded(&resp(200, None, body), usize::MAX, &mut |_, _| {
        panic!("nothing spills")
    });
    assert_eq!(
        unbounded.unwrap(),
        json_body::<Value>(&resp(200, None, body)).unwrap()
    );
    assert_eq!(
        json_bounded(&resp(204, None, ""), 2, &mut |_, _| ()).unwrap(),
        None
    );
    for bad in ["[1, 2", "{} 2", "{\"a\" 1}"] {
        let e = json_bounded(&resp(200, None, bad), 2, &mut |_, _| ()).unwrap_err();
        assert_eq!(e.code, ErrorCode::UpstreamSchemaMismatch, "{bad}");
    }
}
