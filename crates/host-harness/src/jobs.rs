//! The job registry: calls to tools that can become jobs, shared by `serve` over stdio and
//! `serve --http`, and by job handles and the Tasks extension alike.
//!
//! * Every such call is registered when it starts ([`Jobs::begin`]) under its principal, tool
//!   and canonical arguments. An identical call from the same principal while it runs joins it:
//!   one execution, nothing sent upstream twice.
//! * The call runs on a task of its own. A caller waits for it up to the job threshold from the
//!   call's start ([`Waiter::answer`]); past it the caller gets the job's id and the call is
//!   *detached*: it goes on when every caller has gone, until it ends, hits its own deadline or
//!   the host limit, or `job_cancel` stops it. A call that was never detached stops when its
//!   last caller goes (the client cancelled or disconnected), as before jobs existed.
//! * A detached call's outcome is kept [`JobSettings::keep`] after it ends, or until finished
//!   outcomes outgrow their byte bound (oldest first); then its id is unknown.
//! * An id is found only by the principal that started the call; an unknown, expired or
//!   foreign id is the same "not found".
//! * Bounds: running calls per principal and in all; past either, [`Jobs::begin`] refuses
//!   before anything runs.

mod answers;
mod registry;

pub use registry::{Answered, JobSettings, Jobs, Outcome, Produce, stored_result};

/// Lets the jobs still running when the server stops finish, for up to `limit` (the host's
/// call limit, which ends each of them anyway): a detached write is not cut short.
pub async fn finish_running(jobs: &Jobs, limit: std::time::Duration) {
    let running = jobs.running();
    if running > 0 {
        crate::log_info!(
            "{running} job(s) still running; letting them finish (at most {} s)",
            limit.as_secs()
        );
        jobs.drain(limit).await;
    }
}

#[cfg(test)]
mod tests;
