//! `serve --http` facing the internet: descriptor exhaustion, stalled and unauthenticated
//! requests, proxy tokens and the header refusals, against the release harness serving
//! `target/media_mcp_http.wasm` and the fake Ombi, over raw HTTP/1.1 on loopback.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::time::Duration;

use media_mcp_fakes::Fault;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_tests::{
    Env, HttpServer, exchange, exchange_after, fresh_dir, harness_binary, post, random_hex, run_cli,
};
use serde_json::{Value, json};

const ALICE: &str = "alice-token-0123456789abcdef";
const BOB: &str = "bob-token-0123456789abcdef01";
const PROXY: &str = "proxy-token-0123456789abcdef";

/// `media-mcp serve --http` against `fake`, with the tokens of alice and bob.
struct Server;

impl Server {
    /// Starts the harness against `fake`, with `nofile` as its descriptor limit (soft and
    /// hard) when given, and `extra` variables.
    fn start(
        fake: &FakeOmbi,
        key: &str,
        nofile: Option<u32>,
        extra: &[(&str, &str)],
    ) -> HttpServer {
        Server::start_as(&harness_binary(), "127.0.0.1:0", fake, key, nofile, extra)
    }

    /// [`Server::start`] running `binary` on `listen`.
    fn start_as(
        binary: &std::path::Path,
        listen: &str,
        fake: &FakeOmbi,
        key: &str,
        nofile: Option<u32>,
        extra: &[(&str, &str)],
    ) -> HttpServer {
        let url = fake.url();
        let tokens = format!("alice={ALICE},bob={BOB}");
        let mut env = vec![
            ("OMBI_URL", url.as_str()),
            ("OMBI_API_KEY", key),
            ("MEDIA_MCP_HTTP_TOKENS", tokens.as_str()),
        ];
        env.extend_from_slice(extra);
        HttpServer::start_as(binary, listen, &env, nofile)
    }
}

fn ping(addr: SocketAddr) -> (u16, String) {
    let (status, _, body) = post(
        addr,
        &[&format!("Authorization: Bearer {ALICE}")],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
    );
    (status, body)
}

fn fake() -> (FakeOmbi, String) {
    let key = random_hex();
    (FakeOmbi::start(&key).unwrap(), key)
}

#[test]
fn the_server_keeps_serving_when_idle_connections_exceed_its_descriptor_limit() {
    let (fake, key) = fake();
    let mut server = Server::start(&fake, &key, Some(256), &[]);
    let mut idle = Vec::new();
    for _ in 0..1100 {
        if let Ok(s) = TcpStream::connect_timeout(&server.addr, Duration::from_millis(500)) {
            idle.push(s);
        }
    }
    assert!(
        idle.len() > 256,
        "only {} connections were opened",
        idle.len()
    );
    let (status, body) = ping(server.addr);
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["result"],
        json!({})
    );
    assert!(server.alive(), "the harness exited");
    drop(idle);
    assert_eq!(ping(server.addr).0, 200);
}

#[test]
fn the_first_request_after_a_quiet_spell_longer_than_the_idle_timeout_is_answered() {
    let (fake, key) = fake();
    let server = Server::start(
        &fake,
        &key,
        None,
        &[("MEDIA_MCP_HTTP_IDLE_TIMEOUT_SECS", "1")],
    );
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer {ALICE}\r\nContent-Length: {}",
        server.addr,
        body.len()
    );
    // No connection at all for longer than the idle timeout, then a client that sends its
    // request a moment after connecting (as after a TLS handshake or a browser's preconnect).
    for quiet in [Duration::from_millis(1500), Duration::from_millis(2500)] {
        std::thread::sleep(quiet);
        let (status, _, answer) =
            exchange_after(server.addr, Duration::from_millis(300), &head, &body);
        assert_eq!(
            status, 200,
            "after {quiet:?} without connections: {answer:?}"
        );
    }
}

