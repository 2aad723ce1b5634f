//! Renders the results as `BENCHMARKS.md`: the performance targets with their measured values
//! first, then every table side by side (floor, ours, Python SDK peer, TypeScript SDK peer) and
//! the micro-benchmarks. The method and the hand-written analysis are in `crates/media-mcp-bench/NOTES.md`, which
//! the report links to.

use std::fmt::Write as _;

use crate::big::{BIG_BODY_BYTES, BODY_CAP_BYTES};
use crate::bridge::BridgeResult;
use crate::cells::{label, ms, verdict};
use crate::http::HttpResult;
use crate::measure::{IN_FLIGHT, Results, ServerResult};
use crate::micro::Micro;
use crate::plan::Plan;
use crate::pyclient::PyClientResult;
use crate::stats::Summary;

/// "Small constant" of the 50 MB target: what the guest and host may hold on top of the cap
/// (a second copy while the capped buffer is grown, hyper's read buffers, the error result).
pub const BIG_BODY_SLACK_BYTES: u64 = 4 * 1024 * 1024;
const MIB: f64 = 1024.0 * 1024.0;

fn micro_time(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.2} ms")
    } else if v >= 0.001 {
        format!("{:.1} µs", v * 1000.0)
    } else {
        format!("{:.0} ns", v * 1e6)
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / MIB)
}

fn ratio(a: f64, b: f64) -> String {
    if a.is_finite() && b.is_finite() && b > 0.0 {
        format!("{:.1}×", a / b)
    } else {
        "–".into()
    }
}

fn rate(r: &ServerResult, k: usize) -> Option<f64> {
    r.throughput.iter().find(|(n, _)| *n == k).map(|(_, v)| *v)
}

/// The call overhead targets over the native floor (paired), in milliseconds.
const OVERHEAD_MEDIAN_MS: f64 = 0.45;
const OVERHEAD_P99_MS: f64 = 1.0;
/// The server's CPU time per sequential call, in milliseconds.
const CPU_PER_CALL_MS: f64 = 0.6;
/// Cold start with the cache, as a multiple of the floor's (medians).
const COLD_START_FLOOR_RATIO: f64 = 5.0;

/// One figure of a server's results (the `usize` is the calls in flight, where it matters).
type Figure = fn(&ServerResult, usize) -> Option<f64>;

/// One row of the comparison with the peers: its label, whether more is better, and the
/// value of a server's row.
struct PeerRow {
    label: String,
    higher_is_better: bool,
    value: Figure,
    arg: usize,
    unit: fn(f64) -> String,
}

fn peer_rows() -> Vec<PeerRow> {
    let per_second = |v: f64| format!("{v:.0}/s");
    let mut rows = vec![
        PeerRow {
            label: "latency median".into(),
            higher_is_better: false,
            value: |r, _| r.latency.map(|l| l.median_ms),
            arg: 0,
            unit: ms,
        },
        PeerRow {
            label: "latency p99".into(),
            higher_is_better: false,
            value: |r, _| r.latency.map(|l| l.p99_ms),
            arg: 0,
            unit: ms,
        },
    ];
    let upstreams: [(&str, Figure); 2] = [
        ("fake Ombi", rate),
        ("Python upstream", python_upstream_rate),
    ];
    for (upstream, value) in upstreams {
        for k in IN_FLIGHT {
            rows.push(PeerRow {
                label: format!("throughput, {k} in flight ({upstream})"),
                higher_is_better: true,
                value,
                arg: k,
                unit: per_second,
            });
        }
    }
    rows
}

