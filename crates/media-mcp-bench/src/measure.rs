//! The measurements, in the order they run: for each server a series of cold starts, then one
//! long-lived session for call latency, throughput at 1/8/32 calls in flight (upstream answering
//! after 20 ms), peak RSS, and the 50 MB upstream body. The floors are measured the same way
//! with the native stand-ins.

use std::future::Future;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use bytes::Bytes;
use media_mcp_fakes::Reply;
use media_mcp_fakes::ombi::FakeOmbi;
use serde_json::Value;

use crate::big::{self, BigBody};
use crate::client::{McpClient, ServerSpec, cold_start};
use crate::floor;
use crate::plan::{Only, Plan};
use crate::pyclient::{self, PyClientResult};
use crate::stats::Summary;
use crate::upstream::PythonUpstream;
use crate::workload::{API_KEY, SEARCH_PATH, SEARCH_ROUTE, UPSTREAM_DELAY, search_args};

pub use crate::workload::IN_FLIGHT;

/// Everything measured for one server (or floor).
#[derive(Debug, Clone, Default)]
pub struct ServerResult {
    /// `floor`, `ours`, `python`, `typescript`.
    pub name: String,
    /// Why it was not measured, if it was not.
    pub skipped: Option<String>,
    /// Spawn → first `tools/list` answer.
    pub cold: Option<Summary>,
    /// Size of the `tools/list` answer.
    pub list_bytes: Option<usize>,
    /// One `read_search` call (or floor GET), sequential.
    pub latency: Option<Summary>,
    /// Each call minus a floor GET made just before it (same moment, same load).
    pub paired_overhead: Option<Summary>,
    /// The server's CPU time (user + system, all threads) over the latency run, per call.
    pub cpu_per_call: Option<Duration>,
    /// (calls in flight, calls per second), from the fake Ombi.
    pub throughput: Vec<(usize, f64)>,
    /// The same from the Python upstream ([`crate::upstream`]).
    pub throughput_python_upstream: Vec<(usize, f64)>,
    /// Peak RSS after latency and throughput runs.
    pub peak_rss: Option<u64>,
    /// The 50 MB bodies, one entry per [`big::Variant`].
    pub big: Vec<BigBody>,
}

/// The whole run.
#[derive(Debug, Clone, Default)]
pub struct Results {
    /// floor, ours, python, typescript, in that order.
    pub servers: Vec<ServerResult>,
    /// Ours, compiling the component at every start (`--no-cache`).
    pub ours_cold_no_cache: Option<Summary>,
    /// `target/media_mcp.wasm`.
    pub wasm_bytes: u64,
    /// `target/media_mcp_http.wasm`, if built.
    pub http_wasm_bytes: Option<u64>,
    /// Ours and the peers driven by the official Python client ([`crate::pyclient`]).
    pub python_client: Vec<PyClientResult>,
    /// Why the Python upstream's throughput was not measured, if it was not.
    pub python_upstream_skipped: Option<String>,
    /// Machine and versions, for the report header.
    pub environment: Vec<(String, String)>,
}

impl Results {
    /// A server's results by name.
    pub fn server(&self, name: &str) -> Option<&ServerResult> {
        self.servers
            .iter()
            .find(|s| s.name == name && s.skipped.is_none())
    }
}