/// A ping with keep-alive, as raw bytes.
fn keep_alive_ping(addr: SocketAddr) -> String {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string();
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer {ALICE}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Reads one answer's status line and headers and its `Content-Length` body from `stream`;
/// `None` when the connection ends before one byte of it.
fn read_one_answer(stream: &mut BufReader<TcpStream>) -> Option<String> {
    let mut status = String::new();
    if stream.read_line(&mut status).unwrap_or(0) == 0 {
        return None;
    }
    let mut length = 0;
    loop {
        let mut line = String::new();
        stream.read_line(&mut line).unwrap();
        if line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    stream.read_exact(&mut body).unwrap();
    Some(status)
}

#[test]
fn a_kept_alive_connection_waits_the_idle_timeout_and_slow_headers_the_header_timeout() {
    let (fake, key) = fake();
    let server = Server::start(
        &fake,
        &key,
        None,
        &[
            ("MEDIA_MCP_HTTP_IDLE_TIMEOUT_SECS", "4"),
            ("MEDIA_MCP_HTTP_HEADER_TIMEOUT_SECS", "1"),
        ],
    );
    let stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut kept = BufReader::new(stream);
    for pause in [Duration::ZERO, Duration::from_millis(2500)] {
        // Longer than the header timeout but within the idle one: the same connection answers.
        std::thread::sleep(pause);
        kept.get_mut()
            .write_all(keep_alive_ping(server.addr).as_bytes())
            .unwrap();
        let status = read_one_answer(&mut kept);
        assert!(
            status.as_deref().is_some_and(|s| s.contains(" 200 ")),
            "after {pause:?} on a kept-alive connection: {status:?}"
        );
    }
    // Past the idle timeout it is closed cleanly: not one byte of an answer.
    let closed_after = std::time::Instant::now();
    assert_eq!(read_one_answer(&mut kept), None);
    assert!(closed_after.elapsed() >= Duration::from_secs(3));
    // A request whose headers stop half-way is closed by the header timeout, well before the
    // idle timeout would close it.
    let mut slow = TcpStream::connect(server.addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let started = std::time::Instant::now();
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let mut rest = Vec::new();
    let _ = slow.read_to_end(&mut rest);
    assert!(rest.is_empty(), "{}", String::from_utf8_lossy(&rest));
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(4),
        "closed after {took:?}"
    );
}

#[test]
fn stalled_bodies_and_unauthenticated_requests_hold_no_slot() {
    let (fake, key) = fake();
    let server = Server::start(
        &fake,
        &key,
        None,
        &[
            ("MEDIA_MCP_HTTP_MAX_IN_FLIGHT", "4"),
            ("MEDIA_MCP_CALL_DEADLINE_MS", "5000"),
            ("MEDIA_MCP_CALL_TIMEOUT_SECS", "8"),
        ],
    );
    let mut stalled = Vec::new();
    for i in 0..300 {
        let mut s = TcpStream::connect(server.addr).unwrap();
        // Authenticated and not: the body never arrives beyond its first byte.
        let auth = if i % 2 == 0 {
            format!("Authorization: Bearer {ALICE}\r\n")
        } else {
            String::new()
        };
        write!(
            s,
            "POST /mcp HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: application/json\r\nContent-Length: 4000000\r\n\r\n["
        )
        .unwrap();
        stalled.push(s);
    }
    std::thread::sleep(Duration::from_millis(500));
    for _ in 0..3 {
        let (status, body) = ping(server.addr);
        assert_eq!(status, 200, "{body}");
    }
    drop(stalled);
}

#[test]
fn header_refusals_missing_host_two_authorizations_and_cors() {
    let (fake, key) = fake();
    let server = Server::start(
        &fake,
        &key,
        None,
        &[("MEDIA_MCP_HTTP_ALLOWED_ORIGINS", "https://chat.example.com")],
    );
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string();
    let (status, _, text) = exchange(
        server.addr,
        &format!(
            "POST /mcp HTTP/1.1\r\nAuthorization: Bearer {ALICE}\r\nContent-Type: application/json\r\nContent-Length: {}",
            body.len()
        ),
        &body,
    );
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("Host"), "{text}");
    let (status, _, text) = post(
        server.addr,
        &[
            &format!("Authorization: Bearer {ALICE}"),
            &format!("Authorization: Bearer {BOB}"),
        ],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
    );
    assert_eq!(status, 400, "{text}");
    let (status, headers, _) = exchange(
        server.addr,
        &format!(
            "OPTIONS /mcp HTTP/1.1\r\nHost: {}\r\nOrigin: https://chat.example.com\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: authorization, content-type, mcp-protocol-version",
            server.addr
        ),
        "",
    );
    assert_eq!(status, 204);
    let get = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert_eq!(
        get("access-control-allow-origin"),
        "https://chat.example.com"
    );
    assert!(get("access-control-allow-headers").contains("Mcp-Method"));
    let (status, headers, _) = post(
        server.addr,
        &[
            "Origin: https://chat.example.com",
            &format!("Authorization: Bearer {ALICE}"),
        ],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
    );
    assert_eq!(status, 200);
    assert!(
        headers
            .iter()
            .any(|(k, v)| k == "access-control-expose-headers" && v.contains("WWW-Authenticate")),
        "{headers:?}"
    );
    assert!(fake.requests().is_empty());
}

#[test]
fn calls_from_three_users_each_reach_ombi_once_as_their_own_user() {
    let (fake, key) = fake();
    let server = Server::start(
        &fake,
        &key,
        None,
        &[
            ("MEDIA_MCP_HTTP_PROXY_TOKENS", &format!("authelia={PROXY}")),
            ("MEDIA_MCP_HTTP_USER_HEADER", "Remote-User"),
        ],
    );
    let addr = server.addr;
    let users = ["alice", "bob", "carol"];
    let calls: Vec<_> = (0..256)
        .map(|i| {
            std::thread::spawn(move || {
                let headers: Vec<String> = match i % 3 {
                    0 => vec![format!("Authorization: Bearer {ALICE}")],
                    1 => vec![format!("Authorization: Bearer {BOB}")],
                    _ => vec![
                        format!("Authorization: Bearer {PROXY}"),
                        "Remote-User: carol".to_owned(),
                    ],
                };
                let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
                let (status, _, body) = post(
                    addr,
                    &headers,
                    &json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                        "name": "read_search", "arguments": {"query": format!("q{i}"), "media": "movie"}}}),
                );
                assert_eq!(status, 200, "{body}");
                let v: Value = serde_json::from_str(&body).unwrap();
                assert_eq!(v["id"], i, "{body}");
                assert_eq!(v["result"]["isError"], false, "{body}");
            })
        })
        .collect();
    for call in calls {
        call.join().unwrap();
    }
    let requests = fake.requests();
    for i in 0..256 {
        let path = format!("/q{i}");
        let mine: Vec<_> = requests
            .iter()
            .filter(|r| r.path.ends_with(&path))
            .collect();
        assert_eq!(mine.len(), 1, "call {i}: {mine:?}");
        assert_eq!(mine[0].user_name.as_deref(), Some(users[i % 3]), "call {i}");
    }
    // A user token cannot name another user; two user headers or a list are refused.
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let alice = format!("Authorization: Bearer {ALICE}");
    let proxy = format!("Authorization: Bearer {PROXY}");
    assert_eq!(post(addr, &[&alice, "Remote-User: bob"], &message).0, 403);
    assert_eq!(
        post(
            addr,
            &[&proxy, "Remote-User: bob", "Remote-User: carol"],
            &message
        )
        .0,
        400
    );
    assert_eq!(
        post(addr, &[&proxy, "Remote-User: bob, carol"], &message).0,
        400
    );
    assert_eq!(post(addr, &[&proxy], &message).0, 401);
}

