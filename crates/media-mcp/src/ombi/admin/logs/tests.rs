//! Tests for `read_logs`: vetted ids, line windows from either end, budgets, no raw bytes.

use super::window;
use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::{HttpResponse, Method};
use serde_json::json;

fn log_of(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[test]
fn files_are_vetted_names_used_as_ids() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/System/logs",
        Ok(json_response(
            br#"["log20260502.txt","log20260501_001.txt","../../etc/passwd","Ombi.db"]"#.to_vec(),
        )),
    );
    let out = call(&up, "read_logs", json!({"view": "files"}));
    assert_eq!(
        out["data"]["files"],
        json!([{"file_id": "log20260502.txt", "name": "log20260502.txt"}, {"file_id": "log20260501_001.txt", "name": "log20260501_001.txt"}])
    );
    assert!(out["warnings"].to_string().contains("2 entries"));
    assert_eq!(out["data"]["next_offset"], json!(null));
}

#[test]
fn reading_uses_the_json_route_never_the_download_route_and_sanitizes() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/System/logs/log20260502.txt",
        Ok(json_response(
            json!("a\nGET http://tmdb/3?api_key=SECRET1&x=1\nc\n")
                .to_string()
                .into_bytes(),
        )),
    );
    let out = call(
        &up,
        "read_logs",
        json!({"view": "read", "file_id": "log20260502.txt"}),
    );
    assert_eq!(
        out["data"]["lines"],
        json!(["a", "GET http://tmdb/3?api_key=[redacted]&x=1", "c"])
    );
    assert_eq!(out["data"]["next_offset"], json!(null));
    let sent = &up.requests()[0];
    assert!(
        sent.url.ends_with("/api/v2/System/logs/log20260502.txt") && !sent.url.contains("download")
    );
    assert!(
        sent.headers
            .iter()
            .any(|(k, v)| k == "accept" && v == "application/json")
    );
}

#[test]
fn fixture_file_reads_and_plain_text_is_accepted() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/System/logs/log20260502.txt",
        "v2-system-log-file.json",
    );
    let out = call(
        &up,
        "read_logs",
        json!({"view": "read", "file_id": "log20260502.txt"}),
    );
    assert_eq!(out["data"]["lines"].as_array().unwrap().len(), 2);
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/System/logs/log20260502.txt",
        Ok(HttpResponse {
            status: 200,
            content_type: Some("text/plain; charset=utf-8".into()),
            body: b"x\ny\n".to_vec(),
            ..Default::default()
        }),
    );
    let out = call(
        &up,
        "read_logs",
        json!({"view": "read", "file_id": "log20260502.txt", "from_end": false}),
    );
    assert_eq!(out["data"]["lines"], json!(["x", "y"]));
}

#[test]
fn raw_bytes_are_refused() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/System/logs/log20260502.txt",
        Ok(HttpResponse {
            status: 200,
            content_type: Some("application/octet-stream".into()),
            body: vec![0, 159, 146, 150],
            ..Default::default()
        }),
    );
    let out = call(
        &up,
        "read_logs",
        json!({"view": "read", "file_id": "log20260502.txt"}),
    );
    assert_eq!(out["error"]["code"], "UPSTREAM_SCHEMA_MISMATCH");
    assert!(out.get("data").is_none());
}

#[test]
fn oversized_files_are_refused_unread_with_a_clear_reason() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/System/logs/log20260502.txt",
        Err(crate::upstream::UpstreamError::BodyTooLarge {
            status: 200,
            limit: 4,
        }),
    );
    let out = call(
        &up,
        "read_logs",
        json!({"view": "read", "file_id": "log20260502.txt"}),
    );
    assert_eq!(out["error"]["code"], "UNSUPPORTED_CAPABILITY");
    assert!(
        out["error"]["message"]
            .as_str()
            .unwrap()
            .contains("whole files")
    );
}

#[test]
fn file_ids_must_be_log_names() {
    let up = FakeUpstream::new();
    for args in [
        json!({"view": "read", "file_id": "../appsettings.json"}),
        json!({"view": "read"}),
        json!({"view": "files", "file_id": "log20260502.txt"}),
        json!({"view": "read", "file_id": "log20260502.txt", "limit": 501}),
    ] {
        let out = call(&up, "read_logs", args);
        assert_eq!(out["error"]["code"], "INVALID_ARGUMENT", "{out}");
    }
    assert!(up.requests().is_empty());
}

#[test]
fn windows_count_from_the_end_and_continue_backwards() {
    let text = log_of(10);
    let (lines, next, cut, _) = window(&text, 0, 3, true);
    assert_eq!(
        (lines, next, cut),
        (
            vec!["line 8".to_owned(), "line 9".into(), "line 10".into()],
            Some(3),
            false
        )
    );
    let (lines, next, _, _) = window(&text, 3, 3, true);
    assert_eq!((lines[0].as_str(), next), ("line 5", Some(6)));
    let (lines, next, _, _) = window(&text, 9, 3, true);
    assert_eq!((lines, next), (vec!["line 1".to_owned()], None));
    let (lines, next, _, _) = window(&text, 8, 5, false);
    assert_eq!(
        (lines, next),
        (vec!["line 9".to_owned(), "line 10".into()], None)
    );
    let (lines, next, _, _) = window(&text, 0, 4, false);
    assert_eq!((lines.len(), next), (4, Some(4)));
}

#[test]
fn at_most_500_lines_and_the_byte_budget_keeps_the_newest() {
    let text = log_of(2000);
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/System/logs/log20260502.txt",
        Ok(json_response(json!(text).to_string().into_bytes())),
    );
    let out = call(
        &up,
        "read_logs",
        json!({"view": "read", "file_id": "log20260502.txt", "limit": 500}),
    );
    assert_eq!(out["data"]["lines"].as_array().unwrap().len(), 500);
    assert_eq!(out["data"]["lines"][499], "line 2000");
    let long: String = (1..=500)
        .map(|i| format!("{i} {}\n", "y".repeat(300)))
        .collect();
    let (lines, next, cut, _) = window(&long, 0, 500, true);
    assert!(cut && lines.len() < 500);
    assert!(
        lines.last().unwrap().starts_with("500 "),
        "the newest line is kept"
    );
    assert_eq!(next, Some(lines.len()));
}