/// "Ours ahead of both SDK peers" for every [`peer_rows`] row, then one row for all of them.
fn ahead_of_peers(out: &mut String, results: &Results) {
    let (Some(ours), Some(python), Some(ts)) = (
        results.server("ours"),
        results.server("python"),
        results.server("typescript"),
    ) else {
        let _ = writeln!(
            out,
            "| ahead of both SDK peers on every row | not measured (a peer was skipped) | – |"
        );
        return;
    };
    let (mut met, mut total) = (0, 0);
    for row in peer_rows() {
        let get = |r: &ServerResult| (row.value)(r, row.arg);
        let (Some(o), Some(p), Some(t)) = (get(ours), get(python), get(ts)) else {
            let _ = writeln!(
                out,
                "| ahead of both SDK peers: {} | not measured | – |",
                row.label
            );
            continue;
        };
        let ahead = if row.higher_is_better {
            o > p && o > t
        } else {
            o < p && o < t
        };
        total += 1;
        met += usize::from(ahead);
        let _ = writeln!(
            out,
            "| ahead of both SDK peers: {} | ours {} vs Python {}, TypeScript {} | {} |",
            row.label,
            (row.unit)(o),
            (row.unit)(p),
            (row.unit)(t),
            verdict(ahead)
        );
    }
    let _ = writeln!(
        out,
        "| ahead of both SDK peers on every row above | {met} of {total} rows | {} |",
        verdict(total > 0 && met == total)
    );
}

/// "Ours ahead of both SDK peers" when the official Python client drives all three.
fn ahead_under_python_client(out: &mut String, driven: &[PyClientResult]) {
    let find = |name: &str| {
        driven
            .iter()
            .find(|r| r.name == name && r.skipped.is_none())
    };
    let (Some(ours), Some(python), Some(ts)) = (find("ours"), find("python"), find("typescript"))
    else {
        if !driven.is_empty() {
            let _ = writeln!(
                out,
                "| driven by the official Python client: ahead of both SDK peers | not measured (a server was skipped) | – |"
            );
        }
        return;
    };
    for k in IN_FLIGHT {
        let (Some(o), Some(p), Some(t)) = (ours.rate(k), python.rate(k), ts.rate(k)) else {
            continue;
        };
        let _ = writeln!(
            out,
            "| driven by the official Python client: ahead of both SDK peers, {k} in flight | ours {o:.0}/s vs Python {p:.0}/s, TypeScript {t:.0}/s | {} |",
            verdict(o > p && o > t)
        );
    }
}

fn python_upstream_rate(r: &ServerResult, k: usize) -> Option<f64> {
    r.throughput_python_upstream
        .iter()
        .find(|(n, _)| *n == k)
        .map(|(_, v)| *v)
}

/// The rows measured beside the servers' own: the MoviePilot bridge and the job registry.
#[derive(Debug, Clone, Copy)]
pub struct Extra<'a> {
    /// The bridge rows, when measured.
    pub bridge: Option<&'a BridgeResult>,
    /// The job registry's rows, when measured.
    pub jobs: Option<&'a crate::jobs::JobsResult>,
}

