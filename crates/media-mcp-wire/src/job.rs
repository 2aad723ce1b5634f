//! Job handles for long calls: what the plugin publishes (the `job` result family in the output
//! schema of the tools that can become jobs) and what a host that keeps jobs answers with (the
//! handle, the `job_status` and `job_cancel` tools and their refusals), written once so the
//! handle always validates against the schema it is checked with.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value, json};

use crate::ToolRecord;
use crate::error_code::ErrorCode;
use crate::tool::{CallResult, envelope_schema, error_envelope};

/// The result family of a job handle (`data.kind`).
pub const FAMILY: &str = "job";
/// The tool that reads a job's result.
pub const STATUS_TOOL: &str = "job_status";
/// The tool that stops a job.
pub const CANCEL_TOOL: &str = "job_cancel";
/// The Tasks extension's identifier (SEP-2663), in `capabilities.extensions`.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// The longest `job_id` accepted (ids are 32 characters; the schema allows up to 64).
pub const MAX_ID_CHARS: usize = 64;

/// `job/defs.json`: the `job` family and the contract's `error` definition.
const DEFS: &str = include_str!("job/defs.json");

fn defs() -> Map<String, Value> {
    match serde_json::from_str::<Value>(DEFS) {
        Ok(Value::Object(mut root)) => match root.remove("$defs") {
            Some(Value::Object(defs)) => defs,
            _ => Map::new(),
        },
        _ => Map::new(),
    }
}

/// The `job` family's schema, for a plugin composing the output schema of a tool that can
/// become a job.
pub fn family_schema() -> Value {
    defs().remove(FAMILY).unwrap_or(Value::Null)
}

/// The contract's `error` definition as the job tools embed it.
pub fn error_schema() -> Value {
    defs().remove("error").unwrap_or(Value::Null)
}

/// Whether a tool's published `outputSchema` admits a job handle: only such tools become jobs.
pub fn admits_handle(output_schema: &Value) -> bool {
    output_schema
        .get("$defs")
        .and_then(|defs| defs.get(FAMILY))
        .is_some()
}

/// Where a job stands, as a handle says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Not finished yet.
    Running,
    /// Ended; `job_status` returns its result.
    Finished,
    /// Stopped by `job_cancel`.
    Cancelled,
}

impl Status {
    /// The status as the handle spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
        }
    }
}

/// A job as a handle reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handle<'a> {
    /// The job's id.
    pub job_id: &'a str,
    /// The tool it runs.
    pub tool: &'a str,
    /// Since the call started.
    pub elapsed_ms: u64,
    /// When to ask again.
    pub poll_after_ms: u64,
    /// The longest `job_status` waits for the job to end.
    pub wait_ms: u64,
    /// How long a finished result is kept.
    pub keep_secs: u64,
    /// Where it stands.
    pub status: Status,
}

impl Handle<'_> {
    fn data(&self) -> Value {
        json!({
            "kind": FAMILY,
            "job_id": self.job_id,
            "status": self.status.as_str(),
            "tool": self.tool,
            "elapsed_ms": self.elapsed_ms,
            "poll_after_ms": self.poll_after_ms,
            "keep_secs": self.keep_secs,
        })
    }

    /// The successful result of `operation` (the tool itself, `job_status` or `job_cancel`)
    /// reporting this job, with a text block telling the model what to do next.
    pub fn result(&self, operation: &str, correlation_id: &str) -> CallResult {
        let envelope = json!({
            "ok": true,
            "operation": operation,
            "data": self.data(),
            "warnings": [],
            "truncated": false,
            "correlation_id": correlation_id,
        });
        let secs = self.elapsed_ms / 1000;
        let advice = match self.status {
            Status::Running => format!(
                "{tool} is still running after {secs} s and goes on as job {id}. Call {STATUS_TOOL} \
                 with {{\"job_id\": \"{id}\"}} to get its result (it waits up to \
                 {wait} s for it); {CANCEL_TOOL} stops it. The result is kept {keep} s after the \
                 job ends.",
                tool = self.tool,
                id = self.job_id,
                wait = self.wait_ms.div_ceil(1000),
                keep = self.keep_secs,
            ),
            Status::Finished => format!(
                "Job {id} ({tool}) had already ended; {STATUS_TOOL} returns its result.",
                tool = self.tool,
                id = self.job_id,
            ),
            Status::Cancelled => format!(
                "Job {id} ({tool}) was cancelled after {secs} s; {STATUS_TOOL} reports its outcome.",
                tool = self.tool,
                id = self.job_id,
            ),
        };
        CallResult {
            text: format!("{advice}\n{envelope}"),
            structured: envelope,
            is_error: false,
        }
    }
}

