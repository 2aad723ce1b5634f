//! The machine and tool versions a run was measured with, for the report's header.

use std::path::Path;

use serde_json::Value;

fn command_line(program: &str, args: &[&str]) -> String {
    std::process::Command::new(program)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unavailable".into())
}

/// Machine and versions.
pub fn environment(root: &Path) -> Vec<(String, String)> {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into());
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let sdk = std::fs::read_to_string(
        root.join("target/bench/node/node_modules/@modelcontextprotocol/sdk/package.json"),
    )
    .ok()
    .and_then(|t| serde_json::from_str::<Value>(&t).ok())
    .and_then(|v| v["version"].as_str().map(str::to_owned))
    .unwrap_or_else(|| "not installed".into());
    let mcp = command_line(
        &root.join("target/py/bin/python").display().to_string(),
        &[
            "-c",
            "import importlib.metadata as m; print(m.version('mcp'))",
        ],
    );
    vec![
        ("CPU".into(), format!("{cpu}, {cores} cores available")),
        ("kernel".into(), kernel.trim().to_owned()),
        ("rustc".into(), command_line("rustc", &["--version"])),
        (
            "harness binary (ours)".into(),
            shown_path(root, &crate::harness(root)),
        ),
        ("python mcp".into(), mcp),
        ("node".into(), command_line("node", &["--version"])),
        ("@modelcontextprotocol/sdk".into(), sdk),
    ]
}

/// `/proc/loadavg`'s first three fields: other work on the machine skews every figure, so the
/// report says how busy it was.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

/// `path` relative to the repository `root` when it is under it, for the report.
pub fn shown_path(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}
