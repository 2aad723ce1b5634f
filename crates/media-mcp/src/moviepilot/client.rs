//! The MCP client for MoviePilot's endpoint: JSON-RPC 2.0 over plain HTTP POST, one object per request, the
//! `initialize` + `notifications/initialized` handshake, `Mcp-Session-Id` kept and echoed, and
//! answers read either as JSON or as an SSE stream.

use super::config::MoviePilotConfig;
use super::result::{http_error, rpc_error};
use crate::contract::{ErrorCode, ToolError};
use crate::prelude::*;
use crate::upstream::Effect;
use crate::upstream::recognise::transport_error;
use crate::upstream::{HttpRequest, HttpResponse, MAX_BODY_BYTES, Method, Upstream, path_segment};
use core::cell::{Cell, RefCell};
use media_mcp_wire::variables::MOVIEPILOT_URL;
use media_mcp_wire::{method, upstreams};
use serde::Serialize;
use serde_json::{Value, json};

/// The protocol version the plugin offers.
pub const OFFERED_VERSION: &str = "2025-11-25";
/// The versions the plugin can speak, newest first.
pub const ACCEPTED_VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2024-11-05"];

/// One call's MCP session with MoviePilot.
pub struct Client<'a> {
    upstream: &'a dyn Upstream,
    cfg: &'a MoviePilotConfig,
    timeout_ms: u64,
    session: RefCell<Option<String>>,
    version: RefCell<Option<String>>,
    next_id: Cell<u64>,
}

impl<'a> Client<'a> {
    /// A client whose requests each wait at most `timeout_ms` unless told otherwise.
    pub fn new(upstream: &'a dyn Upstream, cfg: &'a MoviePilotConfig, timeout_ms: u64) -> Self {
        Self {
            upstream,
            cfg,
            timeout_ms,
            session: RefCell::new(None),
            version: RefCell::new(None),
            next_id: Cell::new(1),
        }
    }

