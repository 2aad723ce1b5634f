//! One tool call through the sandbox, mapped to MCP: the WIT answer as a `CallToolResult`, a
//! sandbox failure as a contract error envelope, an unknown tool as JSON-RPC -32602, and a call
//! stopped by its cancellation signal.

use std::time::{Duration, Instant};

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, ErrorCode, JsonObject};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use media_mcp_wire::code;
use media_mcp_wire::tool::{CallResult, Mapped};

use crate::envelope;
use crate::sandbox::{CallContext, CallOutcome, Sandbox};
use crate::stdio::quote_bounded;

/// Runs one tool call and maps the WIT answer to MCP; `write`: the tool may change upstream
/// state ([`Catalogue::is_write`]), so a call the host ends after a request is an unknown outcome.
/// When `cancel` fires, the call is dropped where it stands (see the module documentation).
///
/// # Errors
///
/// JSON-RPC -32602 for an unknown tool, and an error nobody sees for a cancelled call (the
/// transport drops the answer to a cancelled request); everything else is a [`CallToolResult`].
pub async fn call_tool(
    sandbox: &Sandbox,
    write: bool,
    name: &str,
    arguments: Option<JsonObject>,
    principal: Option<String>,
    cancel: &CancellationToken,
) -> Result<CallToolResult, ErrorData> {
    match answer(sandbox, write, name, arguments, principal, cancel).await? {
        Answer::Result(result) => Ok(result),
        Answer::UnknownTool(unknown) => Err(unknown_tool(&unknown)),
    }
}

/// What a call came back with: a result, or the component's word that it has no such tool.
pub(super) enum Answer {
    Result(CallToolResult),
    UnknownTool(String),
}

/// [`call_tool`], telling an unknown tool apart from other errors.
pub(super) async fn answer(
    sandbox: &Sandbox,
    write: bool,
    name: &str,
    arguments: Option<JsonObject>,
    principal: Option<String>,
    cancel: &CancellationToken,
) -> Result<Answer, ErrorData> {
    let context = CallContext {
        correlation_id: uuid::Uuid::new_v4().to_string(),
        principal,
    };
    let arguments = Value::Object(arguments.unwrap_or_default()).to_string();
    let started = Instant::now();
    let id = &context.correlation_id;
    let outcome = tokio::select! {
        outcome = sandbox.call_tool(name, &arguments, &context) => outcome,
        () = cancel.cancelled() => {
            log_cancelled(name, id, write, started.elapsed());
            return Err(cancelled());
        }
    };
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    match outcome {
        Ok(CallOutcome::Result {
            structured,
            text,
            is_error,
        }) => {
            let outcome = media_mcp_wire::ToolOutcome {
                structured,
                text,
                is_error,
            };
            // An upstream may echo a key back; the text block is then written anew.
            let mapped = media_mcp_wire::tool::map_outcome(name, id, outcome, |value| {
                sandbox.policy().redact_secrets(value)
            });
            match &mapped {
                Mapped::Result { redacted, .. } => {
                    if *redacted {
                        crate::log_warn!(
                            "call {name} [{id}]: a configured API key was redacted from the result"
                        );
                    }
                    crate::log_info!(
                        "call {name} [{id}] {} in {elapsed_ms:.1} ms",
                        if is_error { "isError" } else { "ok" }
                    );
                }
                Mapped::Invalid { .. } => {
                    crate::log_error!("call {name} [{id}]: the component returned invalid JSON");
                }
            }
            Ok(Answer::Result(result(mapped.into_result())))
        }
        Ok(CallOutcome::UnknownTool(unknown)) => {
            crate::log_info!("call {name} [{id}]: unknown tool");
            Ok(Answer::UnknownTool(unknown))
        }
        Err(failure) => {
            crate::log_warn!(
                "call {name} [{id}] failed after {elapsed_ms:.1} ms: {}",
                failure.message
            );
            let value = envelope::failure_envelope(name, id, &failure, write);
            Ok(Answer::Result(result(CallResult::from_envelope(
                value, true,
            ))))
        }
    }
}

/// The log line of a call stopped because its request was cancelled: for a tool that may
/// write, a warning that its outcome is unknown (a request may have reached the upstream).
fn log_cancelled(name: &str, id: &str, write: bool, elapsed: Duration) {
    let ms = elapsed.as_secs_f64() * 1000.0;
    if write {
        crate::log_warn!(
            "call {name} [{id}] cancelled by the client after {ms:.1} ms and stopped: the tool may write and a request may have reached the upstream, so its outcome is unknown; check with a read before retrying"
        );
    } else {
        crate::log_info!(
            "call {name} [{id}] cancelled by the client after {ms:.1} ms and stopped (a read: nothing left behind)"
        );
    }
}

/// The answer to a cancelled call, which the transport drops (MCP sends none).
pub(super) fn cancelled() -> ErrorData {
    ErrorData::new(
        ErrorCode(code::REQUEST_CANCELLED as i32),
        "request cancelled",
        None,
    )
}

/// The MCP result of [`media_mcp_wire::tool`]'s mapping (rmcp drops `resultType` for
/// legacy peers).
pub(super) fn result(mapped: CallResult) -> CallToolResult {
    let text = vec![ContentBlock::text(mapped.text)];
    let mut result = if mapped.is_error {
        CallToolResult::error(text)
    } else {
        CallToolResult::success(text)
    };
    result.structured_content = Some(mapped.structured);
    result
}

pub(super) fn unknown_tool(name: &str) -> ErrorData {
    ErrorData::invalid_params(
        media_mcp_wire::tool::unknown_tool_message(&quote_bounded(name)),
        None,
    )
}
