//! Jobs over `serve --http` ([`crate::jobs`]). The HTTP component keeps nothing after its
//! answer, so the host does what needs a life after it, around the component:
//!
//! * it learns which tools can become jobs (and which only read) from the `tools/list` answers
//!   it passes on, and appends `job_status` and `job_cancel` to them when one can;
//! * a call of such a tool runs through the registry: answered by the component when it ends
//!   within the threshold (its own bytes, to the request that started it), otherwise with a
//!   job handle, or a task for a modern request that declares the Tasks extension;
//! * it answers `job_status`, `job_cancel` and `tasks/*` itself, and adds the Tasks extension
//!   to `server/discover`.
//!
//! A job belongs to the request's user: the token's user, or the default user without
//! authentication; under OAuth, whose tokens the component checks, to the access token (its
//! SHA-256), and a job or task request is first shown to the component, which refuses a token
//! that is no longer valid. A request this layer cannot read, or whose era the transport would
//! refuse, goes to the component unchanged.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use media_mcp_transport::auth::{AuthMode, Identity};
use media_mcp_transport::era::{self, Era};
use media_mcp_transport::http::{Admitted, ReplyFormat};
use media_mcp_transport::mcp::host_reply;
use media_mcp_wire::{code, job, meta, method};
use serde_json::{Map, Value, json};
use sha2::{Digest as _, Sha256};

use crate::jobs::{Answered, Jobs, Outcome, Produce, stored_result};
use crate::sandbox::{Gateway, GatewayResponse};

/// What this layer knows of the listed tools.
#[derive(Debug, Default)]
struct Known {
    /// Tools whose output schema admits a job handle.
    jobs: HashSet<String>,
    /// Tools listed with `readOnlyHint: true`.
    reads: HashSet<String>,
    /// An upstream tool is named like a job tool: jobs are not offered.
    taken: bool,
}

/// The job layer of `serve --http`.
#[derive(Debug)]
pub(super) struct HttpJobs {
    jobs: Jobs,
    known: RwLock<Known>,
    oauth: bool,
}

/// A JSON-RPC request as this layer reads it.
#[derive(Debug, Clone)]
pub(super) struct Request {
    id: Value,
    method: String,
    params: Map<String, Value>,
    modern: bool,
    format: ReplyFormat,
}

/// Where a request goes.
#[derive(Debug)]
pub(super) enum Route {
    /// To the component, unchanged.
    Forward,
    /// To the component; its answer gains the job tools (`tools/list`) or the Tasks extension
    /// (`server/discover`).
    Extend(Request),
    /// `job_status` or `job_cancel`, answered here.
    JobTool(Request),
    /// `tasks/get`, `tasks/cancel` or `tasks/update`, answered here.
    Task(Request),
    /// A call of a tool that can become a job.
    Call(Request),
}

impl HttpJobs {
    pub(super) fn new(jobs: Jobs, auth: &AuthMode) -> HttpJobs {
        HttpJobs {
            jobs,
            known: RwLock::default(),
            oauth: matches!(auth, AuthMode::OAuth(_)),
        }
    }

    pub(super) fn registry(&self) -> &Jobs {
        &self.jobs
    }

    /// Where `body` goes.
    pub(super) fn route(&self, body: &[u8], admitted: &Admitted) -> Route {
        let Some(request) = read(body, admitted) else {
            return Route::Forward;
        };
        match request.method.as_str() {
            method::TOOLS_LIST => Route::Extend(request),
            method::SERVER_DISCOVER => Route::Extend(request),
            method::TASKS_GET | method::TASKS_CANCEL | method::TASKS_UPDATE if request.modern => {
                Route::Task(request)
            }
            method::TOOLS_CALL => {
                let name = request.params.get("name").and_then(Value::as_str);
                let known = self.known.read().unwrap_or_else(PoisonError::into_inner);
                match name {
                    Some(job::STATUS_TOOL | job::CANCEL_TOOL) if known.offers() => {
                        drop(known);
                        Route::JobTool(request)
                    }
                    Some(name) if known.jobs.contains(name) => {
                        drop(known);
                        Route::Call(request)
                    }
                    _ => Route::Forward,
                }
            }
            _ => Route::Forward,
        }
    }

    /// Whom a request's jobs belong to.
    pub(super) fn owner(&self, parts: &hyper::http::request::Parts, admitted: &Admitted) -> String {
        if self.oauth {
            let token = parts
                .headers
                .get(hyper::header::AUTHORIZATION)
                .map_or(&[][..], |v| v.as_bytes());
            let digest: [u8; 32] = Sha256::digest(token).into();
            return format!(
                "token:{}",
                digest
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect::<String>()
            );
        }
        match &admitted.identity {
            Identity::User(user) => format!("user:{user}"),
            Identity::Default => "default".to_owned(),
        }
    }

