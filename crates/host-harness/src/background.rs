//! Start-up work that runs beside the serving threads: on a thread of its own, at a lower
//! scheduling priority (nice +5), so that on busy cores it yields to the threads answering
//! `initialize` and `tools/list`; and, under `serve`, only once the client's handshake is
//! answered ([`Gate`]).

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How much a background thread yields to the serving threads (a nice value).
const NICE: i32 = 5;

/// How long start-up work waits for its [`Gate`] at most.
pub const HOLD_AT_MOST: Duration = Duration::from_millis(20);

/// When start-up work may begin. With a cached listing, `serve` answers `initialize` and
/// `tools/list` without the component; loading it and parsing the listing meanwhile took the
/// CPU from those answers on two cores. A closed gate opens when the stdio transport has
/// answered `tools/list` or received a request that needs the component, and in any case
/// [`HOLD_AT_MOST`] after the work was spawned.
#[derive(Clone, Debug)]
pub struct Gate(Arc<(Mutex<bool>, Condvar)>);

impl Gate {
    /// A gate that holds work back until [`open`](Gate::open).
    pub fn closed() -> Gate {
        Gate(Arc::new((Mutex::new(false), Condvar::new())))
    }

    /// A gate that never holds anything back.
    pub fn opened() -> Gate {
        let gate = Gate::closed();
        gate.open();
        gate
    }

    /// Lets waiting and later work run.
    pub fn open(&self) {
        let (open, changed) = &*self.0;
        *open.lock().unwrap_or_else(PoisonError::into_inner) = true;
        changed.notify_all();
    }

    /// Whether work may run.
    #[cfg(test)]
    pub(crate) fn is_open(&self) -> bool {
        *self.0.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Blocks until the gate opens or `deadline` passes.
    fn wait(&self, deadline: Instant) {
        let (open, changed) = &*self.0;
        let mut is_open = open.lock().unwrap_or_else(PoisonError::into_inner);
        while !*is_open {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            is_open = changed
                .wait_timeout(is_open, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// Runs `work` on a new thread named `name` at nice +5, inside the current tokio runtime,
/// once `gate` opens (or [`HOLD_AT_MOST`] has passed).
///
/// # Errors
///
/// The thread could not be started; `work` is dropped unrun.
pub fn spawn(name: &str, gate: &Gate, work: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    let runtime = tokio::runtime::Handle::current();
    let gate = gate.clone();
    let deadline = Instant::now() + HOLD_AT_MOST;
    std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let _runtime = runtime.enter();
            // Linux keeps a nice value per thread: this lowers only this one's.
            let _ = rustix::process::setpriority_process(None, NICE);
            gate.wait(deadline);
            work();
        })
        .map(drop)
}

#[cfg(test)]
mod tests;
