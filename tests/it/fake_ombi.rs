//! The fake upstream itself behaves like `fake_ombi.py`: health without key, 401 without the
//! key, fixture routes (most literal first, case-insensitive), the SPA page for unknown GETs,
//! 500 for unknown writes, empty bodies, overrides and request recording.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use media_mcp_fakes::Reply;
use media_mcp_fakes::ombi::FakeOmbi;

const KEY: &str = "fake-key";

struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A minimal HTTP/1.1 client: one request per connection.
fn http(
    addr: SocketAddr,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut request = format!(
        "{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").expect("a complete response");
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(": "))
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}

fn get(fake: &FakeOmbi, target: &str) -> Answer {
    http(fake.addr(), "GET", target, &[("ApiKey", KEY)], "")
}

#[test]
fn health_needs_no_key() {
    let fake = FakeOmbi::start(KEY).unwrap();
    let a = http(fake.addr(), "GET", "/health", &[], "");
    assert_eq!((a.status, a.body.as_str()), (200, "Healthy"));
}

#[test]
fn api_without_or_with_a_wrong_key_is_401_text() {
    let fake = FakeOmbi::start(KEY).unwrap();
    for headers in [&[][..], &[("ApiKey", "wrong")][..]] {
        let a = http(
            fake.addr(),
            "GET",
            "/api/v1/Search/movie/matrix",
            headers,
            "",
        );
        assert_eq!((a.status, a.body.as_str()), (401, "Invalid API Key"));
    }
    let a = http(
        fake.addr(),
        "GET",
        &format!("/api/v1/Search/movie/matrix?apikey={KEY}"),
        &[],
        "",
    );
    assert_eq!(
        a.status, 200,
        "the query-string key is accepted, as by Ombi"
    );
}

#[test]
fn fixture_routes_answer_json_case_insensitively() {
    let fake = FakeOmbi::start(KEY).unwrap();
    let a = get(&fake, "/API/v1/search/MOVIE/matrix");
    assert_eq!(a.status, 200);
    assert_eq!(
        a.header("content-type"),
        Some("application/json; charset=utf-8")
    );
    let json: serde_json::Value = serde_json::from_str(&a.body).unwrap();
    assert!(json.as_array().is_some_and(|items| !items.is_empty()));
    assert_eq!(a.header("server"), Some("Kestrel"));
}

#[test]
fn unknown_get_is_the_spa_page_and_unknown_write_is_500() {
    let fake = FakeOmbi::start(KEY).unwrap();
    let a = get(&fake, "/api/v1/Nope/nothing/here");
    assert_eq!(
        (a.status, a.header("content-type")),
        (200, Some("text/html"))
    );
    assert!(
        a.body.contains("<html") || a.body.contains("<!DOCTYPE") || a.body.contains("<!doctype"),
        "{}",
        &a.body[..a.body.len().min(200)]
    );
    let a = http(
        fake.addr(),
        "POST",
        "/api/v1/Nope",
        &[("ApiKey", KEY)],
        "{}",
    );
    assert_eq!(a.status, 500);
    assert_eq!(
        a.body,
        r#"{"error":"Object reference not set to an instance of an object."}"#
    );
}

#[test]
fn entries_without_a_body_file_answer_an_empty_body() {
    let fake = FakeOmbi::start(KEY).unwrap();
    let a = http(
        fake.addr(),
        "DELETE",
        "/api/v1/Request/tv/7",
        &[("ApiKey", KEY)],
        "",
    );
    assert_eq!(
        (a.status, a.body.as_str(), a.header("content-type")),
        (200, "", None)
    );
}

#[test]
fn requests_are_recorded_with_key_user_content_type_and_body() {
    let fake = FakeOmbi::start(KEY).unwrap();
    http(
        fake.addr(),
        "POST",
        "/api/v1/Search/movie?x=1",
        &[
            ("ApiKey", KEY),
            ("UserName", "alice"),
            ("Content-Type", "application/json"),
        ],
        r#"{"searchTerm":"fight club"}"#,
    );
    let r = fake.requests().pop().unwrap();
    assert_eq!(
        (r.method.as_str(), r.path.as_str(), r.query.as_str()),
        ("POST", "/api/v1/Search/movie", "x=1")
    );
    assert_eq!(r.api_key.as_deref(), Some(KEY));
    assert_eq!(r.user_name.as_deref(), Some("alice"));
    assert_eq!(r.content_type.as_deref(), Some("application/json"));
    assert_eq!(r.body_text(), r#"{"searchTerm":"fight club"}"#);
    fake.clear_requests();
    assert!(fake.requests().is_empty());
}

#[test]
fn overrides_replace_a_route_while_running_with_delay_and_headers() {
    let fake = FakeOmbi::start(KEY).unwrap();
    let template = "/api/v1/Search/movie/{searchTerm}";
    fake.set_override(
        "GET",
        template,
        Reply::new(503, Some("text/plain"), "busy")
            .with_delay(Duration::from_millis(300))
            .with_header("Retry-After", "7"),
    );
    let started = Instant::now();
    let a = get(&fake, "/api/v1/Search/movie/matrix");
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(
        (a.status, a.body.as_str(), a.header("retry-after")),
        (503, "busy", Some("7"))
    );
    fake.clear_override("get", "/API/v1/search/movie/{searchTerm}");
    assert_eq!(get(&fake, "/api/v1/Search/movie/matrix").status, 200);
}

#[test]
fn base_path_serves_under_a_prefix_only() {
    let fake = FakeOmbi::builder(KEY).base_path("/ombi/").start().unwrap();
    assert!(fake.url().ends_with("/ombi"));
    assert_eq!(get(&fake, "/ombi/api/v1/Search/movie/matrix").status, 200);
    assert_eq!(get(&fake, "/api/v1/Search/movie/matrix").status, 404);
}
