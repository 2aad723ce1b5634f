//! The safety policy for bridged tools and
//! which calls are provably read-only: `moviepilot_api` operations MoviePilot documents as
//! reads, `database_operation`'s read actions, and per-purpose tools by a read prefix of their
//! name less a fixed list of exceptions ([`READ_PREFIX_EXCEPTIONS`]).
//!
//! `database_operation` runs only `tables`, `schema` and read-only `query` without
//! `show_secrets`, unless the deployment allows writes or secrets; `moviepilot_api` operation ids
//! pass the allow/deny lists. Every refusal names the setting that would allow it.

use super::config::Policy;
use crate::contract::{ErrorCode, ToolError};
use crate::prelude::*;
use media_mcp_wire::variables::{
    MOVIEPILOT_ALLOW_DB_WRITES, MOVIEPILOT_ALLOW_SECRETS, MOVIEPILOT_API_ALLOW, MOVIEPILOT_API_DENY,
};
use serde_json::{Map, Value};

/// Name prefixes of MoviePilot's per-purpose tools that only read (v2.9.15: `query_sites`,
/// `search_media`, `get_search_results`, `list_directory`, ...).
pub const READ_PREFIXES: [&str; 4] = ["query_", "search_", "get_", "list_"];

/// Tools whose name has a read prefix but whose call changes MoviePilot's state, each with the
/// reason; they stay writes.
pub const READ_PREFIX_EXCEPTIONS: [(&str, &str); 2] = [
    (
        "search_subscribe",
        "searches the sites for a subscription's missing episodes and downloads what matches",
    ),
    (
        "search_torrents",
        "stores its results as MoviePilot's last search, replacing what get_search_results, add_download's hash:id references and the web UI read",
    ),
];

/// Whether a per-purpose tool only reads by its name: a read prefix and not an exception.
/// Every other name, `recognize_media` included, counts as a write.
pub fn named_as_read(tool: &str) -> bool {
    READ_PREFIXES.iter().any(|p| tool.starts_with(p))
        && !READ_PREFIX_EXCEPTIONS.iter().any(|(t, _)| *t == tool)
}

/// `moviepilot_api` operations that only read. The site searches `search.torrents` and
/// `search.title` are not among them: like v2.9.15's `search_torrents` (and its REST searches),
/// they store their results as MoviePilot's last search, replacing the one there.
pub const KNOWN_READ_OPERATIONS: &[&str] = &[
    "media.search",
    "media.detail",
    "subscription.list",
    "subscription.find",
    "library.exists",
    "config.system.list",
    "config.system.describe",
    "plugin.installed",
    "plugin.capabilities",
    "transfer.history",
    "subscription.execution.list",
    "subscription.execution.get",
];

/// The read-only `database_operation` actions.
const DB_READ_ACTIONS: [&str; 3] = ["tables", "schema", "query"];

/// The inner `arguments` object; MoviePilot decodes one layer of JSON text, so do we.
fn inner(args: &Map<String, Value>) -> Option<Map<String, Value>> {
    match args.get("arguments")? {
        Value::Object(o) => Some(o.clone()),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(o)) => Some(o),
            _ => None,
        },
        _ => None,
    }
}

/// Absent, null and `false` are off; anything else could be read as on upstream.
fn switched_on(v: Option<&Value>) -> bool {
    !matches!(v, None | Some(Value::Null) | Some(Value::Bool(false)))
}

fn refuse(field: &str, message: String) -> ToolError {
    ToolError {
        field: Some(field.to_owned()),
        ..super::result::own_error(ErrorCode::Forbidden, &message)
    }
}

/// Checks a call of bridged tool `tool` against the policy.
///
/// # Errors
/// `FORBIDDEN` naming the argument and the setting that would allow the call.
pub fn check(tool: &str, args: &Map<String, Value>, policy: &Policy) -> Result<(), ToolError> {
    match tool {
        "database_operation" => check_database(args, policy),
        "moviepilot_api" => check_api(args, policy),
        _ => Ok(()),
    }
}

