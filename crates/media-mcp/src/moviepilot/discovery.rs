//! Tool discovery: `tools/list` followed
//! through `nextCursor` with a page cap and repeated-cursor detection (a failure, never a loop),
//! full schemas asked for, and projected schemas (`x-moviepilot-schema-projection`) replaced by
//! the full one from `GET <url>/tools/{name}/schema` (bare schema or `{success, message, data}`).

use super::client::Client;
use crate::contract::ToolError;
use crate::prelude::*;
use crate::upstream::Effect;
use media_mcp_wire::method;
use serde_json::{Value, json};

/// Most `tools/list` pages followed.
pub const MAX_PAGES: usize = 20;
/// Most tools taken from MoviePilot.
pub const MAX_TOOLS: usize = 256;
/// The marker MoviePilot puts on a projected (incomplete) schema.
pub const PROJECTION_MARKER: &str = "x-moviepilot-schema-projection";

/// One tool as MoviePilot lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct UpstreamTool {
    /// Exact name for `tools/call`.
    pub name: String,
    /// Third-party text; sanitized before it is published.
    pub description: String,
    /// The input schema (full unless `projected`).
    pub input_schema: Value,
    /// Whether the schema is still MoviePilot's projection.
    pub projected: bool,
}

/// What discovery found, and what it had to leave out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Discovered {
    /// Usable tools in MoviePilot's order.
    pub tools: Vec<UpstreamTool>,
    /// Tools skipped and why (never secrets).
    pub problems: Vec<String>,
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
}

/// Which projected schemas discovery completes from the helper endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Complete<'a> {
    /// Every projected schema.
    All,
    /// Only this tool's.
    Only(&'a str),
    /// None: projected schemas stay projected (marked `projected`).
    Nothing,
}

/// Lists every tool, completing the projected schemas `complete` names.
///
/// # Errors
/// Protocol failures, more than [`MAX_PAGES`] pages, a repeated cursor, or a malformed page.
pub fn discover(client: &Client<'_>, complete: Complete<'_>) -> Result<Discovered, ToolError> {
    let mut out = Discovered::default();
    let mut seen_cursors: Vec<String> = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 0.. {
        if page == MAX_PAGES {
            return Err(ToolError::schema_mismatch(format!(
                "MoviePilot's tool list did not end within {MAX_PAGES} pages; discovery stopped"
            )));
        }
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let result = client.request(method::TOOLS_LIST, &params, Effect::Read, None)?;
        let tools = result
            .get("tools")
            .and_then(Value::as_array)
            .ok_or_else(|| {
                ToolError::schema_mismatch("MoviePilot's tools/list answer has no tools array")
            })?;
        for t in tools {
            take(t, &mut out);
        }
        match result.get("nextCursor") {
            None | Some(Value::Null) => break,
            Some(Value::String(c)) if c.is_empty() => break,
            Some(Value::String(c)) => {
                if seen_cursors.contains(c) {
                    return Err(ToolError::schema_mismatch(
                        "MoviePilot's tool list repeated a cursor; discovery stopped instead of looping",
                    ));
                }
                seen_cursors.push(c.clone());
                cursor = Some(c.clone());
            }
            Some(_) => {
                return Err(ToolError::schema_mismatch(
                    "MoviePilot's nextCursor is not a string",
                ));
            }
        }
    }
    let mut kept = Vec::with_capacity(out.tools.len());
    for mut tool in core::mem::take(&mut out.tools) {
        let wanted = match complete {
            Complete::All => true,
            Complete::Only(name) => name == tool.name,
            Complete::Nothing => false,
        };
        if tool.projected && wanted {
            match full_schema(client, &tool.name) {
                Ok(schema) => {
                    tool.input_schema = schema;
                    tool.projected = false;
                }
                Err(e) => {
                    out.problems.push(format!(
                        "tool `{}` skipped: its full schema could not be read ({})",
                        tool.name, e.message
                    ));
                    continue;
                }
            }
        }
        kept.push(tool);
    }
    out.tools = kept;
    Ok(out)
}

fn take(t: &Value, out: &mut Discovered) {
    let name = t.get("name").and_then(Value::as_str).unwrap_or("");
    if !valid_name(name) {
        let shown: String = name.chars().filter(|c| !c.is_control()).take(40).collect();
        out.problems.push(format!(
            "a tool with the unusable name `{shown}` was skipped"
        ));
        return;
    }
    if out.tools.len() >= MAX_TOOLS {
        out.problems.push(format!(
            "tool `{name}` skipped: more than {MAX_TOOLS} tools"
        ));
        return;
    }
    if out.tools.iter().any(|x| x.name == name) {
        out.problems
            .push(format!("tool `{name}` listed twice; the first is kept"));
        return;
    }
    let schema = t
        .get("inputSchema")
        .cloned()
        .unwrap_or(json!({"type": "object"}));
    if !is_object_schema(&schema) {
        out.problems.push(format!(
            "tool `{name}` skipped: its inputSchema is not an object schema"
        ));
        return;
    }
    out.tools.push(UpstreamTool {
        name: name.to_owned(),
        description: t
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        projected: schema
            .get(PROJECTION_MARKER)
            .is_some_and(|m| !m.is_null() && m != &json!(false)),
        input_schema: schema,
    })
}

fn is_object_schema(schema: &Value) -> bool {
    schema.is_object() && schema.get("type").is_none_or(|t| t == "object")
}

/// The full schema of `name` from the REST helper, bare or inside `{success, message, data}`.
///
/// # Errors
/// As [`Client::tool_schema`], a wrapper saying `success: false`, or a result still projected.
pub fn full_schema(client: &Client<'_>, name: &str) -> Result<Value, ToolError> {
    let body = client.tool_schema(name)?;
    let schema = match &body {
        Value::Object(o) if o.contains_key("success") && o.contains_key("data") => {
            if o.get("success") == Some(&json!(false)) {
                let msg = o
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("no reason given");
                return Err(ToolError::schema_mismatch(format!(
                    "MoviePilot refused the schema: {msg}"
                )));
            }
            o["data"].clone()
        }
        _ => body,
    };
    if !is_object_schema(&schema) || schema.get(PROJECTION_MARKER).is_some() {
        return Err(ToolError::schema_mismatch(
            "MoviePilot's full schema is not a complete object schema",
        ));
    }
    Ok(schema)
}
