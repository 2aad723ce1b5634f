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
        }
    }
}
