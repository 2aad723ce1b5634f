//! The MoviePilot fault matrix: every [`CallFault`] the fake MoviePilot can put on a `tools/call`,
//! once on a read-only bridged tool (`search_media`) and once on a write (`add_subscribe`),
//! through the real component and release harness.
//!
//! For each cell the test asserts the exact error code and `retryable`, that the message is
//! sanitized (no stack frame, HTML, password or key), that the whole response carries no key,
//! that the envelope validates against the tool's advertised `outputSchema`, that the fake saw
//! exactly one `tools/call` (a write whose answer was lost is `UNKNOWN_OUTCOME` and never
//! re-sent), and that the harness serves the next call. Deadlines are short
//! (`MEDIA_MCP_MOVIEPILOT_DEADLINES`, `MEDIA_MCP_CALL_DEADLINE_MS`) so the slow cells cost about
//! a second each.

use std::time::Duration;

use media_mcp_fakes::moviepilot::faults::{LEAKED_FRAME, LEAKED_PASSWORD};
use media_mcp_fakes::moviepilot::{FakeMoviePilot, faults::CallFault};
use media_mcp_tests::{Env, Harness, assert_no_secret, canary_key, structured};
use serde_json::{Value, json};

use crate::support::{assert_valid, output_schemas};

const READ: &str = "search_media";
const WRITE: &str = "add_subscribe";
/// Each bridged `tools/call` waits this long; discovery gets the call deadline on top.
const DEADLINES: &str = "search_media=1000,add_subscribe=1000";
const CALL_DEADLINE_MS: &str = "1500";
/// Longer than any deadline above.
const SLOW: Duration = Duration::from_secs(4);

/// `(code, retryable)` of a cell.
type Expect = (&'static str, bool);

const UNKNOWN: Expect = ("UNKNOWN_OUTCOME", false);

/// The expected (read, write) outcome of each fault.
fn expected(fault: &CallFault) -> (Expect, Expect) {
    use media_mcp_fakes::Fault;
    match fault {
        CallFault::Late(_) | CallFault::Transport(Fault::StallMidBody(_)) => {
            (("TIMEOUT", true), UNKNOWN)
        }
        CallFault::Transport(Fault::ResetBeforeHeaders | Fault::ResetAfterHeaders) => {
            (("UPSTREAM_REJECTED", true), UNKNOWN)
        }
        // The key was refused: nothing ran, and retrying will not help.
        CallFault::Unauthorized => (
            ("AUTHENTICATION_FAILED", false),
            ("AUTHENTICATION_FAILED", false),
        ),
        // MoviePilot answers 503 before its handlers run (services not initialised), so even a
        // write did nothing and may be retried (MoviePilot document, error table).
        CallFault::Unavailable => (("UPSTREAM_REJECTED", true), ("UPSTREAM_REJECTED", true)),
        CallFault::Traceback500 | CallFault::RpcError(-32603) => {
            (("UPSTREAM_REJECTED", false), UNKNOWN)
        }
        // MoviePilot checks the parameters before running the tool.
        CallFault::RpcError(_) => (("INVALID_ARGUMENT", false), ("INVALID_ARGUMENT", false)),
        CallFault::Transport(_) => (("UPSTREAM_SCHEMA_MISMATCH", false), UNKNOWN),
        // Text is a read's result; a write's text is passed back with a warning that the
        // change is not confirmed, neither a failure nor a success.
        CallFault::TextNotJson => (("OK", false), ("OK", false)),
        // MoviePilot itself says it cannot tell what happened: never reported as a success.
        CallFault::OutcomeUnknown => (UNKNOWN, UNKNOWN),
    }
}

/// Panics when an error message or warning carries anything an upstream should never pass on.
fn assert_sanitized(message: &str, key: &str, label: &str) {
    assert_no_secret(message, key, label);
    for bad in [
        LEAKED_PASSWORD,
        LEAKED_FRAME,
        "File \"",
        "Traceback",
        "postgresql://",
        "<html",
        "<!doctype",
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

fn outcome(envelope: &Value) -> (String, bool) {
    if envelope["ok"] == true {
        return ("OK".into(), false);
    }
    let error = &envelope["error"];
    (
        error["code"].as_str().unwrap_or("<none>").to_owned(),
        error["retryable"] == true,
    )
}

#[test]
fn every_moviepilot_fault_on_a_read_and_a_write_gives_the_documented_error_and_the_harness_keeps_serving()
 {
    let key = canary_key();
    let fake = FakeMoviePilot::builder().key(&key).start();
    let env = Env::new()
        .set("MOVIEPILOT_URL", &fake.mcp_url())
        .set("MOVIEPILOT_API_KEY", &key)
        .set("MEDIA_MCP_MOVIEPILOT_DEADLINES", DEADLINES)
        .set("MEDIA_MCP_CALL_DEADLINE_MS", CALL_DEADLINE_MS);
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let schemas = output_schemas(&mut h);
    let mut failures = Vec::new();
    for fault in CallFault::all(SLOW) {
        let (want_read, want_write) = expected(&fault);
        for (tool, args, want) in [
            (READ, json!({"title": "盗梦空间"}), want_read),
            (WRITE, json!({"title": "沙丘", "year": "2021"}), want_write),
        ] {
            let label = format!("{} on {tool}", fault.name());
            fake.clear_requests();
            fake.set_call_fault(tool, fault.clone());
            let response = h.call_tool(tool, args);
            fake.clear_call_faults();
            let envelope = structured(&response).clone();
            assert_valid(&schemas[tool], &envelope, &label);
            assert_eq!(
                response["result"]["isError"],
                envelope["ok"] != true,
                "{label}: isError"
            );
            assert_no_secret(&response.to_string(), &key, &label);
            let got = outcome(&envelope);
            if got != (want.0.to_owned(), want.1) {
                failures.push(format!(
                    "{label}: want {want:?}, got {got:?}: {}",
                    envelope["error"]
                ));
            }
            if let Some(message) = envelope["error"]["message"].as_str() {
                assert_sanitized(message, &key, &label);
                // The advice survives whatever upstream text was quoted before it.
                if got.0 == "UNKNOWN_OUTCOME" {
                    assert!(
                        message.ends_with("check with a read before retrying"),
                        "{label}: {message}"
                    );
                }
            }
            for warning in envelope["warnings"].as_array().into_iter().flatten() {
                assert_sanitized(warning.as_str().unwrap_or_default(), &key, &label);
            }
            // Sent exactly once: the plugin retries neither a lost write nor a failed read.
            assert_eq!(
                fake.tool_calls(tool),
                1,
                "{label}: tools/call was sent exactly once"
            );
            // The harness keeps serving: the same tools without the fault succeed.
            let next = h.call_tool(READ, json!({"title": "盗梦空间"}));
            assert_eq!(
                structured(&next)["ok"],
                true,
                "{label}: the next read: {next}"
            );
            let next = h.call_tool(WRITE, json!({"title": "沙丘"}));
            assert_eq!(
                structured(&next)["ok"],
                true,
                "{label}: the next write: {next}"
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
