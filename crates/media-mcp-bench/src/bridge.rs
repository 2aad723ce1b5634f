//! The MoviePilot bridge rows: `host-harness serve` with `MOVIEPILOT_URL` pointing at the fake
//! MoviePilot (`media_mcp_fakes::moviepilot`), whose `moviepilot_api` schema is generated to
//! the size of MoviePilot's real one (about 0.5 MB, 200+ operations). For each schema mode it
//! measures, after warm-up, sequential calls of a small bridged tool (`search_media`) and of
//! `moviepilot_api` (`media.search`, and `subscription.list`, whose arguments are checked
//! against the router's recursive `JsonData-Input` definition), each paired with a native floor: the same `tools/call`
//! JSON-RPC POST sent by a native hyper client straight to the same fake, the answer parsed
//! with serde_json. It also counts the requests MoviePilot received per call and the size of
//! the `tools/list` answer.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Instant;

use bytes::Bytes;
use http_body_util::Full;
use media_mcp_fakes::moviepilot::{FakeMoviePilot, MCP_PATH};
use serde_json::{Value, json};

use crate::client::{McpClient, ServerSpec};
use crate::floor;
use crate::plan::Plan;
use crate::stats::Summary;

/// Operations generated on top of the fake's own in `moviepilot_api`'s schema.
pub const GENERATED_OPERATIONS: usize = 210;

/// One tool's calls in one schema mode.
#[derive(Debug, Clone)]
pub struct ToolRow {
    /// The tool called.
    pub tool: &'static str,
    /// Call latency through the harness.
    pub latency: Summary,
    /// The paired native POST.
    pub floor: Summary,
    /// Each call minus the floor POST made just before it.
    pub overhead: Summary,
    /// Requests MoviePilot received per measured call.
    pub requests_per_call: f64,
}

/// One schema mode.
#[derive(Debug, Clone)]
pub struct ModeResult {
    /// `compact` or `full`.
    pub mode: &'static str,
    /// Bytes of the harness's `tools/list` answer.
    pub list_bytes: usize,
    /// The small tool, then `moviepilot_api` (`media.search`, then `subscription.list`).
    pub rows: Vec<ToolRow>,
}

/// The whole bridge measurement.
#[derive(Debug, Clone)]
pub struct BridgeResult {
    /// Bytes of `moviepilot_api`'s full schema (compact JSON).
    pub schema_bytes: usize,
    /// Operations in it.
    pub operations: usize,
    /// Per schema mode.
    pub modes: Vec<ModeResult>,
}

/// The measured rows: a label, the tool called. `moviepilot_api subscription.list` checks its
/// `query` against the router's recursive `JsonData-Input` definition.
const ROWS: [(&str, &str); 3] = [
    ("search_media", "search_media"),
    ("moviepilot_api", "moviepilot_api"),
    ("moviepilot_api subscription.list", "moviepilot_api"),
];

/// The tool a row calls.
fn tool_of(row: &str) -> &'static str {
    ROWS.iter()
        .find(|(l, _)| *l == row)
        .map_or("search_media", |(_, t)| t)
}

/// The `tools/call` arguments each measured row gets.
fn arguments(row: &str) -> Value {
    match row {
        "moviepilot_api" => {
            json!({"operation_id": "media.search", "query": {"title": "Inception", "page": 1}})
        }
        "moviepilot_api subscription.list" => json!({"operation_id": "subscription.list",
            "query": {"page": 1, "count": 20, "filter": {"state": ["R", "P"], "sites": [[1, 2], {"any": null}]}}}),
        _ => json!({"title": "Inception"}),
    }
}

