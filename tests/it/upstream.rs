//! Upstream connections: pooled per origin and reused across calls (a fake counting the
//! connections it accepts), replaced when the upstream closed them, never used to re-send a
//! write; and HTTPS with a private CA trusted per origin (`OMBI_CA_FILE`,
//! `MOVIEPILOT_CA_FILE`), refused with the certificate problem named when the CA is not
//! trusted.

use std::path::PathBuf;
use std::time::Duration;

use media_mcp_fakes::moviepilot::FakeMoviePilot;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_fakes::{Fault, TestCa};
use media_mcp_tests::{Env, Harness, assert_no_secret, canary_key, fresh_dir, run_cli, structured};
use serde_json::{Value, json};

const ISSUE_STATUS: &str = "/api/v1/Issues/status";

fn search(h: &mut Harness) -> Value {
    structured(&h.call_tool("read_search", json!({"query": "matrix", "media": "movie"}))).clone()
}

/// Writes `ca`'s certificate to a fresh PEM file.
fn ca_file(ca: &TestCa) -> PathBuf {
    let path = fresh_dir("ca").join("ca.pem");
    std::fs::write(&path, ca.ca_pem()).unwrap();
    path
}

#[test]
fn sequential_calls_share_one_connection() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    for n in 0..5 {
        let s = search(&mut h);
        assert_eq!(s["ok"], true, "call {n}: {s}");
    }
    assert!(fake.requests().len() >= 5);
    assert_eq!(fake.connections_accepted(), 1, "five calls, one connection");
}

#[test]
fn without_reuse_every_request_opens_a_connection() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let env = Env::ombi(&fake, &key).set("MEDIA_MCP_UPSTREAM_MAX_IDLE", "0");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    for _ in 0..3 {
        assert_eq!(search(&mut h)["ok"], true);
    }
    assert_eq!(fake.connections_accepted(), fake.requests().len());
}

#[test]
fn a_connection_the_upstream_closed_while_idle_is_replaced_without_an_error() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    assert_eq!(search(&mut h)["ok"], true);
    assert_eq!(fake.connections_accepted(), 1);
    for round in 2..=4 {
        fake.close_idle_connections();
        // The close reaches the harness's side of the socket.
        std::thread::sleep(Duration::from_millis(100));
        let s = search(&mut h);
        assert_eq!(s["ok"], true, "after close {round}: {s}");
        assert_eq!(fake.connections_accepted(), round);
    }
}

#[test]
fn a_write_whose_pooled_connection_dies_after_sending_is_an_unknown_outcome_sent_once() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    assert_eq!(search(&mut h)["ok"], true);
    fake.clear_requests();
    fake.set_fault("POST", ISSUE_STATUS, &Fault::ResetBeforeHeaders);
    let s = structured(&h.call_tool(
        "write_issue_status",
        json!({"issue_id": 6, "status": "in_progress"}),
    ))
    .clone();
    assert_eq!(s["error"]["code"], "UNKNOWN_OUTCOME", "{s}");
    assert_eq!(s["error"]["retryable"], false, "{s}");
    let posts = fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST")
        .count();
    assert_eq!(
        posts, 1,
        "the write reached the fake once and was not re-sent"
    );
    assert_eq!(
        fake.connections_accepted(),
        1,
        "the write went over the pooled connection of the read before it"
    );
    fake.clear_overrides();
    assert_eq!(
        search(&mut h)["ok"],
        true,
        "a new connection serves the next call"
    );
}

#[test]
fn a_private_ca_in_ombi_ca_file_is_trusted_and_its_connection_reused() {
    let key = canary_key();
    let ca = TestCa::new("media-mcp test CA");
    let fake = FakeOmbi::builder(&key).tls(&ca).start().unwrap();
    assert!(fake.url().starts_with("https://"));
    let env = Env::ombi(&fake, &key).set("OMBI_CA_FILE", ca_file(&ca).to_str().unwrap());
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    for _ in 0..3 {
        let s = search(&mut h);
        assert_eq!(s["ok"], true, "{s}");
    }
    assert_eq!(fake.connections_accepted(), 1);
    assert_eq!(fake.requests()[0].api_key.as_deref(), Some(key.as_str()));
}

#[test]
fn another_ca_is_refused_naming_the_certificate_problem_and_the_key_is_never_sent() {
    let key = canary_key();
    let served = TestCa::new("the upstream's CA");
    let trusted = TestCa::new("some other CA");
    let fake = FakeOmbi::builder(&key).tls(&served).start().unwrap();
    let env = Env::ombi(&fake, &key).set("OMBI_CA_FILE", ca_file(&trusted).to_str().unwrap());
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let s = search(&mut h);
    assert_eq!(s["ok"], false, "{s}");
    assert_eq!(s["error"]["code"], "UPSTREAM_REJECTED", "{s}");
    let message = s["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("certificate not trusted: UnknownIssuer")
            && message.contains("OMBI_CA_FILE"),
        "{message}"
    );
    assert!(fake.connections_accepted() >= 1, "the handshake was tried");
    assert!(fake.requests().is_empty(), "no request got through");
    let done = h.finish();
    assert_no_secret(&done.stdout, &key, "stdout");
    assert_no_secret(&done.stderr, &key, "stderr");
}

#[test]
fn moviepilot_ca_file_is_not_trusted_for_the_ombi_origin() {
    let key = canary_key();
    let ca = TestCa::new("MoviePilot's private CA");
    let ombi = FakeOmbi::builder(&key).tls(&ca).start().unwrap();
    let moviepilot = FakeMoviePilot::builder().tls(&ca).start();
    let file = ca_file(&ca);
    let env = Env::ombi(&ombi, &key)
        .set("MOVIEPILOT_URL", &moviepilot.mcp_url())
        .set("MOVIEPILOT_API_KEY", moviepilot.key())
        .set("MOVIEPILOT_CA_FILE", file.to_str().unwrap());
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let s = structured(&h.call_tool("search_media", json!({"title": "盗梦空间"}))).clone();
    assert_eq!(s["ok"], true, "MoviePilot trusts its CA: {s}");
    let s = search(&mut h);
    assert_eq!(s["ok"], false, "{s}");
    assert!(
        s["error"]["message"]
            .as_str()
            .unwrap()
            .contains("certificate not trusted: UnknownIssuer"),
        "{s}"
    );
    assert!(ombi.requests().is_empty());
}

#[test]
fn an_unusable_ca_file_stops_the_start_naming_the_variable() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let empty = fresh_dir("ca").join("empty.pem");
    std::fs::write(&empty, "no certificate here\n").unwrap();
    let missing = fresh_dir("ca").join("missing.pem");
    for (path, says) in [
        (&empty, "holds no certificate"),
        (&missing, "cannot be read"),
    ] {
        let env = Env::ombi(&fake, &key).set("OMBI_CA_FILE", path.to_str().unwrap());
        let out = run_cli(&["tools"], &env);
        assert_eq!(out.status.code(), Some(2), "{}", out.stderr);
        assert!(
            out.stderr.contains("OMBI_CA_FILE") && out.stderr.contains(says),
            "{}",
            out.stderr
        );
    }
}
