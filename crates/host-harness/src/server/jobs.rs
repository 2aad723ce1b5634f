//! Jobs over stdio ([`crate::jobs`]): the catalogue offered with `job_status` and
//! `job_cancel` when a listed tool can become a job, calls of such tools through the registry
//! (a job handle, or a task for a request that declares the Tasks extension), the two job
//! tools, and `tasks/get`, `tasks/cancel` and `tasks/update`.

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, CallToolResult, CreateTaskResult, GetTaskResult, JsonObject, MetaObject,
    ResultType,
};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use media_mcp_wire::{code, job};

use super::call::{Answer, answer, cancelled, unknown_tool};
use super::catalogue::Catalogue;
use crate::jobs::{Answered, Jobs, Outcome, Produce};
use crate::sandbox::Sandbox;

/// Lists the tools again after a call came back unknown (the server's own re-listing).
pub(super) type Relist = Box<
    dyn FnOnce(Arc<Sandbox>, String) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>> + Send,
>;

/// The catalogue with the job tools, made once per catalogue it extends.
#[derive(Debug, Default)]
pub(super) struct Offered(Mutex<Option<(Arc<Catalogue>, Arc<Catalogue>)>>);

impl Offered {
    /// `base`, with `job_status` and `job_cancel` when `jobs` is on, a tool of `base` can
    /// become a job and neither name is taken.
    pub(super) fn of(&self, base: Arc<Catalogue>, jobs: Option<&Jobs>) -> Arc<Catalogue> {
        let Some(jobs) = jobs else {
            return base;
        };
        let mut made = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((from, offered)) = made.as_ref()
            && Arc::ptr_eq(from, &base)
        {
            return offered.clone();
        }
        let taken = base.get(job::STATUS_TOOL).is_some() || base.get(job::CANCEL_TOOL).is_some();
        let offered = if base.has_jobs() && !taken {
            match base.with_added(&jobs.tool_records()) {
                Ok(extended) => Arc::new(extended),
                Err(error) => {
                    crate::log_error!("the job tools cannot be listed: {error:#}");
                    base.clone()
                }
            }
        } else {
            if taken && base.has_jobs() {
                crate::log_warn!(
                    "an upstream lists a tool named {} or {}: long calls block instead of becoming jobs",
                    job::STATUS_TOOL,
                    job::CANCEL_TOOL
                );
            }
            base.clone()
        };
        *made = Some((base, offered.clone()));
        offered
    }
}

/// A call of a tool that can become a job.
pub(super) struct JobCall {
    pub(super) sandbox: Arc<Sandbox>,
    pub(super) write: bool,
    pub(super) name: String,
    pub(super) arguments: Option<JsonObject>,
    pub(super) principal: Option<String>,
    /// The tool is listed (a call that comes back unknown lists the tools again).
    pub(super) listed: bool,
    /// The request declared the Tasks extension.
    pub(super) tasks: bool,
}

