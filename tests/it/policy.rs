//! Outbound policy: only the configured upstream origins are reachable (another port on the same
//! loopback host is refused before any connection), redirects are not followed, and the host
//! adds the key itself. Tested through the real component and directly on the http hook.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use host_harness::config::{Overrides, RawSettings, Settings};
use host_harness::http_hooks::PolicyHooks;
use host_harness::policy::Policy;
use host_harness::upstream_pool::UpstreamPool;
use http_body_util::{BodyExt, Empty};
use media_mcp_fakes::Reply;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_tests::{Env, Harness, assert_no_secret, canary_key};
use serde_json::json;
use wasmtime_wasi_http::{Error as HttpError, WasiBody, WasiHttpHooks};

/// A loopback port that records whether anyone connected.
struct Witness(TcpListener);

impl Witness {
    fn new() -> Witness {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        Witness(listener)
    }

    fn port(&self) -> u16 {
        self.0.local_addr().unwrap().port()
    }

    fn was_contacted(&self) -> bool {
        self.0.accept().is_ok()
    }
}

fn hooks_for(fake: &FakeOmbi, key: &str) -> PolicyHooks {
    let raw = RawSettings::from_env([("OMBI_URL", fake.url()), ("OMBI_API_KEY", key.to_owned())]);
    let settings = Settings::validate(&raw, &Overrides::default()).unwrap();
    PolicyHooks::new(
        Arc::new(Policy::from_settings(&settings)),
        Arc::new(UpstreamPool::from_settings(&settings)),
    )
}

fn get(uri: &str) -> http::Request<WasiBody> {
    let body: WasiBody = Empty::<Bytes>::new()
        .map_err(|never| match never {})
        .boxed_unsync();
    http::Request::get(uri).body(body).unwrap()
}

async fn send(hooks: &mut PolicyHooks, request: http::Request<WasiBody>) -> Result<u16, HttpError> {
    let future = hooks.send_request(request, None, Box::new(async { Ok(()) }));
    let (response, _io) = Box::into_pin(future).await?;
    Ok(response.status().as_u16())
}

#[test]
fn the_hook_refuses_another_loopback_port_without_connecting() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let witness = Witness::new();
    let mut hooks = hooks_for(&fake, &key);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let refused = runtime.block_on(send(
        &mut hooks,
        get(&format!(
            "http://127.0.0.1:{}/api/v1/Status",
            witness.port()
        )),
    ));
    assert!(
        matches!(refused, Err(HttpError::HttpRequestDenied)),
        "{refused:?}"
    );
    let refused = runtime.block_on(send(
        &mut hooks,
        get(&format!("https://127.0.0.1:{}/api/v1/Status", fake.port())),
    ));
    assert!(
        matches!(refused, Err(HttpError::HttpRequestDenied)),
        "another scheme: {refused:?}"
    );
    std::thread::sleep(Duration::from_millis(100));
    assert!(!witness.was_contacted());
}

#[test]
fn the_hook_injects_the_key_on_the_ombi_origin() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut hooks = hooks_for(&fake, &key);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut request = get(&format!("{}/api/v1/Search/movie/matrix", fake.url()));
    request
        .headers_mut()
        .insert("apikey", "guest-supplied".parse().unwrap());
    let status = runtime.block_on(send(&mut hooks, request)).unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        fake.requests().last().unwrap().api_key.as_deref(),
        Some(key.as_str())
    );
}

#[test]
fn a_redirect_to_another_port_is_not_followed() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let witness = Witness::new();
    let location = format!(
        "http://127.0.0.1:{}/api/v1/Search/movie/matrix",
        witness.port()
    );
    fake.set_override(
        "GET",
        "/api/v1/Search/movie/{searchTerm}",
        Reply::empty(302).with_header("Location", &location),
    );
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    let response = h.call_tool("read_search", json!({"query": "matrix", "media": "movie"}));
    assert!(response.get("result").is_some(), "{response}");
    assert!(
        !witness.was_contacted(),
        "the harness followed the redirect to another origin"
    );
    let done = h.finish();
    assert_no_secret(&done.stderr, &key, "stderr");
}

#[test]
fn ombi_health_is_read_without_the_key() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    let response = h.call_tool("read_server", json!({"view": "health"}));
    assert_eq!(response["result"]["isError"], false, "{response}");
    let health = fake.requests().last().unwrap().clone();
    assert_eq!(health.path, "/health");
    assert_eq!(health.api_key, None, "the key went to /health");
    // Every other route still gets it.
    h.call_tool("read_server", json!({"view": "status"}));
    assert_eq!(
        fake.requests().last().unwrap().api_key.as_deref(),
        Some(key.as_str())
    );
}
