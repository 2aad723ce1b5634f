//! Order statistics for the report: median and p99 by nearest rank, with the sample count.

use std::time::Duration;

/// A summary of repeated measurements, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// How many measurements.
    pub runs: usize,
    /// The median (nearest rank).
    pub median_ms: f64,
    /// The 99th percentile (nearest rank; the maximum when fewer than 100 runs).
    pub p99_ms: f64,
}

/// Nearest-rank percentile `p` (0 < p ≤ 100) of sorted `values`.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

impl Summary {
    /// Summarizes values in milliseconds.
    pub fn of_ms(mut values: Vec<f64>) -> Summary {
        values.sort_by(f64::total_cmp);
        Summary {
            runs: values.len(),
            median_ms: percentile(&values, 50.0),
            p99_ms: percentile(&values, 99.0),
        }
    }

    /// Summarizes durations.
    pub fn of(durations: &[Duration]) -> Summary {
        Summary::of_ms(durations.iter().map(|d| d.as_secs_f64() * 1000.0).collect())
    }
}

#[cfg(test)]
mod tests;