/// Runs every measurement.
///
/// # Errors
///
/// A server that is expected to work (the floor, ours) fails.
pub async fn run_all(root: &Path, plan: Plan, only: &Only) -> anyhow::Result<Results> {
    let wasm = root.join("target/media_mcp.wasm");
    let harness = crate::harness(root);
    let floor_server = root.join("target/release/bench-floor-server");
    for path in [&wasm, &harness, &floor_server] {
        anyhow::ensure!(
            path.is_file(),
            "{} is missing: run scripts/bench.sh",
            path.display()
        );
    }
    let fake = FakeOmbi::start(API_KEY).context("starting the fake Ombi")?;
    let base_env = |extra: &[(&str, String)]| -> Vec<(String, String)> {
        let mut env = server_env(&fake);
        env.extend(extra.iter().map(|(k, v)| ((*k).to_owned(), v.clone())));
        env
    };
    let cache_dir = root.join("target/bench/cwasm-cache");
    let ours = ServerSpec {
        name: "ours".into(),
        program: harness.clone(),
        args: vec!["serve".into()],
        env: base_env(&[
            ("MEDIA_MCP_COMPONENT", wasm.display().to_string()),
            ("MEDIA_MCP_CACHE_DIR", cache_dir.display().to_string()),
        ]),
    };
    let python_upstream = match PythonUpstream::start(root).await {
        Ok(upstream) => Some(upstream),
        Err(e) => {
            eprintln!("bench: no Python upstream: {e:#}");
            None
        }
    };
    let py = python_upstream.as_ref();
    let mut results = Results {
        wasm_bytes: std::fs::metadata(&wasm)?.len(),
        http_wasm_bytes: std::fs::metadata(root.join("target/media_mcp_http.wasm"))
            .ok()
            .map(|m| m.len()),
        python_upstream_skipped: python_upstream.is_none().then(|| {
            "python3 could not run crates/media-mcp-bench/upstream/slow_ombi.py".to_owned()
        }),
        environment: crate::machine::environment(root),
        ..Results::default()
    };

    let floor_spec = ServerSpec {
        name: "floor".into(),
        program: floor_server,
        args: vec![],
        env: base_env(&[]),
    };
    eprintln!("bench: cold starts of the floor and ours, interleaved");
    // One unmeasured start fills the caches. Interleaving keeps the ratio fair when the
    // machine's load drifts (it is shared).
    cold_start(&ours).await?.0.shutdown().await;
    let mut cold = interleaved_cold_series(&[&floor_spec, &ours], plan.cold_runs).await?;
    let ours_cold = cold.pop();
    let floor_cold = cold.pop();

    eprintln!("bench: floor");
    results
        .servers
        .push(measure_floor(&floor_spec, &fake, py, plan, floor_cold).await?);

    eprintln!("bench: ours");
    results
        .servers
        .push(measure_server(&ours, &fake, py, plan, ours_cold).await?);
    let mut no_cache = ours.clone();
    no_cache.args.push("--no-cache".into());
    results.ours_cold_no_cache = Some(cold_series(&no_cache, plan.slow_cold_runs).await?.0);

    let mut driven = vec![ours.clone()];
    for peer in peers(root, &base_env(&[])) {
        if let Ok(spec) = &peer
            && only.wants(&spec.name)
        {
            driven.push(spec.clone());
        }
        match peer {
            Ok(spec) if !only.wants(&spec.name) => results.servers.push(ServerResult {
                name: spec.name,
                skipped: Some("left out of this run (--only)".into()),
                ..ServerResult::default()
            }),
            Ok(spec) => {
                eprintln!("bench: {}", spec.name);
                let name = spec.name.clone();
                match measure_server(&spec, &fake, py, plan, None).await {
                    Ok(r) => results.servers.push(r),
                    Err(e) => results.servers.push(ServerResult {
                        name,
                        skipped: Some(format!("failed: {e:#}")),
                        ..ServerResult::default()
                    }),
                }
            }
            Err((name, why)) => {
                eprintln!("bench: skipping {name}: {why}");
                results.servers.push(ServerResult {
                    name,
                    skipped: Some(why),
                    ..ServerResult::default()
                });
            }
        }
    }
    if let Some(py) = py {
        results.python_client = pyclient::run(root, plan, &driven, py).await;
    }
    Ok(results)
}

/// A server's environment: `PATH`, `HOME`, `LANG` and the fake Ombi's URL and key.
pub(crate) fn server_env(fake: &FakeOmbi) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = ["PATH", "HOME", "LANG"]
        .iter()
        .filter_map(|k| std::env::var(k).ok().map(|v| ((*k).to_owned(), v)))
        .collect();
    env.push(("OMBI_URL".into(), fake.url()));
    env.push(("OMBI_API_KEY".into(), API_KEY.into()));
    env
}

/// The peer servers, or why each cannot run.
fn peers(root: &Path, env: &[(String, String)]) -> Vec<Result<ServerSpec, (String, String)>> {
    let python = root.join("target/py/bin/python");
    let python_ok = std::process::Command::new(&python)
        .args(["-c", "import mcp.server.mcpserver, httpx2"])
        .output()
        .is_ok_and(|o| o.status.success());
    let node_dir = root.join("target/bench/node");
    let node_ok = node_dir
        .join("node_modules/@modelcontextprotocol/sdk/package.json")
        .is_file()
        && node_dir.join("server.mjs").is_file()
        && std::process::Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    vec![
        if python_ok {
            Ok(ServerSpec {
                name: "python".into(),
                program: python,
                args: vec![
                    root.join("crates/media-mcp-bench/peers/python/server.py")
                        .display()
                        .to_string(),
                ],
                env: env.to_vec(),
            })
        } else {
            Err((
                "python".into(),
                "the `mcp` package is not installed in target/py (scripts/bench.sh installs it)"
                    .into(),
            ))
        },
        if node_ok {
            Ok(ServerSpec {
                name: "typescript".into(),
                program: "node".into(),
                args: vec![node_dir.join("server.mjs").display().to_string()],
                env: env.to_vec(),
            })
        } else {
            Err((
                "typescript".into(),
                "node or @modelcontextprotocol/sdk under target/bench/node is missing (scripts/bench.sh installs it)".into(),
            ))
        },
    ]
}