    /// `initialize`, then `notifications/initialized`. Returns the negotiated version.
    ///
    /// # Errors
    /// `UNSUPPORTED_CAPABILITY` when MoviePilot answers with a version the plugin does not speak;
    /// any transport, HTTP or JSON-RPC failure as a contract error.
    pub fn handshake(&self) -> Result<String, ToolError> {
        let params = json!({
            "protocolVersion": OFFERED_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "media-mcp", "version": env!("CARGO_PKG_VERSION")}
        });
        let result = self.request(method::INITIALIZE, &params, Effect::Read, None)?;
        let version = result
            .get("protocolVersion")
            .and_then(Value::as_str)
            .unwrap_or("");
        if !ACCEPTED_VERSIONS.contains(&version) {
            let shown: String = version
                .chars()
                .filter(|c| !c.is_control())
                .take(40)
                .collect();
            return Err(ToolError::new(
                ErrorCode::UnsupportedCapability,
                format!(
                    "configuration error: the MoviePilot endpoint at {} answered initialize with protocol version `{shown}`; this plugin speaks {}",
                    MOVIEPILOT_URL.name,
                    ACCEPTED_VERSIONS.join(", ")
                ),
            ));
        }
        *self.version.borrow_mut() = Some(version.to_owned());
        self.notify(method::INITIALIZED)?;
        Ok(version.to_owned())
    }

    /// Continues with protocol `version`, negotiated by an earlier call: MoviePilot's endpoint
    /// keeps no session, so a request needs no handshake of its own.
    pub fn resume(&self, version: &str) {
        *self.version.borrow_mut() = Some(version.to_owned());
    }

    /// Sends a notification (no `id`); MoviePilot answers 204.
    ///
    /// # Errors
    /// Transport failures, failure statuses and JSON-RPC errors.
    pub fn notify(&self, method: &str) -> Result<(), ToolError> {
        let body = json!({"jsonrpc": "2.0", "method": method, "params": {}});
        let resp = self.post(&body, Effect::Read, self.timeout_ms)?;
        if resp.status == 204 || resp.body.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        // Some servers answer 202 or with a body; only a JSON-RPC error in it is a failure.
        match parse_messages(&resp)
            .ok()
            .and_then(|m| m.into_iter().find(|m| m.get("error").is_some()))
        {
            Some(m) => Err(error_of(&m, resp.status, false)),
            None if (200..300).contains(&resp.status) => Ok(()),
            None => Err(http_error(&resp, false)),
        }
    }

    /// Sends request `method` and returns its `result`. `timeout_ms` overrides the default.
    ///
    /// # Errors
    /// Transport failures and failure statuses (mutation-aware for [`Effect::Write`]), JSON-RPC
    /// errors, and answers that are not a JSON-RPC response to this request.
    pub fn request(
        &self,
        method: &str,
        params: &impl Serialize,
        effect: Effect,
        timeout_ms: Option<u64>,
    ) -> Result<Value, ToolError> {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        let body = Request {
            jsonrpc: "2.0",
            id,
            method,
            params,
        };
        let mutation = effect == Effect::Write;
        let resp = self.post(&body, effect, timeout_ms.unwrap_or(self.timeout_ms))?;
        let messages = match parse_messages(&resp) {
            Ok(m) => m,
            Err(e) if (200..300).contains(&resp.status) => return Err(answer_lost(e, mutation)),
            Err(_) => return Err(http_error(&resp, mutation)),
        };
        let Some(mut answer) = messages
            .into_iter()
            .find(|m| m.get("id") == Some(&json!(id)) || m.get("error").is_some())
        else {
            let e = ToolError::schema_mismatch(format!(
                "MoviePilot sent no JSON-RPC answer to `{method}`"
            ));
            return Err(if (200..300).contains(&resp.status) {
                answer_lost(e, mutation)
            } else {
                http_error(&resp, mutation)
            });
        };
        if answer.get("error").is_some() {
            return Err(error_of(&answer, resp.status, mutation));
        }
        if !(200..300).contains(&resp.status) {
            return Err(http_error(&resp, mutation));
        }
        match answer.as_object_mut().and_then(|a| a.remove("result")) {
            Some(r) => Ok(r),
            None => Err(answer_lost(
                ToolError::schema_mismatch("MoviePilot's answer has neither result nor error"),
                mutation,
            )),
        }
    }

    /// `GET <url>/tools/{name}/schema`, the REST helper that always returns the full schema.
    ///
    /// # Errors
    /// Transport failures, failure statuses, and bodies that are not JSON.
    pub fn tool_schema(&self, name: &str) -> Result<Value, ToolError> {
        let segment = path_segment(name).ok_or_else(|| {
            ToolError::schema_mismatch(format!(
                "MoviePilot listed a tool named {name:?}, which cannot be a URL path segment"
            ))
        })?;
        let url = self.cfg.url.join(&format!("/tools/{segment}/schema"));
        let req = HttpRequest {
            method: Method::Get,
            url,
            headers: self.headers(false),
            body: None,
            timeout_ms: self.timeout_ms,
        };
        let resp = self
            .upstream
            .send(&req, MAX_BODY_BYTES)
            .map_err(|e| transport_error(&e, false))?;
        if resp.status == 404 {
            return Err(ToolError::new(
                ErrorCode::NotFound,
                format!("MoviePilot has no schema for tool `{name}`"),
            )
            .with_status(404));
        }
        if !(200..300).contains(&resp.status) {
            return Err(http_error(&resp, false));
        }
        serde_json::from_slice(&resp.body).map_err(|_| {
            ToolError::schema_mismatch(format!("MoviePilot's schema for `{name}` was not JSON"))
                .with_status(resp.status)
        })
    }

    fn headers(&self, json_body: bool) -> Vec<(String, String)> {
        let mut h = vec![
            (
                "accept".to_owned(),
                "application/json, text/event-stream".to_owned(),
            ),
            // Compact: large schemas come projected and are completed from the helper endpoint
            // only where needed; full: discovery rarely needs the helper endpoint.
            (
                "x-mcp-schema-mode".to_owned(),
                self.cfg.schema_mode.header_value().to_owned(),
            ),
        ];
        if json_body {
            h.push(("content-type".to_owned(), "application/json".to_owned()));
        }
        if let Some(v) = self.version.borrow().as_ref() {
            h.push(("mcp-protocol-version".to_owned(), v.clone()));
        }
        if let Some(s) = self.session.borrow().as_ref() {
            h.push(("mcp-session-id".to_owned(), s.clone()));
        }
        if let Some(key) = &self.cfg.api_key {
            // Pass-key mode: the header the host would otherwise add.
            h.push((
                upstreams::MOVIEPILOT.key_header.to_ascii_lowercase(),
                key.clone(),
            ));
        }
        h
    }

    fn post(
        &self,
        body: &impl Serialize,
        effect: Effect,
        timeout_ms: u64,
    ) -> Result<HttpResponse, ToolError> {
        let req = HttpRequest {
            method: Method::Post,
            url: self.cfg.url.as_str().to_owned(),
            headers: self.headers(true),
            body: Some(serde_json::to_vec(body).unwrap_or_default()),
            timeout_ms,
        };
        let resp = self
            .upstream
            .send(&req, MAX_BODY_BYTES)
            .map_err(|e| transport_error(&e, effect == Effect::Write))?;
        if let Some(s) = resp.header("mcp-session-id") {
            // Visible ASCII only (it goes back as a header value), bounded.
            if !s.is_empty() && s.len() <= 256 && s.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
                *self.session.borrow_mut() = Some(s.to_owned());
            }
        }
        Ok(resp)
    }
}

