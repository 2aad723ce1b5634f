//! MCP over stdin/stdout, one JSON-RPC message per line, with rmcp served through a filtering
//! transport of our own (`stdio/transport.rs`) instead of its line transport.
//!
//! Why the filter: rmcp 3.11's line transport silently drops a line that is not JSON (rust-sdk
//! #938, to avoid error storms), while the JSON-RPC 2.0 specification (its "Response object")
//! asks for a `-32700 Parse error` answer with `id: null`. The filter answers such lines itself,
//! and well-formed JSON that is not a valid message with `-32600`; everything else reaches rmcp
//! as the message it parsed, without a second parse. Answers from rmcp and from the filter go
//! out through one writer, whole lines at a time, so stdout stays one message per line.
//!
//! The filter also
//!
//! * bounds what one message may cost: a line of at most [`MAX_LINE_BYTES`] (longer ones are
//!   answered `-32600` instead of rmcp's silent drop, and never buffered whole) holding at most
//!   [`MAX_MESSAGE_VALUES`] JSON values (counted while parsing, so a line of zeros stops early,
//!   `-32600`): one message then costs the harness at most [`MAX_MESSAGE_MIB`] MiB, whatever
//!   it holds;
//! * refuses a message with a key given twice in one object, naming it (`-32602` inside
//!   params, `-32600` for the message's own members; rmcp says "method not found");
//! * answers a `tools/call` whose params have the wrong types with `-32602` (rmcp says
//!   "method not found");
//! * refuses a request whose id belongs to a request still in progress (`-32600`; rmcp would
//!   run both and drop one answer; see `stdio/in_flight.rs`);
//! * applies `notifications/cancelled` itself: the server stops the call and its answer is
//!   dropped (see `stdio/in_flight.rs`);
//! * gives an error answer without an id the `"id": null` member JSON-RPC requires.

use rmcp::ServiceExt as _;
use rmcp::handler::server::ServerHandler;
use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

mod in_flight;
mod message;
mod process;
mod transport;

pub use message::MAX_MESSAGE_VALUES;

use crate::cancel::Cancellations;
use in_flight::InFlight;
use message::Duplicate;

/// Serves `handler` on the process's stdin/stdout until stdin closes; a request the client
/// cancels fires its signal in `cancellations` (the handler's, so that its call stops).
///
/// # Errors
///
/// The MCP handshake failed or the transport broke.
pub(crate) async fn serve_stdio<S: ServerHandler>(
    handler: S,
    cancellations: Cancellations,
) -> anyhow::Result<()> {
    let in_flight = InFlight(cancellations);
    let (input, output, _restore) = process::process_stdio();
    serve_with(handler, in_flight, input, output).await
}

/// Serves `handler` on any pair of byte streams (tests use in-memory pipes).
///
/// # Errors
///
/// The MCP handshake failed or the transport broke.
pub async fn serve<S, R, W>(handler: S, input: R, output: W) -> anyhow::Result<()>
where
    S: ServerHandler,
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    serve_with(handler, InFlight::default(), input, output).await
}

async fn serve_with<S, R, W>(
    handler: S,
    in_flight: InFlight,
    input: R,
    output: W,
) -> anyhow::Result<()>
where
    S: ServerHandler,
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (lines, to_write) = mpsc::unbounded_channel();
    let writer = tokio::spawn(write_lines(to_write, output));
    let transport = transport::Filtered::new(BufReader::new(input), lines, in_flight);
    let outcome = async {
        let running = handler.serve(transport).await?;
        running.waiting().await?;
        anyhow::Ok(())
    }
    .await;
    // rmcp has dropped the transport and with it the last sender, so the writer stops once it
    // has written everything.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
    outcome
}

/// The JSON-RPC answer to a line that is not JSON.
pub(crate) fn parse_error_response(detail: &str) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {detail}")}})
        .to_string()
}

/// Longest input line (one message) that is read. Longer lines are discarded while they are
/// read (never held in memory) and answered with `-32600`. MCP clients send small messages
/// (tool arguments, not documents).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What one input message may cost the harness at most, in MiB above its resident memory
/// before the message: a line at [`MAX_LINE_BYTES`] with up to [`MAX_MESSAGE_VALUES`] values
/// is held and parsed by the filter, and handed to rmcp as a second copy; a `tools/call` also copies its
/// arguments into the sandbox, whose memory is the separate per-call limit.
pub const MAX_MESSAGE_MIB: usize = 16;

/// Longest part of caller input that an error quotes.
pub(crate) const MAX_ECHO_CHARS: usize = 64;

/// `text` quoted for an error message: at most [`MAX_ECHO_CHARS`] characters (then `…` and the
/// whole length in bytes), with control, invisible and bidirectional characters escaped, so a
/// caller cannot make an answer large or make it read differently.
pub(crate) fn quote_bounded(text: &str) -> String {
    media_mcp_safe_text::quote_bounded(text, MAX_ECHO_CHARS)
}

/// The `-32600` answer to a line holding more than [`MAX_MESSAGE_VALUES`] values.
pub(crate) fn too_many_values_response() -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": format!("Invalid Request: a message may hold at most {MAX_MESSAGE_VALUES} JSON values")}})
        .to_string()
}