    /// Whether the component still accepts the request's credentials (OAuth only: a job or
    /// task request is answered here, so the component checks the token first). `Err` holds
    /// the component's refusal.
    pub(super) async fn authenticated(
        &self,
        gateway: &Gateway,
        parts: &hyper::http::request::Parts,
    ) -> Result<(), GatewayResponse> {
        if !self.oauth {
            return Ok(());
        }
        let mut probe = hyper::Request::builder()
            .method(hyper::Method::POST)
            .uri(parts.uri.clone())
            .version(parts.version);
        for (name, value) in &parts.headers {
            if name != hyper::header::CONTENT_LENGTH {
                probe = probe.header(name, value);
            }
        }
        let body = json!({"jsonrpc": "2.0", "method": method::INITIALIZED}).to_string();
        let Ok(probe) = probe.body(Full::new(Bytes::from(body))) else {
            return Err(crate::sandbox::error_response(
                500,
                "the request could not be checked",
            ));
        };
        let answer = gateway.handle(probe).await;
        if answer.status().is_success() {
            Ok(())
        } else {
            Err(answer)
        }
    }

    /// Passes `request` to the component and extends its answer.
    pub(super) async fn extend(
        &self,
        request: &Request,
        gateway: &Gateway,
        forwarded: hyper::Request<Full<Bytes>>,
    ) -> GatewayResponse {
        let answer = gateway.handle(forwarded).await;
        let (parts, body) = answer.into_parts();
        let body = whole_body(body).await;
        let content_type = parts.headers.get(hyper::header::CONTENT_TYPE);
        let Some(mut message) = message_of(parts.status, content_type, &body) else {
            return hyper::Response::from_parts(parts, Full::new(body));
        };
        let Some(result) = message.get_mut("result").filter(|r| r.is_object()) else {
            return hyper::Response::from_parts(parts, Full::new(body));
        };
        if request.method == method::TOOLS_LIST {
            self.learn_and_offer(result);
        } else {
            result["capabilities"]["extensions"][job::TASKS_EXTENSION] = json!({});
        }
        rewrite(parts, &message)
    }

    /// Learns from a `tools/list` result and appends the job tools when a tool can become one.
    fn learn_and_offer(&self, result: &mut Value) {
        let Some(tools) = result.get_mut("tools").and_then(Value::as_array_mut) else {
            return;
        };
        let mut known = Known::default();
        for tool in tools.iter() {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            if job::admits_handle(tool.get("outputSchema").unwrap_or(&Value::Null)) {
                known.jobs.insert(name.to_owned());
            }
            if tool["annotations"]["readOnlyHint"] == true {
                known.reads.insert(name.to_owned());
            }
            known.taken |= matches!(name, job::STATUS_TOOL | job::CANCEL_TOOL);
        }
        let offer = known.offers();
        *self.known.write().unwrap_or_else(PoisonError::into_inner) = known;
        if offer {
            tools.extend(self.jobs.tool_records().iter().map(record_json));
        }
    }

    /// Answers `job_status` or `job_cancel`.
    pub(super) async fn job_tool(&self, request: &Request, owner: &str) -> GatewayResponse {
        let name = request
            .params
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let arguments = request.params.get("arguments").and_then(Value::as_object);
        let outcome = self
            .jobs
            .answer_job_tool(owner, name, arguments, true)
            .await;
        reply(request, outcome)
    }

    /// Answers `tasks/get`, `tasks/cancel` or `tasks/update`.
    pub(super) fn task(&self, request: &Request, owner: &str) -> GatewayResponse {
        if !declares_tasks(&request.params) {
            return reply(
                request,
                Err(json!({
                    "code": code::MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "message": "Missing required client capability",
                    "data": {"requiredCapabilities": {"extensions": {job::TASKS_EXTENSION: {}}}},
                })),
            );
        }
        let id = request
            .params
            .get("taskId")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let outcome = match request.method.as_str() {
            method::TASKS_GET => self.jobs.task_state(owner, id),
            method::TASKS_CANCEL => self.jobs.cancel_task(owner, id),
            _ => self.jobs.update_task(owner, id),
        };
        reply(request, outcome)
    }

    /// Runs a call of a tool that can become a job through the registry.
    pub(super) async fn call(
        &self,
        request: &Request,
        owner: &str,
        gateway: Arc<Gateway>,
        forwarded: hyper::Request<Full<Bytes>>,
    ) -> GatewayResponse {
        let name = request
            .params
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let arguments = request
            .params
            .get("arguments")
            .cloned()
            .unwrap_or(json!({}));
        let write = !self
            .known
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .reads
            .contains(name);
        // The component's own answer, for the request that started the call.
        let own: Arc<Mutex<Option<GatewayResponse>>> = Arc::default();
        let kept = own.clone();
        let begun = self
            .jobs
            .begin(owner, name, &arguments, write, move |_stop| async move {
                let answer = gateway.handle(forwarded).await;
                let (parts, body) = answer.into_parts();
                let body = whole_body(body).await;
                let status = parts.status;
                let content_type = parts.headers.get(hyper::header::CONTENT_TYPE).cloned();
                *kept.lock().unwrap_or_else(PoisonError::into_inner) =
                    Some(hyper::Response::from_parts(parts, Full::new(body.clone())));
                Box::new(move || outcome_of(status, content_type.as_ref(), &body)) as Produce
            });
        let waiter = match begun {
            Ok(waiter) => waiter,
            Err(refusal) => return reply(request, Ok(self.jobs.refusal(name, refusal))),
        };
        match waiter.answer().await {
            Answered::Done(Some(outcome)) => reply(request, (*outcome).clone()),
            Answered::Done(None) => {
                let mine = own.lock().unwrap_or_else(PoisonError::into_inner).take();
                mine.unwrap_or_else(|| {
                    crate::sandbox::error_response(500, "the call ended without an answer")
                })
            }
            Answered::Job(running) if request.modern && declares_tasks(&request.params) => {
                reply(request, Ok(self.jobs.created_task(&running)))
            }
            Answered::Job(running) => reply(request, Ok(self.jobs.handle_of(&running))),
        }
    }
}

