//! What a backend lists when its tools are not (all) available: a status tool, and the typed
//! problems it reports. `list-tools` has no error channel, so the status tool is how a client
//! learns what is wrong.

use super::problem::ConfigProblem;
use super::spec::{Access, ToolDescriptor, published};
use crate::contract::{ErrorCode, Rendered, Reply, ToolError, compose_output_schema, render};
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

    /// The tool listed instead of `server`'s tools when its configuration is unusable: its
    /// description names every problem.
    pub(crate) fn unusable(&self, server: &str, problems: &[ConfigProblem]) -> ToolDescriptor {
        self.descriptor(
            format!(
                "Reports why the {server} tools are not available: {server} is configured but unusable. Configuration problems: {}",
                said(problems)
            ),
            &compose_output_schema(self.name, &["metrics"]),
        )
    }

    /// A call of the tool: always the configuration error, naming the problems.
    pub(crate) fn refuse(&self, problems: &[ConfigProblem], correlation_id: &str) -> Rendered {
        // The plugin's own text: variable names would otherwise be redacted as key-like words.
        let error = ToolError {
            message: format!(
                "configuration error: {}; fix the host's configuration and restart",
                said(problems)
            ),
            ..ToolError::new(ErrorCode::UnsupportedCapability, "")
        };
        render(self.name, correlation_id, Reply::failure(error))
    }
}

/// Every problem in one line, without control characters, at most 1000 characters.
fn said(problems: &[ConfigProblem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
        .chars()
        .filter(|c| !c.is_control())
        .take(1000)
        .collect()
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