fn targets(out: &mut String, results: &Results, over_http: &[HttpResult], extra: Extra<'_>) {
    let floor = results.server("floor");
    let ours = results.server("ours");
    let python = results.server("python");
    let ts = results.server("typescript");
    let _ = writeln!(
        out,
        "## Targets\n\n| target | measured | verdict |\n|---|---|---|"
    );
    if let Some(o) = ours {
        if let (Some(one), Some(many)) = (rate(o, 1), rate(o, 32)) {
            let x = many / one;
            let _ = writeln!(
                out,
                "| 32 calls in flight ≥ 20× the throughput of 1 (upstream answers after 20 ms) | {x:.1}× ({many:.0} vs {one:.1} calls/s) | {} |",
                verdict(x >= 20.0)
            );
        }
        if let Some(d) = o.paired_overhead {
            let _ = writeln!(
                out,
                "| `tools/call` overhead over the floor ≤ {} at the median | {} (paired, {} calls) | {} |",
                ms(OVERHEAD_MEDIAN_MS),
                ms(d.median_ms),
                d.runs,
                verdict(d.median_ms <= OVERHEAD_MEDIAN_MS)
            );
            let _ = writeln!(
                out,
                "| `tools/call` overhead over the floor ≤ {} at p99 | {} (paired, {} calls) | {} |",
                ms(OVERHEAD_P99_MS),
                ms(d.p99_ms),
                d.runs,
                verdict(d.p99_ms <= OVERHEAD_P99_MS)
            );
        }
        if let Some(cpu) = o.cpu_per_call {
            let cpu_ms = cpu.as_secs_f64() * 1000.0;
            let _ = writeln!(
                out,
                "| CPU per `tools/call` ≤ {} (server process, sequential calls) | {} | {} |",
                ms(CPU_PER_CALL_MS),
                ms(cpu_ms),
                verdict(cpu_ms <= CPU_PER_CALL_MS)
            );
        }
        if let (Some(f), Some(c)) = (floor.and_then(|f| f.cold), o.cold) {
            let x = c.median_ms / f.median_ms;
            let _ = writeln!(
                out,
                "| cold start with the cache ≤ {COLD_START_FLOOR_RATIO:.0}× the floor (medians) | {x:.2}× ({} vs {}) | {} |",
                ms(c.median_ms),
                ms(f.median_ms),
                verdict(x <= COLD_START_FLOOR_RATIO)
            );
            for (peer, name, want) in [(python, "Python SDK", 20.0), (ts, "TypeScript SDK", 5.0)] {
                match peer.and_then(|p| p.cold) {
                    Some(p) => {
                        let x = p.median_ms / c.median_ms;
                        let _ = writeln!(
                            out,
                            "| cold start ≥ {want:.0}× faster than the {name} peer | {x:.1}× ({} vs {}) | {} |",
                            ms(c.median_ms),
                            ms(p.median_ms),
                            verdict(x >= want)
                        );
                    }
                    None => {
                        let _ = writeln!(
                            out,
                            "| cold start ≥ {want:.0}× faster than the {name} peer | not measured (peer skipped) | – |"
                        );
                    }
                }
            }
        }
    }
    ahead_of_peers(out, results);
    ahead_under_python_client(out, &results.python_client);
    crate::http::targets(out, over_http);
    if let Some(bridge) = extra.bridge {
        crate::bridge::targets(out, bridge);
    }
    if let Some(jobs) = extra.jobs {
        crate::jobs::targets(out, jobs);
    }
    let _ = writeln!(
        out,
        "| `target/media_mcp.wasm` ≤ 1 MiB (1,048,576 bytes; tested) | {} bytes | {} |",
        results.wasm_bytes,
        verdict(results.wasm_bytes <= 1 << 20)
    );
    let _ = writeln!(
        out,
        "| `target/media_mcp_http.wasm` size reported | {} | reported |",
        results
            .http_wasm_bytes
            .map_or("not built".into(), |b| format!("{b} bytes"))
    );
    for b in ours.map_or(&[][..], |o| &o.big[..]) {
        let limit = BODY_CAP_BYTES + BIG_BODY_SLACK_BYTES;
        match b.rss_growth {
            Some(g) => {
                let _ = writeln!(
                    out,
                    "| 50 MiB body ({}): peak RSS grows ≤ the 4 MiB cap + {} | {} in {} ({}) | {} |",
                    b.variant.label(),
                    mib(BIG_BODY_SLACK_BYTES),
                    mib(g),
                    ms(b.time.median_ms),
                    b.outcome,
                    verdict(g <= limit)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "| 50 MiB body ({}) bounded | not measured | – |",
                    b.variant.label()
                );
            }
        }
    }
    out.push('\n');
}

fn summary_cells(s: Option<Summary>) -> String {
    match s {
        Some(s) => format!("{} | {} | {}", s.runs, ms(s.median_ms), ms(s.p99_ms)),
        None => "– | – | –".into(),
    }
}

