//! MCP over real stdio pipes: the handshake at each supported protocol version (and an unknown
//! one), the capability and server info, tools/list, ping, protocol errors that leave the server
//! serving, and concurrency (a slow upstream does not hold up ping or tools/list).

use std::time::{Duration, Instant};

use media_mcp_fakes::Reply;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_tests::{Env, Harness, assert_no_secret, canary_key};
use serde_json::{Value, json};

const NEWEST: &str = "2025-11-25";

fn started() -> (FakeOmbi, String, Harness) {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let harness = Harness::serve_initialized(&Env::ombi(&fake, &key), NEWEST);
    (fake, key, harness)
}

#[test]
fn initialize_echoes_each_supported_version_and_answers_the_newest_otherwise() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    for (asked, expected) in [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        // A modern version has no `initialize`: the newest legacy one is answered.
        ("2026-07-28", NEWEST),
        ("1999-01-01", NEWEST),
    ] {
        let mut h = Harness::spawn(&["serve"], &Env::ombi(&fake, &key));
        let result = h.initialize(asked);
        assert_eq!(
            result["protocolVersion"], expected,
            "asked {asked}: {result}"
        );
        assert_eq!(
            result["capabilities"],
            media_mcp_apps::server_capabilities(),
            "tools, resources, prompts and the ui extension, no listChanged"
        );
        assert_eq!(result["serverInfo"]["name"], "media-mcp");
        assert!(
            result["serverInfo"]["version"]
                .as_str()
                .is_some_and(|v| !v.is_empty())
        );
        // The session works at the negotiated version.
        assert_eq!(h.rpc("ping", Value::Null)["result"], json!({}));
        let done = h.finish();
        assert!(done.status.success(), "{}", done.stderr);
        assert_no_secret(&done.stderr, &key, "stderr");
    }
}

#[test]
fn tools_list_publishes_the_component_catalogue() {
    let (_fake, key, mut h) = started();
    let response = h.rpc("tools/list", json!({}));
    let tools = response["result"]["tools"]
        .as_array()
        .expect("a tools array")
        .clone();
    assert!(response["result"].get("nextCursor").is_none());
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"read_search"), "{names:?}");
    for tool in &tools {
        assert_eq!(tool["inputSchema"]["type"], "object", "{}", tool["name"]);
        assert!(tool["outputSchema"].is_object(), "{}", tool["name"]);
        assert!(tool["annotations"].is_object(), "{}", tool["name"]);
        assert!(tool["description"].as_str().is_some_and(|d| !d.is_empty()));
    }
    assert_no_secret(&h.stdout(), &key, "stdout");
}

#[test]
fn without_ombi_url_no_ombi_tools_are_listed() {
    let mut h = Harness::serve_initialized(&Env::new(), NEWEST);
    let response = h.rpc("tools/list", json!({}));
    let tools = response["result"]["tools"].as_array().unwrap();
    assert!(
        tools
            .iter()
            .all(|t| !t["name"].as_str().unwrap_or_default().starts_with("read_")),
        "{tools:?}"
    );
}

#[test]
fn ping_before_and_after_initialize() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::spawn(&["serve"], &Env::ombi(&fake, &key));
    assert_eq!(h.rpc("ping", Value::Null)["result"], json!({}));
    h.initialize(NEWEST);
    assert_eq!(h.rpc("ping", Value::Null)["result"], json!({}));
}

#[test]
fn unknown_tool_is_invalid_params() {
    let (_fake, _key, mut h) = started();
    let response = h.call_tool("no_such_tool", json!({}));
    assert_eq!(response["error"]["code"], -32602, "{response}");
}

#[test]
fn malformed_json_gets_a_parse_error_and_the_server_keeps_serving() {
    let (_fake, _key, mut h) = started();
    h.send_line("{this is not json");
    let error = h
        .next_message(Duration::from_secs(10))
        .expect("an answer to the malformed line");
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(error["id"], Value::Null);
    // Well-formed JSON that is not a JSON-RPC message: invalid request.
    h.send_line(r#"{"hello": "world"}"#);
    let error = h
        .next_message(Duration::from_secs(10))
        .expect("an answer to the non-message");
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert_eq!(h.rpc("ping", Value::Null)["result"], json!({}));
    assert!(h.rpc("tools/list", json!({}))["result"]["tools"].is_array());
}

#[test]
fn stdout_carries_only_json_rpc_messages() {
    let (_fake, _key, mut h) = started();
    h.rpc("tools/list", json!({}));
    h.call_tool("read_search", json!({"query": "matrix", "media": "movie"}));
    h.call_tool("read_search", json!({"query": 5}));
    let done = h.finish();
    assert!(done.status.success());
    for line in done.stdout.lines() {
        let message: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("not JSON on stdout ({e}): {line}"));
        assert_eq!(message["jsonrpc"], "2.0", "{line}");
    }
    assert!(
        done.stderr.contains("media-mcp info:"),
        "logs go to stderr: {}",
        done.stderr
    );
    assert!(!done.stderr.contains('\u{1b}'), "no ANSI escapes in logs");
}

