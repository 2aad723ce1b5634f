//! MCP over stdin/stdout, one JSON-RPC message per line, with rmcp behind a thin line filter.
//!
//! Why the filter: rmcp 3.11 silently drops a line that is not JSON (rust-sdk #938, to avoid
//! error storms), while the JSON-RPC 2.0 specification (its "Response object") asks for a `-32700 Parse error` answer with `id: null`.
//! The filter answers such lines itself and forwards everything else unchanged; rmcp still
//! answers well-formed JSON that is not a valid message with `-32600`. Output from rmcp and from
//! the filter is interleaved only at line boundaries, so stdout stays one message per line.
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
//! * gives rmcp's `-32600` answers the `"id": null` member JSON-RPC requires.

use rmcp::ServiceExt as _;
use rmcp::handler::server::ServerHandler;
use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

mod in_flight;
mod message;
mod process;

pub use message::MAX_MESSAGE_VALUES;

use crate::cancel::Cancellations;
use in_flight::{Admit, InFlight};
use message::{Duplicate, Refusal};

/// Pipe capacity between the filter and rmcp.
const PIPE_BYTES: usize = 256 * 1024;

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
    let (filter_out, rmcp_in) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_out, writer_in) = tokio::io::duplex(PIPE_BYTES);
    let (errors_tx, errors_rx) = mpsc::unbounded_channel();
    let filter = tokio::spawn(filter_input(
        input,
        filter_out,
        errors_tx,
        in_flight.clone(),
    ));
    let writer = tokio::spawn(write_output(writer_in, errors_rx, output, in_flight));
    let outcome = async {
        let running = handler.serve((rmcp_in, rmcp_out)).await?;
        running.waiting().await?;
        anyhow::Ok(())
    }
    .await;
    filter.abort();
    // rmcp has dropped `rmcp_out`, so the writer reaches EOF once it has flushed everything.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
    outcome
}

/// The JSON-RPC answer to a line that is not JSON.
pub(crate) fn parse_error_response(detail: &str) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {detail}")}})
        .to_string()
}

/// Longest input line (one message) that is forwarded. Longer lines are discarded while they
/// are read (never held in memory) and answered with `-32600`. MCP clients send small messages
/// (tool arguments, not documents); rmcp's own cap, 16 MiB, is far above this, so nothing it
/// would drop silently reaches it.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What one input message may cost the harness at most, in MiB above its resident memory
/// before the message: a line at [`MAX_LINE_BYTES`] with up to [`MAX_MESSAGE_VALUES`] values
/// is held by the filter and by rmcp and parsed by both; a `tools/call` also copies its
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
    /// `line` holds a whole line (without its newline).
    Complete,
    /// The line was longer than the bound and has been skipped.
    TooLong,
    /// The input ended.
    Eof,
}

/// Reads one line into `line` without ever holding more than `max` bytes of it (`read_until`
/// cannot be bounded: it returns only at a newline).
async fn read_line_bounded<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Line> {
    line.clear();
    let mut discarding = false;
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            return Ok(match (discarding, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::Eof,
                (false, false) => Line::Complete,
            });
        }
        let (used, done) = match buf.iter().position(|b| *b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buf.len(), false),
        };
        let content = &buf[..if done { used - 1 } else { used }];
        if !discarding {
            if line.len() + content.len() > max {
                discarding = true;
                line.clear();
                line.shrink_to(64 * 1024);
            } else {
                line.extend_from_slice(content);
            }
        }
        reader.consume(used);
        if done {
            return Ok(if discarding {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
    }
}

async fn filter_input<R, W>(
    input: R,
    mut to_rmcp: W,
    errors: mpsc::UnboundedSender<String>,
    in_flight: InFlight,
) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut reader = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        match read_line_bounded(&mut reader, &mut line, MAX_LINE_BYTES).await? {
            Line::Eof => return to_rmcp.shutdown().await,
            Line::TooLong => {
                crate::log_debug!(
                    "answering an input line over {MAX_LINE_BYTES} bytes with -32600"
                );
                let _ = errors.send(oversized_line_response());
                continue;
            }
            Line::Complete => {}
        }
        let body = line.strip_suffix(b"\r").unwrap_or(&line);
        if body.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let message = match message::parse(body) {
            Err(Refusal::Syntax(error)) => {
                crate::log_debug!("answering an unparsable input line with -32700");
                let _ = errors.send(parse_error_response(&error.to_string()));
                continue;
            }
            Err(Refusal::TooManyValues) => {
                crate::log_debug!(
                    "answering a message of more than {MAX_MESSAGE_VALUES} values with -32600"
                );
                let _ = errors.send(too_many_values_response());
                continue;
            }
            Ok(parsed) => parsed,
        };
        if let Some(duplicate) = &message.duplicate {
            crate::log_debug!("refusing a message with a key given twice");
            if let Some(answer) = duplicate_key_response(&message.value, duplicate) {
                let _ = errors.send(answer);
            }
            continue;
        }
        if let Some(answer) = invalid_call_params_response(&message.value) {
            let _ = errors.send(answer);
            continue;
        }
        match in_flight.admit(&message.value) {
            Admit::Forward => {}
            Admit::Refuse(answer) => {
                crate::log_debug!("refusing a request whose id is in flight");
                let _ = errors.send(answer);
                continue;
            }
            Admit::Drop => continue,
        }
        drop(message);
        to_rmcp.write_all(body).await?;
        to_rmcp.write_all(b"\n").await?;
        to_rmcp.flush().await?;
    }
}

/// rmcp answers a message it cannot read with `-32600` and no `id` member; the JSON-RPC 2.0 specification
/// requires `"id": null` then. Returns the corrected line, `None` when nothing needs changing.
/// Only short lines are looked at: such error answers are tiny, results can be large.
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
    let mut out = serde_json::to_vec(&message).ok()?;
    out.push(b'\n');
    Some(out)
}

async fn write_output<R, W>(
    from_rmcp: R,
    mut errors: mpsc::UnboundedReceiver<String>,
    mut output: W,
    in_flight: InFlight,
) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut reader = BufReader::new(from_rmcp);
    let mut line = Vec::new();
    let mut errors_open = true;
    loop {
        tokio::select! {
            read = reader.read_until(b'\n', &mut line) => {
                if read? == 0 {
                    break;
                }
                let body = line.strip_suffix(b"\n").unwrap_or(&line);
                if in_flight.settle(body) {
                    match with_null_id(body) {
                        Some(fixed) => output.write_all(&fixed).await?,
                        None => output.write_all(&line).await?,
                    }
                    output.flush().await?;
                }
                line.clear();
            }
            message = errors.recv(), if errors_open => match message {
                Some(message) => {
                    output.write_all(message.as_bytes()).await?;
                    output.write_all(b"\n").await?;
                    output.flush().await?;
                }
                None => errors_open = false,
            },
        }
    }
    output.flush().await
}

#[cfg(test)]
mod tests;
