//! Long calls over real stdio pipes: progress notifications while a call runs (and none after
//! its answer, none without a progress token), and cancellation (the call stops, gets no
//! answer, a write is logged as an unknown outcome, other calls answer, the id is free again).

use std::time::Duration;

use media_mcp_fakes::Reply;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_tests::{Env, Harness, canary_key};
use serde_json::{Value, json};

const SEARCH: &str = "/api/v1/Search/movie/{searchTerm}";
const REQUEST: &str = "/api/v1/Request/movie";
const INTERVAL_MS: u64 = 200;
const WAIT: Duration = Duration::from_secs(30);

fn started(delay: Duration) -> (FakeOmbi, Harness) {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    fake.set_override("GET", SEARCH, Reply::json(200, "[]").with_delay(delay));
    let env =
        Env::ombi(&fake, &key).set("MEDIA_MCP_PROGRESS_INTERVAL_MS", &INTERVAL_MS.to_string());
    let harness = Harness::serve_initialized(&env, "2025-11-25");
    (fake, harness)
}

fn search_call(id: Value, meta: Option<Value>) -> String {
    let mut params =
        json!({"name": "read_search", "arguments": {"query": "matrix", "media": "movie"}});
    if let Some(meta) = meta {
        params["_meta"] = meta;
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string()
}

/// Every message up to and including the answer with `id`.
fn until_answer(h: &mut Harness, id: &Value) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let message = h.next_message(WAIT).expect("the answer");
        let done = message["id"] == *id && message.get("method").is_none();
        seen.push(message);
        if done {
            return seen;
        }
    }
}

#[test]
fn progress_is_reported_while_a_call_runs_and_never_after_its_answer() {
    let (_fake, mut h) = started(Duration::from_millis(1500));
    h.send_line(&search_call(
        json!("p1"),
        Some(json!({"progressToken": "tok-1"})),
    ));
    let seen = until_answer(&mut h, &json!("p1"));
    let (answer, progress) = seen.split_last().unwrap();
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert!(
        progress.len() >= 2,
        "progress during a 1.5 s call every {INTERVAL_MS} ms: {progress:?}"
    );
    let mut last = 0.0;
    for note in progress {
        assert_eq!(note["method"], "notifications/progress", "{note}");
        let params = &note["params"];
        assert_eq!(params["progressToken"], "tok-1", "{note}");
        assert!(params.get("total").is_none(), "no invented total: {note}");
        let value = params["progress"].as_f64().unwrap();
        assert!(value > last, "progress must increase: {progress:?}");
        last = value;
        let message = params["message"].as_str().unwrap();
        assert!(
            message.starts_with("read_search: still running after "),
            "{message}"
        );
    }
    assert!(
        h.next_message(Duration::from_millis(INTERVAL_MS * 4))
            .is_none(),
        "nothing after the answer"
    );
    // Without a progress token there is no progress.
    h.send_line(&search_call(json!("p2"), None));
    let seen = until_answer(&mut h, &json!("p2"));
    assert_eq!(seen.len(), 1, "{seen:?}");
}

#[test]
fn a_cancelled_call_stops_without_an_answer_while_others_answer() {
    let (fake, mut h) = started(Duration::from_secs(2));
    fake.set_override(
        "POST",
        REQUEST,
        Reply::json(200, r#"{"result":true,"requestId":1}"#).with_delay(Duration::from_secs(4)),
    );
    let write = json!({"jsonrpc": "2.0", "id": "w", "method": "tools/call",
        "params": {"name": "write_request_create", "arguments": {"media": "movie", "tmdb_id": 603},
                   "_meta": {"progressToken": "w-progress"}}});
    h.send_line(&write.to_string());
    h.send_line(&search_call(json!("r"), None));
    // Wait until the write has reached the upstream, then cancel it.
    for _ in 0..200 {
        if fake.requests().iter().any(|r| r.method == "POST") {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        fake.requests().iter().any(|r| r.method == "POST"),
        "the write reached the upstream"
    );
    h.send_line(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": "w", "reason": "the user changed their mind"}})
        .to_string(),
    );
    let seen = until_answer(&mut h, &json!("r"));
    let answer = seen.last().unwrap();
    assert_eq!(
        answer["result"]["isError"], false,
        "the other call answers: {answer}"
    );
    assert!(
        seen.iter().all(|m| m["id"] != "w"),
        "no answer for the cancelled request: {seen:?}"
    );
    // The call has ended (its id is released only then): the id may be used again.
    let mut free = false;
    for _ in 0..100 {
        h.send_line(&json!({"jsonrpc": "2.0", "id": "w", "method": "ping"}).to_string());
        let reply = h.next_message(WAIT).expect("an answer to the ping");
        assert_eq!(reply["id"], "w", "{reply}");
        if reply.get("result").is_some() {
            free = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(free, "the cancelled call never ended");
    // Past the upstream's delay, still nothing for the cancelled request, and no retry.
    std::thread::sleep(Duration::from_secs(4));
    if let Some(message) = h.next_message(Duration::from_millis(100)) {
        panic!("a message after the cancellation was applied: {message}");
    }
    let posts = fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST")
        .count();
    assert_eq!(posts, 1, "the cancelled write was not repeated");
    let log = h.stderr();
    let line = log
        .lines()
        .find(|l| {
            l.contains("call write_request_create [") && l.contains("cancelled by the client")
        })
        .unwrap_or_else(|| panic!("no log line for the cancelled write:\n{log}"));
    assert!(line.contains("outcome is unknown"), "{line}");
}
