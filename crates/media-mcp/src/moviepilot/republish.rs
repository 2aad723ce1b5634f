//! Republishing MoviePilot's tools to the host: names kept (a clash
//! with an Ombi tool is a configuration error), input schemas kept (projection marker dropped once
//! the full schema is in), descriptions treated as third-party data (control characters
//! stripped, length bounded), one output family of our own (`moviepilot_result`, in this
//! folder's `defs.json`), and conservative annotations.

use super::config::Policy;
use super::discovery::{PROJECTION_MARKER, UpstreamTool};
use super::policy::tool_is_read_only;
use crate::contract::compose_output_schema_with;
use crate::prelude::*;
use crate::tool::{Access, Problem, ToolDescriptor, published};
use media_mcp_wire::job;
use once_cell::race::OnceBox;
use serde_json::{Map, Value, json};

/// The result family of every bridged tool.
pub const FAMILY: &str = "moviepilot_result";
/// Longest published description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// This backend's `$defs` (`moviepilot/defs.json`) and the job family, parsed once.
pub fn extra_defs() -> &'static Map<String, Value> {
    static DEFS: OnceBox<Map<String, Value>> = OnceBox::new();
    DEFS.get_or_init(|| {
        let root: Value =
            serde_json::from_str(include_str!("defs.json")).expect("moviepilot defs.json is JSON");
        let mut defs = match root.get("$defs") {
            Some(Value::Object(defs)) => defs.clone(),
            _ => panic!("moviepilot defs.json has an object `$defs`"),
        };
        defs.insert(job::FAMILY.into(), job::family_schema());
        Box::new(defs)
    })
}

/// The `outputSchema` of bridged tool `name`. Any bridged tool can outlive a host's job
/// threshold (its deadline is MoviePilot's, configurable per tool), so each admits a job
/// handle as well as its result.
pub fn output_schema(name: &str) -> Value {
    compose_output_schema_with(name, &[FAMILY, job::FAMILY], extra_defs())
}

/// The `outputSchema` of this backend's own short tools (its status and the input-contract
/// tool), which never become jobs.
pub fn own_output_schema(name: &str) -> Value {
    compose_output_schema_with(name, &[FAMILY], extra_defs())
}

/// Third-party text made safe to publish: no control characters, whitespace collapsed, bounded.
pub fn sanitize_description(text: &str) -> String {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect();
    let flat: String = words
        .join(" ")
        .chars()
        .filter(|c| !c.is_control() && !is_invisible(*c))
        .collect();
    if flat.chars().count() > MAX_DESCRIPTION_CHARS {
        format!(
            "{}…",
            flat.chars().take(MAX_DESCRIPTION_CHARS).collect::<String>()
        )
    } else {
        flat
    }
}

/// Bidirectional overrides and zero-width characters can hide text from a reader.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// Provable reads are read-only; everything else a destructive, non-idempotent write.
fn access(name: &str, policy: &Policy) -> Access {
    if tool_is_read_only(name, policy) {
        Access::Read
    } else {
        Access::Write
    }
}

/// MCP annotations of bridged tool `name`.
#[cfg(test)]
pub fn annotations(name: &str, policy: &Policy) -> Value {
    access(name, policy).annotations(&format!("MoviePilot: {name}"))
}

/// The published input schema: MoviePilot's, without the projection marker.
pub fn input_schema(tool: &UpstreamTool) -> Value {
    let mut schema = tool.input_schema.clone();
    if let Some(o) = schema.as_object_mut() {
        o.remove(PROJECTION_MARKER);
        o.entry("type").or_insert(json!("object"));
    }
    schema
}

/// The descriptor of one bridged tool.
pub fn descriptor(tool: &UpstreamTool, policy: &Policy) -> ToolDescriptor {
    let text = sanitize_description(&tool.description);
    let description = if text.is_empty() {
        "A MoviePilot tool (no description given by MoviePilot).".to_owned()
    } else {
        format!("MoviePilot tool. MoviePilot's description: {text}")
    };
    published(
        &tool.name,
        &format!("MoviePilot: {}", tool.name),
        description,
        access(&tool.name, policy),
        &input_schema(tool),
        &output_schema(&tool.name),
    )
}

/// The configuration error for bridged names that clash with the plugin's own tools.
pub fn collision_problem(names: &[String]) -> Option<Problem> {
    (!names.is_empty()).then(|| {
        Problem::Configuration(format!(
            "MoviePilot tool name(s) {} collide with Ombi tool names and are not published; rename or disable them in MoviePilot, or configure only one backend",
            names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        ))
    })
}

#[cfg(test)]
mod tests;
