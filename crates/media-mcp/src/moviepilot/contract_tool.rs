//! `moviepilot_input_contract`, the read tool listed in compact schema mode: the full input
//! contract of one bridged tool, narrowed to one operation when the tool has per-operation
//! branches (`oneOf`/`anyOf` branches told apart by an `operation_id` or `action` constant), with
//! only the `$defs` that branch uses. A model lists the compact catalogue and fetches only the
//! contract of the operation it will call.

use super::client::Client;
use super::discovery::{UpstreamTool, full_schema};
use super::republish;
use super::schema::{branch, operations, resolve};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::prelude::*;
use crate::tool::{Access, ToolDescriptor, published};
use serde_json::{Map, Value, json};

pub const CONTRACT_TOOL: &str = "moviepilot_input_contract";
/// Most `$defs` entries followed while collecting a branch's definitions.
const MAX_DEFS: usize = 256;

fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "tool": {"type": "string", "minLength": 1, "maxLength": 128, "description": "A MoviePilot tool's name, e.g. moviepilot_api."},
            "operation": {"type": "string", "minLength": 1, "maxLength": 200, "description": "The operation_id (or action) whose contract to return; required for tools with several operations."}
        },
        "required": ["tool"],
        "additionalProperties": false
    })
}

/// `descriptor` of a tool whose listed schema is abridged, with a note saying how to get the rest.
pub fn note_abridged(mut descriptor: ToolDescriptor) -> ToolDescriptor {
    descriptor.description.push_str(&format!(
        " (Input schema abridged: call {CONTRACT_TOOL} with this tool's name and the operation for its full contract.)"
    ));
    descriptor
}

pub fn descriptor() -> ToolDescriptor {
    let title = "MoviePilot: input contract of one operation";
    published(
        CONTRACT_TOOL,
        title,
        "Returns the full input schema of one MoviePilot tool, or of one of its operations (operation_id or action), with the definitions it uses. Listed schemas of large MoviePilot tools are abridged (compact mode); fetch the contract of the operation you will call before calling it.".to_owned(),
        Access::Read,
        &input_schema(),
        &republish::own_output_schema(CONTRACT_TOOL),
    )
}

/// Answers a call with `arguments` (JSON text) from the tools discovered in this call.
pub fn reply(client: &Client<'_>, tools: &[UpstreamTool], arguments: &str) -> Reply {
    match contract(client, tools, arguments) {
        Ok((message, contract)) => Reply::ok(json!({
            "kind": "moviepilot_result",
            "tool": CONTRACT_TOOL,
            "success": true,
            "message": message,
            "input_contract": contract,
        })),
        Err(e) => Reply::failure(e),
    }
}

fn contract(
    client: &Client<'_>,
    tools: &[UpstreamTool],
    arguments: &str,
) -> Result<(String, Value), ToolError> {
    let args = Value::Object(crate::tool::parse_object(arguments)?);
    super::schema::check(&input_schema(), &args)?;
    let name = args["tool"].as_str().unwrap_or_default();
    let tool = tools.iter().find(|t| t.name == name).ok_or_else(|| {
        ToolError::new(
            ErrorCode::NotFound,
            format!("MoviePilot lists no tool `{name}`; list the tools again"),
        )
    })?;
    let schema = if tool.projected {
        full_schema(client, name)?
    } else {
        republish::input_schema(tool)
    };
    let operations = operations(&schema);
    match args.get("operation").and_then(Value::as_str) {
        None if operations.is_empty() => Ok((
            format!("the full input schema of `{name}`"),
            json!({"tool": name, "input_schema": schema}),
        )),
        None => Err(ToolError::invalid_argument(
            "operation",
            format!(
                "`{name}` has {} operations; name the one you will call in `operation` (its operation_id or action)",
                operations.len()
            ),
        )),
        Some(op) => match branch(&schema, op) {
            Some(branch) => Ok((
                format!("the full input schema of `{name}` operation `{op}`"),
                json!({"tool": name, "operation": op, "input_schema": with_defs(&schema, branch)}),
            )),
            None => Err(ToolError {
                field: Some("operation".to_owned()),
                ..ToolError::new(
                    ErrorCode::NotFound,
                    format!("`{name}` has no operation `{op}` in MoviePilot's current schema"),
                )
            }),
        },
    }
}

/// `branch` plus the root's definitions it refers to, directly or through other definitions,
/// under the same keys (`$defs` or `definitions`), so its `$ref`s still resolve.
fn with_defs(root: &Value, branch: &Value) -> Value {
    let mut out = branch.clone();
    let mut kept: Map<String, Value> = Map::new();
    let mut queue = vec![branch.clone()];
    while let Some(node) = queue.pop() {
        for r in refs(&node) {
            // The definition holding the target: `#/$defs/<name>` of `#/$defs/<name>/...`.
            let mut segs = r.trim_start_matches("#/").splitn(3, '/');
            let top = match (segs.next(), segs.next()) {
                (Some(table @ ("$defs" | "definitions")), Some(key)) => format!("#/{table}/{key}"),
                _ => continue,
            };
            if kept.len() >= MAX_DEFS || kept.contains_key(&top) {
                continue;
            }
            if let Some(target) = resolve(root, &top) {
                kept.insert(top, target.clone());
                queue.push(target.clone());
            }
        }
    }
    for (reference, def) in kept {
        let mut parts = reference.trim_start_matches("#/").splitn(2, '/');
        if let (Some(table), Some(key), Some(o)) = (parts.next(), parts.next(), out.as_object_mut())
        {
            let entry = o.entry(table).or_insert_with(|| json!({}));
            if let Some(t) = entry.as_object_mut() {
                t.insert(key.replace("~1", "/").replace("~0", "~"), def);
            }
        }
    }
    out
}

/// Every local `$ref` under `node`.
fn refs(node: &Value) -> Vec<String> {
    match node {
        Value::Object(map) => map
            .iter()
            .flat_map(|(k, v)| match (k.as_str(), v) {
                ("$ref", Value::String(r)) if r.starts_with("#/") => vec![r.clone()],
                _ => refs(v),
            })
            .collect(),
        Value::Array(items) => items.iter().flat_map(refs).collect(),
        _ => Vec::new(),
    }
}