/// POSTs one JSON-RPC `tools/call` to the fake on a fresh connection (as the sandbox's client
/// does) and parses the answer.
async fn floor_post(addr: SocketAddr, key: &str, row: &str) -> anyhow::Result<()> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool_of(row), "arguments": arguments(row)}});
    let request = http::Request::post(MCP_PATH)
        .header(http::header::HOST, addr.to_string())
        .header("x-api-key", key)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(Full::new(Bytes::from(body.to_string())))?;
    let (answer, _) = floor::send_json(addr, request).await?;
    anyhow::ensure!(answer.get("result").is_some(), "no result: {answer}");
    Ok(())
}

async fn call_ok(client: &McpClient, row: &str) -> anyhow::Result<()> {
    let result = client.call(tool_of(row), &arguments(row)).await?;
    anyhow::ensure!(
        result["structuredContent"]["ok"] == true,
        "{row} failed: {result}"
    );
    Ok(())
}

async fn measure_mode(
    harness: &Path,
    wasm: &Path,
    cache_dir: &Path,
    fake: &FakeMoviePilot,
    mode: &'static str,
    plan: Plan,
) -> anyhow::Result<ModeResult> {
    let spec = ServerSpec {
        name: format!("ours-moviepilot-{mode}"),
        program: harness.to_path_buf(),
        args: vec!["serve".into()],
        env: vec![
            ("MEDIA_MCP_COMPONENT".into(), wasm.display().to_string()),
            (
                "MEDIA_MCP_CACHE_DIR".into(),
                cache_dir.display().to_string(),
            ),
            ("MOVIEPILOT_URL".into(), fake.mcp_url()),
            ("MOVIEPILOT_API_KEY".into(), fake.key().to_owned()),
            ("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE".into(), mode.into()),
        ],
    };
    let client = McpClient::spawn(&spec)?;
    client.initialize().await?;
    let list_bytes = client.list_tools().await?;
    let tools = ROWS.map(|(label, _)| label);
    for _ in 0..plan.warmup.max(1) {
        for tool in tools {
            call_ok(&client, tool).await?;
        }
    }
    let calls = (plan.calls / 2).max(1);
    // The rows take turns call by call, so a busy spell of the machine lands on all of them.
    let mut times = vec![Vec::with_capacity(calls); tools.len()];
    let mut floors = vec![Vec::with_capacity(calls); tools.len()];
    let mut overheads = vec![Vec::with_capacity(calls); tools.len()];
    let mut requests = vec![0usize; tools.len()];
    for _ in 0..calls {
        for (row, tool) in tools.iter().enumerate() {
            let started = Instant::now();
            floor_post(fake.addr(), fake.key(), tool).await?;
            let floor = started.elapsed();
            fake.clear_requests();
            let started = Instant::now();
            call_ok(&client, tool).await?;
            let call = started.elapsed();
            requests[row] += fake.request_counts().values().sum::<usize>();
            overheads[row].push((call.as_secs_f64() - floor.as_secs_f64()) * 1000.0);
            times[row].push(call);
            floors[row].push(floor);
        }
    }
    let rows = tools
        .iter()
        .enumerate()
        .map(|(row, tool)| ToolRow {
            tool,
            latency: Summary::of(&times[row]),
            floor: Summary::of(&floors[row]),
            overhead: Summary::of_ms(std::mem::take(&mut overheads[row])),
            requests_per_call: requests[row] as f64 / calls as f64,
        })
        .collect();
    client.shutdown().await;
    Ok(ModeResult {
        mode,
        list_bytes,
        rows,
    })
}

