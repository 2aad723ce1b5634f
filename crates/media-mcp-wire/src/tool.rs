//! The tool record the plugin lists, its answer to a call, and the MCP result made of it.

use alloc::borrow::ToOwned;
use alloc::string::{String, ToString};

use serde_json::{Value, json};

use crate::error_code::ErrorCode;

/// One tool as the plugin lists it (the WIT `tool` record; schemas and annotations as JSON
/// text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolRecord {
    /// Unique name (`read_search`).
    pub name: String,
    /// Human-readable title (may be empty).
    pub title: String,
    /// What the tool does, for the model.
    pub description: String,
    /// JSON Schema of the arguments, as text.
    pub input_schema: String,
    /// JSON Schema of the structured result, as text.
    pub output_schema: String,
    /// MCP tool annotations, as text.
    pub annotations: String,
}

/// The plugin's answer to a call that reached a tool (the WIT `tool-result` record).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutcome {
    /// The envelope, as JSON text.
    pub structured: String,
    /// The text block (the same object as text).
    pub text: String,
    /// MCP `isError`.
    pub is_error: bool,
}

/// An MCP `CallToolResult` in parts: the envelope in `structuredContent`, the same object as
/// one text block, `isError` as the plugin said.
#[derive(Debug, Clone, PartialEq)]
pub struct CallResult {
    /// `structuredContent`.
    pub structured: Value,
    /// The one text block.
    pub text: String,
    /// `isError`.
    pub is_error: bool,
}

impl CallResult {
    /// A result written by the host itself: the text block is `envelope` as text.
    pub fn from_envelope(envelope: Value, is_error: bool) -> CallResult {
        CallResult {
            text: envelope.to_string(),
            structured: envelope,
            is_error,
        }
    }

    /// The `CallToolResult` JSON (no `resultType`: legacy peers do not expect it).
    pub fn to_json(&self) -> Value {
        json!({
            "content": [{"type": "text", "text": self.text}],
            "structuredContent": self.structured,
            "isError": self.is_error,
        })
    }
}

/// An `ok:false` envelope with the contract error `code` (the shape every tool's
/// `outputSchema` declares).
pub fn error_envelope(tool: &str, correlation_id: &str, code: ErrorCode, message: &str) -> Value {
    json!({
        "ok": false,
        "operation": tool,
        "error": { "code": code.as_str(), "message": message, "retryable": false },
        "warnings": [],
        "truncated": false,
        "correlation_id": correlation_id,
    })
}

/// The JSON Schema of the result envelope whose `operation` and `data` are described by the
/// schemas given (the caller adds the `$defs` they refer to): every tool's `outputSchema`.
pub fn envelope_schema(operation: Value, data: Value) -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "ok": { "type": "boolean" },
            "operation": operation,
            "data": data,
            "error": { "$ref": "#/$defs/error" },
            "warnings": { "type": "array", "items": { "type": "string" }, "maxItems": 100 },
            "truncated": { "type": "boolean" },
            "correlation_id": { "type": "string" }
        },
        "required": ["ok", "operation", "warnings", "truncated", "correlation_id"],
        "additionalProperties": false,
        "allOf": [{
            "if": { "properties": { "ok": { "const": true } } },
            "then": { "required": ["data"], "not": { "required": ["error"] } },
            "else": { "required": ["error"] }
        }],
    })
}

/// What [`map_outcome`] made of a plugin answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Mapped {
    /// The envelope as the plugin wrote it (`redacted`: a secret was replaced in it, and the
    /// text block was written anew from the redacted envelope).
    Result {
        /// The result.
        result: CallResult,
        /// Whether `redact` replaced something.
        redacted: bool,
    },
    /// The plugin's envelope was not JSON: an `INTERNAL_ERROR` envelope instead.
    Invalid {
        /// The result.
        result: CallResult,
    },
}

impl Mapped {
    /// The result.
    pub fn into_result(self) -> CallResult {
        match self {
            Mapped::Result { result, .. } | Mapped::Invalid { result } => result,
        }
    }
}

/// Maps the plugin's answer to a call of `tool` to an MCP `CallToolResult`; `redact` replaces
/// secrets in the envelope and says whether it replaced any.
pub fn map_outcome(
    tool: &str,
    correlation_id: &str,
    outcome: ToolOutcome,
    redact: impl FnOnce(&mut Value) -> bool,
) -> Mapped {
    match serde_json::from_str::<Value>(&outcome.structured) {
        Ok(mut value) => {
            let redacted = redact(&mut value);
            let text = if redacted {
                value.to_string()
            } else {
                outcome.text
            };
            Mapped::Result {
                result: CallResult {
                    structured: value,
                    text,
                    is_error: outcome.is_error,
                },
                redacted,
            }
        }
        Err(_) => {
            let value = error_envelope(
                tool,
                correlation_id,
                ErrorCode::InternalError,
                "the plugin returned an invalid result",
            );
            Mapped::Invalid {
                result: CallResult::from_envelope(value, true),
            }
        }
    }
}

/// The message of the JSON-RPC -32602 answer to a call of a tool that is not listed.
pub fn unknown_tool_message(shown_name: &str) -> String {
    let mut message = "unknown tool: ".to_owned();
    message.push_str(shown_name);
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(structured: &str, is_error: bool) -> ToolOutcome {
        ToolOutcome {
            structured: structured.into(),
            text: structured.into(),
            is_error,
        }
    }

    #[test]
    fn a_result_keeps_the_envelope_and_its_text() {
        let mapped = map_outcome("t", "c", outcome(r#"{"ok":true}"#, false), |_| false);
        let Mapped::Result { result, redacted } = mapped else {
            panic!("{mapped:?}")
        };
        assert!(!redacted);
        assert_eq!(
            result.to_json(),
            json!({"content":[{"type":"text","text":"{\"ok\":true}"}],
                   "structuredContent":{"ok":true},"isError":false})
        );
    }

    #[test]
    fn a_redacted_result_gets_a_new_text_block() {
        let mapped = map_outcome("t", "c", outcome(r#"{"k":"secret"}"#, true), |v| {
            v["k"] = json!("[redacted]");
            true
        });
        let result = mapped.into_result();
        assert_eq!(result.text, r#"{"k":"[redacted]"}"#);
        assert!(result.is_error);
    }

    #[test]
    fn an_invalid_envelope_is_an_internal_error() {
        let mapped = map_outcome("t", "c-1", outcome("not json", false), |_| false);
        let Mapped::Invalid { result } = mapped else {
            panic!("{mapped:?}")
        };
        assert!(result.is_error);
        assert_eq!(
            result.structured,
            error_envelope(
                "t",
                "c-1",
                ErrorCode::InternalError,
                "the plugin returned an invalid result"
            )
        );
    }
}
