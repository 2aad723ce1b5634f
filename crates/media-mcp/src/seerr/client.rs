//! The Seerr HTTP client: `/api/v1` under the base URL, headers (`Accept`, `X-Api-Key` only
//! when the host passes the key, `X-API-User` with the acting user's id), and the one place
//! where Seerr's answers become JSON or contract errors.
//!
//! Seerr validates every request against its OpenAPI file: a query parameter the file does not
//! list is answered 400, so the tools send only the parameters of the recorded version.

use super::config::SeerrConfig;
use crate::contract::{ErrorCode, ToolError};
use crate::prelude::*;
use crate::upstream::recognise::{json_body, status_error, transport_error};
use crate::upstream::{Effect, HttpRequest, HttpResponse, MAX_BODY_BYTES, Method, Upstream};
use media_mcp_wire::upstreams;
use serde_json::Value;

/// Who the calls act as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Acting {
    /// No user to act as is set: the key's administrator, user 1.
    Administrator,
    /// A Seerr user, by id (and the name it was resolved from, if any).
    User { id: i64, name: Option<String> },
}

/// Where Seerr's API lives under its base URL.
pub const API: &str = "/api/v1";

/// A Seerr client for one call.
pub struct Seerr<'a> {
    upstream: &'a dyn Upstream,
    config: &'a SeerrConfig,
    acting: Acting,
    timeout_ms: u64,
}

impl<'a> Seerr<'a> {
    /// A client acting as the key's administrator (user 1), for resolving who to act as.
    pub fn as_administrator(
        upstream: &'a dyn Upstream,
        config: &'a SeerrConfig,
        timeout_ms: u64,
    ) -> Self {
        Self {
            upstream,
            config,
            acting: Acting::Administrator,
            timeout_ms,
        }
    }

    /// This client acting as `acting`.
    pub fn acting_as(self, acting: Acting) -> Self {
        Self { acting, ..self }
    }

    /// Who the calls act as.
    pub fn acting(&self) -> &Acting {
        &self.acting
    }

    /// GET `path` (under `/api/v1`, query included) and decode its JSON.
    ///
    /// # Errors
    /// A contract error for transport failures, failure statuses and bad bodies; an empty
    /// answer is `UPSTREAM_SCHEMA_MISMATCH`.
    pub fn get(&self, path: &str) -> Result<Value, ToolError> {
        let resp = self.exchange(Method::Get, path, None, Effect::Read)?;
        json_body::<Value>(&resp)?
            .ok_or_else(|| ToolError::schema_mismatch("Seerr answered a read with no content"))
    }

    /// Sends `method path` with an optional JSON body; the status is checked, the body left to
    /// the caller (a write's 202 and 204 are answers too).
    ///
    /// # Errors
    /// A contract error for transport failures and failure statuses; for [`Effect::Write`] a
    /// lost answer is `UNKNOWN_OUTCOME`.
    pub fn exchange(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        effect: Effect,
    ) -> Result<HttpResponse, ToolError> {
        let mutation = effect == Effect::Write;
        let mut headers = vec![("accept".to_owned(), "application/json".to_owned())];
        if let Some(key) = &self.config.api_key {
            // Pass-key mode: the header the host would otherwise add.
            headers.push((
                upstreams::SEERR.key_header.to_ascii_lowercase(),
                key.clone(),
            ));
        }
        if let Acting::User { id, .. } = &self.acting {
            headers.push(("x-api-user".to_owned(), id.to_string()));
        }
        let body = body.map(|b| {
            headers.push(("content-type".to_owned(), "application/json".to_owned()));
            serde_json::to_vec(b).unwrap_or_default()
        });
        let request = HttpRequest {
            method,
            url: self.config.base_url.join(&format!("{API}{path}")),
            headers,
            body,
            timeout_ms: self.timeout_ms,
        };
        let resp = self
            .upstream
            .send(&request, MAX_BODY_BYTES)
            .map_err(|e| transport_error(&e, mutation))?;
        match seerr_error(&resp, mutation, &self.acting) {
            Some(err) => Err(err),
            None => Ok(resp),
        }
    }
}