/// A JSON-RPC request, serialized as it stands (its parameters are not copied into a value).
#[derive(Serialize)]
struct Request<'a, P> {
    jsonrpc: &'static str,
    id: u64,
    method: &'a str,
    params: &'a P,
}

/// A 2xx answer that cannot be read: for a mutation the effect is unknown.
fn answer_lost(e: ToolError, mutation: bool) -> ToolError {
    if mutation {
        ToolError::unknown_outcome(format!(
            "the call was sent but its answer could not be read: {}",
            e.message
        ))
    } else {
        e
    }
}

fn error_of(message: &Value, status: u16, mutation: bool) -> ToolError {
    let err = &message["error"];
    rpc_error(
        err.get("code").and_then(Value::as_i64).unwrap_or(0),
        err.get("message").and_then(Value::as_str).unwrap_or(""),
        err.get("data"),
        status,
        mutation,
    )
}

/// The JSON-RPC messages in a response: one JSON object, or the `data:` events of an SSE stream.
fn parse_messages(resp: &HttpResponse) -> Result<Vec<Value>, ToolError> {
    let ct = resp
        .content_type
        .as_deref()
        .unwrap_or("")
        .to_ascii_lowercase();
    if let Some(enc) = resp.header("content-encoding")
        && !enc.eq_ignore_ascii_case("identity")
    {
        return Err(ToolError::schema_mismatch(
            "MoviePilot's answer was compressed, which the plugin does not accept",
        ));
    }
    if ct.starts_with("text/event-stream") {
        return Ok(sse_events(&String::from_utf8_lossy(&resp.body))
            .into_iter()
            .filter_map(|data| serde_json::from_str::<Value>(&data).ok())
            .filter(Value::is_object)
            .collect());
    }
    match serde_json::from_slice::<Value>(&resp.body) {
        Ok(v @ Value::Object(_)) => Ok(vec![v]),
        Ok(_) => Err(
            ToolError::schema_mismatch("MoviePilot's answer was not a JSON-RPC object")
                .with_status(resp.status),
        ),
        Err(_) => Err(
            ToolError::schema_mismatch("MoviePilot's answer was not JSON").with_status(resp.status),
        ),
    }
}

/// The `data` of each event in an SSE body (multi-line data joined with `\n`).
pub fn sse_events(body: &str) -> Vec<String> {
    let mut events = Vec::new();
    let mut data: Vec<&str> = Vec::new();
    for line in body.lines().chain(core::iter::once("")) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            if !data.is_empty() {
                events.push(data.join("\n"));
                data.clear();
            }
        } else if let Some(rest) = line.strip_prefix("data:") {
            data.push(rest.strip_prefix(' ').unwrap_or(rest));
        }
    }
    events
}

#[cfg(test)]
mod tests;
