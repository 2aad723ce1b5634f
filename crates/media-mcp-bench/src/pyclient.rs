//! The official Python SDK client as the driver: `crates/media-mcp-bench/drivers/python_client.py` (the `mcp`
//! package's `stdio_client` and `ClientSession`, which lists the tools and validates every
//! result against its `outputSchema`) calls `read_search` on ours and on both peers with 1, 8
//! and 32 calls in flight, against the Python upstream ([`crate::upstream`], answering after
//! 20 ms). A single-threaded Python client is what many agents run, so what a server's answers
//! cost the client shows here, where the Rust driver's figures hide it.
//!
//! The servers take turns for [`Plan::python_client_rounds`] rounds (a fresh session each), so
//! load drift on the shared machine hits all of them; each figure is the median over rounds.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context as _, bail};
use serde_json::Value;

use crate::client::ServerSpec;
use crate::plan::Plan;
use crate::upstream::PythonUpstream;
use crate::workload::IN_FLIGHT;

/// How long one driver run may take.
const DRIVER_TIMEOUT: Duration = Duration::from_secs(300);

/// One in-flight count's figures (medians over the rounds).
#[derive(Debug, Clone, Copy)]
pub struct PyClientRow {
    /// Calls in flight.
    pub in_flight: usize,
    /// Calls per second.
    pub rate: f64,
    /// The client's CPU time per call (user + system, all threads).
    pub client_cpu: Duration,
    /// The server's CPU time per call.
    pub server_cpu: Duration,
}

/// One server driven by the Python client, or why it was not.
#[derive(Debug, Clone, Default)]
pub struct PyClientResult {
    /// `ours`, `python`, `typescript`.
    pub name: String,
    /// Why it was not measured.
    pub skipped: Option<String>,
    /// One row per [`IN_FLIGHT`] count.
    pub rows: Vec<PyClientRow>,
}

impl PyClientResult {
    /// The calls per second at `k` in flight.
    pub fn rate(&self, k: usize) -> Option<f64> {
        self.rows.iter().find(|r| r.in_flight == k).map(|r| r.rate)
    }
}

/// Drives each of `servers` (pointed at `upstream`) with the Python client; a server whose run
/// fails is reported as skipped with the reason.
pub async fn run(
    root: &Path,
    plan: Plan,
    servers: &[ServerSpec],
    upstream: &PythonUpstream,
) -> Vec<PyClientResult> {
    let python = root.join("target/py/bin/python");
    let driver = root.join("crates/media-mcp-bench/drivers/python_client.py");
    let usable = std::process::Command::new(&python)
        .args(["-c", "import mcp.client.stdio"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !usable {
        return servers
            .iter()
            .map(|s| PyClientResult {
                name: s.name.clone(),
                skipped: Some("the `mcp` package is not installed in target/py".into()),
                rows: Vec::new(),
            })
            .collect();
    }
    let mut rounds: Vec<Result<Vec<Vec<PyClientRow>>, String>> =
        vec![Ok(Vec::new()); servers.len()];
    for _ in 0..plan.python_client_rounds {
        for (spec, runs) in servers.iter().zip(rounds.iter_mut()) {
            let Ok(done) = runs else { continue };
            eprintln!("bench: {} driven by the Python client", spec.name);
            match drive(&python, &driver, spec, upstream, plan).await {
                Ok(rows) => done.push(rows),
                Err(e) => *runs = Err(format!("failed: {e:#}")),
            }
        }
    }
    servers
        .iter()
        .zip(rounds)
        .map(|(spec, runs)| match runs {
            Ok(runs) => PyClientResult {
                name: spec.name.clone(),
                skipped: None,
                rows: medians(&runs),
            },
            Err(why) => PyClientResult {
                name: spec.name.clone(),
                skipped: Some(why),
                rows: Vec::new(),
            },
        })
        .collect()
}

/// One run of the driver against `spec`.
async fn drive(
    python: &Path,
    driver: &Path,
    spec: &ServerSpec,
    upstream: &PythonUpstream,
    plan: Plan,
) -> anyhow::Result<Vec<PyClientRow>> {
    let in_flight: Vec<String> = IN_FLIGHT.iter().map(usize::to_string).collect();
    let env = spec.env.iter().map(|(k, v)| {
        let v = if k == "OMBI_URL" {
            upstream.url()
        } else {
            v.clone()
        };
        (k.clone(), v)
    });
    let run = tokio::process::Command::new(python)
        .arg(driver)
        .arg(format!("--in-flight={}", in_flight.join(",")))
        .arg(format!("--calls-per-slot={}", plan.calls_per_slot))
        .arg(format!("--warmup={}", plan.warmup.min(20)))
        .arg("--")
        .arg(&spec.program)
        .args(&spec.args)
        .env_clear()
        .envs(env)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(DRIVER_TIMEOUT, run)
        .await
        .context("the Python client did not finish in time")?
        .context("starting the Python client")?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        bail!(
            "the Python client exited with {}: {}",
            output.status,
            stderr.lines().last().unwrap_or("")
        );
    }
    let mut rows = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let v: Value = serde_json::from_str(line).context("a line from the Python client")?;
        let num = |k: &str| v.get(k).and_then(Value::as_f64).unwrap_or(f64::NAN);
        let calls = num("calls");
        let per_call = |k: &str| Duration::from_secs_f64((num(k) / calls).max(0.0));
        rows.push(PyClientRow {
            in_flight: num("in_flight") as usize,
            rate: calls / num("seconds"),
            client_cpu: per_call("client_cpu"),
            server_cpu: per_call("server_cpu"),
        });
    }
    anyhow::ensure!(
        rows.len() == IN_FLIGHT.len(),
        "the Python client reported {} of {} runs",
        rows.len(),
        IN_FLIGHT.len()
    );
    Ok(rows)
}