/// The answer to a message with a key given twice: `-32600` with `"id": null` when a member
/// of the message itself is repeated (its id cannot be trusted), `-32602` naming the key and
/// where it is for a request, `None` (no answer) for a notification or a client response.
pub(crate) fn duplicate_key_response(message: &Value, duplicate: &Duplicate) -> Option<String> {
    let key = quote_bounded(&duplicate.key);
    if duplicate.path.is_empty() {
        return Some(
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": format!("Invalid Request: the member {key} appears twice")}})
                .to_string(),
        );
    }
    let id = message
        .get("id")
        .filter(|id| id.is_string() || id.is_number())?;
    message.get("method")?;
    let path = quote_bounded(&duplicate.path);
    Some(
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": format!("Invalid params: the key {key} appears twice in {path}")}})
            .to_string(),
    )
}

/// The JSON-RPC answer to a line longer than [`MAX_LINE_BYTES`].
pub(crate) fn oversized_line_response() -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": format!("Invalid Request: a message longer than {MAX_LINE_BYTES} bytes")}})
        .to_string()
}

/// The `-32602` answer to a `tools/call` request whose params have the wrong types (rmcp would
/// answer `-32601 Method not found`, which tells a client the server lacks tools). `None` for
/// anything else.
pub(crate) fn invalid_call_params_response(message: &Value) -> Option<String> {
    let id = message.get("id")?;
    if !(id.is_string() || id.is_i64() || id.is_u64())
        || message.get("method").and_then(Value::as_str) != Some("tools/call")
    {
        return None;
    }
    let problem = match message.get("params") {
        Some(Value::Object(params)) => {
            if !params.get("name").is_some_and(Value::is_string) {
                "params.name must be a string"
            } else if params
                .get("arguments")
                .is_some_and(|a| !(a.is_object() || a.is_null()))
            {
                "params.arguments must be an object"
            } else if params
                .get("_meta")
                .is_some_and(|m| !(m.is_object() || m.is_null()))
            {
                "params._meta must be an object"
            } else {
                return None;
            }
        }
        _ => "params must be an object with a tool name",
    };
    Some(
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": format!("Invalid params: {problem}")}})
            .to_string(),
    )
}

/// One input line, read with a bound.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A whole line is in [`BoundedLines::line`] (without its newline).
    Complete,
    /// The line was longer than the bound and has been skipped.
    TooLong,
    /// The input ended.
    Eof,
}

/// Reads lines without ever holding more than `max` bytes of one (`read_until` cannot be
/// bounded: it returns only at a newline). A read dropped before it returns loses nothing: the
/// part of the line read so far stays here for the next call (rmcp polls its transport inside
/// a `select!`).
struct BoundedLines<R> {
    reader: R,
    line: Vec<u8>,
    max: usize,
    discarding: bool,
    returned: bool,
}

impl<R: AsyncBufRead + Unpin> BoundedLines<R> {
    fn new(reader: R, max: usize) -> Self {
        Self {
            reader,
            line: Vec::new(),
            max,
            discarding: false,
            returned: false,
        }
    }

    async fn next(&mut self) -> std::io::Result<Line> {
        if std::mem::take(&mut self.returned) {
            self.line.clear();
        }
        loop {
            let buf = self.reader.fill_buf().await?;
            if buf.is_empty() {
                let line = match (self.discarding, self.line.is_empty()) {
                    (true, _) => Line::TooLong,
                    (false, true) => Line::Eof,
                    (false, false) => Line::Complete,
                };
                self.discarding = false;
                self.returned = true;
                return Ok(line);
            }
            let (used, done) = match buf.iter().position(|b| *b == b'\n') {
                Some(at) => (at + 1, true),
                None => (buf.len(), false),
            };
            let content = &buf[..if done { used - 1 } else { used }];
            if !self.discarding {
                if self.line.len() + content.len() > self.max {
                    self.discarding = true;
                    self.line.clear();
                    self.line.shrink_to(64 * 1024);
                } else {
                    self.line.extend_from_slice(content);
                }
            }
            self.reader.consume(used);
            if done {
                self.returned = true;
                return Ok(if std::mem::take(&mut self.discarding) {
                    Line::TooLong
                } else {
                    Line::Complete
                });
            }
        }
    }
}

/// An error answer without an `id` member gets `"id": null`, as JSON-RPC 2.0 requires. Returns
/// the corrected line, `None` when nothing needs changing. Only short lines are looked at: such
/// error answers are tiny, results can be large.
pub(crate) fn with_null_id(line: &[u8]) -> Option<Vec<u8>> {
    if line.len() > 4096 || !line.windows(8).any(|w| w == b"\"error\":") {
        return None;
    }
    let mut message: Value = serde_json::from_slice(line).ok()?;
    let object = message.as_object_mut()?;
    if object.contains_key("id") || !object.contains_key("error") {
        return None;
    }
    object.insert("id".into(), Value::Null);
    serde_json::to_vec(&message).ok()
}

/// Writes the lines it is sent, flushing once nothing more is waiting.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut lines: mpsc::UnboundedReceiver<Vec<u8>>,
    mut output: W,
) -> std::io::Result<()> {
    while let Some(line) = lines.recv().await {
        output.write_all(&line).await?;
        while let Ok(line) = lines.try_recv() {
            output.write_all(&line).await?;
        }
        output.flush().await?;
    }
    output.flush().await
}

#[cfg(test)]
mod tests;
