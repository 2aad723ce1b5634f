//! A bounded soak: many calls with 32 in flight against a loopback Ombi that answers each
//! distinct request with a fault picked by a hash of it (resets, stalls past the deadline,
//! 429/500, HTML, invalid JSON, lying lengths, redirects...) or a good answer.
//!
//! Checked: every call is answered exactly once (no lost, duplicated or stray responses),
//! every answer equals the answer the same call got when run alone (so concurrency changes
//! nothing), the harness's resident memory shows no trend (read from `/proc/<pid>/status`),
//! and the harness still answers afterwards.
//!
//! Size: `MEDIA_MCP_SOAK_CALLS` (default 2,000, what CI runs) and `MEDIA_MCP_SOAK_IN_FLIGHT`
//! (default 32). The full run is
//! `MEDIA_MCP_SOAK_CALLS=10000 cargo test --release -p media-mcp-tests --test it soak -- --nocapture`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use media_mcp_fakes::fixture;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_fakes::{Fault, Reply};
use media_mcp_tests::{Env, Harness, canary_key};
use serde_json::{Value, json};

const SEARCH: &str = "/api/v1/Search/movie/{searchTerm}";
const ISSUE_STATUS: &str = "/api/v1/Issues/status";
/// Distinct calls: each gets one fixed reply from the hash of its request.
const DISTINCT_READS: usize = 61;
const DISTINCT_WRITES: usize = 29;

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Good answers outnumber faults about one to two; slow faults are a small share, so a run
/// stays short.
fn mix(good: Reply) -> Reply {
    let faults = [
        Fault::Slow(Duration::from_secs(6)),
        Fault::ResetBeforeHeaders,
        Fault::ResetAfterHeaders,
        Fault::RateLimited(Some(2)),
        Fault::OmbiError500,
        Fault::ProblemDetailsLeak,
        Fault::HtmlPage,
        Fault::NoContent,
        Fault::InvalidJson,
        Fault::WrongShape,
        Fault::Truncated,
        Fault::Oversized { declared: true },
        Fault::LengthLongerThanBody,
        Fault::LengthShorterThanBody,
        Fault::Redirect("http://127.0.0.1:9/elsewhere".into()),
        Fault::Gzip,
        Fault::NonUtf8,
    ];
    let mut replies: Vec<Reply> = faults.iter().map(Fault::reply).collect();
    replies.extend(std::iter::repeat_n(good, 8));
    Reply::PerRequest(replies)
}

/// The `i`-th call: alternately a read and a write, cycling through the distinct calls.
fn call(i: usize) -> (String, Value) {
    if i.is_multiple_of(2) {
        let q = (i / 2) % DISTINCT_READS;
        (
            "read_search".into(),
            json!({"query": format!("soak {q}"), "media": "movie"}),
        )
    } else {
        let issue = (i / 2) % DISTINCT_WRITES + 1;
        (
            "write_issue_status".into(),
            json!({"issue_id": issue, "status": "resolved"}),
        )
    }
}

/// The envelope without its per-call correlation id.
fn comparable(response: &Value) -> Value {
    let mut envelope = response["result"]["structuredContent"].clone();
    if let Some(o) = envelope.as_object_mut() {
        o.remove("correlation_id");
    }
    envelope
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

#[test]
fn a_soak_with_random_faults_answers_every_call_once_and_like_a_sequential_run() {
    let calls = setting("MEDIA_MCP_SOAK_CALLS", 2000);
    let in_flight = setting("MEDIA_MCP_SOAK_IN_FLIGHT", 32).max(1);
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let search_fixture = fixture("v1-search-movie-term.json").expect("search fixture");
    fake.set_override("GET", SEARCH, mix(Reply::json(200, search_fixture)));
    fake.set_override("POST", ISSUE_STATUS, mix(Reply::json(200, "true")));
    let env = Env::ombi(&fake, &key)
        // Roomy: a good answer must never miss it on a loaded 2-core CI machine, or the answer
        // under load would differ from the answer alone.
        .set("MEDIA_MCP_CALL_DEADLINE_MS", "3000")
        .set("MEDIA_MCP_LOG", "warn");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");

    // Each distinct call alone first: the reference answers.
    let mut reference: HashMap<String, Value> = HashMap::new();
    for i in 0..(2 * DISTINCT_READS.max(DISTINCT_WRITES)) {
        let (name, args) = call(i);
        let key_of = format!("{name} {args}");
        if reference.contains_key(&key_of) {
            continue;
        }
        let response = h.call_tool(&name, args);
        reference.insert(key_of, comparable(&response));
    }
    let codes: std::collections::BTreeSet<String> = reference
        .values()
        .map(|e| e["error"]["code"].as_str().unwrap_or("ok").to_owned())
        .collect();
    assert!(
        codes.len() >= 5,
        "the faults spread over few outcomes: {codes:?}"
    );

    let pid = h.pid();
    let started = Instant::now();
    let mut pending: HashMap<u64, String> = HashMap::new();
    let mut answers: HashMap<u64, usize> = HashMap::new();
    let mut rss = Vec::new();
    let mut next = 0;
    let mut done = 0;
    while done < calls {
        while next < calls && pending.len() < in_flight {
            let (name, args) = call(next);
            let key_of = format!("{name} {args}");
            let id = h.request("tools/call", json!({"name": name, "arguments": args}));
            pending.insert(id, key_of);
            next += 1;
        }
        let message = h
            .next_message(Duration::from_secs(60))
            .unwrap_or_else(|| panic!("no answer within 60 s; {} pending", pending.len()));
        let id = message["id"]
            .as_u64()
            .unwrap_or_else(|| panic!("a message without a numeric id: {message}"));
        *answers.entry(id).or_default() += 1;
        let key_of = pending.remove(&id).unwrap_or_else(|| {
            panic!("an answer to no pending call (duplicate or stray): {message}")
        });
        assert_eq!(
            comparable(&message),
            reference[&key_of],
            "{key_of}: the answer under load differs from the answer alone"
        );
        done += 1;
        if done.is_multiple_of((calls / 10).max(1)) {
            rss.push(rss_kib(pid));
        }
    }
    // Nothing else arrives: no call was answered twice.
    assert!(h.next_message(Duration::from_millis(500)).is_none());
    assert!(answers.values().all(|n| *n == 1));
    assert_eq!(answers.len(), calls);
    let elapsed = started.elapsed();
    assert_eq!(h.rpc("ping", Value::Null)["result"], json!({}));

    // No trend: after the first tenth (warm-up: caches, pools, allocator arenas), the resident
    // size may wobble but not climb with the number of calls.
    let warm = rss.iter().skip(1).take(2).copied().max().unwrap_or(0);
    let last = rss.last().copied().unwrap_or(0);
    eprintln!(
        "soak: {calls} calls, {in_flight} in flight, {:.1} s, {:.0} calls/s; RSS KiB at each tenth: {rss:?}",
        elapsed.as_secs_f64(),
        calls as f64 / elapsed.as_secs_f64()
    );
    assert!(
        last <= warm + warm / 4 + 32 * 1024,
        "resident memory grew from {warm} KiB to {last} KiB: {rss:?}"
    );
}