/// Per in-flight count, the median of each figure over the rounds.
fn medians(runs: &[Vec<PyClientRow>]) -> Vec<PyClientRow> {
    fn median<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        v[(v.len() - 1) / 2]
    }
    IN_FLIGHT
        .iter()
        .filter_map(|&k| {
            let same: Vec<&PyClientRow> = runs
                .iter()
                .filter_map(|rows| rows.iter().find(|r| r.in_flight == k))
                .collect();
            (!same.is_empty()).then(|| PyClientRow {
                in_flight: k,
                rate: median(same.iter().map(|r| r.rate).collect()),
                client_cpu: median(same.iter().map(|r| r.client_cpu).collect()),
                server_cpu: median(same.iter().map(|r| r.server_cpu).collect()),
            })
        })
        .collect()
}

/// The report section.
pub fn render(results: &[PyClientResult], plan: Plan) -> String {
    let mut out = format!(
        "\n## Driven by the official Python client (stdio)\n\n\
         `crates/media-mcp-bench/drivers/python_client.py`: the `mcp` package's own `stdio_client` and \
         `ClientSession` (it lists the tools first and validates every result against the \
         tool's `outputSchema`, as agents built on it do) calls `read_search` with 1, 8 and 32 \
         calls in flight on one session, against the Python upstream answering after 20 ms. \
         {} calls per in-flight slot (at least {}); the servers take turns for {} round(s), a \
         fresh session each, and each figure is the median over the rounds. CPU per call (at 32 \
         in flight) is user + system time of the client process and of the server process.\n\n\
         | server | 1 | 8 | 32 | client CPU per call | server CPU per call |\n|---|---|---|---|---|---|\n",
        plan.calls_per_slot,
        plan.calls_per_slot * 4,
        plan.python_client_rounds
    );
    for r in results {
        let label = crate::cells::label(&r.name);
        if let Some(why) = &r.skipped {
            out.push_str(&format!("| {label} | skipped: {why} | | | | |\n"));
            continue;
        }
        let cell = |k: usize| r.rate(k).map_or("–".into(), |v| format!("{v:.1}"));
        let at32 = r.rows.iter().find(|row| row.in_flight == 32);
        let cpu = |d: Option<Duration>| {
            d.map_or("–".into(), |d| crate::cells::ms(d.as_secs_f64() * 1000.0))
        };
        out.push_str(&format!(
            "| {label} | {} | {} | {} | {} | {} |\n",
            cell(1),
            cell(8),
            cell(32),
            cpu(at32.map(|r| r.client_cpu)),
            cpu(at32.map(|r| r.server_cpu)),
        ));
    }
    out
}
