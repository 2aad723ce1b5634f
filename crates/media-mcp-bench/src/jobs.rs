//! The job registry's costs: a bridged call that goes through the registry without becoming a
//! job, against the same call with job mode off (two `serve` processes, the same fake
//! MoviePilot, calls taking turns), and the memory of `MEDIA_MCP_JOB_MAX` (64) finished jobs
//! whose results are at the contract's 64 KiB budget.

use std::path::Path;
use std::time::{Duration, Instant};

use media_mcp_fakes::moviepilot::FakeMoviePilot;
use media_mcp_fakes::moviepilot::faults::CallFault;
use serde_json::{Value, json};

use crate::client::{McpClient, ServerSpec};
use crate::plan::Plan;
use crate::stats::Summary;

/// Finished jobs held for the memory row (`MEDIA_MCP_JOB_MAX`'s default).
const FINISHED_JOBS: usize = 64;
/// How much a bridged call through the registry may add (median), in microseconds.
const TARGET_US: f64 = 20.0;

/// What the jobs rows measured.
#[derive(Debug, Clone)]
pub struct JobsResult {
    /// Calls with job mode on (through the registry, none becoming a job).
    pub on: Summary,
    /// The same calls with job mode off.
    pub off: Summary,
    /// Resident memory before and after the finished jobs, bytes.
    pub rss_before: Option<u64>,
    /// See `rss_before`.
    pub rss_after: Option<u64>,
    /// Bytes of one finished result (its `structuredContent` as JSON).
    pub result_bytes: usize,
}

fn spec(
    harness: &Path,
    wasm: &Path,
    cache: &Path,
    fake: &FakeMoviePilot,
    env: &[(&str, &str)],
) -> ServerSpec {
    let mut all = vec![
        ("MEDIA_MCP_COMPONENT".to_owned(), wasm.display().to_string()),
        (
            "MEDIA_MCP_CACHE_DIR".to_owned(),
            cache.display().to_string(),
        ),
        ("MOVIEPILOT_URL".to_owned(), fake.mcp_url()),
        ("MOVIEPILOT_API_KEY".to_owned(), fake.key().to_owned()),
    ];
    all.extend(env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
    ServerSpec {
        name: "ours-jobs".into(),
        program: harness.to_path_buf(),
        args: vec!["serve".into()],
        env: all,
    }
}

async fn started(spec: &ServerSpec) -> anyhow::Result<McpClient> {
    let client = McpClient::spawn(spec)?;
    client.initialize().await?;
    client.list_tools().await?;
    Ok(client)
}

async fn timed_call(client: &McpClient) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let result = client
        .call("search_media", &json!({"title": "Inception"}))
        .await?;
    let took = started.elapsed();
    anyhow::ensure!(
        result["structuredContent"]["ok"] == true,
        "search_media failed: {result}"
    );
    Ok(took)
}

/// Measures both rows.
///
/// # Errors
///
/// The harness or the fake fails, or a call does not answer as expected.
pub async fn run(root: &Path, plan: Plan) -> anyhow::Result<JobsResult> {
    let wasm = root.join("target/media_mcp.wasm");
    let harness = crate::harness(root);
    let cache = root.join("target/bench/cwasm-cache");
    eprintln!("bench: job registry");
    let fake = FakeMoviePilot::builder().overview_chars(200_000).start();
    let on = started(&spec(&harness, &wasm, &cache, &fake, &[])).await?;
    let off = started(&spec(
        &harness,
        &wasm,
        &cache,
        &fake,
        &[("MEDIA_MCP_JOB_AFTER_MS", "0")],
    ))
    .await?;
    for _ in 0..plan.warmup.max(1) {
        timed_call(&on).await?;
        timed_call(&off).await?;
    }
    let calls = plan.calls.max(1);
    let (mut with, mut without) = (Vec::with_capacity(calls), Vec::with_capacity(calls));
    for _ in 0..calls {
        with.push(timed_call(&on).await?);
        without.push(timed_call(&off).await?);
    }
    on.shutdown().await;
    off.shutdown().await;

    // 64 calls, each late enough to become a job, each answering a record at the budget.
    fake.set_call_fault(
        "moviepilot_api",
        CallFault::Late(Duration::from_millis(200)),
    );
    let held = started(&spec(
        &harness,
        &wasm,
        &cache,
        &fake,
        &[
            ("MEDIA_MCP_JOB_AFTER_MS", "20"),
            ("MEDIA_MCP_JOB_MAX_PER_USER", "64"),
        ],
    ))
    .await?;
    let rss_before = held.rss();
    let mut ids = Vec::with_capacity(FINISHED_JOBS);
    for i in 0..FINISHED_JOBS {
        let handle = held
            .call(
                "moviepilot_api",
                &json!({"operation_id": "media.detail", "path_params": {"media_id": (27205 + i).to_string()}}),
            )
            .await?;
        let data = &handle["structuredContent"]["data"];
        anyhow::ensure!(
            data["kind"] == "job",
            "call {i} did not become a job: {handle}"
        );
        ids.push(data["job_id"].clone());
    }
    let mut result_bytes = 0;
    for id in &ids {
        let result = finished(&held, id).await?;
        result_bytes = result["structuredContent"].to_string().len();
    }
    let rss_after = held.rss();
    held.shutdown().await;
    Ok(JobsResult {
        on: Summary::of(&with),
        off: Summary::of(&without),
        rss_before,
        rss_after,
        result_bytes,
    })
}

