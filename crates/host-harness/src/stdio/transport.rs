//! The transport rmcp is served through: the line filter on the way in, the answer writer's
//! channel on the way out.
//!
//! rmcp's own line transport would parse every line a second time (the filter has to parse it
//! to judge it) and sits behind in-memory pipes, each a task hand-off per message. Here the
//! filter runs inside [`Transport::receive`] and hands rmcp the message it parsed; an answer is
//! serialized in [`Transport::send`] and queued for the writer task.

use std::future::Future;
use std::sync::Arc;

use media_mcp_wire::{code, method};
use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, JsonRpcMessage, ServerJsonRpcMessage, ServerResult};
use rmcp::transport::Transport;
use serde::Deserialize as _;
use serde_json::Value;
use tokio::io::AsyncBufRead;
use tokio::sync::mpsc::UnboundedSender;

use super::answers;
use super::in_flight::{Admit, InFlight};
use super::lines::{BoundedLines, Line, MAX_LINE_BYTES};
use super::listing::{self, ListingText};
use super::message::{self, MAX_MESSAGE_VALUES, Refusal};
use crate::background::Gate;

/// rmcp's side of stdin and stdout.
pub(super) struct Filtered<R> {
    lines: BoundedLines<R>,
    out: UnboundedSender<Vec<u8>>,
    in_flight: InFlight,
    extras: Extras,
}

/// What `serve_stdio` adds to the plain transport: the listing text, and the gate of start-up
/// work.
#[derive(Default)]
pub(super) struct Extras {
    pub listings: Option<Arc<dyn ListingText>>,
    /// Start-up work waiting for the handshake to be answered.
    pub handshake: Option<Gate>,
}

/// Requests answered without the component: they do not open the handshake's gate.
const HANDSHAKE: [&str; 3] = [method::INITIALIZE, method::TOOLS_LIST, method::PING];

/// What the filter does with one line.
#[expect(
    clippy::large_enum_variant,
    reason = "returned once per line and moved straight on; boxing would allocate per message"
)]
enum Verdict {
    /// Hand it to rmcp.
    Forward(ClientJsonRpcMessage),
    /// Answer it with this line instead.
    Answer(String),
    /// Neither (blank lines, cancellations applied here, notifications rmcp cannot read).
    Skip,
}

impl<R: AsyncBufRead + Unpin> Filtered<R> {
    pub(super) fn new(
        input: R,
        out: UnboundedSender<Vec<u8>>,
        in_flight: InFlight,
        extras: Extras,
    ) -> Self {
        Self {
            lines: BoundedLines::new(input, MAX_LINE_BYTES),
            out,
            in_flight,
            extras,
        }
    }

    /// Opens the handshake's gate (again: opening is idempotent).
    fn handshake_done(&self) {
        if let Some(gate) = &self.extras.handshake {
            gate.open();
        }
    }

    fn answer(&self, mut line: Vec<u8>) {
        line.push(b'\n');
        // A closed channel means the writer failed; rmcp learns it from `send`.
        let _ = self.out.send(line);
    }

    fn judge(&self) -> Verdict {
        let line = &self.lines.line;
        let body = line.strip_suffix(b"\r").unwrap_or(line);
        if body.iter().all(u8::is_ascii_whitespace) {
            return Verdict::Skip;
        }
        let parsed = match message::parse(body) {
            Err(Refusal::Syntax(error)) => {
                crate::log_debug!(
                    "answering an unparsable input line with {}",
                    code::PARSE_ERROR
                );
                return Verdict::Answer(answers::parse_error_response(&error.to_string()));
            }
            Err(Refusal::TooManyValues) => {
                crate::log_debug!(
                    "answering a message of more than {MAX_MESSAGE_VALUES} values with {}",
                    code::INVALID_REQUEST
                );
                return Verdict::Answer(answers::too_many_values_response());
            }
            Ok(parsed) => parsed,
        };
        if let Some(duplicate) = &parsed.duplicate {
            crate::log_debug!("refusing a message with a key given twice");
            return answers::duplicate_key_response(&parsed.value, duplicate)
                .map_or(Verdict::Skip, Verdict::Answer);
        }
        if let Some(answer) = answers::invalid_call_params_response(&parsed.value) {
            return Verdict::Answer(answer);
        }
        let method = parsed.value.get("method").and_then(Value::as_str);
        if parsed.value.get("id").is_some() && method.is_some_and(|m| !HANDSHAKE.contains(&m)) {
            self.handshake_done();
        }
        let message = match ClientJsonRpcMessage::deserialize(&parsed.value) {
            Ok(message) => message,
            Err(error) => return not_a_message(&parsed.value, &error),
        };
        match self.in_flight.admit(&message) {
            Admit::Forward => Verdict::Forward(message),
            Admit::Refuse(answer) => {
                crate::log_debug!("refusing a request whose id is in flight");
                Verdict::Answer(answer)
            }
            Admit::Drop => Verdict::Skip,
        }
    }

