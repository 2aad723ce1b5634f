//! How every write reads Ombi's answer into a `mutation`.
//!
//! One place interprets the endpoint-specific result shapes: `RequestEngineResult`,
//! `VoteEngineResult`, bare `bool`s and bodiless 200/204. The rules: a success needs Ombi to say
//! so (`result: true` and no error); HTTP 200 carrying `isError`/`result: false` is a failure
//! with the sanitized business message; ids appear only when Ombi returned them; an answer that
//! cannot be read after the change was sent is `UNKNOWN_OUTCOME`, never a guess.

use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::client::Ombi;
use crate::ombi::ids::{TargetKind, target};
use crate::prelude::*;
use crate::upstream::Effect;
use crate::upstream::Method;
use crate::upstream::recognise::json_body;
use serde_json::{Map, Value, json};

/// The contract's mutation outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Ombi confirmed the change.
    Completed,
    /// Ombi took the call but its answer does not confirm a state change.
    Accepted,
    /// Part of the change happened.
    Partial,
    /// Whether anything changed cannot be told from the answer.
    Unknown,
    /// Ombi refused the change.
    Rejected,
}

impl Outcome {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Completed => "completed",
            Outcome::Accepted => "accepted",
            Outcome::Partial => "partial",
            Outcome::Unknown => "unknown",
            Outcome::Rejected => "rejected",
        }
    }
}

/// A `mutation` result under construction.
#[derive(Debug, Clone, PartialEq)]
pub struct Mutation(Map<String, Value>);

impl Mutation {
    /// A mutation with `outcome`.
    pub fn new(outcome: Outcome) -> Self {
        let mut m = Map::new();
        m.insert("kind".into(), json!("mutation"));
        m.insert("outcome".into(), json!(outcome.as_str()));
        Self(m)
    }

    /// Sets `target` when `id` is a known positive id.
    pub fn target(mut self, kind: TargetKind, id: Option<i64>) -> Self {
        if let Some(t) = target(kind, id) {
            self.0.insert("target".into(), t);
        }
        self
    }

    /// Sets an integer id field (`request_id`, `issue_id`, ...) only when positive.
    pub fn id(mut self, field: &str, id: Option<i64>) -> Self {
        if let Some(id) = id.filter(|i| *i > 0) {
            self.0.insert(field.into(), json!(id));
        }
        self
    }

    /// Sets a field to any value.
    pub fn set(mut self, field: &str, value: Value) -> Self {
        self.0.insert(field.into(), value);
        self
    }

    /// Sets `message` (sanitized) unless empty.
    pub fn message(mut self, message: &str) -> Self {
        let m = crate::contract::error::sanitize(message);
        if !m.is_empty() {
            self.0.insert("message".into(), json!(m));
        }
        self
    }

    /// The contract JSON.
    pub fn into_json(self) -> Value {
        Value::Object(self.0)
    }
}

/// One item of `item_results` whose write failed with `e`: outcome `unknown` when the write
/// may have happened, `rejected` when it did not.
pub fn failed_item(identifier: &str, e: &ToolError) -> Value {
    let outcome = if e.code == ErrorCode::UnknownOutcome {
        Outcome::Unknown
    } else {
        Outcome::Rejected
    };
    json!({"identifier": identifier, "outcome": outcome.as_str(), "message": e.message})
}

/// A failed call that still reports what is known about the change.
pub fn failure_with(error: ToolError, mutation: Mutation) -> Reply {
    Reply {
        data: Some(mutation.into_json()),
        ..Reply::failure(error)
    }
}

/// The reply to a write Ombi answers with a bare `bool`: `true` is completed; `false` is
/// rejected with `on_false`. The bool names nothing, so the result carries no id: the id the
/// caller addressed is not Ombi's answer.
pub fn bool_reply(done: bool, on_false: ToolError) -> Reply {
    let outcome = if done {
        Outcome::Completed
    } else {
        Outcome::Rejected
    };
    let m = Mutation::new(outcome).set("upstream_result", json!(done));
    if done {
        Reply::ok(m.into_json())
    } else {
        failure_with(on_false, m)
    }
}