/// A GET of `path` without any credential or Origin check passing: status, headers, body.
fn get(addr: SocketAddr, path: &str, extra: &str) -> (u16, Vec<(String, String)>, String) {
    exchange(
        addr,
        &format!("GET {path} HTTP/1.1\r\nHost: {addr}{extra}"),
        "",
    )
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn health_probes_need_no_token_nor_a_slot_and_leave_the_mcp_path_as_it_was() {
    let (fake, key) = fake();
    fake.set_override_everywhere(Some(Fault::Slow(Duration::from_secs(30)).reply()));
    let server = Server::start(
        &fake,
        &key,
        None,
        &[
            ("MEDIA_MCP_HTTP_MAX_IN_FLIGHT", "1"),
            ("MEDIA_MCP_CALL_DEADLINE_MS", "5000"),
            ("MEDIA_MCP_CALL_TIMEOUT_SECS", "8"),
        ],
    );
    let addr = server.addr;
    // The one slot is taken by a call that waits on Ombi until its deadline.
    let call = std::thread::spawn(move || {
        post(
            addr,
            &[&format!("Authorization: Bearer {ALICE}")],
            &json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
                "name": "read_search", "arguments": {"query": "slow", "media": "movie"}}}),
        )
    });
    while fake.requests().is_empty() {
        std::thread::sleep(Duration::from_millis(20));
    }
    for (path, extra) in [
        ("/healthz", ""),
        ("/readyz", ""),
        ("/readyz?probe=1", "\r\nOrigin: https://evil.example"),
        (
            "/healthz",
            "\r\nAuthorization: Bearer wrong-token-0123456789",
        ),
    ] {
        let (status, headers, body) = get(addr, path, extra);
        assert_eq!(status, 200, "{path}: {body}");
        assert_eq!(body, r#"{"status":"ok"}"#, "{path}");
        assert_eq!(header(&headers, "cache-control"), Some("no-store"));
        assert_eq!(header(&headers, "access-control-allow-origin"), None);
    }
    // Answered while the call still holds the only slot.
    assert!(!call.is_finished(), "the probes did not wait for the slot");
    let (status, headers, _) = exchange(
        addr,
        &format!("POST /readyz HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0"),
        "",
    );
    assert_eq!(
        (status, header(&headers, "allow")),
        (405, Some("GET, HEAD"))
    );
    let (status, _, body) = call.join().unwrap();
    assert_eq!(status, 200, "{body}");
    // The MCP path is what it was: 401 without a token, 405 for GET, 404 elsewhere.
    fake.set_override_everywhere(None);
    let (status, _, _) = exchange(
        addr,
        &format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 2"
        ),
        "{}",
    );
    assert_eq!(status, 401);
    assert_eq!(get(addr, "/mcp", "").0, 405);
    assert_eq!(get(addr, "/health", "").0, 404);
    assert_eq!(ping(addr).0, 200);
}