/// `runs` cold starts; the summary and the `tools/list` answer size.
async fn cold_series(spec: &ServerSpec, runs: usize) -> anyhow::Result<(Summary, usize)> {
    let mut times = Vec::with_capacity(runs);
    let mut bytes = 0;
    for _ in 0..runs {
        let (client, elapsed, list_bytes) = cold_start(spec).await?;
        times.push(elapsed);
        bytes = list_bytes;
        client.shutdown().await;
    }
    Ok((Summary::of(&times), bytes))
}

/// `runs` cold starts of each server, taking turns; per server the summary and the
/// `tools/list` answer size.
async fn interleaved_cold_series(
    specs: &[&ServerSpec],
    runs: usize,
) -> anyhow::Result<Vec<(Summary, usize)>> {
    let mut times = vec![Vec::with_capacity(runs); specs.len()];
    let mut bytes = vec![0; specs.len()];
    for _ in 0..runs {
        for (i, spec) in specs.iter().enumerate() {
            let (client, elapsed, list_bytes) = cold_start(spec).await?;
            times[i].push(elapsed);
            bytes[i] = list_bytes;
            client.shutdown().await;
        }
    }
    Ok(times
        .iter()
        .zip(bytes)
        .map(|(t, b)| (Summary::of(t), b))
        .collect())
}

/// Calls at `in_flight` concurrency until `total` are done; calls per second.
pub(crate) async fn in_flight<F, Fut>(
    in_flight: usize,
    total: usize,
    call: F,
) -> anyhow::Result<f64>
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = anyhow::Result<()>> + Send,
{
    let call = Arc::new(call);
    let left = Arc::new(AtomicUsize::new(total));
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..in_flight {
        let (call, left) = (call.clone(), left.clone());
        workers.spawn(async move {
            while left
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .is_ok()
            {
                call().await?;
            }
            anyhow::Ok(())
        });
    }
    while let Some(done) = workers.join_next().await {
        done??;
    }
    Ok(total as f64 / started.elapsed().as_secs_f64())
}

pub(crate) fn slow_reply() -> Reply {
    let body = media_mcp_fakes::fixture("v1-search-movie-term.json").unwrap_or_default();
    Reply::json(200, Bytes::from_static(body)).with_delay(UPSTREAM_DELAY)
}

/// The floor's measurements; `cold`: its cold starts if already measured.
async fn measure_floor(
    spec: &ServerSpec,
    fake: &FakeOmbi,
    py: Option<&PythonUpstream>,
    plan: Plan,
    cold: Option<(Summary, usize)>,
) -> anyhow::Result<ServerResult> {
    let (cold, list_bytes) = match cold {
        Some(measured) => measured,
        None => cold_series(spec, plan.cold_runs).await?,
    };
    let addr = fake.addr();
    for _ in 0..plan.warmup {
        floor::get_json(addr, SEARCH_PATH, API_KEY).await?;
    }
    let mut times = Vec::with_capacity(plan.calls);
    for _ in 0..plan.calls {
        let started = Instant::now();
        floor::get_json(addr, SEARCH_PATH, API_KEY).await?;
        times.push(started.elapsed());
    }
    fake.clear_requests();
    fake.set_override("GET", SEARCH_ROUTE, slow_reply());
    let mut throughput = Vec::new();
    for k in IN_FLIGHT {
        let rate = in_flight(k, total_calls(k, plan), move || floor_call(addr)).await?;
        throughput.push((k, rate));
    }
    let mut throughput_python_upstream = Vec::new();
    if let Some(py) = py {
        let addr = py.addr();
        for k in IN_FLIGHT {
            let rate = in_flight(k, total_calls(k, plan), move || floor_call(addr)).await?;
            throughput_python_upstream.push((k, rate));
        }
    }
    let big = big::floor(fake, plan).await?;
    fake.clear_overrides();
    fake.clear_requests();
    Ok(ServerResult {
        name: spec.name.clone(),
        cold: Some(cold),
        list_bytes: Some(list_bytes),
        latency: Some(Summary::of(&times)),
        paired_overhead: None,
        cpu_per_call: None,
        throughput,
        throughput_python_upstream,
        peak_rss: None,
        big,
        skipped: None,
    })
}