/// Sends a state-changing request and decodes its JSON answer (`None` for 204/empty).
/// An unreadable answer is `UNKNOWN_OUTCOME`: the request reached Ombi and may have worked.
///
/// # Errors
/// Transport and status errors as [`Ombi::exchange`] maps them for writes.
pub fn write(
    ombi: &Ombi<'_>,
    method: Method,
    path: &str,
    body: Option<&Value>,
) -> Result<Option<Value>, ToolError> {
    let resp = ombi.exchange(method, path, body, Effect::Write)?;
    json_body::<Value>(&resp).map_err(|e| {
        let mut u = ToolError::unknown_outcome(format!(
            "the change was sent but Ombi's answer could not be read: {}",
            e.message
        ));
        u.http_status = e.http_status;
        u
    })
}

/// A bare JSON `bool` answer. Anything else (including no body) is `UNKNOWN_OUTCOME`.
///
/// # Errors
/// `UNKNOWN_OUTCOME` when the answer is not a boolean.
pub fn bool_answer(body: Option<Value>) -> Result<bool, ToolError> {
    match body {
        Some(Value::Bool(b)) => Ok(b),
        None => Err(ToolError::unknown_outcome(
            "the answer was empty where Ombi returns true or false",
        )),
        Some(_) => Err(ToolError::unknown_outcome(
            "the answer was not the true/false Ombi returns here",
        )),
    }
}

/// The warning every create/approve-type result carries when `ombi` acts with the bare key.
pub fn no_user_warning(ombi: &Ombi<'_>) -> Option<String> {
    ombi.acting_user().is_none().then(|| {
        format!(
            "no user to act as is set ({} or the host's principal): the API key acts as Ombi's administrator system user, which bypasses request permissions and quotas and auto-approves, so requests are sent to Radarr/Sonarr/Lidarr at once",
            media_mcp_wire::variables::OMBI_USER.name
        )
    })
}

/// Ombi's `ErrorCode` names in ordinal order.
pub const ERROR_CODE_NAMES: [&str; 12] = [
    "AlreadyRequested",
    "EpisodesAlreadyRequested",
    "NoPermissionsOnBehalf",
    "NoPermissions",
    "RequestDoesNotExist",
    "ChildRequestDoesNotExist",
    "NoPermissionsRequestMovie",
    "NoPermissionsRequestTV",
    "NoPermissionsRequestAlbum",
    "MovieRequestQuotaExceeded",
    "TvRequestQuotaExceeded",
    "AlbumRequestQuotaExceeded",
];

/// A decoded `RequestEngineResult` `{result, message, isError, errorMessage, errorCode, requestId}`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EngineResult {
    /// `result`.
    pub result: bool,
    /// `isError` as sent, or as Ombi computes it (error message or code present).
    pub is_error: bool,
    /// `message`.
    pub message: Option<String>,
    /// `errorMessage`.
    pub error_message: Option<String>,
    /// `errorCode`, a string enum name.
    pub error_code: Option<String>,
    /// `requestId` when positive.
    pub request_id: Option<i64>,
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// Decodes a `RequestEngineResult` (also `VoteEngineResult`, which lacks code and id).
///
/// # Errors
/// `UNKNOWN_OUTCOME` when the answer is empty or lacks a boolean `result`: a success is never
/// assumed.
pub fn engine_result(body: Option<Value>) -> Result<EngineResult, ToolError> {
    let Some(v) = body else {
        return Err(ToolError::unknown_outcome("the answer was empty"));
    };
    let Some(result) = v.get("result").and_then(Value::as_bool) else {
        return Err(ToolError::unknown_outcome("the answer had no result flag"));
    };
    let error_message = text(&v, "errorMessage");
    let error_code = text(&v, "errorCode");
    let is_error = v.get("isError").and_then(Value::as_bool).unwrap_or(false)
        || error_message.is_some()
        || error_code.is_some();
    Ok(EngineResult {
        result,
        is_error,
        message: text(&v, "message"),
        error_message,
        error_code,
        request_id: crate::ombi::ids::positive_id(v.get("requestId")),
    })
}

