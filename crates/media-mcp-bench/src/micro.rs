//! Reads the criterion micro-benchmarks (`cargo bench -p media-mcp --bench micro`, run by
//! `scripts/bench.sh` before the driver) from `target/criterion/**/new/`: each sample's time per
//! iteration, summarized as median and p99 over the samples.

use std::path::Path;

use serde_json::Value;

use crate::stats::Summary;

/// One criterion benchmark: its id and per-iteration summary (milliseconds).
#[derive(Debug, Clone)]
pub struct Micro {
    /// `group/name` as criterion reports it.
    pub id: String,
    /// Samples, median and p99 of time per iteration.
    pub per_iteration: Summary,
}

/// Every benchmark found under `dir`, sorted by id; empty when none ran.
pub fn read_criterion(dir: &Path) -> Vec<Micro> {
    let mut found = Vec::new();
    walk(dir, 0, &mut found);
    found.sort_by(|a, b| a.id.cmp(&b.id));
    found
}

fn walk(dir: &Path, depth: usize, found: &mut Vec<Micro>) {
    // criterion nests group/function/value; deeper trees are not ours.
    if depth > 4 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            if let Some(micro) = read_one(&path) {
                found.push(micro);
            }
        } else if path
            .file_name()
            .is_none_or(|n| n != "base" && n != "report")
        {
            walk(&path, depth + 1, found);
        }
    }
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

fn read_one(new_dir: &Path) -> Option<Micro> {
    let benchmark = read_json(&new_dir.join("benchmark.json"))?;
    let sample = read_json(&new_dir.join("sample.json"))?;
    let iters = sample["iters"].as_array()?;
    let times = sample["times"].as_array()?;
    let per_iteration_ms: Vec<f64> = iters
        .iter()
        .zip(times)
        .filter_map(|(n, t)| Some(t.as_f64()? / n.as_f64()? / 1e6))
        .collect();
    Some(Micro {
        id: benchmark["full_id"].as_str()?.to_owned(),
        per_iteration: Summary::of_ms(per_iteration_ms),
    })
}
