//! `moviepilot_status`: listed when MoviePilot's tools are not all available (MoviePilot cannot
//! be reached at listing time, a tool was skipped, or a name collides with an Ombi tool). Its
//! description says what was wrong at listing time; calling it checks MoviePilot again.

use super::republish;
use super::result::own_error;
use crate::contract::{ErrorCode, Reply};
use crate::prelude::*;
use crate::tool::{Problem, StatusTool, ToolDescriptor};
use serde_json::json;

pub(super) const TOOL: StatusTool = StatusTool {
    name: "moviepilot_status",
    title: "MoviePilot backend status",
};

pub(super) fn descriptor(problems: &[Problem]) -> ToolDescriptor {
    let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
    let said = republish::sanitize_description(&said.join("; "));
    TOOL.descriptor(
        format!(
            "Checks the MoviePilot backend again and reports why its tools are not all available. At listing time: {said}"
        ),
        &republish::own_output_schema(TOOL.name),
    )
}

/// The answer of a call: MoviePilot answers with `count` usable tools and `problems`. A
/// configuration problem fails the call; the others are warnings.
pub(super) fn reply(count: usize, problems: &[Problem]) -> Reply {
    let message = format!("MoviePilot answers and offers {count} usable tool(s)");
    let data = json!({"kind": "moviepilot_result", "tool": TOOL.name, "success": problems.is_empty(), "message": message});
    match problems
        .iter()
        .find(|p| matches!(p, Problem::Configuration(_)))
    {
        Some(p) => Reply {
            data: Some(data),
            ..Reply::failure(own_error(ErrorCode::UnsupportedCapability, &p.to_string()))
        },
        None => Reply::ok(data)
            .warn_all(problems.iter().map(ToString::to_string))
            .warn("list the tools again to see MoviePilot's current tools"),
    }
}
