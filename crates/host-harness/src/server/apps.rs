//! Resources (the MCP Apps views) and prompts over stdio: [`media_mcp_apps`]'s JSON, the same
//! the HTTP transport sends, read into rmcp's types. Modern answers carry the server's identity
//! and (but `prompts/get`) the caching hints of [`cache`]; an unknown resource is -32602 for a modern request and -32002 for a legacy
//! one (rmcp takes a request without a version claim as legacy).

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, ErrorCode, GetPromptResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, MetaObject, ReadResourceResult, ServerCapabilities, Tool,
};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use media_mcp_apps::{self as apps, prompts};
use media_mcp_wire::{cache, code};

/// The server's capabilities: tools, resources, prompts and the MCP Apps extension.
pub fn capabilities() -> ServerCapabilities {
    serde_json::from_value(apps::server_capabilities())
        .expect("the shared capabilities are MCP server capabilities")
}

/// Links `tool` to its view in `_meta`, when it has one.
pub fn link_view(tool: &mut Tool) {
    if let Some(Value::Object(meta)) = apps::tool_meta(&tool.name) {
        tool.meta.get_or_insert_with(MetaObject::new).0.extend(meta);
    }
}

/// A result of `tool` with whether the caller may request from its view (a job handle or task
/// is left as it is).
pub fn with_result_meta(
    response: CallToolResponse,
    tool: &str,
    offered: impl FnOnce() -> bool,
) -> CallToolResponse {
    let CallToolResponse::Complete(mut result) = response else {
        return response;
    };
    if apps::view_of(tool).is_some_and(|v| v.requests)
        && let Some((key, value)) = apps::result_meta(tool, offered())
    {
        result
            .meta
            .get_or_insert_with(MetaObject::new)
            .0
            .insert(key.to_owned(), value);
    }
    CallToolResponse::Complete(result)
}

/// How a request is answered: `Modern` with the `_meta` every modern result carries.
pub enum Answer {
    /// A legacy peer: no caching hints, no `_meta`.
    Legacy,
    /// A modern peer: `resultType: "complete"`, caching hints on lists and reads, and this
    /// `_meta`.
    Modern(MetaObject),
}

/// `value` as rmcp's `T`; for a modern peer with the caching hints of [`cache`] (`hinted`) and
/// its `_meta`.
fn typed<T: DeserializeOwned>(mut value: Value, era: Answer, hinted: bool) -> Result<T, ErrorData> {
    if let Answer::Modern(meta) = era {
        if hinted {
            value["ttlMs"] = json!(cache::TTL_MS);
            value["cacheScope"] = json!(cache::BUILT_IN_SCOPE);
        }
        value["_meta"] = Value::Object(meta.0);
        value["resultType"] = json!("complete");
    }
    serde_json::from_value(value).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

/// `resources/list`.
pub fn list_resources(era: Answer) -> Result<ListResourcesResult, ErrorData> {
    typed(apps::list_resources(), era, true)
}

/// `resources/templates/list`.
pub fn list_resource_templates(era: Answer) -> Result<ListResourceTemplatesResult, ErrorData> {
    typed(apps::list_resource_templates(), era, true)
}

/// `resources/read` of `uri`.
///
/// # Errors
///
/// An unknown URI: -32602 (modern) or -32002 (legacy), naming it.
pub fn read_resource(uri: &str, era: Answer) -> Result<ReadResourceResult, ErrorData> {
    let Some(read) = apps::read_resource(uri) else {
        let not_found = match era {
            Answer::Modern(_) => code::INVALID_PARAMS,
            Answer::Legacy => code::RESOURCE_NOT_FOUND,
        };
        return Err(ErrorData::new(
            ErrorCode(not_found as i32),
            apps::unknown_resource(uri),
            apps::unknown_resource_data(uri),
        ));
    };
    typed(read, era, true)
}

/// `prompts/list`.
pub fn list_prompts(era: Answer) -> Result<ListPromptsResult, ErrorData> {
    typed(prompts::list(), era, true)
}

/// `prompts/get` of `name` with `arguments`.
///
/// # Errors
///
/// -32602 naming the unknown prompt or the argument that is wrong.
pub fn get_prompt(
    name: &str,
    arguments: Option<Map<String, Value>>,
    era: Answer,
) -> Result<GetPromptResult, ErrorData> {
    let mut params = Map::new();
    params.insert("name".into(), Value::String(name.to_owned()));
    if let Some(arguments) = arguments {
        params.insert("arguments".into(), Value::Object(arguments));
    }
    let got =
        prompts::get(&params).map_err(|refused| ErrorData::invalid_params(refused.0, None))?;
    typed(got, era, false)
}
