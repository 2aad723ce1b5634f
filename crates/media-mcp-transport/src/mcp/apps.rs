//! Resources (the MCP Apps views) and prompts, from [`media_mcp_apps`], in both eras: a
//! modern list or read carries the caching hints of [`cache`]; an unknown resource is
//! -32602 for a modern request and -32002 for a legacy one (a `resources/read` without a
//! version claim is legacy, as [`crate::era`] decides).

use media_mcp_apps::{self as apps, prompts};
use media_mcp_wire::{cache, code, method};
use serde_json::{Map, Value, json};

use crate::era::Era;
use crate::prelude::*;

/// A JSON-RPC error to answer with.
pub struct Refused {
    /// Its code.
    pub code: i64,
    /// Its message.
    pub message: String,
    /// Its `data`.
    pub data: Option<Value>,
}

fn invalid_params(message: String) -> Refused {
    Refused {
        code: code::INVALID_PARAMS,
        message,
        data: None,
    }
}

/// The answer to `name` when it is a resource or prompt method; `None` otherwise.
pub fn answer(name: &str, params: &Map<String, Value>, era: Era) -> Option<Result<Value, Refused>> {
    let hinted = |mut result: Value| {
        if era == Era::Modern {
            result["ttlMs"] = json!(cache::TTL_MS);
            result["cacheScope"] = json!(cache::BUILT_IN_SCOPE);
        }
        Ok(result)
    };
    Some(match name {
        method::RESOURCES_LIST => hinted(apps::list_resources()),
        method::RESOURCES_TEMPLATES_LIST => hinted(apps::list_resource_templates()),
        method::RESOURCES_READ => match apps::uri_param(params) {
            Err(message) => Err(invalid_params(message)),
            Ok(uri) => match apps::read_resource(uri) {
                Some(read) => hinted(read),
                None => {
                    let not_found = match era {
                        Era::Modern => code::INVALID_PARAMS,
                        Era::Legacy => code::RESOURCE_NOT_FOUND,
                    };
                    Err(Refused {
                        code: not_found,
                        message: apps::unknown_resource(uri),
                        data: apps::unknown_resource_data(uri),
                    })
                }
            },
        },
        method::PROMPTS_LIST => hinted(prompts::list()),
        method::PROMPTS_GET => prompts::get(params).map_err(|refused| invalid_params(refused.0)),
        _ => return None,
    })
}

pub use apps::{server_capabilities as capabilities, tool_meta};

/// Adds to a result of `tool` whether the caller may request from its view (`listed`: the
/// caller's tool names, asked only when the view has **Request** buttons).
pub fn add_result_meta(result: &mut Value, tool: &str, listed: impl FnOnce() -> bool) {
    if apps::view_of(tool).is_some_and(|v| v.requests)
        && let Some((key, value)) = apps::result_meta(tool, listed())
    {
        if !result["_meta"].is_object() {
            result["_meta"] = json!({});
        }
        result["_meta"][key] = value;
    }
}
