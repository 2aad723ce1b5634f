//! `ombi_status`: listed instead of the Ombi tools when `OMBI_URL` is set but unusable, so the
//! configuration problem is visible (`list-tools` has no error channel). Its description names
//! every configuration problem; calling it reports them as `UNSUPPORTED_CAPABILITY`.

use crate::contract::Rendered;
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

pub(super) fn descriptor(problems: &[ConfigProblem]) -> ToolDescriptor {
    TOOL.unusable("Ombi", problems)
}

/// The result of a call: always the configuration error, naming the problems.
pub(super) fn call(problems: &[ConfigProblem], correlation_id: &str) -> Rendered {
    TOOL.refuse(problems, correlation_id)
}

#[cfg(test)]
mod tests;
