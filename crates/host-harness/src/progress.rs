//! Progress while a call runs: [`with_progress`] polls a call and, every interval until it
//! ends, awaits one report (the server sends `notifications/progress` with the elapsed time
//! and no total, since a tool call has no known amount of work).
//!
//! A report that has started is awaited to its end before the call's result is returned, so
//! a transport that writes messages in the order they are handed over never writes progress
//! after the answer.

use std::time::Duration;

use tokio::time::{Instant, MissedTickBehavior};

/// Runs `call`; every `interval` while it runs, awaits `report(elapsed since the start)`.
/// Returns the call's output once it is done and no report is being sent.
pub async fn with_progress<T, R>(
    call: impl Future<Output = T>,
    interval: Duration,
    mut report: impl FnMut(Duration) -> R,
) -> T
where
    R: Future<Output = ()>,
{
    let started = Instant::now();
    let mut ticks = tokio::time::interval_at(started + interval, interval);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    tokio::pin!(call);
    loop {
        tokio::select! {
            biased;
            output = &mut call => return output,
            _ = ticks.tick() => report(started.elapsed()).await,
        }
    }
}

/// The `progress` value of a report: seconds elapsed, to the millisecond (it increases with
/// every report, as MCP asks).
pub fn elapsed_seconds(elapsed: Duration) -> f64 {
    (elapsed.as_millis() as f64) / 1000.0
}

/// The `message` of a report.
pub fn message(tool: &str, elapsed: Duration) -> String {
    format!("{tool}: still running after {} s", elapsed.as_secs())
}

#[cfg(test)]
mod tests;
