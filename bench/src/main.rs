//! `media-mcp-bench`: the side-by-side benchmark suite (issue 6). Run it with
//! `scripts/bench.sh`, which builds and installs what it needs first.
//!
//! One fake Ombi (`host_harness::demo::FakeOmbi`, loopback, its own thread) serves every
//! server in the run, so all figures come from the same machine state and are reported as
//! ratios to baselines measured minutes apart at most:
//!
//! * **floors**: `bench-floor-server` (a native stdio responder with canned answers) for cold
//!   starts, and a native hyper GET + serde_json parse ([`floor`]) for calls;
//! * **peers**: minimal servers on the official Python and TypeScript MCP SDKs
//!   (`bench/peers/`), skipped with a note when their packages are not installed;
//! * **ours**: `host-harness serve` with `target/media_mcp.wasm`.
//!
//! `--smoke` runs every measurement a few times only, to check that the suite still works
//! (CI); it writes `target/bench/BENCHMARKS.smoke.md` instead of `BENCHMARKS.md`. Nothing here
//! asserts a timing: targets are reported, not enforced.

mod big;
mod client;
mod floor;
mod machine;
mod measure;
mod micro;
mod report;
mod stats;

use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// Run sizes.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// Smoke mode (CI): tiny counts, results not written to BENCHMARKS.md.
    pub smoke: bool,
    /// Cold starts of fast servers (floor, ours with cache).
    pub cold_runs: usize,
    /// Cold starts of slow servers (peers, ours without cache).
    pub slow_cold_runs: usize,
    /// Sequential `tools/call`s (and floor GETs) for latency.
    pub calls: usize,
    /// Unmeasured calls before that.
    pub warmup: usize,
    /// Calls per in-flight slot in the throughput runs.
    pub calls_per_slot: usize,
    /// Calls with the 50 MB body.
    pub big_runs: usize,
}

impl Plan {
    fn full() -> Plan {
        Plan {
            smoke: false,
            cold_runs: 30,
            slow_cold_runs: 10,
            calls: 1000,
            warmup: 50,
            calls_per_slot: 12,
            big_runs: 3,
        }
    }

    fn smoke() -> Plan {
        Plan {
            smoke: true,
            cold_runs: 3,
            slow_cold_runs: 1,
            calls: 20,
            warmup: 2,
            calls_per_slot: 2,
            big_runs: 1,
        }
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ sits in the repository")
        .to_path_buf()
}

fn main() -> anyhow::Result<()> {
    let mut plan = Plan::full();
    let mut out = None;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--smoke" => plan = Plan::smoke(),
            "-h" | "--help" => {
                println!(
                    "usage: media-mcp-bench [--smoke] [--out FILE]\n(run it through scripts/bench.sh)"
                );
                return Ok(());
            }
            other if other.starts_with("--out=") => out = Some(PathBuf::from(&other[6..])),
            other => anyhow::bail!("unknown argument {other:?} (try --help)"),
        }
    }
    let root = repo_root();
    let out = out.unwrap_or_else(|| {
        if plan.smoke {
            root.join("target/bench/BENCHMARKS.smoke.md")
        } else {
            root.join("BENCHMARKS.md")
        }
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let load_before = machine::load_average();
    let mut results = runtime.block_on(measure::run_all(&root, plan))?;
    results.environment.push((
        "load average (1, 5, 15 min) before / after".into(),
        format!("{load_before} / {}", machine::load_average()),
    ));
    let micro = micro::read_criterion(&root.join("target/criterion"));
    let notes = std::fs::read_to_string(root.join("bench/NOTES.md")).unwrap_or_default();
    let text = report::render(&results, &micro, plan, &notes);
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&out, &text).with_context(|| format!("writing {}", out.display()))?;
    eprintln!("bench: wrote {}", out.display());
    Ok(())
}