#[test]
fn the_mcp_path_may_not_be_a_health_path() {
    let (fake, key) = fake();
    let env = Env::ombi(&fake, &key)
        .set("MEDIA_MCP_HTTP_TOKENS", &format!("alice={ALICE}"))
        .set("MEDIA_MCP_HTTP_PATH", "/readyz");
    let out = run_cli(&["serve", "--http", "127.0.0.1:0"], &env);
    assert_eq!(out.status.code(), Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("MEDIA_MCP_HTTP_PATH"), "{}", out.stderr);
}

#[test]
fn readiness_turns_503_once_sigterm_starts_the_drain() {
    let (fake, key) = fake();
    let server = Server::start(&fake, &key, None, &[]);
    let stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut kept = BufReader::new(stream);
    let probe = format!("GET /readyz HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr);
    kept.get_mut().write_all(probe.as_bytes()).unwrap();
    assert!(read_one_answer(&mut kept).is_some_and(|s| s.contains(" 200 ")));
    let killed = Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // The same connection keeps being answered for a moment after the signal.
    let mut last = None;
    for _ in 0..200 {
        kept.get_mut().write_all(probe.as_bytes()).unwrap();
        last = read_one_answer(&mut kept);
        if last.as_deref().is_none_or(|s| !s.contains(" 200 ")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        last.as_deref().is_some_and(|s| s.contains(" 503 ")),
        "{last:?}"
    );
}

/// The harness copied to a directory of its own, so `health` finds only the servers this
/// test starts (other tests run the harness at the same time).
fn own_harness() -> std::path::PathBuf {
    let copy = fresh_dir("health").join("media-mcp");
    std::fs::copy(harness_binary(), &copy).unwrap();
    copy
}

fn run_health(binary: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(binary)
        .arg("health")
        .args(args)
        .env_clear()
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_health_command_probes_a_url_or_finds_the_server_of_its_own_executable() {
    let (fake, key) = fake();
    let harness = own_harness();
    let (code, _, stderr) = run_health(&harness, &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.starts_with("not ready: no `serve --http` process"),
        "{stderr}"
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let listen = format!("127.0.0.1:{port}");
    let server = Server::start_as(&harness, &listen, &fake, &key, None, &[]);
    let (code, stdout, stderr) = run_health(&harness, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stdout,
        format!("ready: http://{listen}/readyz answered 200\n")
    );
    let (code, stdout, _) = run_health(&harness_binary(), &[&format!("http://{}", server.addr)]);
    assert_eq!(code, Some(0));
    assert_eq!(
        stdout,
        format!("ready: http://{}/readyz answered 200\n", server.addr)
    );
    drop(server);
    let (code, stdout, stderr) = run_health(&harness_binary(), &[&format!("http://{listen}")]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stderr.starts_with(&format!("not ready: http://{listen}/readyz: ")),
        "{stderr}"
    );
}
