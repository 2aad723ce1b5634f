//! MCP over stdin/stdout, one JSON-RPC message per line, with rmcp behind a thin line filter.
//!
//! Why the filter: rmcp 3.11 silently drops a line that is not JSON (rust-sdk #938, to avoid
//! error storms), while JSON-RPC 2.0 §5 asks for a `-32700 Parse error` answer with `id: null`.
//! The filter answers such lines itself and forwards everything else unchanged; rmcp still
//! answers well-formed JSON that is not a valid message with `-32600`. Output from rmcp and from
//! the filter is interleaved only at line boundaries, so stdout stays one message per line.

use rmcp::ServiceExt as _;
use rmcp::handler::server::ServerHandler;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Pipe capacity between the filter and rmcp.
const PIPE_BYTES: usize = 256 * 1024;

/// Serves `handler` on the process's stdin/stdout until stdin closes.
///
/// # Errors
///
/// The MCP handshake failed or the transport broke.
pub async fn serve_stdio<S: ServerHandler>(handler: S) -> anyhow::Result<()> {
    serve(handler, tokio::io::stdin(), tokio::io::stdout()).await
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
    let (filter_out, rmcp_in) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_out, writer_in) = tokio::io::duplex(PIPE_BYTES);
    let (errors_tx, errors_rx) = mpsc::unbounded_channel();
    let filter = tokio::spawn(filter_input(input, filter_out, errors_tx));
    let writer = tokio::spawn(write_output(writer_in, errors_rx, output));
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
pub fn parse_error_response(detail: &str) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {detail}")}})
        .to_string()
}

async fn filter_input<R, W>(
    input: R,
    mut to_rmcp: W,
    errors: mpsc::UnboundedSender<String>,
) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut reader = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).await? == 0 {
            return to_rmcp.shutdown().await;
        }
        let body = line.strip_suffix(b"\n").unwrap_or(&line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        if body.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if let Err(error) = serde_json::from_slice::<serde::de::IgnoredAny>(body) {
            crate::log_debug!("answering an unparsable input line with -32700");
            let _ = errors.send(parse_error_response(&error.to_string()));
            continue;
        }
        to_rmcp.write_all(body).await?;
        to_rmcp.write_all(b"\n").await?;
        to_rmcp.flush().await?;
    }
}

async fn write_output<R, W>(
    from_rmcp: R,
    mut errors: mpsc::UnboundedReceiver<String>,
    mut output: W,
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
                output.write_all(&line).await?;
                output.flush().await?;
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
