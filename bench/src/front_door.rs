//! `host-harness serve --http` facing many clients at once: peak RSS and call latency with
//! 1,000 concurrent connections, each sending one `read_search` at the same moment, against
//! the same harness answering one connection's calls sequentially (the baseline of the run).
//! Calls beyond `MEDIA_MCP_HTTP_MAX_IN_FLIGHT` (32) wait for a slot, so the latency under load
//! is mostly queueing; what the figures show is that every call is answered and what the
//! harness holds in memory meanwhile.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use media_mcp_fakes::ombi::FakeOmbi;
use tokio::net::TcpStream;

use crate::http::{HttpClient, TOKEN, free_port};
use crate::measure::server_env;
use crate::plan::Plan;
use crate::stats::Summary;
use crate::workload::API_KEY;

/// Connections held at once in the full run (the smoke run uses fewer).
const CONNECTIONS: usize = 1000;

/// What one run measured.
#[derive(Debug, Clone)]
pub struct FrontDoorResult {
    /// Concurrent connections, one call each.
    pub connections: usize,
    /// Sequential calls on one connection.
    pub baseline: Summary,
    /// The concurrent calls, each from its send to its answer.
    pub loaded: Summary,
    /// How many of the concurrent calls were answered with a result.
    pub answered: usize,
    /// The slowest concurrent call.
    pub slowest_ms: f64,
    /// Peak RSS of the harness before and after the concurrent calls, in bytes.
    pub rss_before: Option<u64>,
    /// Peak RSS after.
    pub rss_after: Option<u64>,
}

/// Runs the measurement; an `Err` is reported as skipped.
///
/// # Errors
///
/// The harness or the component is missing, or did not start.
pub async fn run(root: &Path, plan: Plan) -> anyhow::Result<FrontDoorResult> {
    let harness = root.join("target/release/host-harness");
    let component = root.join("target/media_mcp_http.wasm");
    if !harness.is_file() || !component.is_file() {
        bail!("target/release/host-harness or target/media_mcp_http.wasm is missing");
    }
    let fake = FakeOmbi::start(API_KEY).context("starting the fake Ombi")?;
    let port = free_port()?;
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let mut child = tokio::process::Command::new(&harness)
        .args(["serve", "--http", &format!("127.0.0.1:{port}")])
        .env_clear()
        .envs(server_env(&fake))
        .env("MEDIA_MCP_HTTP_TOKENS", format!("bench={TOKEN}"))
        .env("MEDIA_MCP_COMPONENT", &component)
        .env("MEDIA_MCP_CACHE_DIR", root.join("target/bench/cwasm-cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .context("starting the harness")?;
    let pid = child.id().context("the harness's pid")?;
    let started = Instant::now();
    while TcpStream::connect(addr).await.is_err() {
        if started.elapsed() > Duration::from_secs(60) {
            bail!("the harness did not listen on {addr}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let one = HttpClient::connect(addr, Some(TOKEN)).await?;
    for _ in 0..plan.warmup {
        one.search().await?;
    }
    let mut times = Vec::with_capacity(plan.calls);
    for _ in 0..plan.calls {
        let t = Instant::now();
        one.search().await?;
        times.push(t.elapsed());
    }
    let connections = if plan.smoke { 50 } else { CONNECTIONS };
    let mut clients = Vec::with_capacity(connections);
    for _ in 0..connections {
        clients.push(Arc::new(HttpClient::connect(addr, Some(TOKEN)).await?));
    }
    let rss_before = peak_rss(pid);
    let calls: Vec<_> = clients
        .iter()
        .map(|client| {
            let client = client.clone();
            tokio::spawn(async move {
                let t = Instant::now();
                client.search().await.map(|()| t.elapsed())
            })
        })
        .collect();
    let mut loaded = Vec::with_capacity(connections);
    for call in calls {
        if let Ok(Ok(elapsed)) = call.await {
            loaded.push(elapsed);
        }
    }
    let rss_after = peak_rss(pid);
    child.kill().await.ok();
    let slowest_ms = loaded
        .iter()
        .map(|d| d.as_secs_f64() * 1000.0)
        .fold(0.0, f64::max);
    Ok(FrontDoorResult {
        connections,
        baseline: Summary::of(&times),
        answered: loaded.len(),
        loaded: Summary::of(&loaded),
        slowest_ms,
        rss_before,
        rss_after,
    })
}

/// Peak resident set size (`VmHWM`) of `pid`, in bytes.
fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line["VmHWM:".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// The report section.
pub fn render(result: &anyhow::Result<FrontDoorResult>) -> String {
    let mut out = String::from(
        "\n## HTTP front door: 1,000 concurrent connections\n\n\
         `host-harness serve --http` (defaults: 32 calls in flight, 1,024 connections), \
         `read_search` against the fake Ombi. Baseline: one connection's sequential calls. \
         Under load: every connection sends one call at the same moment; calls beyond the 32 \
         slots wait for one, so their latency is mostly queueing. Peak RSS is the harness's \
         `VmHWM` after its connections were open and before / after the calls.\n\n",
    );
    match result {
        Err(e) => out.push_str(&format!("skipped: {e:#}\n")),
        Ok(r) => {
            let mib = |b: Option<u64>| {
                b.map_or("n/a".to_owned(), |b| {
                    format!("{:.1} MiB", b as f64 / (1 << 20) as f64)
                })
            };
            out.push_str(
                "| run | calls | answered | latency median | p99 | slowest | peak RSS |\n|---|---|---|---|---|---|---|\n",
            );
            out.push_str(&format!(
                "| one connection, sequential | {} | {} | {:.2} ms | {:.2} ms | | {} |\n",
                r.baseline.runs,
                r.baseline.runs,
                r.baseline.median_ms,
                r.baseline.p99_ms,
                mib(r.rss_before)
            ));
            out.push_str(&format!(
                "| {} connections, one call each at once | {} | {} | {:.2} ms ({:.0}× baseline) | {:.2} ms | {:.2} ms | {} |\n",
                r.connections,
                r.connections,
                r.answered,
                r.loaded.median_ms,
                r.loaded.median_ms / r.baseline.median_ms,
                r.loaded.p99_ms,
                r.slowest_ms,
                mib(r.rss_after)
            ));
        }
    }
    out
}
