//! The registry itself (see the module face for what it promises).

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use sha2::{Digest as _, Sha256};
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// What a call ended with: its result (a `CallToolResult` as JSON, without `resultType` or
/// `_meta`), or the JSON-RPC error it was answered with.
pub type Outcome = Result<Value, Value>;

/// A `CallToolResult` as stored: without the era's `resultType` and the server's `_meta`,
/// which each answer adds for its own request.
pub fn stored_result(mut result: Value) -> Value {
    if let Value::Object(fields) = &mut result {
        fields.remove("resultType");
        fields.remove("_meta");
    }
    result
}

/// How much memory one finished outcome is accounted at most (a result at the contract's
/// 64 KiB budget, plus its text block with JSON escaping).
pub const RESULT_BYTES: usize = 256 * 1024;

/// The registry's settings.
#[derive(Debug, Clone, Copy)]
pub struct JobSettings {
    /// How long a caller waits before it gets a handle; `None`: job mode is off.
    pub after: Option<Duration>,
    /// How long a finished job's outcome is kept.
    pub keep: Duration,
    /// Running calls per principal.
    pub max_per_user: usize,
    /// Running calls in all.
    pub max: usize,
}

/// Why a call was not started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The principal has this many running already.
    PerUser(usize),
    /// This many are running in all.
    Global(usize),
}

/// A call and the recording of its end, polled by its starter or by a task of its own.
type Driver = std::pin::Pin<Box<dyn Future<Output = ()> + Send>>;

/// Makes a call's [`Outcome`] once someone besides the caller that started it needs it (a job,
/// or an identical call that joined): the caller that started it answers with what it kept.
pub type Produce = Box<dyn FnOnce() -> Outcome + Send>;

/// What the end of a call gives its waiting callers.
#[derive(Debug, Clone)]
enum Delivered {
    /// The outcome, for every caller.
    Outcome(Arc<Outcome>),
    /// Only the caller that started it waits: it answers with what it kept.
    ToStarter,
}

/// What a waiting caller gets.
#[derive(Debug, Clone)]
pub enum Answered {
    /// The call ended within the threshold: its outcome, or `None` for the caller that started
    /// it, which answers with what its call kept.
    Done(Option<Arc<Outcome>>),
    /// Still running past the threshold: the caller answers with this job.
    Job(Running),
}

/// A running job as its handle reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Running {
    /// The job's id.
    pub id: String,
    /// The tool.
    pub tool: String,
    /// Since the call started.
    pub elapsed: Duration,
    /// When the call started.
    pub created: SystemTime,
}

/// What an id leads to.
#[derive(Debug, Clone)]
pub enum Lookup {
    /// Unknown, expired or another principal's.
    NotFound,
    /// Still running.
    Running(Running),
    /// Ended.
    Finished(Finished),
}

/// An ended job.
#[derive(Debug, Clone)]
pub struct Finished {
    /// The job's id.
    pub id: String,
    /// The tool.
    pub tool: String,
    /// What it ended with.
    pub outcome: Arc<Outcome>,
    /// When the call started.
    pub created: SystemTime,
    /// When it ended.
    pub ended: SystemTime,
    /// Stopped by its owner.
    pub cancelled: bool,
}

/// The identity of a call, for joining identical ones.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    owner: String,
    tool: String,
    arguments: [u8; 32],
}

#[derive(Debug)]
struct Entry {
    owner: String,
    tool: String,
    write: bool,
    started: Instant,
    created: SystemTime,
    /// A handle was given out: the call outlives its callers.
    detached: bool,
    /// Callers waiting on it now.
    waiters: usize,
    /// The caller that started it is among them.
    starter: bool,
    cancel: CancellationToken,
    done: watch::Receiver<Option<Delivered>>,
    /// `Some` once ended.
    finished: Option<Ended>,
    key: Key,
}

#[derive(Debug)]
struct Ended {
    outcome: Arc<Outcome>,
    at: Instant,
    wall: SystemTime,
    bytes: usize,
    cancelled: bool,
}

impl Ended {
    fn new(outcome: Arc<Outcome>, cancelled: bool) -> Ended {
        Ended {
            bytes: accounted_bytes(&outcome),
            outcome,
            at: Instant::now(),
            wall: SystemTime::now(),
            cancelled,
        }
    }
}

impl Entry {
    fn running(&self, id: &str) -> Running {
        Running {
            id: id.to_owned(),
            tool: self.tool.clone(),
            elapsed: self.started.elapsed(),
            created: self.created,
        }
    }