/// Runs `call` through the registry: its result, a job handle, or a task.
pub(super) async fn call_as_job(
    jobs: &Jobs,
    call: JobCall,
    cancel: &CancellationToken,
    relist: Relist,
) -> Result<CallToolResponse, ErrorData> {
    let owner = call.principal.clone().unwrap_or_default();
    let key = Value::Object(call.arguments.clone().unwrap_or_default());
    let JobCall {
        sandbox,
        write,
        name,
        arguments,
        principal,
        listed,
        tasks,
    } = call;
    let tool = name.clone();
    // The call's own answer, for this caller; the registry asks for it as JSON only when
    // someone else needs it too.
    let own: Arc<Mutex<Option<Result<CallToolResult, ErrorData>>>> = Arc::default();
    let kept = own.clone();
    let begun = jobs.begin(&owner, &name, &key, write, move |stop| async move {
        let answered = match answer(&sandbox, write, &tool, arguments, principal, &stop).await {
            Ok(Answer::Result(result)) => Ok(result),
            Ok(Answer::UnknownTool(unknown)) => {
                let refusal = unknown_tool(&unknown);
                if listed {
                    relist(sandbox, unknown).await;
                }
                Err(refusal)
            }
            Err(error) => Err(error),
        };
        *lock(&kept) = Some(answered);
        Box::new(move || match lock(&kept).as_ref() {
            Some(Ok(result)) => Ok(crate::jobs::stored_result(to_json(result))),
            Some(Err(error)) => Err(to_json(error)),
            None => Err(to_json(&internal_message(
                "the call's answer was already taken",
            ))),
        }) as Produce
    });
    let waiter = match begun {
        Ok(waiter) => waiter,
        Err(refusal) => return result_of(&Ok(jobs.refusal(&name, refusal))).map(Into::into),
    };
    let answered = tokio::select! {
        answered = waiter.answer() => answered,
        () = cancel.cancelled() => return Err(cancelled()),
    };
    match answered {
        Answered::Done(None) => match lock(&own).take() {
            Some(answered) => answered.map(Into::into),
            None => Err(internal_message("the call ended without an answer")),
        },
        Answered::Done(Some(outcome)) => result_of(&outcome).map(Into::into),
        Answered::Job(running) if tasks => {
            serde_json::from_value::<CreateTaskResult>(jobs.created_task(&running))
                .map(CallToolResponse::Task)
                .map_err(internal)
        }
        Answered::Job(running) => result_of(&Ok(jobs.handle_of(&running))).map(Into::into),
    }
}

/// Answers `job_status` or `job_cancel`.
pub(super) async fn job_tool(
    jobs: &Jobs,
    owner: &str,
    name: &str,
    arguments: Option<&JsonObject>,
) -> Result<CallToolResult, ErrorData> {
    result_of(&jobs.answer_job_tool(owner, name, arguments, false).await)
}

/// `tasks/get` for `owner`.
pub(super) fn get_task(jobs: &Jobs, owner: &str, id: &str) -> Result<GetTaskResult, ErrorData> {
    let mut state = jobs.task_state(owner, id).map_err(error_of)?;
    state["resultType"] = Value::String("complete".into());
    serde_json::from_value(state).map_err(internal)
}

/// `tasks/cancel` or `tasks/update` (`cancel: false`) for `owner`.
pub(super) fn ack_task(jobs: &Jobs, owner: &str, id: &str, cancel: bool) -> Result<(), ErrorData> {
    let acked = if cancel {
        jobs.cancel_task(owner, id)
    } else {
        jobs.update_task(owner, id)
    };
    acked.map(|_| ()).map_err(error_of)
}

/// The `_meta` of a modern result, on a task result.
pub(super) fn with_meta(response: CallToolResponse, meta: MetaObject) -> CallToolResponse {
    match response {
        CallToolResponse::Complete(mut result) => {
            result.meta = Some(meta);
            CallToolResponse::Complete(result)
        }
        CallToolResponse::Task(task) => CallToolResponse::Task(task.with_meta(meta)),
        other => other,
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A stored outcome as rmcp's result (complete: rmcp leaves the field out for legacy peers)
/// or error.
fn result_of(outcome: &Outcome) -> Result<CallToolResult, ErrorData> {
    match outcome {
        Ok(result) => {
            let mut result: CallToolResult =
                serde_json::from_value(result.clone()).map_err(internal)?;
            result.result_type = Some(ResultType::COMPLETE);
            Ok(result)
        }
        Err(error) => Err(error_of(error.clone())),
    }
}

fn error_of(error: Value) -> ErrorData {
    serde_json::from_value(error).unwrap_or_else(internal)
}

fn internal(error: serde_json::Error) -> ErrorData {
    internal_message(&format!("a stored job result could not be read: {error}"))
}

fn internal_message(message: &str) -> ErrorData {
    ErrorData::new(
        rmcp::model::ErrorCode(code::INTERNAL_ERROR as i32),
        message.to_owned(),
        None,
    )
}

fn lock<T>(slot: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    slot.lock().unwrap_or_else(PoisonError::into_inner)
}