#[test]
fn a_slow_upstream_does_not_block_ping_or_tools_list() {
    let (fake, _key, mut h) = started();
    let delay = Duration::from_secs(3);
    fake.set_override(
        "GET",
        "/api/v1/Search/movie/{searchTerm}",
        Reply::json(200, "[]").with_delay(delay),
    );
    let started = Instant::now();
    let slow = h.request(
        "tools/call",
        json!({"name": "read_search", "arguments": {"query": "matrix", "media": "movie"}}),
    );
    std::thread::sleep(Duration::from_millis(200)); // the call is now parked on the upstream
    let ping = h.request("ping", Value::Null);
    let list = h.request("tools/list", json!({}));
    assert_eq!(h.response(ping)["result"], json!({}));
    assert!(h.response(list)["result"]["tools"].is_array());
    let quick = started.elapsed();
    assert!(
        quick < delay,
        "ping and tools/list waited for the slow call ({quick:?})"
    );
    let response = h.response(slow);
    assert!(started.elapsed() >= delay);
    assert_eq!(response["result"]["isError"], false, "{response}");
}

/// Calls overlap on `serve`'s one worker thread (the default) as on one per CPU core.
#[test]
fn concurrent_calls_run_in_parallel() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let delay = Duration::from_millis(1500);
    fake.set_override(
        "GET",
        "/api/v1/Search/movie/{searchTerm}",
        Reply::json(200, "[]").with_delay(delay),
    );
    for threads in [None, Some("0")] {
        let env = Env::ombi(&fake, &key);
        let env = match threads {
            Some(n) => env.set("MEDIA_MCP_WORKER_THREADS", n),
            None => env,
        };
        let mut h = Harness::serve_initialized(&env, NEWEST);
        let started = Instant::now();
        let ids: Vec<u64> = (0..6)
            .map(|i| h.request("tools/call", json!({"name": "read_search", "arguments": {"query": format!("q{i}"), "media": "movie"}})))
            .collect();
        for id in ids {
            assert_eq!(h.response(id)["result"]["isError"], false, "{threads:?}");
        }
        let elapsed = started.elapsed();
        assert!(
            elapsed < delay * 3,
            "{threads:?} threads: 6 calls of {delay:?} took {elapsed:?}: not concurrent"
        );
    }
}

/// Sends `line`, then a ping with id `after`; returns every message up to the ping's answer
/// (waiting a little longer when `expect` has not shown up yet).
fn exchange(h: &mut Harness, line: &str, after: &str, expect: Option<&Value>) -> Vec<Value> {
    h.send_line(line);
    h.send_line(&json!({"jsonrpc": "2.0", "id": after, "method": "ping"}).to_string());
    let mut seen = Vec::new();
    let mut pinged = false;
    loop {
        let wait = if pinged {
            Duration::from_secs(2)
        } else {
            Duration::from_secs(60)
        };
        let Some(message) = h.next_message(wait) else {
            assert!(pinged, "no answer to the ping after {after}");
            return seen;
        };
        if message["id"] == json!(after) {
            assert_eq!(message["result"], json!({}), "{after}: {message}");
            pinged = true;
        } else {
            seen.push(message);
        }
        let found = expect.is_none_or(|e| {
            seen.iter()
                .any(|m| m["id"] == e["id"] && m["error"]["code"] == e["code"])
        });
        if pinged && (found || expect.is_none()) {
            if expect.is_none() {
                // Nothing may arrive for a message that gets no answer.
                if let Some(extra) = h.next_message(Duration::from_millis(300)) {
                    seen.push(extra);
                }
            }
            return seen;
        }
    }
}

