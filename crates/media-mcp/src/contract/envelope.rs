//! The result envelope every tool returns (contract: "Registration and results").
//!
//! `{ok, operation, data|error, warnings, truncated, correlation_id}`; the same object goes to
//! MCP `structuredContent` and, serialized, to one text block; MCP `isError` is `!ok`.

use super::budget;
use super::error::ToolError;
use crate::prelude::*;
use media_mcp_safe_text::{rewrite_strings, strip_format};
use serde_json::{Map, Value, json};

/// What a tool handler produced: data on success, an error on failure (possibly with data).
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// One value of the tool's result families.
    pub data: Option<Value>,
    /// Set when the call failed.
    pub error: Option<ToolError>,
    /// Caveats the caller should read.
    pub warnings: Vec<String>,
    /// Whether anything was left out of `data`.
    pub truncated: bool,
}

impl Reply {
    /// A success carrying `data`.
    pub fn ok(data: Value) -> Self {
        Self {
            data: Some(data),
            error: None,
            warnings: Vec::new(),
            truncated: false,
        }
    }

    /// A failure.
    pub fn failure(error: ToolError) -> Self {
        Self {
            data: None,
            error: Some(error),
            warnings: Vec::new(),
            truncated: false,
        }
    }

    /// Adds a warning.
    pub fn warn(mut self, warning: impl Into<String>) -> Self {
        self.warnings.push(warning.into());
        self
    }

    /// Adds several warnings.
    pub fn warn_all(mut self, warnings: impl IntoIterator<Item = String>) -> Self {
        self.warnings.extend(warnings);
        self
    }

    /// Marks the result as truncated.
    pub fn truncated(mut self, truncated: bool) -> Self {
        self.truncated |= truncated;
        self
    }

    /// For an `UNKNOWN_OUTCOME` failure, adds the warning that `subject` may or may not have
    /// taken effect and how to `check` before retrying; any other reply is returned unchanged.
    pub fn advise_unknown_outcome(self, subject: &str, check: &str) -> Self {
        match &self.error {
            Some(e) if e.code == super::error::ErrorCode::UnknownOutcome => self.warn(format!(
                "{subject} may or may not have taken effect: {check} before retrying"
            )),
            _ => self,
        }
    }

    /// Whether the envelope will say `ok: true`.
    pub fn is_ok(&self) -> bool {
        self.error.is_none()
    }
}

impl From<ToolError> for Reply {
    fn from(error: ToolError) -> Self {
        Self::failure(error)
    }
}

/// A rendered envelope: the structured object and its text copy.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The envelope object (`structuredContent`).
    pub structured: Value,
    /// The same object as compact JSON text (`structured.to_string()`, byte for byte).
    pub text: String,
    /// MCP `isError`.
    pub is_error: bool,
}

/// Builds the envelope for `operation`, applying the output budgets.
///
/// Every string of the result, upstream text included (titles, names, overviews, messages,
/// MoviePilot's bridged answers), loses its format characters here ([`strip_format`]: zero-width
/// spaces, bidirectional controls, tags), which would hide or reorder what a person reads.
pub fn render(operation: &str, correlation_id: &str, reply: Reply) -> Rendered {
    let Reply {
        mut data,
        error,
        mut warnings,
        mut truncated,
    } = reply;
    if let Some(d) = data.as_mut() {
        truncated |= budget::cap_arrays(d, &mut warnings);
    }
    let ok = error.is_none();
    let mut envelope = Map::new();
    envelope.insert("ok".into(), json!(ok));
    envelope.insert("operation".into(), json!(operation));
    if let Some(d) = data {
        envelope.insert("data".into(), d);
    }
    if let Some(e) = &error {
        envelope.insert("error".into(), e.to_json());
    }
    envelope.insert("warnings".into(), json!([]));
    envelope.insert("truncated".into(), json!(truncated));
    envelope.insert("correlation_id".into(), json!(correlation_id));
    let mut structured = Value::Object(envelope);
    rewrite_strings(&mut structured, &mut strip_format);
    for warning in &mut warnings {
        if let Some(stripped) = strip_format(warning) {
            *warning = stripped;
        }
    }
    budget::fit(&mut structured, warnings);
    let text = serde_json::to_string(&structured).unwrap_or_else(|_| "{}".to_owned());
    Rendered {
        structured,
        text,
        is_error: !ok,
    }
}

#[cfg(test)]
mod tests;
