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
//!
//! A `tools/list` answer whose tools its server already holds as JSON text is written around
//! that text instead of being serialized again (`stdio/listing.rs`).

use std::sync::Arc;

use rmcp::ServiceExt as _;
use rmcp::handler::server::ServerHandler;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

mod answers;
mod in_flight;
mod lines;
mod listing;
mod message;
mod process;
mod transport;

pub(crate) use answers::quote_bounded;
pub use lines::MAX_LINE_BYTES;
pub use listing::ListingText;
pub use message::MAX_MESSAGE_VALUES;

use crate::background::Gate;
use crate::cancel::Cancellations;
use in_flight::InFlight;
use transport::Extras;

/// Serves `handler` on the process's stdin/stdout until stdin closes; a request the client
/// cancels fires its signal in `cancellations` (the handler's, so that its call stops), a
/// tool list `listings` holds as text is written from that text, and `handshake` opens once
/// `tools/list` is answered or a request that needs the component arrives.
///
/// # Errors
///
/// The MCP handshake failed or the transport broke.
pub(crate) async fn serve_stdio<S: ServerHandler>(
    handler: S,
    cancellations: Cancellations,
    listings: Arc<dyn ListingText>,
    handshake: Gate,
) -> anyhow::Result<()> {
    let in_flight = InFlight(cancellations);
    let (input, output, _restore) = process::process_stdio();
    let extras = Extras {
        listings: Some(listings),
        handshake: Some(handshake),
    };
    serve_with(handler, in_flight, extras, input, output).await
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
    serve_with(
        handler,
        InFlight::default(),
        Extras::default(),
        input,
        output,
    )
    .await
}

async fn serve_with<S, R, W>(
    handler: S,
    in_flight: InFlight,
    extras: Extras,
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
    let transport = transport::Filtered::new(BufReader::new(input), lines, in_flight, extras);
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

/// What one input message may cost the harness at most, in MiB above its resident memory
/// before the message: a line at [`MAX_LINE_BYTES`] with up to [`MAX_MESSAGE_VALUES`] values
/// is held and parsed by the filter, and handed to rmcp as a second copy; a `tools/call` also copies its
/// arguments into the sandbox, whose memory is the separate per-call limit.
pub const MAX_MESSAGE_MIB: usize = 16;

#[cfg(test)]
mod tests;
