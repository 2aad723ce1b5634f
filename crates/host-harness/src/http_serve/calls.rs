//! What `serve --http` reads from a `tools/call` before the HTTP component answers it: the tool,
//! the JSON-RPC id and the progress token, so that the host can stream progress to a client
//! that accepts `text/event-stream` and log a call whose client went away.
//!
//! The component cannot report progress itself: its `incoming-handler` calls the plugin's
//! `call-tool` synchronously (WASI 0.2 gives a component no concurrency), so nothing can be
//! written while a call runs. The host can, because it sees the request before the component
//! does and the response after it.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::Frame;
use media_mcp_wire::method;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::progress;

/// A `tools/call` request as the host sees it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ToolCall {
    /// The tool's name, when it is a short plain name (it appears in progress messages and logs).
    pub(super) name: String,
    /// The JSON-RPC id.
    pub(super) id: Value,
    /// `params._meta.progressToken` (a string or an integer).
    pub(super) progress_token: Option<Value>,
}

impl ToolCall {
    /// The id as logs show it: at most 64 characters of it, escaped.
    pub(super) fn shown_id(&self) -> String {
        media_mcp_safe_text::quote_bounded(&self.id.to_string(), 64)
    }
}

/// Reads a `tools/call` request from a request body; `None` for anything else (the component
/// answers what is malformed).
pub(super) fn tool_call(body: &[u8]) -> Option<ToolCall> {
    let message: Value = serde_json::from_slice(body).ok()?;
    if message.get("method")?.as_str()? != method::TOOLS_CALL {
        return None;
    }
    let id = message
        .get("id")
        .filter(|id| id.is_string() || id.is_i64() || id.is_u64())?;
    let params = message.get("params")?;
    let name = params.get("name")?.as_str()?;
    let name = if name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
    {
        name.to_owned()
    } else {
        "(unnamed tool)".to_owned()
    };
    let progress_token = params
        .get("_meta")
        .and_then(|meta| meta.get("progressToken"))
        .filter(|token| token.is_string() || token.is_i64() || token.is_u64())
        .cloned();
    Some(ToolCall {
        name,
        id: id.clone(),
        progress_token,
    })
}

/// Whether the `Accept` header names `text/event-stream` (not with `q=0`).
pub(super) fn accepts_event_stream(headers: &hyper::HeaderMap) -> bool {
    headers
        .get_all(hyper::header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|range| {
            let mut parts = range.split(';');
            let kind = parts.next().unwrap_or("").trim();
            kind.eq_ignore_ascii_case("text/event-stream")
                && !parts.any(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .and_then(|q| q.trim().parse::<f32>().ok())
                        .is_some_and(|q| q <= 0.0)
                })
        })
}

/// One SSE `message` event holding `message`.
pub(super) fn event(message: &Value) -> Bytes {
    Bytes::from(format!("event: message\ndata: {message}\n\n"))
}

/// The `notifications/progress` event of `call` after `elapsed` (seconds, no total).
pub(super) fn progress_event(call: &ToolCall, token: &Value, elapsed: Duration) -> Bytes {
    event(&json!({
        "jsonrpc": "2.0",
        "method": method::PROGRESS,
        "params": {
            "progressToken": token,
            "progress": progress::elapsed_seconds(elapsed),
            "message": progress::message(&call.name, elapsed),
        },
    }))
}

/// The component's answer as the last event of a stream: a JSON answer becomes one `message`
/// event, an SSE answer is kept as it is; `None` for anything else.
pub(super) fn final_event(content_type: &str, body: &Bytes) -> Option<Bytes> {
    if content_type.starts_with("text/event-stream") {
        return Some(body.clone());
    }
    let message: Value = serde_json::from_slice(body).ok()?;
    Some(event(&message))
}

/// A response body fed by a channel: each message is one frame, the body ends when the
/// sender is dropped.
pub(super) struct ChannelBody(pub(super) mpsc::Receiver<Bytes>);

impl http_body::Body for ChannelBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0
            .poll_recv(cx)
            .map(|next| next.map(|bytes| Ok(Frame::data(bytes))))
    }
}

/// Logs the call when dropped before [`Abandoned::answered`]: the client closed the
/// connection, so the call was stopped (its instance dropped with any upstream request).
pub(super) struct Abandoned {
    pub(super) call: ToolCall,
    answered: bool,
}

impl Abandoned {
    pub(super) fn new(call: ToolCall) -> Abandoned {
        Abandoned {
            call,
            answered: false,
        }
    }

    /// The call ended with an answer: nothing to log.
    pub(super) fn answered(&mut self) {
        self.answered = true;
    }
}

impl Drop for Abandoned {
    fn drop(&mut self) {
        if !self.answered {
            crate::log_warn!(
                "tools/call {} (request id {}) stopped: the client closed the connection before the answer; if the tool writes, its outcome is unknown (check with a read before retrying)",
                self.call.name,
                self.call.shown_id()
            );
        }
    }
}

#[cfg(test)]
mod tests;