/// The job's result, once it has ended.
async fn finished(client: &McpClient, id: &Value) -> anyhow::Result<Value> {
    for _ in 0..100 {
        let result = client.call("job_status", &json!({"job_id": id})).await?;
        if result["structuredContent"]["data"]["kind"] != "job" {
            return Ok(result);
        }
    }
    anyhow::bail!("job {id} did not end")
}

fn added_us(r: &JobsResult) -> f64 {
    (r.on.median_ms - r.off.median_ms) * 1000.0
}

/// The targets-table row.
pub fn targets(out: &mut String, r: &JobsResult) {
    use std::fmt::Write as _;
    let added = added_us(r);
    let _ = writeln!(
        out,
        "| a bridged call through the job registry (not becoming a job) adds ≤ {TARGET_US:.0} µs over job mode off (medians, same run) | {added:.1} µs ({:.3}×) | {} |",
        r.on.median_ms / r.off.median_ms,
        crate::cells::verdict(added <= TARGET_US)
    );
}

/// The report section.
pub fn render(r: &JobsResult, plan: Plan) -> String {
    let mut out = String::from("\n## Jobs: the registry's cost\n\n");
    out.push_str(&format!(
        "Two `media-mcp serve` processes against the same fake MoviePilot, one with job mode on \
         (`MEDIA_MCP_JOB_AFTER_MS` 45000: every bridged call is registered, none lasts long \
         enough to become a job) and one with it off (`0`), {} sequential `search_media` calls \
         each, taking turns call by call.{}\n\n",
        r.on.runs,
        if plan.smoke {
            " **Smoke run: a few calls only, not a measurement.**"
        } else {
            ""
        }
    ));
    out.push_str("| job mode | calls | median ms | p99 ms |\n|---|---:|---:|---:|\n");
    for (mode, s) in [("on (through the registry)", r.on), ("off", r.off)] {
        out.push_str(&format!(
            "| {mode} | {} | {:.3} | {:.3} |\n",
            s.runs, s.median_ms, s.p99_ms
        ));
    }
    out.push_str(&format!(
        "\nAdded by the registry: **{:.1} µs** median ({:.3}×).\n\n",
        added_us(r),
        r.on.median_ms / r.off.median_ms
    ));
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    match (r.rss_before, r.rss_after) {
        (Some(before), Some(after)) => out.push_str(&format!(
            "Memory of {FINISHED_JOBS} finished jobs (one server, threshold 20 ms, each call a \
             `media.detail` whose record is cut to the result budget: {} bytes of \
             `structuredContent`, the same again as text): resident memory {:.1} MiB before the \
             calls, {:.1} MiB once all have ended and been read, **{:+.1} MiB** ({:.0} KiB per \
             job; the registry accounts at most 256 KiB each and keeps at most \
             `MEDIA_MCP_JOB_MAX` × 256 KiB).\n",
            r.result_bytes,
            mib(before),
            mib(after),
            mib(after) - mib(before),
            (after as f64 - before as f64) / 1024.0 / FINISHED_JOBS as f64,
        )),
        _ => out.push_str("Memory of the finished jobs: not measured (no /proc).\n"),
    }
    out
}
