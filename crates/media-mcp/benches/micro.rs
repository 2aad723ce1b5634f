//! Criterion micro-benchmarks of the component's own code, natively, so a regression shows up
//! where it happens rather than as a slower `tools/call`:
//!
//! * `compose/*`: output-schema composition (one tool; the whole catalogue, as `list-tools` does);
//! * `validate/*`: argument validation against the advertised `inputSchema` (read_search with
//!   valid and invalid arguments, the schema built beforehand or per call; read_requests);
//! * `call/*`: whole calls through `Plugin::call_tool` (parse, validate, upstream body parse,
//!   projection, budgets, rendering) over the biggest fixtures, answered by an in-memory upstream
//!   that routes like the fake Ombi (`tests/fixtures/ombi/index.json`).
//!
//! `scripts/bench.sh` runs them and `BENCHMARKS.md` reports their medians and p99.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use media_mcp::contract::compose_output_schema;
use media_mcp::upstream::{HttpRequest, HttpResponse, Upstream, UpstreamError};
use media_mcp::{CallContext, Config, Plugin, ombi, schema};
use serde_json::{Value, json};

const BASE_URL: &str = "http://ombi.bench";

fn fixtures_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/ombi")
}

/// One fixture route: method, path template segments, status, body.
struct Route {
    method: String,
    segments: Vec<String>,
    status: u16,
    body: Vec<u8>,
}

/// Answers like the fake Ombi: the first fixture route whose template matches the path.
struct FixtureUpstream {
    routes: Vec<Route>,
}

impl FixtureUpstream {
    fn load() -> FixtureUpstream {
        let dir = fixtures_dir();
        let index: Value =
            serde_json::from_slice(&std::fs::read(dir.join("index.json")).expect("index.json"))
                .expect("index.json is JSON");
        let routes = index["fixtures"]
            .as_array()
            .expect("fixtures")
            .iter()
            .filter_map(|f| {
                let path = f["path"].as_str()?;
                Some(Route {
                    method: f["method"].as_str()?.to_ascii_uppercase(),
                    segments: path
                        .split('?')
                        .next()?
                        .split('/')
                        .map(str::to_ascii_lowercase)
                        .collect(),
                    status: u16::try_from(f["status"].as_u64().unwrap_or(200)).ok()?,
                    body: f["body_file"]
                        .as_str()
                        .map(|b| std::fs::read(dir.join(b)).unwrap_or_default())
                        .unwrap_or_default(),
                })
            })
            .collect();
        FixtureUpstream { routes }
    }
}

impl Upstream for FixtureUpstream {
    fn send(&self, request: &HttpRequest, _max: usize) -> Result<HttpResponse, UpstreamError> {
        let path = request.url.strip_prefix(BASE_URL).unwrap_or(&request.url);
        let path = path.split('?').next().unwrap_or(path).to_ascii_lowercase();
        let segments: Vec<&str> = path.split('/').collect();
        let method = request.method.as_str().to_ascii_uppercase();
        let route = self.routes.iter().find(|r| {
            r.method == method
                && r.segments.len() == segments.len()
                && r.segments
                    .iter()
                    .zip(&segments)
                    .all(|(t, s)| t == s || (t.starts_with('{') && !s.is_empty()))
        });
        Ok(match route {
            Some(r) => HttpResponse {
                status: r.status,
                content_type: Some("application/json; charset=utf-8".into()),
                body: r.body.clone(),
                ..HttpResponse::default()
            },
            None => HttpResponse {
                status: 200,
                content_type: Some("text/html".into()),
                body: b"<!DOCTYPE html><html></html>".to_vec(),
                ..HttpResponse::default()
            },
        })
    }
}

fn plugin() -> Plugin {
    Plugin::new(Config::from_lookup(|k| {
        (k == "OMBI_URL").then(|| BASE_URL.to_owned())
    }))
}

fn compose(c: &mut Criterion) {
    let plugin = plugin();
    let upstream = FixtureUpstream::load();
    let search = ombi::tools()
        .into_iter()
        .find(|t| t.name == "read_search")
        .expect("read_search");
    c.bench_function("compose/read_search_output_schema", |b| {
        b.iter(|| compose_output_schema(black_box(search.name), black_box(search.families)))
    });
    c.bench_function("compose/list_tools_whole_catalogue", |b| {
        b.iter(|| plugin.list_tools(black_box(&upstream)))
    });
}

fn validate(c: &mut Criterion) {
    let search = ombi::tools()
        .into_iter()
        .find(|t| t.name == "read_search")
        .expect("read_search");
    let args = json!({"query": "matrix", "media": "movie", "limit": 10, "offset": 0});
    let schema_value = (search.input_schema)();
    c.bench_function("validate/read_search_prebuilt_schema", |b| {
        b.iter(|| schema::validate(black_box(&schema_value), black_box(&args)))
    });
    c.bench_function("validate/read_search_schema_built_per_call", |b| {
        b.iter(|| schema::validate(&(search.input_schema)(), black_box(&args)))
    });
    let invalid = json!({"query": "", "media": "movie", "bogus": 1});
    c.bench_function("validate/read_search_invalid_arguments", |b| {
        b.iter(|| schema::validate(black_box(&schema_value), black_box(&invalid)))
    });
    let requests = ombi::tools()
        .into_iter()
        .find(|t| t.name == "read_requests")
        .expect("read_requests");
    let requests_schema = (requests.input_schema)();
    let requests_args = json!({"media": "tv", "limit": 10, "offset": 0});
    assert!(schema::validate(&requests_schema, &requests_args).is_ok());
    c.bench_function("validate/read_requests_prebuilt_schema", |b| {
        b.iter(|| schema::validate(black_box(&requests_schema), black_box(&requests_args)))
    });
}

fn calls(c: &mut Criterion) {
    let plugin = plugin();
    let upstream = FixtureUpstream::load();
    let ctx = CallContext {
        correlation_id: "bench".into(),
        principal: None,
    };
    for (label, tool, args) in [
        (
            "read_search_movie",
            "read_search",
            json!({"query": "matrix", "media": "movie"}),
        ),
        (
            "read_search_multi",
            "read_search",
            json!({"query": "matrix"}),
        ),
        ("read_requests_tv", "read_requests", json!({"media": "tv"})),
        (
            "read_requests_movie",
            "read_requests",
            json!({"media": "movie"}),
        ),
    ] {
        let arguments = args.to_string();
        let probe = plugin
            .call_tool(tool, &arguments, &ctx, &upstream)
            .expect("listed");
        assert!(!probe.is_error, "{label}: {}", probe.structured);
        c.bench_function(&format!("call/{label}"), |b| {
            b.iter(|| plugin.call_tool(tool, black_box(&arguments), &ctx, &upstream))
        });
    }
}

criterion_group!(benches, compose, validate, calls);
criterion_main!(benches);