/// The answer to an id that is unknown, another principal's, expired or from before a restart:
/// the same for all four, so nothing about another principal's jobs leaks.
pub fn not_found(
    operation: &str,
    correlation_id: &str,
    keep_secs: u64,
    replicas: bool,
) -> CallResult {
    let elsewhere = if replicas {
        " Behind a balancer the job may live on another replica: send every request of a conversation with the same Authorization header."
    } else {
        ""
    };
    let message = format!(
        "no such job for you: a job can be read only by the user who started it, its result is \
         kept {keep_secs} s after it ends, and ids do not survive a restart of the server. If \
         the job was a write, its outcome is unknown: check with a read before retrying.{elsewhere}"
    );
    CallResult::from_envelope(
        error_envelope(operation, correlation_id, ErrorCode::NotFound, &message),
        true,
    )
}

/// A refusal of `tool` before anything was sent: too many jobs running (`setting` names the
/// bound that was reached).
pub fn rate_limited(tool: &str, correlation_id: &str, setting: &str, bound: usize) -> CallResult {
    let message = format!(
        "{bound} calls that can become jobs are already running ({setting}); nothing was sent: \
         wait for one to finish (job_status) or cancel one (job_cancel), then call again"
    );
    let mut envelope = error_envelope(tool, correlation_id, ErrorCode::RateLimited, &message);
    envelope["error"]["retryable"] = Value::Bool(true);
    CallResult::from_envelope(envelope, true)
}

/// The result a job stopped by `job_cancel` (or `tasks/cancel`) is left with: for a tool that
/// may write `UNKNOWN_OUTCOME` (a request may have reached the upstream), for a read a
/// retryable `TIMEOUT` saying it was cancelled.
pub fn cancelled(tool: &str, correlation_id: &str, write: bool, elapsed_ms: u64) -> CallResult {
    let secs = elapsed_ms / 1000;
    let envelope = if write {
        let mut v = error_envelope(
            tool,
            correlation_id,
            ErrorCode::UnknownOutcome,
            &format!(
                "cancelled by {CANCEL_TOOL} after {secs} s; the tool may write and a request may \
                 have reached the upstream, so its outcome is unknown: check with a read before \
                 retrying"
            ),
        );
        v["warnings"] = json!([
            "the request may or may not have taken effect: check with a read tool before retrying"
        ]);
        v
    } else {
        let mut v = error_envelope(
            tool,
            correlation_id,
            ErrorCode::Timeout,
            &format!(
                "cancelled by {CANCEL_TOOL} after {secs} s before it answered; it is a read, so \
                 nothing was changed: call it again for an answer"
            ),
        );
        v["error"]["retryable"] = Value::Bool(true);
        v
    };
    CallResult::from_envelope(envelope, true)
}

/// An `INVALID_ARGUMENT` result of a job tool naming the field.
pub fn invalid_argument(
    operation: &str,
    correlation_id: &str,
    field: &str,
    why: &str,
) -> CallResult {
    let mut envelope = error_envelope(
        operation,
        correlation_id,
        ErrorCode::InvalidArgument,
        &format!("{field}: {why}"),
    );
    envelope["error"]["field"] = Value::String(field.to_string());
    CallResult::from_envelope(envelope, true)
}

/// The arguments of `job_status` and `job_cancel`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobArguments {
    /// The job.
    pub job_id: String,
    /// `job_status` only: how long to wait for the job to end, in ms (capped by the caller).
    pub wait_ms: Option<u64>,
}

