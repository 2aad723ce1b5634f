//! The registry's answers as MCP JSON, the same over stdio and HTTP: job handles, the
//! `job_status` and `job_cancel` tools, refusals, and the Tasks extension's task states.

use std::time::{Duration, SystemTime};

use media_mcp_wire::code;
use media_mcp_wire::job::{self, Handle, Status};
use serde_json::{Map, Value, json};

use super::registry::{Finished, Jobs, Lookup, Outcome, Refusal, Running};
use crate::tool::ListedTool;

/// How often a task's client is asked to poll `tasks/get` (`tasks/get` does not wait).
pub const TASK_POLL_MS: u64 = 2_000;
/// How soon a job handle's client may call `job_status` again (it waits for the job anyway).
pub const HANDLE_POLL_MS: u64 = 1_000;

fn correlation_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl Jobs {
    /// The threshold in ms (the longest `job_status` waits).
    pub fn after_ms(&self) -> u64 {
        self.settings.after.map_or(0, millis)
    }

    fn keep_secs(&self) -> u64 {
        self.settings.keep.as_secs()
    }

    /// The records of `job_status` and `job_cancel` for these settings.
    pub fn tool_records(&self) -> Vec<ListedTool> {
        job::tool_records(self.after_ms(), self.keep_secs())
    }

    /// The `CallToolResult` JSON of `operation` reporting job `id` of `tool`.
    pub fn handle_result(
        &self,
        operation: &str,
        id: &str,
        tool: &str,
        elapsed: Duration,
        status: Status,
    ) -> Value {
        Handle {
            job_id: id,
            tool,
            elapsed_ms: millis(elapsed),
            poll_after_ms: HANDLE_POLL_MS,
            wait_ms: self.after_ms(),
            keep_secs: self.keep_secs(),
            status,
        }
        .result(operation, &correlation_id())
        .to_json()
    }

    /// The `CallToolResult` JSON of a call that became job `running`.
    pub fn handle_of(&self, running: &Running) -> Value {
        self.handle_result(
            &running.tool,
            &running.id,
            &running.tool,
            running.elapsed,
            Status::Running,
        )
    }

    /// The `CallToolResult` JSON refusing a call of `tool` past a bound.
    pub fn refusal(&self, tool: &str, refusal: Refusal) -> Value {
        let (setting, bound) = match refusal {
            Refusal::PerUser(bound) => (media_mcp_wire::variables::JOB_MAX_PER_USER.name, bound),
            Refusal::Global(bound) => (media_mcp_wire::variables::JOB_MAX.name, bound),
        };
        crate::log_warn!(
            "call {tool} refused: {bound} calls that can become jobs are running ({setting})"
        );
        job::rate_limited(tool, &correlation_id(), setting, bound).to_json()
    }

    /// The outcome a job stopped by its owner is left with.
    pub fn cancelled_outcome(tool: &str, write: bool, elapsed: Duration) -> Outcome {
        Ok(job::cancelled(tool, &correlation_id(), write, millis(elapsed)).to_json())
    }

    /// Answers a call of `job_status` or `job_cancel` by `owner`; `replicas`: the server may
    /// be one of several behind a balancer (the not-found answer says so).
    pub async fn answer_job_tool(
        &self,
        owner: &str,
        name: &str,
        arguments: Option<&Map<String, Value>>,
        replicas: bool,
    ) -> Outcome {
        let after = self.after_ms();
        let arguments = match job::arguments(name, arguments, after) {
            Ok(arguments) => arguments,
            Err((field, why)) => {
                return Ok(job::invalid_argument(name, &correlation_id(), &field, &why).to_json());
            }
        };
        let id = arguments.job_id.as_str();
        let lookup = if name == job::STATUS_TOOL {
            let wait = Duration::from_millis(arguments.wait_ms.unwrap_or(after));
            self.wait(owner, id, wait).await
        } else {
            self.cancel(owner, id, Jobs::cancelled_outcome)
        };
        match lookup {
            Lookup::NotFound => {
                Ok(job::not_found(name, &correlation_id(), self.keep_secs(), replicas).to_json())
            }
            Lookup::Running(running) => Ok(self.handle_result(
                name,
                &running.id,
                &running.tool,
                running.elapsed,
                Status::Running,
            )),
            Lookup::Finished(finished) if name == job::STATUS_TOOL => (*finished.outcome).clone(),
            Lookup::Finished(finished) => {
                let elapsed = finished
                    .ended
                    .duration_since(finished.created)
                    .unwrap_or_default();
                let status = if finished.cancelled {
                    Status::Cancelled
                } else {
                    Status::Finished
                };
                Ok(self.handle_result(name, &finished.id, &finished.tool, elapsed, status))
            }
        }
    }

    /// The `CreateTaskResult` JSON of a call that became job `running` (Tasks extension).
    pub fn created_task(&self, running: &Running) -> Value {
        let mut task = self.task(&running.id, running.created, SystemTime::now());
        task["status"] = json!("working");
        task["statusMessage"] = json!(format!(
            "{} is still running after {} s",
            running.tool,
            running.elapsed.as_secs()
        ));
        task["resultType"] = json!("task");
        task
    }

    fn task(&self, id: &str, created: SystemTime, updated: SystemTime) -> Value {
        json!({
            "taskId": id,
            "createdAt": timestamp(created),
            "lastUpdatedAt": timestamp(updated),
            "ttlMs": self.keep_secs().saturating_mul(1000),
            "pollIntervalMs": TASK_POLL_MS,
        })
    }

    /// `tasks/get`: the task's state as JSON (a `DetailedTask`, without `resultType`).
    ///
    /// # Errors
    ///
    /// The JSON-RPC error for an unknown, expired or foreign task.
    pub fn task_state(&self, owner: &str, id: &str) -> Result<Value, Value> {
        match self.lookup(owner, id) {
            Lookup::NotFound => Err(task_not_found()),
            Lookup::Running(running) => {
                let mut task = self.task(id, running.created, SystemTime::now());
                task["status"] = json!("working");
                task["statusMessage"] = json!(format!(
                    "{} is still running after {} s",
                    running.tool,
                    running.elapsed.as_secs()
                ));
                Ok(task)
            }
            Lookup::Finished(finished) => Ok(self.ended_task(&finished)),
        }
    }

    fn ended_task(&self, finished: &Finished) -> Value {
        let mut task = self.task(&finished.id, finished.created, finished.ended);
        match (&*finished.outcome, finished.cancelled) {
            (Ok(result), true) => {
                task["status"] = json!("cancelled");
                task["statusMessage"] = result["structuredContent"]["error"]["message"].clone();
            }
            (Ok(result), false) => {
                task["status"] = json!("completed");
                task["result"] = result.clone();
            }
            (Err(error), _) => {
                task["status"] = json!("failed");
                task["statusMessage"] = error["message"].clone();
                task["error"] = error.clone();
            }
        }
        task
    }

    /// `tasks/cancel`: stops the task (an acknowledgement, also when it had ended).
    ///
    /// # Errors
    ///
    /// The JSON-RPC error for an unknown, expired or foreign task.
    pub fn cancel_task(&self, owner: &str, id: &str) -> Result<Value, Value> {
        match self.cancel(owner, id, Jobs::cancelled_outcome) {
            Lookup::NotFound => Err(task_not_found()),
            _ => Ok(json!({})),
        }
    }

    /// `tasks/update`: this server never asks for input, so responses are ignored.
    ///
    /// # Errors
    ///
    /// The JSON-RPC error for an unknown, expired or foreign task.
    pub fn update_task(&self, owner: &str, id: &str) -> Result<Value, Value> {
        match self.lookup(owner, id) {
            Lookup::NotFound => Err(task_not_found()),
            _ => Ok(json!({})),
        }
    }
}

/// The same error for an unknown, expired or another principal's task.
fn task_not_found() -> Value {
    json!({
        "code": code::INVALID_PARAMS,
        "message": "Failed to retrieve task: Task not found (tasks belong to the user who started them, are kept until their ttlMs and do not survive a restart of the server)",
    })
}

/// An ISO 8601 timestamp in UTC, to the millisecond.
fn timestamp(at: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(at).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
