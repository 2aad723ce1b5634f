//! What a backend lists when its tools are not (all) available: a status tool, and the typed
//! problems it reports. `list-tools` has no error channel, so the status tool is how a client
//! learns what is wrong.

use super::spec::{Access, ToolDescriptor, published};
use crate::prelude::*;
use core::fmt;
use serde_json::{Value, json};

/// A backend's status tool: its name and title.
pub(crate) struct StatusTool {
    pub name: &'static str,
    pub title: &'static str,
}

impl StatusTool {
    /// The tool as listed: no arguments, read-only, saying `description`.
    pub(crate) fn descriptor(&self, description: String, output_schema: &Value) -> ToolDescriptor {
        published(
            self.name,
            self.title,
            description,
            Access::Read,
            &json!({"type": "object", "properties": {}, "additionalProperties": false}),
            output_schema,
        )
    }
}

/// Why some of a backend's tools are not listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Problem {
    /// Only a change of configuration fixes it; calling the status tool fails with it.
    Configuration(String),
    /// The upstream's own doing; the backend's other tools still work.
    Upstream(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Configuration(m) => write!(f, "configuration error: {m}"),
            Problem::Upstream(m) => f.write_str(m),
        }
    }
}