/// Runs the bridge rows.
///
/// # Errors
///
/// The harness or the fake fails, or a call does not succeed.
pub async fn run(root: &Path, plan: Plan) -> anyhow::Result<BridgeResult> {
    let wasm = root.join("target/media_mcp.wasm");
    let harness = crate::harness(root);
    for path in [&wasm, &harness] {
        anyhow::ensure!(
            path.is_file(),
            "{} is missing: run scripts/bench.sh",
            path.display()
        );
    }
    let cache_dir = root.join("target/bench/cwasm-cache");
    let fake = FakeMoviePilot::builder()
        .api_operations(GENERATED_OPERATIONS)
        .page_size(100)
        .start();
    let schema = media_mcp_fakes::moviepilot::api_schema_with(GENERATED_OPERATIONS);
    let operations = schema["oneOf"].as_array().map_or(0, Vec::len);
    let mut modes = Vec::new();
    for mode in ["compact", "full"] {
        eprintln!("bench: MoviePilot bridge, {mode} schemas");
        modes.push(measure_mode(&harness, &wasm, &cache_dir, &fake, mode, plan).await?);
    }
    Ok(BridgeResult {
        schema_bytes: schema.to_string().len(),
        operations,
        modes,
    })
}

/// The targets-table rows: per schema mode, the call checked against the recursive definition
/// no slower than the small tool (medians of the overhead over each call's paired floor).
pub fn targets(out: &mut String, r: &BridgeResult) {
    use std::fmt::Write as _;
    let overhead = |m: &ModeResult, tool: &str| {
        m.rows
            .iter()
            .find(|row| row.tool == tool)
            .map(|row| row.overhead.median_ms)
    };
    for m in &r.modes {
        let (Some(small), Some(recursive)) = (
            overhead(m, ROWS[0].0),
            overhead(m, "moviepilot_api subscription.list"),
        ) else {
            continue;
        };
        let _ = writeln!(
            out,
            "| MoviePilot bridge, `{}` schema: `moviepilot_api subscription.list` (arguments checked against the recursive `JsonData-Input`) no slower than the small tool `search_media` (overhead over the paired floor, medians) | {} vs {} | {} |",
            m.mode,
            crate::cells::ms(recursive),
            crate::cells::ms(small),
            crate::cells::verdict(recursive <= small)
        );
    }
}

/// The report section.
pub fn render(r: &BridgeResult, plan: Plan) -> String {
    let mut out = String::new();
    out.push_str("\n## MoviePilot bridge: one upstream round trip per call\n\n");
    out.push_str(&format!(
        "`host-harness serve` against the fake MoviePilot, whose `moviepilot_api` schema is \
         generated: {} operations, {} bytes of full schema. After warm-up (listing, one call \
         of each tool), {} sequential calls per row, the rows taking turns call by call, each \
         paired with a native floor: the same \
         `tools/call` POST sent by a native hyper client to the same fake on a fresh \
         connection. *Requests/call* counts what the fake received per measured call (the \
         floor's own POSTs excluded). Target: overhead over the floor ≤ 5 ms whatever the \
         schema size, one request per call.{}\n\n",
        r.operations,
        r.schema_bytes,
        r.modes
            .first()
            .and_then(|m| m.rows.first())
            .map_or(0, |row| row.latency.runs),
        if plan.smoke {
            " **Smoke run: a few calls only, not a measurement.**"
        } else {
            ""
        }
    ));
    out.push_str("| schema mode | tools/list bytes | tool | call median / p99 ms | floor POST median / p99 ms | ratio (median) | overhead median / p99 ms | requests/call | ≤ 5 ms |\n");
    out.push_str("|---|---:|---|---:|---:|---:|---:|---:|---|\n");
    for m in &r.modes {
        for row in &m.rows {
            out.push_str(&format!(
                "| {} | {} | `{}` | {:.2} / {:.2} | {:.2} / {:.2} | {:.2}× | {:.2} / {:.2} | {:.2} | {} |\n",
                m.mode,
                m.list_bytes,
                row.tool,
                row.latency.median_ms,
                row.latency.p99_ms,
                row.floor.median_ms,
                row.floor.p99_ms,
                row.latency.median_ms / row.floor.median_ms,
                row.overhead.median_ms,
                row.overhead.p99_ms,
                row.requests_per_call,
                if row.overhead.median_ms <= 5.0 {
                    "**met**"
                } else {
                    "short"
                },
            ));
        }
    }
    out
}
