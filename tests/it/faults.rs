//! The fault matrix: every [`Fault`] the fake Ombi can inject, once on a read (`read_search`)
//! and once on a write (`write_issue_status`), through the real component and harness.
//!
//! For each cell the test asserts the exact error code, `retryable`, `retry_after_seconds`,
//! that the message is sanitized (no stack frame, connection string, HTML or key), that the
//! envelope validates against the tool's advertised `outputSchema`, and that the harness serves
//! the next call. A write whose request was sent and whose answer was lost or unreadable is
//! `UNKNOWN_OUTCOME`, not retryable, and the fake saw exactly one request: never retried.

use std::time::Duration;

use media_mcp_fakes::Fault;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_fakes::{LEAKED_FRAME, LEAKED_PASSWORD};
use media_mcp_tests::{Env, Harness, assert_no_secret, canary_key, structured};
use serde_json::{Value, json};

use crate::support::{assert_valid, output_schemas};

const SEARCH: &str = "/api/v1/Search/movie/{searchTerm}";
const ISSUE_STATUS: &str = "/api/v1/Issues/status";
/// The component's whole-call deadline in these tests: short, so slow faults cost little.
const DEADLINE_MS: &str = "1500";
/// Longer than the deadline.
const SLOW: Duration = Duration::from_secs(5);

/// What one cell of the matrix must produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Expect {
    code: &'static str,
    retryable: bool,
    retry_after: Option<u64>,
}

const fn e(code: &'static str, retryable: bool) -> Expect {
    Expect {
        code,
        retryable,
        retry_after: None,
    }
}

const UNKNOWN: Expect = e("UNKNOWN_OUTCOME", false);

/// The expected (read, write) outcome of each fault.
fn expected(fault: &Fault) -> (Expect, Expect) {
    match fault {
        Fault::Slow(_) | Fault::StallMidBody(_) => (e("TIMEOUT", true), UNKNOWN),
        Fault::ResetBeforeHeaders
        | Fault::ResetAfterHeaders
        | Fault::Truncated
        | Fault::LengthLongerThanBody => (e("UPSTREAM_REJECTED", true), UNKNOWN),
        Fault::RateLimited(after) => (
            Expect {
                retry_after: *after,
                ..e("RATE_LIMITED", true)
            },
            Expect {
                retry_after: *after,
                ..e("RATE_LIMITED", false)
            },
        ),
        Fault::OmbiError500 | Fault::ProblemDetailsLeak => (e("UPSTREAM_REJECTED", false), UNKNOWN),
        Fault::HtmlPage
        | Fault::InvalidJson
        | Fault::WrongShape
        | Fault::Oversized { .. }
        | Fault::LengthShorterThanBody
        | Fault::Gzip
        | Fault::NonUtf8 => (e("UPSTREAM_SCHEMA_MISMATCH", false), UNKNOWN),
        // A search answered with no content does not say the list is empty.
        Fault::NoContent => (e("UPSTREAM_SCHEMA_MISMATCH", false), UNKNOWN),
        Fault::Redirect(_) => (e("UPSTREAM_REJECTED", false), UNKNOWN),
    }
}

/// Panics when an error message carries anything an upstream should never pass on.
fn assert_sanitized(message: &str, key: &str, label: &str) {
    assert_no_secret(message, key, label);
    for bad in [
        LEAKED_PASSWORD,
        LEAKED_FRAME,
        "Password",
        "Server=",
        "   at ",
        "<html",
        "<!doctype",
        "0af7651916cd43dd8448eb211c80319c",
        "\u{fffd}",
    ] {
        assert!(
            !message
                .to_ascii_lowercase()
                .contains(&bad.to_ascii_lowercase()),
            "{label}: the message carries {bad:?}: {message}"
        );
    }
    assert!(
        !message.is_empty() && message.chars().count() <= 301,
        "{label}: {message}"
    );
}

