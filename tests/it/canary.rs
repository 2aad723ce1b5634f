//! The canary key: every Ombi tool, called with valid sampled arguments, through every
//! [`Fault`] on every route and through upstream answers that echo the key back (in records,
//! error bodies, ProblemDetails and a 401 text). The key must appear nowhere a caller or an
//! operator could see it: not in results (structured content, text blocks, warnings, errors),
//! not on stdout or stderr (debug logging on), and never in a URL or body sent upstream. It
//! must still reach the fake, as the `ApiKey` header only. Every result also validates against
//! its tool's `outputSchema`, whatever the upstream did. Echoed keys are caught by the
//! harness (`Policy::redact_secrets`), which replaces configured keys in every result, also
//! when they come back disguised: upper-cased (Ombi accepts keys in any case) or split by a
//! zero-width space, a bidirectional override or a line break.

use std::time::Duration;

use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_fakes::{Fault, Reply};
use media_mcp_tests::{Env, Harness, assert_no_secret, canary_key};
use serde_json::{Value, json};

use crate::support::assert_valid;

/// Answers that carry the key back, as a careless or hostile upstream might.
fn echoes(key: &str) -> Vec<(String, Reply)> {
    let record = json!({
        "id": 603, "theMovieDbId": 603, "title": key, "overview": format!("the key is {key}"),
        "name": key, "userName": key, "subject": key, "description": key, "message": key,
        "alias": key, "email": format!("{key}@example.com"), "apiKey": key, "value": key,
    });
    vec![
        (
            "echo_records".into(),
            Reply::json(200, json!([record, record]).to_string()),
        ),
        ("echo_object".into(), Reply::json(200, record.to_string())),
        (
            "echo_error_500".into(),
            Reply::json(
                500,
                json!({"error": format!("Invalid key {key}")}).to_string(),
            ),
        ),
        (
            "echo_problem_400".into(),
            Reply::new(
                400,
                Some("application/problem+json"),
                json!({"title": format!("Bad key {key}"), "status": 400, "errors": {key: ["bad"]}})
                    .to_string(),
            ),
        ),
        (
            "echo_401".into(),
            Reply::new(401, Some("text/plain"), format!("Invalid API Key {key}")),
        ),
        (
            "echo_text_200".into(),
            Reply::new(200, Some("text/plain"), format!("{key}\n{key}")),
        ),
        (
            "echo_disguised_records".into(),
            Reply::json(200, json!([disguised_record(key)]).to_string()),
        ),
        (
            "echo_disguised_error_500".into(),
            Reply::json(
                500,
                json!({"error": format!("Invalid key {}", key.to_uppercase())}).to_string(),
            ),
        ),
    ]
}

/// `key` with `mark` after its first half.
fn split(key: &str, mark: &str) -> String {
    let (a, b) = key.split_at(key.len() / 2);
    format!("{a}{mark}{b}")
}

/// A record whose text fields carry the key in forms that still read (or work) as the key.
fn disguised_record(key: &str) -> Value {
    let upper = key.to_uppercase();
    json!({
        "id": 603, "theMovieDbId": 603, "title": upper,
        "overview": format!("the key is {}", split(key, "\u{200b}")),
        "name": split(key, "\u{202e}"), "userName": split(&upper, "\n"),
        "subject": split(key, "\u{feff}"), "description": split(key, "\r\n"),
        "message": split(&upper, "\u{2066}"), "alias": split(key, "\u{ad}"),
        "email": format!("{upper}@example.com"), "apiKey": upper, "value": split(key, "\t"),
    })
}

/// Panics when `key` appears in a string of `value` in any case or split by characters that
/// show nothing.
fn assert_no_disguised_secret(value: &Value, key: &str, what: &str) {
    let shows_nothing = |c: char| {
        c.is_control()
            || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}' | '\u{feff}')
    };
    match value {
        Value::String(text) => {
            let seen: String = text
                .chars()
                .filter(|c| !shows_nothing(*c))
                .collect::<String>()
                .to_lowercase();
            assert_no_secret(&seen, &key.to_lowercase(), what);
        }
        Value::Array(items) => items
            .iter()
            .for_each(|v| assert_no_disguised_secret(v, key, what)),
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            assert_no_disguised_secret(&Value::String(k.clone()), key, what);
            assert_no_disguised_secret(v, key, what);
        }),
        _ => {}
    }
}