impl Known {
    /// Whether the job tools are listed: a tool can become a job and no name is taken.
    fn offers(&self) -> bool {
        !self.jobs.is_empty() && !self.taken
    }
}

/// Reads a JSON-RPC request this layer may answer: an object with a method, a valid id and
/// object params, in an era the transport would accept.
fn read(body: &[u8], admitted: &Admitted) -> Option<Request> {
    let message: Value = serde_json::from_slice(body).ok()?;
    let method = message.get("method")?.as_str()?.to_owned();
    let id = message
        .get("id")
        .filter(|id| id.is_string() || id.is_i64() || id.is_u64())?;
    if message.get("jsonrpc") != Some(&json!("2.0")) {
        return None;
    }
    let params = match message.get("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params.clone(),
        Some(_) => return None,
    };
    let modern = match era::classify(&method, message.get("params"), &admitted.mcp).ok()? {
        Era::Modern => {
            era::check_headers(&method, &params, &admitted.mcp).ok()?;
            true
        }
        Era::Legacy => false,
    };
    Some(Request {
        id: id.clone(),
        method,
        params,
        modern,
        format: admitted.format,
    })
}

/// Whether a modern request's `_meta` declares the Tasks extension.
fn declares_tasks(params: &Map<String, Value>) -> bool {
    params
        .get("_meta")
        .and_then(|m| m.get(meta::CLIENT_CAPABILITIES))
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(job::TASKS_EXTENSION))
        .is_some()
}

/// The answer to `request`, as the transport writes its own (the era's marks, JSON or an
/// event stream as the client accepts).
fn reply(request: &Request, outcome: Outcome) -> GatewayResponse {
    let response = host_reply(request.format, &request.id, outcome, request.modern);
    super::admission::to_hyper(response)
}

/// A JSON-RPC message from the component's answer (JSON, or an event stream's last message).
fn message_of(
    status: hyper::StatusCode,
    content_type: Option<&hyper::header::HeaderValue>,
    body: &Bytes,
) -> Option<Value> {
    if status != hyper::StatusCode::OK {
        return None;
    }
    let content_type = content_type.and_then(|v| v.to_str().ok()).unwrap_or("");
    if content_type.starts_with("text/event-stream") {
        let text = std::str::from_utf8(body).ok()?;
        let data = text
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .next_back()?;
        return serde_json::from_str(data.trim_start()).ok();
    }
    serde_json::from_slice(body).ok()
}

/// What a call answered by the component ended with, to keep for `job_status`.
fn outcome_of(
    status: hyper::StatusCode,
    content_type: Option<&hyper::header::HeaderValue>,
    body: &Bytes,
) -> Outcome {
    match message_of(status, content_type, body) {
        Some(message) => match (message.get("result"), message.get("error")) {
            (Some(result), _) => Ok(stored_result(result.clone())),
            (None, Some(error)) => Err(error.clone()),
            _ => Err(unreadable(status)),
        },
        None => Err(unreadable(status)),
    }
}

fn unreadable(status: hyper::StatusCode) -> Value {
    json!({
        "code": code::INTERNAL_ERROR,
        "message": format!("the call was answered with HTTP {}, not a JSON-RPC result", status.as_u16()),
    })
}

/// `message` as the component's answer with `parts`, in the same framing.
fn rewrite(mut parts: hyper::http::response::Parts, message: &Value) -> GatewayResponse {
    let event_stream = parts
        .headers
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    let body = if event_stream {
        super::calls::event(message)
    } else {
        Bytes::from(message.to_string())
    };
    parts.headers.remove(hyper::header::CONTENT_LENGTH);
    hyper::Response::from_parts(parts, Full::new(body))
}

/// A tool record as `tools/list` lists it.
fn record_json(record: &crate::tool::ListedTool) -> Value {
    let object = |text: &str| serde_json::from_str::<Value>(text).unwrap_or(json!({}));
    json!({
        "name": record.name,
        "title": record.title,
        "description": record.description,
        "inputSchema": object(&record.input_schema),
        "outputSchema": object(&record.output_schema),
        "annotations": object(&record.annotations),
    })
}

/// Collects a request body that is already whole.
async fn whole_body(body: Full<Bytes>) -> Bytes {
    match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(never) => match never {},
    }
}