/// What is sent, the line, and the expected error's id and code (`None`: no answer at all).
type Case = (&'static str, String, Option<(Value, i64)>);

#[test]
fn hostile_json_rpc_gets_the_right_error_and_the_server_keeps_serving() {
    let (_fake, key, mut h) = started();
    let huge = "x".repeat(17 << 20);
    let huge_request = json!({"jsonrpc": "2.0", "id": 99, "method": "ping", "params": {"pad": "y".repeat(17 << 20)}}).to_string();
    let just_over = json!({"jsonrpc": "2.0", "id": 98, "method": "ping", "params": {"pad": "y".repeat(1 << 20)}}).to_string();
    let many_values =
        json!({"jsonrpc": "2.0", "id": 97, "method": "ping", "params": {"pad": vec![0; 10_001]}})
            .to_string();
    let cases: Vec<Case> = vec![
        ("garbage", "\u{1}\u{2}garbage".into(), Some((Value::Null, -32700))),
        ("text that is not JSON", "caf\u{e9} {".into(), Some((Value::Null, -32700))),
        ("empty batch", "[]".into(), Some((Value::Null, -32600))),
        (
            "batch",
            r#"[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]"#.into(),
            Some((Value::Null, -32600)),
        ),
        ("a bare number", "42".into(), Some((Value::Null, -32600))),
        ("wrong jsonrpc version", r#"{"jsonrpc":"1.0","id":4,"method":"ping"}"#.into(), Some((Value::Null, -32600))),
        ("id of the wrong type", r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#.into(), Some((Value::Null, -32600))),
        ("method of the wrong type", r#"{"jsonrpc":"2.0","id":6,"method":5}"#.into(), Some((Value::Null, -32600))),
        ("tools/call params of the wrong type", r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":"x"}"#.into(), Some((json!(5), -32602))),
        ("tool name of the wrong type", r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":5}}"#.into(), Some((json!(11), -32602))),
        ("arguments of the wrong type", r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"read_search","arguments":"x"}}"#.into(), Some((json!(10), -32602))),
        ("unknown method", r#"{"jsonrpc":"2.0","id":8,"method":"no/such"}"#.into(), Some((json!(8), -32601))),
        ("a notification sent with an id", r#"{"jsonrpc":"2.0","id":7,"method":"notifications/initialized"}"#.into(), Some((json!(7), -32601))),
        ("a request without an id (a notification)", r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"read_search","arguments":{"query":"x"}}}"#.into(), None),
        ("a response from the client", r#"{"jsonrpc":"2.0","id":12,"result":{}}"#.into(), None),
        ("a notification the server cannot read", r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":"x"}}"#.into(), None),
        ("a line of 17 MiB", huge, Some((Value::Null, -32600))),
        ("a request of 17 MiB", huge_request, Some((Value::Null, -32600))),
        ("a request just over the 1 MiB cap", just_over, Some((Value::Null, -32600))),
        ("more JSON values than one message may hold", many_values, Some((Value::Null, -32600))),
        ("a duplicate id member", r#"{"jsonrpc":"2.0","id":14,"id":15,"method":"ping"}"#.into(), Some((Value::Null, -32600))),
        ("duplicate name keys in tools/call params", r#"{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"read_search","name":"read_requests","arguments":{}}}"#.into(), Some((json!(13), -32602))),
        ("duplicate keys in a notification", r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":{"a":1,"a":2}}"#.into(), None),
    ];
    for (i, (what, line, expect)) in cases.into_iter().enumerate() {
        let expect = expect.map(|(id, code)| json!({"id": id, "code": code}));
        let seen = exchange(&mut h, &line, &format!("after-{i}"), expect.as_ref());
        for message in &seen {
            assert_eq!(message["jsonrpc"], "2.0", "{what}: {message}");
            if message.get("error").is_some() {
                assert!(
                    message.get("id").is_some(),
                    "{what}: an error without an id: {message}"
                );
            }
        }
        match &expect {
            Some(e) => {
                let hits = seen
                    .iter()
                    .filter(|m| m["id"] == e["id"] && m["error"]["code"] == e["code"])
                    .count();
                assert_eq!(hits, 1, "{what}: want one {e}, got {seen:?}");
                assert_eq!(seen.len(), 1, "{what}: extra messages {seen:?}");
            }
            None => assert!(seen.is_empty(), "{what}: answered {seen:?}"),
        }
    }
    // Still serving real work.
    let response = h.call_tool("read_search", json!({"query": "matrix", "media": "movie"}));
    assert_eq!(response["result"]["isError"], false, "{response}");
    let done = h.finish();
    assert!(done.status.success(), "{}", done.stderr);
    assert_no_secret(&done.stderr, &key, "stderr");
}

#[test]
fn protocol_errors_name_the_problem_and_echo_only_a_bounded_part_of_the_input() {
    let (_fake, _key, mut h) = started();
    let twice = r#"{"jsonrpc":"2.0","id":"dup","method":"tools/call","params":{"name":"read_search","arguments":{"query":"a"},"name":"read_requests"}}"#;
    h.send_line(twice);
    let answer = h.next_message(Duration::from_secs(10)).expect("an answer");
    assert_eq!(answer["id"], "dup", "{answer}");
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("\"name\"") && message.contains("twice") && message.contains("params"),
        "{message}"
    );
    // Names of 512 KiB: the answers quote a bounded prefix.
    let long = "n".repeat(512 << 10);
    let unknown_tool = h.call_tool(&long, json!({}));
    assert_eq!(unknown_tool["error"]["code"], -32602, "{unknown_tool:.300}");
    let unknown_method = h.rpc(&long, json!({}));
    assert_eq!(
        unknown_method["error"]["code"], -32601,
        "{unknown_method:.300}"
    );
    for answer in [unknown_tool, unknown_method] {
        let line = answer.to_string();
        assert!(
            line.len() < 512,
            "an echo of {} bytes: {line:.300}",
            line.len()
        );
        assert!(line.contains("nnnn"), "a prefix is quoted: {line}");
    }
}

#[test]
fn a_request_id_reused_while_in_flight_is_refused_and_the_first_call_answered() {
    let (fake, _key, mut h) = started();
    fake.set_override(
        "GET",
        "/api/v1/Search/movie/{searchTerm}",
        Reply::json(200, "[]").with_delay(Duration::from_secs(2)),
    );
    let call = json!({"jsonrpc": "2.0", "id": "same", "method": "tools/call",
        "params": {"name": "read_search", "arguments": {"query": "matrix", "media": "movie"}}})
    .to_string();
    h.send_line(&call);
    h.send_line(&call);
    let first = h.next_message(RESPONSE_WAIT).expect("an answer");
    assert_eq!(first["id"], "same", "{first}");
    assert_eq!(
        first["error"]["code"], -32600,
        "the duplicate is refused first: {first}"
    );
    assert!(
        first["error"]["message"]
            .as_str()
            .unwrap()
            .contains("in progress"),
        "{first}"
    );
    let second = h.next_message(RESPONSE_WAIT).expect("the call's answer");
    assert_eq!(second["id"], "same", "{second}");
    assert_eq!(second["result"]["isError"], false, "{second}");
    assert_eq!(fake.requests().len(), 1, "the duplicate was never run");
    // Once answered, the id may be used again.
    fake.clear_overrides();
    h.send_line(&call);
    let again = h.next_message(RESPONSE_WAIT).expect("an answer");
    assert_eq!(again["result"]["isError"], false, "{again}");
    assert!(h.next_message(Duration::from_millis(300)).is_none());
}

const RESPONSE_WAIT: Duration = Duration::from_secs(30);

/// Resident set and its peak since the last reset, in KiB.
fn memory_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{name} in /proc/{pid}/status"))
    };
    (field("VmRSS:"), field("VmHWM:"))
}

#[test]
fn one_message_costs_at_most_its_stated_memory_bound() {
    let cap = host_harness::stdio::MAX_LINE_BYTES;
    let values = host_harness::stdio::MAX_MESSAGE_VALUES;
    let ping =
        |params: Value| json!({"jsonrpc": "2.0", "id": "m", "method": "ping", "params": params});
    // Each at the limits: as many bytes or values as one message may hold, or past them.
    let zeros = format!(
        r#"{{"jsonrpc":"2.0","id":"m","method":"ping","params":{{"pad":[{}0]}}}}"#,
        "0,".repeat((cap - 100) / 2)
    );
    let cases: Vec<(&str, String)> = vec![
        ("a line of zeros at the byte cap", zeros),
        ("the most values a message may hold", ping(json!({"pad": vec![json!({}); values - 5]})).to_string()),
        (
            "the most values, filling the byte cap",
            ping(json!({"pad": vec!["v".repeat(cap / values - 4); values - 5]})).to_string(),
        ),
        ("a string at the byte cap", ping(json!({"pad": "x".repeat(cap - 100)})).to_string()),
        (
            "a tools/call with an argument at the byte cap",
            json!({"jsonrpc": "2.0", "id": "m", "method": "tools/call", "params": {"name": "read_search",
                "arguments": {"query": "q".repeat(cap - 200), "media": "movie"}}})
            .to_string(),
        ),
    ];
    for (what, line) in cases {
        assert!(line.len() <= cap, "{what}: {} bytes", line.len());
        // A fresh harness each time, so memory freed by an earlier case cannot hide a cost.
        let (_fake, _key, mut h) = started();
        h.rpc("tools/list", json!({}));
        let pid = h.pid();
        std::fs::write(format!("/proc/{pid}/clear_refs"), "5").expect("resetting the peak RSS");
        let (before, _) = memory_kib(pid);
        h.send_line(&line);
        let answer = h.next_message(RESPONSE_WAIT).expect("an answer");
        assert!(answer.get("id").is_some(), "{what}: {answer:.300}");
        let (_, peak) = memory_kib(pid);
        let grew_mib = peak.saturating_sub(before) as f64 / 1024.0;
        eprintln!("{what}: peak {grew_mib:.1} MiB over the resident set before it");
        assert!(
            grew_mib <= host_harness::stdio::MAX_MESSAGE_MIB as f64,
            "{what}: the harness grew by {grew_mib:.1} MiB"
        );
        assert_eq!(h.rpc("ping", Value::Null)["result"], json!({}));
    }
}