/// The Markdown report.
pub fn render(
    results: &Results,
    over_http: &[HttpResult],
    extra: Extra<'_>,
    micro: &[Micro],
    plan: Plan,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Benchmarks\n\nGenerated by `./scripts/bench.sh`{} — do not edit by hand; rerun it. Every \
         figure below comes from the same run on the same machine, and is given as a ratio to \
         its baseline measured in that run, because absolute times on shared 2-core machines are \
         noisy. Medians and p99 are nearest-rank over the stated number of runs. The method and \
         the analysis (why, and what would close each gap) are in [crates/media-mcp-bench/NOTES.md](crates/media-mcp-bench/NOTES.md).\n",
        if plan.smoke {
            " --smoke (a check that the suite works; the counts are too small to mean anything)"
        } else {
            ""
        }
    );
    let machine: Vec<String> = results
        .environment
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    let _ = writeln!(out, "Machine: {}.\n", machine.join("; "));
    targets(&mut out, results, over_http, extra);

    let floor = results.server("floor");
    let _ = writeln!(
        out,
        "## Cold start: spawn → first `tools/list` answer\n\n\
         `initialize`, `notifications/initialized`, `tools/list`, timed by the same client from \
         just before `spawn`.\n\n| server | runs | median | p99 | × floor (median) | `tools/list` answer |\n|---|---|---|---|---|---|"
    );
    let floor_cold = floor.and_then(|f| f.cold).map_or(f64::NAN, |c| c.median_ms);
    for r in &results.servers {
        if let Some(why) = &r.skipped {
            let _ = writeln!(out, "| {} | skipped: {why} | | | | |", r.name);
            continue;
        }
        let label = if r.name == "ours" {
            "ours (cache warm)".into()
        } else {
            label(&r.name)
        };
        let _ = writeln!(
            out,
            "| {label} | {} | {} | {} bytes |",
            summary_cells(r.cold),
            ratio(r.cold.map_or(f64::NAN, |c| c.median_ms), floor_cold),
            r.list_bytes.unwrap_or(0)
        );
        if r.name == "ours" {
            let nc = results.ours_cold_no_cache;
            let _ = writeln!(
                out,
                "| ours (`--no-cache`: compiles the component) | {} | {} | same |",
                summary_cells(nc),
                ratio(nc.map_or(f64::NAN, |c| c.median_ms), floor_cold)
            );
        }
    }

    let _ = writeln!(
        out,
        "\n## `tools/call` latency: `read_search` `{{\"query\":\"matrix\",\"media\":\"movie\"}}`\n\n\
         Sequential calls over one session; the floor is a native GET of the same fixture from the same \
         fake Ombi on a fresh connection, parsed with serde_json. Every call is paired with a floor GET \
         made just before it, so both see the same load: the overhead is each call minus its GET, and \
         its median and p99 are over those pairs. CPU per call is the server process's user + system \
         time (`/proc/PID/stat`, all threads) over those calls divided by their number; the floor's \
         GET runs inside the driver, so it has none.\n\n\
         | server | runs | median | p99 | overhead over floor, paired (median / p99) | × floor (median) | CPU per call |\n|---|---|---|---|---|---|---|"
    );
    let fl = floor.and_then(|f| f.latency);
    for r in results.servers.iter().filter(|r| r.skipped.is_none()) {
        let overhead = match r.paired_overhead {
            Some(d) => format!("{} / {}", ms(d.median_ms), ms(d.p99_ms)),
            None => "–".into(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {overhead} | {} | {} |",
            label(&r.name),
            summary_cells(r.latency),
            ratio(
                r.latency.map_or(f64::NAN, |l| l.median_ms),
                fl.map_or(f64::NAN, |f| f.median_ms)
            ),
            ms(r.cpu_per_call
                .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0))
        );
    }

    let _ = writeln!(
        out,
        "\n## Throughput: calls per second with 1, 8 and 32 calls in flight\n\n\
         The fake Ombi answers the search after 20 ms. Calls per run: {} per in-flight slot, at least {}.\n\n\
         | server | 1 | 8 | 32 | 32 vs 1 | 32 vs floor at 32 |\n|---|---|---|---|---|---|",
        plan.calls_per_slot,
        plan.calls_per_slot * 4
    );
    throughput_table(&mut out, results, rate);
    let _ = writeln!(
        out,
        "\n### The same against a Python upstream\n\n\
         `crates/media-mcp-bench/upstream/slow_ombi.py`: Python's `ThreadingHTTPServer` (a thread per connection, \
         HTTP/1.1 keep-alive) answering the same fixture after 20 ms, so what each server's \
         upstream connections cost shows. Each server gets a second session pointed at it.\n\n\
         | server | 1 | 8 | 32 | 32 vs 1 | 32 vs floor at 32 |\n|---|---|---|---|---|---|"
    );
    match &results.python_upstream_skipped {
        Some(why) => {
            let _ = writeln!(out, "| all | skipped: {why} | | | | |");
        }
        None => throughput_table(&mut out, results, python_upstream_rate),
    }
    if !results.python_client.is_empty() {
        out.push_str(&crate::pyclient::render(&results.python_client, plan));
    }
    let _ = writeln!(
        out,
        "\n## Memory\n\n| server | peak RSS (after the latency and throughput runs) |\n|---|---|"
    );
    for r in results
        .servers
        .iter()
        .filter(|r| r.skipped.is_none() && r.name != "floor")
    {
        let _ = writeln!(
            out,
            "| {} | {} |",
            label(&r.name),
            r.peak_rss.map_or("–".into(), mib)
        );
    }
    let _ = writeln!(
        out,
        "\n## A {} MiB upstream body\n\nThe search route answers {} bytes: a valid JSON array with \
         `Content-Length` (the peers parse it; the component refuses it from the header), and filler \
         bytes chunked without a length (only reading finds out: the byte cap must work while \
         reading). Peak RSS growth = the server's `VmHWM` after the call minus its `VmRSS` before it (the peak \
         is reset through `/proc/PID/clear_refs` first); the largest over the runs.\n\n\
         | server | body | runs | median | p99 | peak RSS growth | outcome |\n|---|---|---|---|---|---|---|",
        BIG_BODY_BYTES >> 20,
        BIG_BODY_BYTES
    );
    for r in results.servers.iter().filter(|r| r.skipped.is_none()) {
        for b in &r.big {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                label(&r.name),
                b.variant.label(),
                summary_cells(Some(b.time)),
                b.rss_growth.map_or("– (in-process)".into(), mib),
                b.outcome
            );
        }
    }

    let _ = writeln!(
        out,
        "\n## Micro-benchmarks: native builds of the component's own code (criterion, \
         `crates/media-mcp/benches/micro.rs`; time per iteration over criterion's samples)\n\n\
         | benchmark | samples | median | p99 |\n|---|---|---|---|"
    );
    if micro.is_empty() {
        let _ = writeln!(out, "| not run | | | |");
    }
    for m in micro {
        let s = m.per_iteration;
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            m.id,
            s.runs,
            micro_time(s.median_ms),
            micro_time(s.p99_ms)
        );
    }
    out
}

/// The rows of a throughput table, by `rate_of` (one of the two upstreams).
fn throughput_table(out: &mut String, results: &Results, rate_of: Figure) {
    let floor32 = results
        .server("floor")
        .and_then(|f| rate_of(f, 32))
        .unwrap_or(f64::NAN);
    for r in results.servers.iter().filter(|r| r.skipped.is_none()) {
        let cells: Vec<String> = IN_FLIGHT
            .iter()
            .map(|k| rate_of(r, *k).map_or("–".into(), |v| format!("{v:.1}")))
            .collect();
        let one = rate_of(r, 1).unwrap_or(f64::NAN);
        let many = rate_of(r, 32).unwrap_or(f64::NAN);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            label(&r.name),
            cells.join(" | "),
            ratio(many, one),
            ratio(many, floor32)
        );
    }
}
