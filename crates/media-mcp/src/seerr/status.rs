//! `seerr_status`: listed instead of the Seerr tools when `SEERR_URL` is set but unusable
//! (a bad URL, or `OMBI_URL` set too), so the configuration problem is visible. Calling it
//! reports the problems as `UNSUPPORTED_CAPABILITY`.

use crate::contract::Rendered;
use crate::tool::{ConfigProblem, StatusTool, ToolDescriptor};

pub(super) const TOOL: StatusTool = StatusTool {
    name: "seerr_status",
    title: "Seerr backend status",
};

/// Whether `problems` say `SEERR_URL` was set but could not be used.
pub(super) fn seerr_unusable(problems: &[ConfigProblem]) -> bool {
    problems
        .iter()
        .any(|p| p.variable == media_mcp_wire::variables::SEERR_URL.name)
}

pub(super) fn descriptor(problems: &[ConfigProblem]) -> ToolDescriptor {
    TOOL.unusable("Seerr", problems)
}

/// The result of a call: always the configuration error, naming the problems.
pub(super) fn call(problems: &[ConfigProblem], correlation_id: &str) -> Rendered {
    TOOL.refuse(problems, correlation_id)
}