    fn finished(&self, id: &str) -> Option<Finished> {
        self.finished.as_ref().map(|ended| Finished {
            id: id.to_owned(),
            tool: self.tool.clone(),
            outcome: ended.outcome.clone(),
            created: self.created,
            ended: ended.wall,
            cancelled: ended.cancelled,
        })
    }
}

#[derive(Debug, Default)]
struct State {
    entries: HashMap<String, Entry>,
    running: HashMap<Key, String>,
    /// Finished detached jobs, oldest first.
    ended: VecDeque<String>,
    ended_bytes: usize,
}

/// The registry (cheap to clone).
#[derive(Debug, Clone)]
pub struct Jobs {
    pub(super) settings: JobSettings,
    state: Arc<Mutex<State>>,
}

impl Jobs {
    /// An empty registry.
    pub fn new(settings: JobSettings) -> Jobs {
        Jobs {
            settings,
            state: Arc::default(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts `tool` for `owner`, or joins the identical call running; `run` is called (on a
    /// task of its own) only when none runs, with the signal that stops it. `write`: the tool
    /// may change upstream state (a cancelled write is an unknown outcome).
    ///
    /// # Errors
    ///
    /// A bound is reached: nothing was started.
    pub fn begin<F>(
        &self,
        owner: &str,
        tool: &str,
        arguments: &Value,
        write: bool,
        run: impl FnOnce(CancellationToken) -> F,
    ) -> Result<Waiter, Refusal>
    where
        F: Future<Output = Produce> + Send + 'static,
    {
        let key = Key {
            owner: owner.to_owned(),
            tool: tool.to_owned(),
            arguments: Sha256::digest(arguments.to_string().as_bytes()).into(),
        };
        let mut state = self.state();
        self.expire(&mut state);
        if let Some(id) = state.running.get(&key).cloned()
            && let Some(entry) = state.entries.get_mut(&id)
        {
            entry.waiters += 1;
            return Ok(Waiter::new(self.clone(), id, entry, false));
        }
        let (mine, all) = state
            .entries
            .values()
            .filter(|e| e.finished.is_none())
            .fold((0, 0), |(mine, all), e| {
                (mine + usize::from(e.owner == owner), all + 1)
            });
        if mine >= self.settings.max_per_user {
            return Err(Refusal::PerUser(self.settings.max_per_user));
        }
        if all >= self.settings.max {
            return Err(Refusal::Global(self.settings.max));
        }
        let id = new_id();
        let cancel = CancellationToken::new();
        let (sender, done) = watch::channel(None);
        let entry = Entry {
            owner: owner.to_owned(),
            tool: tool.to_owned(),
            write,
            started: Instant::now(),
            created: SystemTime::now(),
            detached: false,
            waiters: 1,
            starter: true,
            cancel: cancel.clone(),
            done,
            finished: None,
            key: key.clone(),
        };
        let mut waiter = Waiter::new(self.clone(), id.clone(), &entry, true);
        state.running.insert(key, id.clone());
        state.entries.insert(id.clone(), entry);
        drop(state);
        let call = run(cancel.clone());
        let jobs = self.clone();
        // Driven by the caller that started it while it waits (no task of its own, no hand-off
        // between tasks for a call that ends in time); by a task once it is detached.
        let driver: Driver = Box::pin(async move {
            let produce = tokio::select! {
                produce = call => produce,
                () = cancel.cancelled() => return,
            };
            jobs.finish(&id, produce, &sender);
        });
        waiter.driver = Some(driver);
        Ok(waiter)
    }

    /// Records the end of job `id` and wakes its callers.
    fn finish(&self, id: &str, produce: Produce, sender: &watch::Sender<Option<Delivered>>) {
        let mut state = self.state();
        let Some(entry) = state.entries.get_mut(id) else {
            return;
        };
        if entry.finished.is_some() {
            return;
        }
        let others = entry.detached || entry.waiters > usize::from(entry.starter);
        if !others {
            let _ = sender.send(Some(Delivered::ToStarter));
            let key = entry.key.clone();
            state.entries.remove(id);
            if state.running.get(&key).is_some_and(|running| running == id) {
                state.running.remove(&key);
            }
            return;
        }
        let outcome = Arc::new(produce());
        let _ = sender.send(Some(Delivered::Outcome(outcome.clone())));
        let key = entry.key.clone();
        if entry.detached {
            let ended = Ended::new(outcome, false);
            let bytes = ended.bytes;
            entry.finished = Some(ended);
            state.ended.push_back(id.to_owned());
            state.ended_bytes += bytes;
            self.bound_memory(&mut state);
        } else {
            state.entries.remove(id);
        }
        if state.running.get(&key).is_some_and(|running| running == id) {
            state.running.remove(&key);
        }
    }

    /// Drops finished outcomes past their keep time.
    fn expire(&self, state: &mut State) {
        let now = Instant::now();
        while let Some(id) = state.ended.front() {
            let expired = state.entries.get(id).is_none_or(|e| {
                e.finished
                    .as_ref()
                    .is_none_or(|ended| now.duration_since(ended.at) >= self.settings.keep)
            });
            if !expired {
                break;
            }
            let id = state.ended.pop_front().unwrap_or_default();
            if let Some(entry) = state.entries.remove(&id) {
                state.ended_bytes -= entry.finished.map_or(0, |ended| ended.bytes);
            }
        }
    }

    /// Drops the oldest finished outcomes while they outgrow their bound (the newest is kept).
    fn bound_memory(&self, state: &mut State) {
        let bound = self.settings.max.saturating_mul(RESULT_BYTES);
        while state.ended_bytes > bound && state.ended.len() > 1 {
            let id = state.ended.pop_front().unwrap_or_default();
            if let Some(entry) = state.entries.remove(&id) {
                state.ended_bytes -= entry.finished.map_or(0, |ended| ended.bytes);
            }
        }
    }

    /// What `id` leads to for `owner` now.
    pub fn lookup(&self, owner: &str, id: &str) -> Lookup {
        let mut state = self.state();
        self.expire(&mut state);
        match state.entries.get(id) {
            Some(entry) if entry.owner == owner && (entry.detached || entry.finished.is_some()) => {
                match entry.finished(id) {
                    Some(finished) => Lookup::Finished(finished),
                    None => Lookup::Running(entry.running(id)),
                }
            }
            _ => Lookup::NotFound,
        }
    }

    /// Waits up to `wait` for job `id` of `owner` to end, then says where it stands.
    pub async fn wait(&self, owner: &str, id: &str, wait: Duration) -> Lookup {
        let mut done = {
            let state = self.state();
            match state.entries.get(id) {
                Some(entry) if entry.owner == owner && entry.finished.is_none() => {
                    entry.done.clone()
                }
                _ => {
                    drop(state);
                    return self.lookup(owner, id);
                }
            }
        };
        let _ = tokio::time::timeout(wait, done.wait_for(Option::is_some)).await;
        self.lookup(owner, id)
    }

    /// Stops job `id` of `owner`: its outcome becomes `cancelled(tool, write, elapsed)`.
    /// Returns what the id leads to afterwards: [`Lookup::Finished`] with that outcome, or
    /// with the outcome it had already ended with (not marked cancelled).
    pub fn cancel(
        &self,
        owner: &str,
        id: &str,
        cancelled: impl FnOnce(&str, bool, Duration) -> Outcome,
    ) -> Lookup {
        let mut state = self.state();
        self.expire(&mut state);
        let Some(entry) = state.entries.get_mut(id) else {
            return Lookup::NotFound;
        };
        if entry.owner != owner || !(entry.detached || entry.finished.is_some()) {
            return Lookup::NotFound;
        }
        if let Some(finished) = entry.finished(id) {
            return Lookup::Finished(finished);
        }
        entry.cancel.cancel();
        let outcome = Arc::new(cancelled(&entry.tool, entry.write, entry.started.elapsed()));
        let ended = Ended::new(outcome, true);
        let bytes = ended.bytes;
        entry.finished = Some(ended);
        let finished = entry.finished(id);
        let key = entry.key.clone();
        crate::log_info!("job {id} ({}) cancelled by its owner", entry.tool);
        state.running.remove(&key);
        state.ended.push_back(id.to_owned());
        state.ended_bytes += bytes;
        self.bound_memory(&mut state);
        finished.map_or(Lookup::NotFound, Lookup::Finished)
    }

    /// How many calls are running now.
    pub fn running(&self) -> usize {
        self.state()
            .entries
            .values()
            .filter(|e| e.finished.is_none())
            .count()
    }

    /// Waits until no call runs, for at most `limit` (shutdown: running jobs may finish).
    pub async fn drain(&self, limit: Duration) {
        let until = Instant::now() + limit;
        while self.running() > 0 && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// The bytes a finished outcome is accounted (its JSON size).
fn accounted_bytes(outcome: &Outcome) -> usize {
    match outcome {
        Ok(value) | Err(value) => value.to_string().len(),
    }
}

/// A new job id: 128 random bits as 32 hexadecimal digits.
fn new_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // The OS has no randomness to give: two v4 UUIDs' random bits instead.
        bytes.copy_from_slice(uuid::Uuid::new_v4().as_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A caller waiting on a call. Dropping it before the call is detached stops the call when
/// it was the last caller.
pub struct Waiter {
    /// The call itself, held by the caller that started it until it is detached.
    driver: Option<Driver>,
    jobs: Jobs,
    id: String,
    tool: String,
    started: Instant,
    done: watch::Receiver<Option<Delivered>>,
    active: bool,
    /// This caller started the call.
    starter: bool,
}

impl Waiter {
    fn new(jobs: Jobs, id: String, entry: &Entry, starter: bool) -> Waiter {
        Waiter {
            driver: None,
            jobs,
            id,
            tool: entry.tool.clone(),
            started: entry.started,
            done: entry.done.clone(),
            active: true,
            starter,
        }
    }

    fn answered(&self, delivered: Delivered) -> Answered {
        match delivered {
            Delivered::Outcome(outcome) => Answered::Done(Some(outcome)),
            Delivered::ToStarter => Answered::Done(None),
        }
    }

    /// The job's id.
    #[cfg(test)]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Waits for the call to end or for the threshold (from the call's start) to pass; past
    /// it, the call is detached and its job returned.
    pub async fn answer(mut self) -> Answered {
        let threshold = self.jobs.settings.after.unwrap_or(Duration::MAX);
        let until = self.started.checked_add(threshold);
        // Polled in place, so that a caller dropped while it waits still holds the call (and
        // hands it to a task when others wait for it).
        if let Some(driver) = self.driver.as_mut() {
            let ended = match until {
                Some(until) => tokio::time::timeout_at(until, driver).await.is_ok(),
                None => {
                    driver.await;
                    true
                }
            };
            if let Some(driver) = self.driver.take()
                && !ended
            {
                tokio::spawn(driver);
            }
        }
        let ended = match until {
            Some(until) => tokio::time::timeout_at(until, self.done.wait_for(Option::is_some))
                .await
                .ok()
                .and_then(Result::ok)
                .and_then(|v| v.clone()),
            None => self
                .done
                .wait_for(Option::is_some)
                .await
                .ok()
                .and_then(|v| v.clone()),
        };
        if let Some(delivered) = ended {
            return self.answered(delivered);
        }
        let mut state = self.jobs.state();
        let Some(entry) = state.entries.get_mut(&self.id) else {
            drop(state);
            // Ended (and was forgotten) in the meantime: read what it sent.
            let delivered = self.done.borrow().clone();
            return match delivered {
                Some(delivered) => self.answered(delivered),
                None => Answered::Done(Some(Arc::new(Err(serde_json::json!({
                    "code": media_mcp_wire::code::INTERNAL_ERROR,
                    "message": "the call ended without an answer",
                }))))),
            };
        };
        if let Some(ended) = &entry.finished {
            return Answered::Done(Some(ended.outcome.clone()));
        }
        if !entry.detached {
            entry.detached = true;
            crate::log_info!(
                "call {} still running after {} ms: answered with job {}, going on detached",
                self.tool,
                threshold.as_millis(),
                self.id
            );
        }
        entry.waiters -= 1;
        entry.starter &= !self.starter;
        self.active = false;
        Answered::Job(entry.running(&self.id))
    }
}

impl Drop for Waiter {
    fn drop(&mut self) {
        let driver = self.driver.take();
        if !self.active {
            return;
        }
        let mut state = self.jobs.state();
        let Some(entry) = state.entries.get_mut(&self.id) else {
            return;
        };
        entry.waiters = entry.waiters.saturating_sub(1);
        entry.starter &= !self.starter;
        if entry.waiters == 0 && !entry.detached && entry.finished.is_none() {
            entry.cancel.cancel();
            let key = entry.key.clone();
            state.entries.remove(&self.id);
            if state.running.get(&key).is_some_and(|id| *id == self.id) {
                state.running.remove(&key);
            }
        } else if let Some(driver) = driver {
            // Others still wait for it: it goes on without the caller that started it.
            drop(state);
            tokio::spawn(driver);
        }
    }
}

impl std::fmt::Debug for Waiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Waiter")
            .field("id", &self.id)
            .field("tool", &self.tool)
            .field("starter", &self.starter)
            .finish_non_exhaustive()
    }
}