/// One page of a Seerr list route (`{"pageInfo": {"results": total}, "results": [...]}`),
/// windowed by Seerr with `take` and `skip`.
pub struct Page {
    /// The rows of the page.
    pub rows: Vec<Value>,
    /// How many rows the whole list has, as Seerr reports it.
    pub total: Option<u64>,
}

impl Seerr<'_> {
    /// GET the list route `path` (its query already asks for `take` and `skip`); `what` names
    /// the list in errors.
    ///
    /// # Errors
    /// As [`Seerr::get`]; an answer without a `results` array is `UPSTREAM_SCHEMA_MISMATCH`.
    pub fn page(&self, path: &str, what: &str) -> Result<Page, ToolError> {
        let mut answer = self.get(path)?;
        let total = answer.pointer("/pageInfo/results").and_then(Value::as_u64);
        match answer.get_mut("results").map(Value::take) {
            Some(Value::Array(rows)) => Ok(Page { rows, total }),
            _ => Err(ToolError::schema_mismatch(format!(
                "Seerr's list of {what} has no results"
            ))),
        }
    }
}

impl Page {
    /// The contract `page` of the `returned` records made of these rows.
    pub fn paging(&self, window: crate::paging::Window, returned: usize, unit: &str) -> Value {
        crate::paging::upstream(
            window,
            returned,
            crate::paging::Beyond::Total {
                total: self.total,
                consumed: self.rows.len(),
            },
            unit,
        )
    }
}

/// Seerr's own text of a failure: `message` (its error handler and the OpenAPI validator) or
/// `error` (its permission check).
pub fn failure_message(resp: &HttpResponse) -> Option<String> {
    let v: Value = serde_json::from_slice(&resp.body).ok()?;
    ["message", "error"]
        .iter()
        .find_map(|k| v.get(*k).and_then(Value::as_str))
        .map(str::to_owned)
}

/// The contract error for a Seerr failure status, with Seerr's own message; `None` for a
/// success.
pub fn seerr_error(resp: &HttpResponse, mutation: bool, acting: &Acting) -> Option<ToolError> {
    let generic = status_error(resp, mutation)?;
    let said = failure_message(resp).unwrap_or_default();
    let with = |code: ErrorCode, base: &str| {
        let message = if said.is_empty() {
            base.to_owned()
        } else {
            format!("{base}: {said}")
        };
        ToolError::new(code, message).with_status(resp.status)
    };
    let err = match resp.status {
        400 => with(ErrorCode::InvalidArgument, "Seerr rejected the request"),
        // Seerr answers a refused delete with 401 and its own permission message.
        401 if said.starts_with("You do not have permission") => {
            with(ErrorCode::Forbidden, "Seerr refused")
        }
        401 => with(
            ErrorCode::AuthenticationFailed,
            "Seerr refused the credentials",
        ),
        403 if said.contains("Quota exceeded") => with(
            ErrorCode::RateLimited,
            "Seerr refused: the acting user's request quota is used up",
        ),
        403 => match acting {
            Acting::User { id, .. } => with(
                ErrorCode::Forbidden,
                &format!("Seerr refused user {id} (or has no user with that id)"),
            ),
            Acting::Administrator => with(ErrorCode::Forbidden, "Seerr refused"),
        },
        404 => with(ErrorCode::NotFound, "not found in Seerr"),
        409 => with(ErrorCode::Conflict, "Seerr refused"),
        500..=599 if mutation && !said.is_empty() => ToolError::unknown_outcome(format!(
            "the change was sent but answered with HTTP {}: {said}",
            resp.status
        ))
        .with_status(resp.status),
        500..=599 if !said.is_empty() => ToolError {
            message: crate::contract::error::sanitize(&format!("{}: {said}", generic.message)),
            ..generic
        },
        _ => return Some(generic),
    };
    Some(err)
}