#[test]
fn the_api_key_appears_nowhere_for_any_tool_under_any_fault() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let env = Env::ombi(&fake, &key)
        .set("OMBI_USER", "alice")
        .set("MEDIA_MCP_CALL_DEADLINE_MS", "1000");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let list = h.rpc("tools/list", json!({}));
    assert_no_secret(&list.to_string(), &key, "tools/list");
    let schemas: std::collections::HashMap<String, Value> = list["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap_or_default().to_owned(),
                t["outputSchema"].clone(),
            )
        })
        .collect();
    let calls: Vec<(String, Value)> = list["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            let args = media_mcp_fuzz_targets::sample::arguments(&t["inputSchema"])
                .unwrap_or_else(|| json!({}));
            (t["name"].as_str().unwrap_or_default().to_owned(), args)
        })
        .collect();
    assert!(calls.len() >= 31, "{} tools", calls.len());

    let redirect = format!("http://127.0.0.1:{}/api/v1/x?apikey={key}", fake.port() ^ 1);
    let mut scenarios: Vec<(String, Option<Reply>)> = vec![("fixtures".into(), None)];
    scenarios.extend(
        Fault::all(Duration::from_secs(3), &redirect)
            .into_iter()
            .map(|f| (f.name(), Some(f.reply()))),
    );
    scenarios.extend(echoes(&key).into_iter().map(|(n, r)| (n, Some(r))));

    let mut answered = 0;
    let mut sent_upstream = 0;
    for (scenario, reply) in &scenarios {
        fake.set_override_everywhere(reply.clone());
        // Every tool at once: 31 calls in flight per scenario.
        let ids: Vec<(u64, &str)> = calls
            .iter()
            .map(|(name, args)| {
                (
                    h.request("tools/call", json!({"name": name, "arguments": args})),
                    name.as_str(),
                )
            })
            .collect();
        for (id, name) in ids {
            let response = h.response(id);
            assert_valid(
                &schemas[name],
                &response["result"]["structuredContent"],
                &format!("{name} under {scenario}"),
            );
            assert_no_secret(
                &response.to_string(),
                &key,
                &format!("the result of {name} under {scenario}"),
            );
            assert_no_disguised_secret(
                &response,
                &key,
                &format!("the result of {name} under {scenario}"),
            );
            answered += 1;
        }
        sent_upstream += fake.requests().len();
        // Under the echo scenarios the fake itself handed out the key inside settings objects,
        // which the settings and tester writes post back to it unchanged (by design): bodies
        // are checked only where the upstream never sent the key.
        let echoing = scenario.starts_with("echo_");
        for request in fake.requests() {
            let body = if echoing {
                String::new()
            } else {
                request.body_text()
            };
            for (part, text) in [
                ("path", request.path.clone()),
                ("query", request.query.clone()),
                ("body", body),
            ] {
                assert_no_secret(
                    &text,
                    &key,
                    &format!("the {part} of {} {}", request.method, request.path),
                );
            }
            assert!(
                request.api_key_query.is_none(),
                "the key in a query: {request:?}"
            );
            if request.path.starts_with("/api/") {
                assert_eq!(
                    request.api_key.as_deref(),
                    Some(key.as_str()),
                    "{request:?}"
                );
            }
        }
        fake.clear_requests();
    }
    fake.set_override_everywhere(None);
    let done = h.finish();
    assert_no_secret(&done.stdout, &key, "stdout");
    assert_no_secret(&done.stderr, &key, "stderr (debug logging)");
    eprintln!(
        "canary: {answered} calls over {} scenarios, {sent_upstream} upstream requests",
        scenarios.len()
    );
}
