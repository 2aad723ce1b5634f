//! `ombi_status`: listed instead of the Ombi tools when `OMBI_URL` is set but unusable, so the
//! configuration problem is visible (`list-tools` has no error channel). Its description names
//! every configuration problem; calling it reports them as `UNSUPPORTED_CAPABILITY`.

use crate::contract::{ErrorCode, Rendered, Reply, ToolError, compose_output_schema, render};
use crate::prelude::*;
use crate::tool::{ConfigProblem, StatusTool, ToolDescriptor};

pub(super) const TOOL: StatusTool = StatusTool {
    name: "ombi_status",
    title: "Ombi backend status",
};

/// Whether `problems` say `OMBI_URL` was set but could not be used.
pub(super) fn ombi_unusable(problems: &[ConfigProblem]) -> bool {
    problems
        .iter()
        .any(|p| p.variable == media_mcp_wire::variables::OMBI_URL.name)
}

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

pub(super) fn descriptor(problems: &[ConfigProblem]) -> ToolDescriptor {
    TOOL.descriptor(
        format!(
            "Reports why the Ombi tools are not available: Ombi is configured but unusable. Configuration problems: {}",
            said(problems)
        ),
        &compose_output_schema(TOOL.name, &["metrics"]),
    )
}

/// The result of a call: always the configuration error, naming the problems.
pub(super) fn call(problems: &[ConfigProblem], correlation_id: &str) -> Rendered {
    // The plugin's own text: variable names would otherwise be redacted as key-like words.
    let error = ToolError {
        message: format!(
            "configuration error: {}; fix the host's configuration and restart",
            said(problems)
        ),
        ..ToolError::new(ErrorCode::UnsupportedCapability, "")
    };
    render(TOOL.name, correlation_id, Reply::failure(error))
}

#[cfg(test)]
mod tests;
