//! The answers the line filter gives itself, instead of handing a message to rmcp.

use media_mcp_wire::{code, method};
use serde_json::{Value, json};

use super::lines::MAX_LINE_BYTES;
use super::message::{Duplicate, MAX_MESSAGE_VALUES};

/// The JSON-RPC answer to a line that is not JSON.
pub(crate) fn parse_error_response(detail: &str) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code::PARSE_ERROR, "message": format!("Parse error: {detail}")}})
        .to_string()
}

pub(crate) use media_mcp_wire::MAX_ECHO_CHARS;

/// `text` quoted for an error message: at most [`MAX_ECHO_CHARS`] characters (then `…` and the
/// whole length in bytes), with control, invisible and bidirectional characters escaped, so a
/// caller cannot make an answer large or make it read differently.
pub(crate) fn quote_bounded(text: &str) -> String {
    media_mcp_safe_text::quote_bounded(text, MAX_ECHO_CHARS)
}

/// The `-32600` answer to a line holding more than [`MAX_MESSAGE_VALUES`] values.
pub(crate) fn too_many_values_response() -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code::INVALID_REQUEST, "message": format!("Invalid Request: a message may hold at most {MAX_MESSAGE_VALUES} JSON values")}})
        .to_string()
}

/// The answer to a message with a key given twice: `-32600` with `"id": null` when a member
/// of the message itself is repeated (its id cannot be trusted), `-32602` naming the key and
/// where it is for a request, `None` (no answer) for a notification or a client response.
pub(crate) fn duplicate_key_response(message: &Value, duplicate: &Duplicate) -> Option<String> {
    let key = quote_bounded(&duplicate.key);
    if duplicate.path.is_empty() {
        return Some(
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": code::INVALID_REQUEST, "message": format!("Invalid Request: the member {key} appears twice")}})
                .to_string(),
        );
    }
    let id = message
        .get("id")
        .filter(|id| id.is_string() || id.is_number())?;
    message.get("method")?;
    let path = quote_bounded(&duplicate.path);
    Some(
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": code::INVALID_PARAMS, "message": format!("Invalid params: the key {key} appears twice in {path}")}})
            .to_string(),
    )
}

/// The `-32600` answer to JSON that is not a message rmcp reads.
pub(crate) fn invalid_request_response() -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code::INVALID_REQUEST, "message": "Invalid request"}})
        .to_string()
}

/// The JSON-RPC answer to a line longer than [`MAX_LINE_BYTES`].
pub(crate) fn oversized_line_response() -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code::INVALID_REQUEST, "message": format!("Invalid Request: a message longer than {MAX_LINE_BYTES} bytes")}})
        .to_string()
}

/// The `-32602` answer to a `tools/call` request whose params have the wrong types (rmcp would
/// answer `-32601 Method not found`, which tells a client the server lacks tools). `None` for
/// anything else.
pub(crate) fn invalid_call_params_response(message: &Value) -> Option<String> {
    let id = message.get("id")?;
    if !(id.is_string() || id.is_i64() || id.is_u64())
        || message.get("method").and_then(Value::as_str) != Some(method::TOOLS_CALL)
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
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": code::INVALID_PARAMS, "message": format!("Invalid params: {problem}")}})
            .to_string(),
    )
}

/// An error answer without an `id` member gets `"id": null`, as JSON-RPC 2.0 requires. Returns
/// the corrected line, `None` when nothing needs changing.
pub(crate) fn with_null_id(line: &[u8]) -> Option<Vec<u8>> {
    let mut message: Value = serde_json::from_slice(line).ok()?;
    let object = message.as_object_mut()?;
    if object.contains_key("id") || !object.contains_key("error") {
        return None;
    }
    object.insert("id".into(), Value::Null);
    serde_json::to_vec(&message).ok()
}