async fn floor_call(addr: SocketAddr) -> anyhow::Result<()> {
    floor::get_json(addr, SEARCH_PATH, API_KEY).await.map(drop)
}

pub(crate) fn total_calls(in_flight: usize, plan: Plan) -> usize {
    (in_flight * plan.calls_per_slot).max(plan.calls_per_slot * 4)
}

/// One successful `read_search` call (an `isError` result is an error here).
async fn good_call(client: &McpClient) -> anyhow::Result<()> {
    let result = client.call("read_search", &search_args()).await?;
    if result.get("isError") == Some(&Value::Bool(true))
        || result.get("structuredContent").is_none()
    {
        bail!("read_search did not succeed: {result}");
    }
    Ok(())
}

/// Calls per second with each of [`IN_FLIGHT`] calls in flight.
async fn throughput_series(
    client: &Arc<McpClient>,
    plan: Plan,
) -> anyhow::Result<Vec<(usize, f64)>> {
    let mut rates = Vec::new();
    for k in IN_FLIGHT {
        let c = client.clone();
        let rate = in_flight(k, total_calls(k, plan), move || {
            let c = c.clone();
            async move { good_call(&c).await }
        })
        .await?;
        rates.push((k, rate));
    }
    Ok(rates)
}

/// One MCP server's measurements; `cold`: its cold starts if already measured.
async fn measure_server(
    spec: &ServerSpec,
    fake: &FakeOmbi,
    py: Option<&PythonUpstream>,
    plan: Plan,
    cold: Option<(Summary, usize)>,
) -> anyhow::Result<ServerResult> {
    let (cold, list_bytes) = match cold {
        Some(measured) => measured,
        None => cold_series(spec, plan.slow_cold_runs).await?,
    };

    let (client, _, _) = cold_start(spec).await?;
    let client = Arc::new(client);
    for _ in 0..plan.warmup {
        good_call(&client).await?;
    }
    let mut times = Vec::with_capacity(plan.calls);
    let mut overheads = Vec::with_capacity(plan.calls);
    let cpu_before = client.cpu_time();
    for _ in 0..plan.calls {
        let started = Instant::now();
        floor::get_json(fake.addr(), SEARCH_PATH, API_KEY).await?;
        let floor_time = started.elapsed();
        let started = Instant::now();
        good_call(&client).await?;
        let call_time = started.elapsed();
        times.push(call_time);
        overheads.push((call_time.as_secs_f64() - floor_time.as_secs_f64()) * 1000.0);
    }
    let cpu_per_call = cpu_before
        .zip(client.cpu_time())
        .and_then(|(before, after)| after.checked_sub(before))
        .map(|used| used / u32::try_from(plan.calls.max(1)).unwrap_or(u32::MAX));
    fake.clear_requests();

    fake.set_override("GET", SEARCH_ROUTE, slow_reply());
    let throughput = throughput_series(&client, plan).await?;
    fake.clear_requests();
    let peak_rss = client.peak_rss();
    let throughput_python_upstream = match py {
        Some(py) => {
            // A second session of the same server, pointed at the Python upstream.
            let mut spec = spec.clone();
            for (name, value) in &mut spec.env {
                if name == "OMBI_URL" {
                    *value = py.url();
                }
            }
            let (other, _, _) = cold_start(&spec).await?;
            let other = Arc::new(other);
            good_call(&other).await?;
            let rates = throughput_series(&other, plan).await?;
            if let Some(other) = Arc::into_inner(other) {
                other.shutdown().await;
            }
            rates
        }
        None => Vec::new(),
    };

    let big = big::server(&client, fake, plan).await?;
    fake.clear_overrides();
    fake.clear_requests();
    let client = Arc::into_inner(client).context("a call is still running")?;
    client.shutdown().await;
    Ok(ServerResult {
        name: spec.name.clone(),
        cold: Some(cold),
        list_bytes: Some(list_bytes),
        latency: Some(Summary::of(&times)),
        paired_overhead: Some(Summary::of_ms(overheads)),
        cpu_per_call,
        throughput,
        throughput_python_upstream,
        peak_rss,
        big,
        skipped: None,
    })
}