/// Reads the arguments of a job tool; `Err((field, why))` names what is wrong.
///
/// # Errors
///
/// A missing or malformed `job_id`, a `wait_ms` that is not a whole number of ms within
/// `max_wait_ms`, or an argument the tool does not take.
pub fn arguments(
    tool: &str,
    arguments: Option<&Map<String, Value>>,
    max_wait_ms: u64,
) -> Result<JobArguments, (String, String)> {
    let empty = Map::new();
    let arguments = arguments.unwrap_or(&empty);
    let takes_wait = tool == STATUS_TOOL;
    if let Some(other) = arguments
        .keys()
        .find(|k| k.as_str() != "job_id" && !(takes_wait && k.as_str() == "wait_ms"))
    {
        let shown: String = other
            .chars()
            .filter(|c| !c.is_control())
            .take(crate::MAX_ECHO_CHARS)
            .collect();
        return Err((shown, "is not an argument of this tool".to_string()));
    }
    let job_id = match arguments.get("job_id") {
        Some(Value::String(id)) if !id.is_empty() && id.chars().count() <= MAX_ID_CHARS => {
            id.clone()
        }
        Some(Value::String(_)) => {
            return Err((
                "job_id".into(),
                format!("must be 1 to {MAX_ID_CHARS} characters"),
            ));
        }
        Some(_) => return Err(("job_id".into(), "must be a string".into())),
        None => {
            return Err((
                "job_id".into(),
                "is required: the id a job handle gave".into(),
            ));
        }
    };
    let wait_ms = match arguments.get("wait_ms") {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_u64() {
            Some(ms) if ms <= max_wait_ms => Some(ms),
            _ => {
                return Err((
                    "wait_ms".into(),
                    format!("must be a whole number of ms from 0 to {max_wait_ms}"),
                ));
            }
        },
    };
    Ok(JobArguments { job_id, wait_ms })
}

/// The records of `job_status` and `job_cancel`; `max_wait_ms` is the job threshold (the
/// longest `job_status` waits).
pub fn tool_records(max_wait_ms: u64, keep_secs: u64) -> Vec<ToolRecord> {
    let job_id = json!({
        "type": "string", "minLength": 1, "maxLength": MAX_ID_CHARS,
        "description": "The job_id of a job handle."
    });
    let mut status_output = envelope_schema(
        json!({ "type": "string", "description": "The tool the job ran (its own result), or job_status while it runs." }),
        json!({ "type": "object", "description": "A job handle (kind job) while it runs; then the finished tool's own data, as that tool's outputSchema describes it." }),
    );
    status_output["$defs"] = json!({ FAMILY: family_schema(), "error": error_schema() });
    let mut cancel_output = envelope_schema(
        json!({ "const": CANCEL_TOOL }),
        json!({ "oneOf": [{ "$ref": "#/$defs/job" }] }),
    );
    cancel_output["$defs"] = json!({ FAMILY: family_schema(), "error": error_schema() });
    let wait = max_wait_ms.div_ceil(1000);
    Vec::from([
        ToolRecord {
            name: STATUS_TOOL.into(),
            title: "Job status".into(),
            description: format!(
                "Reads the result of a long call that was answered with a job handle (data.kind \
                 \"job\"). Waits up to wait_ms (default and most {wait} s) for the job to end, \
                 then returns either the handle again (still running; call again) or the \
                 finished call's own result, exactly as the tool would have answered. A result \
                 can be read again for {keep_secs} s after the job ends."
            ),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "job_id": job_id,
                    "wait_ms": {
                        "type": "integer", "minimum": 0, "maximum": max_wait_ms,
                        "description": "How long to wait for the job to end, in ms."
                    }
                },
                "required": ["job_id"],
                "additionalProperties": false
            })
            .to_string(),
            output_schema: status_output.to_string(),
            annotations: json!({
                "title": "Job status", "readOnlyHint": true, "destructiveHint": false,
                "idempotentHint": true, "openWorldHint": false
            })
            .to_string(),
        },
        ToolRecord {
            name: CANCEL_TOOL.into(),
            title: "Cancel a job".into(),
            description: "Stops a running job (a long call answered with a job handle). A job \
                          of a tool that may write then reports UNKNOWN_OUTCOME: check with a \
                          read before retrying. A job that has already ended is left as it is: \
                          job_status returns its result."
                .into(),
            input_schema: json!({
                "type": "object",
                "properties": { "job_id": job_id },
                "required": ["job_id"],
                "additionalProperties": false
            })
            .to_string(),
            output_schema: cancel_output.to_string(),
            annotations: json!({
                "title": "Cancel a job", "readOnlyHint": false, "destructiveHint": true,
                "idempotentHint": true, "openWorldHint": false
            })
            .to_string(),
        },
    ])
}

#[cfg(test)]
mod tests;
