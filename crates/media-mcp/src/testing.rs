//! Test support: a scripted [`Upstream`] that answers from the Ombi fixtures in
//! `tests/fixtures/ombi/` and records every request, so handler tests run natively.

mod rng;
pub use rng::Rng;

use crate::catalogue::Plugin;
use crate::config::Config;
use crate::tool::CallContext;
use crate::upstream::{HttpRequest, HttpResponse, Method, Upstream, UpstreamError};
use serde_json::Value;
use std::cell::RefCell;

/// Reads a fixture body from `tests/fixtures/ombi/`.
pub fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/ombi/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {path}: {e}"))
}

/// A JSON response with status 200.
pub fn json_response(body: Vec<u8>) -> HttpResponse {
    HttpResponse {
        status: 200,
        content_type: Some("application/json; charset=utf-8".into()),
        body,
        ..Default::default()
    }
}

/// What a scripted route answers.
pub type Answer = Result<HttpResponse, UpstreamError>;

/// An answer computed from the whole request (JSON-RPC endpoints answer by body, not by path);
/// `None` lets the next script or the routes answer.
pub type Script = Box<dyn Fn(&HttpRequest) -> Option<Answer>>;

/// An upstream that answers by (method, path suffix) and records requests.
#[derive(Default)]
pub struct FakeUpstream {
    routes: Vec<(Method, String, Answer)>,
    scripts: Vec<Script>,
    /// Every request sent, in order.
    pub log: RefCell<Vec<HttpRequest>>,
}

impl FakeUpstream {
    /// An upstream with no routes (every request gets Ombi's HTML page for GET, 500 otherwise).
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers requests through `script` before any route is consulted.
    pub fn script(mut self, script: impl Fn(&HttpRequest) -> Option<Answer> + 'static) -> Self {
        self.scripts.push(Box::new(script));
        self
    }

    /// Answers `method` requests whose path (without query) ends with `path` (case-insensitive).
    pub fn route(mut self, method: Method, path: &str, answer: Answer) -> Self {
        self.routes
            .push((method, path.to_ascii_lowercase(), answer));
        self
    }

    /// Answers with a fixture file as JSON 200.
    pub fn fixture(self, method: Method, path: &str, file: &str) -> Self {
        self.route(method, path, Ok(json_response(fixture(file))))
    }

    /// The requests sent so far.
    pub fn requests(&self) -> Vec<HttpRequest> {
        self.log.borrow().clone()
    }
}

impl Upstream for FakeUpstream {
    fn send(&self, request: &HttpRequest, _max: usize) -> Result<HttpResponse, UpstreamError> {
        self.log.borrow_mut().push(request.clone());
        if let Some(answer) = self.scripts.iter().find_map(|s| s(request)) {
            return answer;
        }
        let path = request
            .url
            .split('?')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        for (m, suffix, answer) in &self.routes {
            if *m == request.method && path.ends_with(suffix.as_str()) {
                return answer.clone();
            }
        }
        Ok(match request.method {
            Method::Get => HttpResponse {
                status: 200,
                content_type: Some("text/html".into()),
                body: b"<!DOCTYPE html><html><body>Ombi</body></html>".to_vec(),
                ..Default::default()
            },
            _ => HttpResponse {
                status: 500,
                content_type: Some("application/json".into()),
                body: br#"{"error":"Object reference not set to an instance of an object."}"#
                    .to_vec(),
                ..Default::default()
            },
        })
    }
}

/// A plugin configured for `http://ombi.test` with no key and no default user.
pub fn plugin() -> Plugin {
    Plugin::new(Config::from_lookup(|k| {
        (k == media_mcp_wire::variables::OMBI_URL.name).then(|| "http://ombi.test".to_owned())
    }))
}

/// Calls `tool` with `args` and returns the structured envelope; asserts it validates against
/// the tool's advertised `outputSchema`.
pub fn call(up: &FakeUpstream, tool: &str, args: Value) -> Value {
    call_as(up, tool, args, None)
}

/// As [`call`], acting as `principal`.
pub fn call_as(up: &FakeUpstream, tool: &str, args: Value, principal: Option<&str>) -> Value {
    call_plugin(&plugin(), up, tool, args, principal)
}

/// As [`call_as`], with `plugin` configured as the test needs.
pub fn call_plugin(
    plugin: &Plugin,
    up: &FakeUpstream,
    tool: &str,
    args: Value,
    principal: Option<&str>,
) -> Value {
    let ctx = CallContext {
        correlation_id: "test-1".into(),
        principal: principal.map(str::to_owned),
    };
    let rendered = plugin
        .call_tool(tool, &args.to_string(), &ctx, up)
        .expect("tool is listed");
    let descriptor = plugin
        .list_tools(up)
        .into_iter()
        .find(|t| t.name == tool)
        .expect("listed");
    let schema: Value = serde_json::from_str(&descriptor.output_schema).expect("schema");
    let validator = jsonschema::validator_for(&schema).expect("valid output schema");
    if let Err(e) = validator.validate(&rendered.structured) {
        panic!(
            "{tool}: result breaks its outputSchema: {e}\n{}",
            rendered.structured
        );
    }
    assert_eq!(rendered.is_error, rendered.structured["ok"] == false);
    rendered.structured
}

/// A host cache in memory, as the harness keeps one, whose entries tests can inspect and drop.
#[derive(Default)]
pub struct MemoryCache {
    /// The entries.
    pub map: RefCell<std::collections::BTreeMap<String, String>>,
    /// The keys read, in order.
    pub reads: RefCell<Vec<String>>,
}

impl crate::host_cache::HostCache for MemoryCache {
    fn enabled(&self) -> bool {
        true
    }

    fn get(&self, key: &str) -> Option<String> {
        self.reads.borrow_mut().push(key.to_owned());
        self.map.borrow().get(key).cloned()
    }

    fn set(&self, key: &str, value: &str) {
        self.map
            .borrow_mut()
            .insert(key.to_owned(), value.to_owned());
    }
}
