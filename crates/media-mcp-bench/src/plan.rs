//! [`Plan`]: how many times each measurement runs (a full run, or the smoke run CI makes).

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
    /// Rounds of the official Python client driving each server ([`crate::pyclient`]).
    pub python_client_rounds: usize,
}

/// Which servers a run measures besides the floor and ours, which every run measures
/// (`--only=python,http`; all when not given, `--only=` for none). Names: `python`,
/// `typescript`, `http` for the MCP-over-HTTP section and `bridge` for the MoviePilot bridge
/// rows. A partial run is for iterating on one row; the servers left out are reported as
/// skipped. (`--only=bridge` alone runs and prints only the bridge rows.)
#[derive(Debug, Clone, Default)]
pub struct Only(Option<Vec<String>>);

impl Only {
    /// Every server.
    pub fn all() -> Only {
        Only(None)
    }

    /// The comma list of `--only=`.
    pub fn parse(list: &str) -> anyhow::Result<Only> {
        let names: Vec<String> = list
            .split(',')
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .collect();
        for name in &names {
            anyhow::ensure!(
                Self::NAMES.contains(&name.as_str()),
                "--only: unknown server {name:?} (one of {})",
                Self::NAMES.join(", ")
            );
        }
        Ok(Only(Some(names)))
    }

    const NAMES: [&str; 6] = ["python", "typescript", "http", "bridge", "reuse", "jobs"];

    /// Whether `name` is measured.
    pub fn wants(&self, name: &str) -> bool {
        self.0.as_ref().is_none_or(|n| n.iter().any(|x| x == name))
    }
}

impl Plan {
    pub fn full() -> Plan {
        Plan {
            smoke: false,
            cold_runs: 30,
            slow_cold_runs: 10,
            calls: 1000,
            warmup: 50,
            calls_per_slot: 12,
            big_runs: 3,
            python_client_rounds: 3,
        }
    }

    pub fn smoke() -> Plan {
        Plan {
            smoke: true,
            cold_runs: 3,
            slow_cold_runs: 1,
            calls: 20,
            warmup: 2,
            calls_per_slot: 2,
            big_runs: 1,
            python_client_rounds: 1,
        }
    }
}