fn check_database(args: &Map<String, Value>, policy: &Policy) -> Result<(), ToolError> {
    let inner = inner(args).unwrap_or_default();
    let raw_inner_secret = args
        .get("arguments")
        .and_then(Value::as_str)
        .is_some_and(|s| s.contains("show_secrets"));
    if (switched_on(inner.get("show_secrets")) || raw_inner_secret) && !policy.allow_secrets {
        return Err(refuse(
            "arguments.show_secrets",
            format!(
                "refused by policy: database_operation may not read secrets (show_secrets); set {}=1 to allow it",
                MOVIEPILOT_ALLOW_SECRETS.name
            ),
        ));
    }
    if policy.allow_db_writes {
        return Ok(());
    }
    let action = args.get("action").and_then(Value::as_str).unwrap_or("");
    if !DB_READ_ACTIONS.contains(&action) {
        let shown: String = action
            .chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect();
        return Err(refuse(
            "action",
            format!(
                "refused by policy: database_operation is limited to tables, schema and read-only query (got `{shown}`); set {}=1 to allow writes",
                MOVIEPILOT_ALLOW_DB_WRITES.name
            ),
        ));
    }
    if action == "query" && switched_on(inner.get("write")) {
        return Err(refuse(
            "arguments.write",
            format!(
                "refused by policy: database_operation queries are read-only (write must be false); set {}=1 to allow writes",
                MOVIEPILOT_ALLOW_DB_WRITES.name
            ),
        ));
    }
    Ok(())
}

fn check_api(args: &Map<String, Value>, policy: &Policy) -> Result<(), ToolError> {
    let op = args
        .get("operation_id")
        .and_then(Value::as_str)
        .unwrap_or("");
    let shown: String = op.chars().filter(|c| !c.is_control()).take(80).collect();
    if policy.api_deny.iter().any(|d| d == op) {
        return Err(refuse(
            "operation_id",
            format!(
                "refused by policy: operation `{shown}` is listed in {}; remove it there to allow it",
                MOVIEPILOT_API_DENY.name
            ),
        ));
    }
    if let Some(allow) = &policy.api_allow
        && !allow.iter().any(|a| a == op)
    {
        return Err(refuse(
            "operation_id",
            format!(
                "refused by policy: operation `{shown}` is not in {}; add it there to allow it",
                MOVIEPILOT_API_ALLOW.name
            ),
        ));
    }
    Ok(())
}

/// Whether this particular call only reads (decides TIMEOUT versus UNKNOWN_OUTCOME).
pub fn call_is_read(tool: &str, args: &Map<String, Value>) -> bool {
    match tool {
        "database_operation" => {
            let action = args.get("action").and_then(Value::as_str).unwrap_or("");
            match action {
                "tables" | "schema" => true,
                "query" => {
                    inner(args).is_some_and(|i| !switched_on(i.get("write")))
                        || args.get("arguments").is_none()
                }
                _ => false,
            }
        }
        "moviepilot_api" => args
            .get("operation_id")
            .and_then(Value::as_str)
            .is_some_and(|op| KNOWN_READ_OPERATIONS.contains(&op)),
        _ => named_as_read(tool),
    }
}

/// Whether every call the policy lets through to `tool` only reads (drives the annotations).
pub fn tool_is_read_only(tool: &str, policy: &Policy) -> bool {
    match tool {
        "database_operation" => !policy.allow_db_writes,
        // Only an allowlist of known reads makes every possible call a read.
        "moviepilot_api" => policy.api_allow.as_ref().is_some_and(|allow| {
            allow
                .iter()
                .all(|op| KNOWN_READ_OPERATIONS.contains(&op.as_str()))
        }),
        _ => named_as_read(tool),
    }
}

#[cfg(test)]
mod tests;
