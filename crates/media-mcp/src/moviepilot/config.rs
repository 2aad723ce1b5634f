//! MoviePilot settings read from the environment.
//!
//! `MOVIEPILOT_URL` is the MCP endpoint itself (`https://host/api/v1/mcp`, base path included),
//! validated like `OMBI_URL`. `MOVIEPILOT_API_KEY` is read only for hosts that pass the key instead
//! of injecting the `X-API-KEY` header. The policy settings are safe by default:
//!
//! - `MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES=1`: `database_operation` may run `write` actions.
//! - `MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS=1`: `database_operation` may set `show_secrets`.
//! - `MEDIA_MCP_MOVIEPILOT_API_ALLOW=a,b`: only these `moviepilot_api` operation ids may run.
//! - `MEDIA_MCP_MOVIEPILOT_API_DENY=a,b`: these `moviepilot_api` operation ids never run.
//! - `MEDIA_MCP_MOVIEPILOT_DEADLINES=name=ms,...`: per-tool (or per-operation id) deadlines.
//! - `MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE=compact|full`: how bridged input schemas are published
//!   (default `compact`, see [`SchemaMode`]).
//!
//! Their grammar is `media_mcp_wire::plugin_settings`', which hosts check them with at start.

use media_mcp_wire::plugin_settings;
use media_mcp_wire::variables::{
    MOVIEPILOT_ALLOW_DB_WRITES, MOVIEPILOT_ALLOW_SECRETS, MOVIEPILOT_API_ALLOW,
    MOVIEPILOT_API_DENY, MOVIEPILOT_API_KEY, MOVIEPILOT_URL,
};

pub use media_mcp_wire::plugin_settings::SchemaMode;

use crate::prelude::*;
use crate::tool::ConfigProblem;
use crate::upstream::{BaseUrl, non_empty};

/// What the plugin lets bridged tools do.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Policy {
    /// `database_operation` may write (`action: write`, or `query` with `write: true`).
    pub allow_db_writes: bool,
    /// `database_operation` may read secrets (`show_secrets: true`).
    pub allow_secrets: bool,
    /// When set, only these `moviepilot_api` operation ids run.
    pub api_allow: Option<Vec<String>>,
    /// These `moviepilot_api` operation ids never run.
    pub api_deny: Vec<String>,
}

/// MoviePilot settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoviePilotConfig {
    /// The MCP endpoint URL (no trailing slash).
    pub url: BaseUrl,
    /// The key, when the host passes it instead of injecting `X-API-KEY`.
    pub api_key: Option<String>,
    /// The safety policy.
    pub policy: Policy,
    /// Per-tool or per-operation-id deadlines in milliseconds, built-ins first.
    pub deadlines: Vec<(String, u64)>,
    /// How input schemas are published.
    pub schema_mode: SchemaMode,
}

impl MoviePilotConfig {
    /// The configured deadline for tool `tool` called with `operation_id` (if any).
    pub fn deadline_for(&self, tool: &str, operation_id: Option<&str>) -> Option<u64> {
        // Later entries (the operator's) win over the built-in defaults.
        let pick = |key: &str| {
            self.deadlines
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, ms)| *ms)
        };
        operation_id.and_then(pick).or_else(|| pick(tool))
    }
}

/// Reads the MoviePilot settings; `None` when `MOVIEPILOT_URL` is unset or unusable.
pub fn from_lookup(
    var: &dyn Fn(&str) -> Option<String>,
    problems: &mut Vec<ConfigProblem>,
) -> Option<MoviePilotConfig> {
    let raw = non_empty(var(MOVIEPILOT_URL.name))?;
    let url = match BaseUrl::parse(&raw) {
        Ok(url) => url,
        Err(why) => {
            problems.push(ConfigProblem::new(MOVIEPILOT_URL.name, why));
            return None;
        }
    };
    let policy = Policy {
        allow_db_writes: plugin_settings::moviepilot_switch(
            var,
            MOVIEPILOT_ALLOW_DB_WRITES.name,
            problems,
        ),
        allow_secrets: plugin_settings::moviepilot_switch(
            var,
            MOVIEPILOT_ALLOW_SECRETS.name,
            problems,
        ),
        api_allow: plugin_settings::list(var, MOVIEPILOT_API_ALLOW.name),
        api_deny: plugin_settings::list(var, MOVIEPILOT_API_DENY.name).unwrap_or_default(),
    };
    let schema_mode = plugin_settings::schema_mode(var, problems);
    Some(MoviePilotConfig {
        url,
        api_key: non_empty(var(MOVIEPILOT_API_KEY.name)),
        policy,
        deadlines: plugin_settings::moviepilot_deadlines(var, problems),
        schema_mode,
    })
}

#[cfg(test)]
mod tests;
