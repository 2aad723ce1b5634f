//! `media-mcp-bench`: the side-by-side benchmark suite. Run it with
//! `scripts/bench.sh`, which builds and installs what it needs first.
//!
//! One fake Ombi (`media_mcp_fakes::ombi::FakeOmbi`, loopback, its own thread) serves every
//! server in the run, so all figures come from the same machine state and are reported as
//! ratios to baselines measured minutes apart at most:
//!
//! * **floors**: `bench-floor-server` (a native stdio responder with canned answers) for cold
//!   starts, and a native hyper GET + serde_json parse ([`floor`]) for calls;
//! * **peers**: minimal servers on the official Python and TypeScript MCP SDKs
//!   (`crates/media-mcp-bench/peers/`), skipped with a note when their packages are not installed;
//! * **ours**: `host-harness serve` with `target/media_mcp.wasm`;
//! * **MoviePilot bridge** ([`bridge`]): bridged calls against a fake MoviePilot with a
//!   MoviePilot-sized schema, paired with a native POST floor;
//! * **over HTTP** ([`http`]): `target/media_mcp_http.wasm` under `host-harness serve --http`
//!   and `wasmtime serve`, and the
//!   peers' Streamable HTTP mode.
//!
//! * **upstream connection reuse** ([`reuse`]): ours against a plain and an HTTPS fake Ombi,
//!   with and without the connection pool.
//!
//! `--only=upstream` runs only the connection-reuse rows and prints them (for work on the
//! outbound path; the full run includes them). `--smoke` runs every measurement a few times only, to check that the suite still works
//! (CI); it writes `target/bench/BENCHMARKS.smoke.md` instead of `BENCHMARKS.md`. Nothing here
//! asserts a timing: targets are reported, not enforced.

mod big;
mod bridge;
mod cells;
mod client;
mod floor;
mod http;
mod jobs;
mod machine;
mod measure;
mod micro;
mod plan;
mod pyclient;
mod report;
mod reuse;
mod stats;
mod upstream;
mod workload;

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use plan::{Only, Plan};

/// The harness binary measured as "ours" (`--harness=PATH`; by default the release build).
static HARNESS: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// The harness binary measured as "ours", under `root` unless `--harness=` named one.
pub(crate) fn harness(root: &Path) -> PathBuf {
    HARNESS
        .get()
        .cloned()
        .unwrap_or_else(|| root.join("target/release/media-mcp"))
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/media-mcp-bench/ sits in the repository")
        .to_path_buf()
}

fn main() -> anyhow::Result<()> {
    let mut plan = Plan::full();
    let mut out = None;
    let mut only_bridge = false;
    let mut only = Only::all();
    let mut only_upstream = false;
    let mut only_jobs = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--smoke" => plan = Plan::smoke(),
            "--only=bridge" => only_bridge = true,
            "--only=upstream" => only_upstream = true,
            "--only=jobs" => only_jobs = true,
            "-h" | "--help" => {
                println!(
                    "usage: media-mcp-bench [--smoke] [--out=FILE] [--harness=PATH] [--only=bridge | --only=upstream | --only=jobs | --only=python,typescript,http,bridge,reuse,jobs]\n\
                     (run it through scripts/bench.sh; --only=bridge runs the MoviePilot bridge rows\n\
                     alone and prints them, --only=upstream the upstream connection-reuse rows,\n\
                     --only=jobs the job registry's rows; a list\n\
                     picks which servers besides the floor and ours to measure, for iterating on one row;\n\
                     --harness= names the harness binary measured, target/release/media-mcp by default)"
                );
                return Ok(());
            }
            other if other.starts_with("--out=") => out = Some(PathBuf::from(&other[6..])),
            other if other.starts_with("--harness=") => {
                let path = std::path::absolute(&other[10..])?;
                HARNESS
                    .set(path)
                    .map_err(|_| anyhow::anyhow!("--harness= given twice"))?;
            }
            other if other.starts_with("--only=") => only = Only::parse(&other[7..])?,
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
    if only_bridge {
        let load_before = machine::load_average();
        let bridge = runtime.block_on(bridge::run(&root, plan))?;
        print!("{}", bridge::render(&bridge, plan));
        let mut verdicts = String::from("\n| target | measured | verdict |\n|---|---|---|\n");
        bridge::targets(&mut verdicts, &bridge);
        print!("{verdicts}");
        println!(
            "\nload average (1, 5, 15 min) before / after: {load_before} / {}",
            machine::load_average()
        );
        return Ok(());
    }
    if only_jobs {
        let load_before = machine::load_average();
        let jobs = runtime.block_on(jobs::run(&root, plan))?;
        print!("{}", jobs::render(&jobs, plan));
        let mut verdicts = String::from("\n| target | measured | verdict |\n|---|---|---|\n");
        jobs::targets(&mut verdicts, &jobs);
        print!("{verdicts}");
        println!(
            "\nload average (1, 5, 15 min) before / after: {load_before} / {}",
            machine::load_average()
        );
        return Ok(());
    }
    if only_upstream {
        let load_before = machine::load_average();
        let reuse = runtime.block_on(reuse::run(&root, plan))?;
        print!("{}", reuse::render(&reuse));
        println!(
            "\nload average (1, 5, 15 min) before / after: {load_before} / {}",
            machine::load_average()
        );
        return Ok(());
    }
    let load_before = machine::load_average();
    let mut results = runtime.block_on(measure::run_all(&root, plan, &only))?;
    results.environment.push((
        "load average (1, 5, 15 min) before / after".into(),
        format!("{load_before} / {}", machine::load_average()),
    ));
    let over_http = if only.wants("http") {
        runtime.block_on(http::run_all(&root, plan))?
    } else {
        Vec::new()
    };
    let bridge = if only.wants("bridge") {
        Some(runtime.block_on(bridge::run(&root, plan))?)
    } else {
        None
    };
    let reuse = if only.wants("reuse") {
        runtime.block_on(reuse::run(&root, plan))?
    } else {
        Vec::new()
    };
    let jobs = if only.wants("jobs") {
        Some(runtime.block_on(jobs::run(&root, plan))?)
    } else {
        None
    };
    let micro = micro::read_criterion(&root.join("target/criterion"));
    let extra = report::Extra {
        bridge: bridge.as_ref(),
        jobs: jobs.as_ref(),
    };
    let mut text = report::render(&results, &over_http, extra, &micro, plan);
    text.push_str(&http::render(&over_http, plan));
    if let Some(bridge) = &bridge {
        text.push_str(&bridge::render(bridge, plan));
    }
    if let Some(jobs) = &jobs {
        text.push_str(&jobs::render(jobs, plan));
    }
    if !reuse.is_empty() {
        text.push_str(&reuse::render(&reuse));
    }
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&out, &text).with_context(|| format!("writing {}", out.display()))?;
    eprintln!("bench: wrote {}", out.display());
    Ok(())
}