    /// The line that carries `message`, `None` when it must not be written (the answer to a
    /// cancelled request).
    fn encode(&self, message: &ServerJsonRpcMessage) -> Option<serde_json::Result<Vec<u8>>> {
        let id = match message {
            JsonRpcMessage::Response(response) => Some(&response.id),
            JsonRpcMessage::Error(error) => error.id.as_ref(),
            JsonRpcMessage::Request(_) | JsonRpcMessage::Notification(_) => None,
        };
        if let Some(id) = id
            && !self.in_flight.settle(id)
        {
            return None;
        }
        if let Some(line) = self
            .extras
            .listings
            .as_deref()
            .and_then(|listings| listing::spliced(message, listings))
        {
            return Some(Ok(line));
        }
        Some(serde_json::to_vec(message).map(|line| match message {
            JsonRpcMessage::Error(error) if error.id.is_none() => {
                answers::with_null_id(&line).unwrap_or(line)
            }
            _ => line,
        }))
    }
}

/// The answer to JSON that is not a message rmcp reads: `-32600` with `"id": null` (the id of
/// a malformed request cannot be trusted), nothing for a notification, which JSON-RPC never
/// answers.
fn not_a_message(value: &Value, error: &serde_json::Error) -> Verdict {
    if value.get("id").is_none() && value.get("method").is_some_and(Value::is_string) {
        crate::log_debug!("ignoring a notification rmcp cannot read: {error}");
        return Verdict::Skip;
    }
    crate::log_debug!(
        "answering JSON that is not a message with {}: {error}",
        code::INVALID_REQUEST
    );
    Verdict::Answer(answers::invalid_request_response())
}

impl<R: AsyncBufRead + Unpin + Send + 'static> Transport<RoleServer> for Filtered<R> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let listed = matches!(&item, JsonRpcMessage::Response(r)
            if matches!(r.result, ServerResult::ListToolsResult(_)));
        let sent = match self.encode(&item) {
            None => Ok(()),
            Some(Err(error)) => Err(std::io::Error::other(error)),
            Some(Ok(mut line)) => {
                line.push(b'\n');
                self.out
                    .send(line)
                    .map_err(|_| std::io::ErrorKind::BrokenPipe.into())
            }
        };
        if listed {
            // Queued first: the writer gets to it before start-up work competes for the CPU.
            self.handshake_done();
        }
        std::future::ready(sent)
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            match self.lines.next().await {
                Ok(Line::Complete) => {}
                Ok(Line::TooLong) => {
                    crate::log_debug!(
                        "answering an input line over {MAX_LINE_BYTES} bytes with {}",
                        code::INVALID_REQUEST
                    );
                    self.answer(answers::oversized_line_response().into_bytes());
                    continue;
                }
                Ok(Line::Eof) => return None,
                Err(error) => {
                    crate::log_debug!("stdin failed: {error}");
                    return None;
                }
            }
            match self.judge() {
                Verdict::Forward(message) => return Some(message),
                Verdict::Answer(answer) => self.answer(answer.into_bytes()),
                Verdict::Skip => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}