impl EngineResult {
    /// Whether Ombi reported success: `result: true` and no error.
    pub fn succeeded(&self) -> bool {
        self.result && !self.is_error
    }

    /// The ordinal of `errorCode`, when it is a known name.
    pub fn error_ordinal(&self) -> Option<i64> {
        let name = self.error_code.as_deref()?;
        ERROR_CODE_NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .map(|i| i as i64)
    }

    /// Whether Ombi said the addressed request does not exist.
    pub fn is_missing(&self) -> bool {
        match self.error_code.as_deref() {
            Some(c) => c.ends_with("DoesNotExist"),
            None => self
                .error_message
                .as_deref()
                .is_some_and(|m| m.to_ascii_lowercase().contains("does not exist")),
        }
    }

    /// The business message: `errorCode` name first (its ordinal goes to
    /// `upstream_error_code`), then `errorMessage`, else `message`.
    pub fn business_message(&self) -> String {
        let detail = self.error_message.as_deref().or(self.message.as_deref());
        match (self.error_code.as_deref(), detail) {
            (Some(c), Some(d)) => format!("{c}: {d}"),
            (Some(c), None) => c.to_owned(),
            (None, Some(d)) => d.to_owned(),
            (None, None) => String::new(),
        }
    }

    /// The contract error for a failed result.
    pub fn error(&self) -> ToolError {
        let code = match self.error_code.as_deref().unwrap_or("") {
            "AlreadyRequested" | "EpisodesAlreadyRequested" => ErrorCode::Conflict,
            c if c.ends_with("QuotaExceeded") => ErrorCode::RateLimited,
            c if c.starts_with("NoPermissions") => ErrorCode::Forbidden,
            _ if self.is_missing() => ErrorCode::NotFound,
            "" if self
                .error_message
                .as_deref()
                .is_some_and(|m| m.to_ascii_lowercase().contains("permission")) =>
            {
                ErrorCode::Forbidden
            }
            _ => ErrorCode::UpstreamRejected,
        };
        let msg = self.business_message();
        let msg = if msg.is_empty() {
            "Ombi reported a failure without giving a reason".to_owned()
        } else {
            format!("Ombi refused the change: {msg}")
        };
        // A quota does not lift by retrying now; nothing here is safe to repeat blindly.
        ToolError::new(code, msg).retryable(false)
    }

    /// Copies what Ombi said into `m`: `upstream_result`, `upstream_is_error`,
    /// `upstream_error_code` (ordinal) and `message`.
    pub fn annotate(&self, m: Mutation) -> Mutation {
        let m = m
            .set("upstream_result", json!(self.result))
            .set("upstream_is_error", json!(self.is_error));
        let m = match self.error_ordinal() {
            Some(o) => m.set("upstream_error_code", json!(o)),
            None => m,
        };
        m.message(&self.business_message())
    }

    /// The reply for this result: `success` (annotated) when Ombi reported success, else a
    /// `rejected` failure carrying the mapped error.
    pub fn reply(&self, success: Mutation) -> Reply {
        if self.succeeded() {
            // Success messages are not evidence (movie deny says "deleted"):
            // only the flags are passed on.
            let m = success
                .set("upstream_result", json!(self.result))
                .set("upstream_is_error", json!(self.is_error));
            return Reply::ok(m.into_json());
        }
        let reply = failure_with(
            self.error(),
            self.annotate(Mutation::new(Outcome::Rejected)),
        );
        match (&self.error_code, self.error_ordinal()) {
            (Some(c), None) => reply.warn(format!("Ombi sent an error code this tool does not know ({}); it is reported in message only", crate::contract::error::sanitize(c))),
            _ => reply,
        }
    }
}

#[cfg(test)]
mod tests;