/// The `(code, retryable, retry_after_seconds)` of an envelope (`OK` when it succeeded).
fn outcome(envelope: &Value) -> Expect {
    if envelope["ok"] == true {
        return e("OK", false);
    }
    let error = &envelope["error"];
    let code = match error["code"].as_str().unwrap_or("<none>") {
        "TIMEOUT" => "TIMEOUT",
        "UNKNOWN_OUTCOME" => "UNKNOWN_OUTCOME",
        "UPSTREAM_REJECTED" => "UPSTREAM_REJECTED",
        "UPSTREAM_SCHEMA_MISMATCH" => "UPSTREAM_SCHEMA_MISMATCH",
        "RATE_LIMITED" => "RATE_LIMITED",
        "INTERNAL_ERROR" => "INTERNAL_ERROR",
        "NOT_FOUND" => "NOT_FOUND",
        "INVALID_ARGUMENT" => "INVALID_ARGUMENT",
        _ => "OTHER",
    };
    Expect {
        code,
        retryable: error["retryable"] == true,
        retry_after: error["retry_after_seconds"].as_u64(),
    }
}

#[test]
fn every_fault_on_a_read_and_a_write_gives_the_documented_error_and_the_harness_keeps_serving() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let env = Env::ombi(&fake, &key).set("MEDIA_MCP_CALL_DEADLINE_MS", DEADLINE_MS);
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let schemas = output_schemas(&mut h);
    let other_origin = format!("http://127.0.0.1:{}/api/v1/Search/movie/x", fake.port() ^ 1);
    let mut failures = Vec::new();
    for fault in Fault::all(SLOW, &other_origin) {
        let (want_read, want_write) = expected(&fault);
        for (tool, method, route, args, want) in [
            (
                "read_search",
                "GET",
                SEARCH,
                json!({"query": "matrix", "media": "movie"}),
                want_read,
            ),
            (
                "write_issue_status",
                "POST",
                ISSUE_STATUS,
                json!({"issue_id": 6, "status": "in_progress"}),
                want_write,
            ),
        ] {
            let label = format!("{} on {tool}", fault.name());
            fake.clear_requests();
            fake.set_fault(method, route, &fault);
            let response = h.call_tool(tool, args);
            fake.clear_overrides();
            let envelope = structured(&response).clone();
            assert_valid(&schemas[tool], &envelope, &label);
            assert_eq!(
                response["result"]["isError"],
                envelope["ok"] != true,
                "{label}: isError"
            );
            let got = outcome(&envelope);
            if got != want {
                failures.push(format!(
                    "{label}: want {want:?}, got {got:?}: {}",
                    envelope["error"]
                ));
            }
            if let Some(message) = envelope["error"]["message"].as_str() {
                assert_sanitized(message, &key, &label);
            }
            for warning in envelope["warnings"].as_array().into_iter().flatten() {
                assert_sanitized(warning.as_str().unwrap_or_default(), &key, &label);
            }
            if method == "POST" {
                let sent: Vec<_> = fake
                    .requests()
                    .into_iter()
                    .filter(|r| r.method == "POST")
                    .collect();
                assert_eq!(
                    sent.len(),
                    1,
                    "{label}: the write was sent exactly once: {sent:?}"
                );
            }
            // The harness keeps serving: the same call without the fault succeeds.
            let next = h.call_tool("read_search", json!({"query": "matrix", "media": "movie"}));
            assert_eq!(
                structured(&next)["ok"],
                true,
                "{label}: the next call: {next}"
            );
        }
    }
    let done = h.finish();
    assert_no_secret(&done.stderr, &key, "stderr");
    assert_no_secret(&done.stdout, &key, "stdout");
    assert!(
        failures.is_empty(),
        "{} cells differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn an_oversized_body_is_refused_while_streaming_and_never_read_whole() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    for declared in [false, true] {
        fake.set_fault("GET", SEARCH, &Fault::Oversized { declared });
        let response = h.call_tool("read_search", json!({"query": "matrix", "media": "movie"}));
        let envelope = structured(&response);
        assert_eq!(
            envelope["error"]["code"], "UPSTREAM_SCHEMA_MISMATCH",
            "{envelope}"
        );
        assert!(
            envelope["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("4194304 byte cap")),
            "{envelope}"
        );
    }
    // 256 MiB were offered twice; the reader stopped at the 4 MiB cap (plus what socket
    // buffers took), far below one body.
    let streamed = fake.streamed_bytes();
    assert!(
        streamed < media_mcp_fakes::OVERSIZED_BYTES / 4,
        "{streamed} bytes were pulled from the fake"
    );
    fake.clear_overrides();
    let next = h.call_tool("read_search", json!({"query": "matrix", "media": "movie"}));
    assert_eq!(structured(&next)["ok"], true, "{next}");
}
