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

use media_mcp_wire::settings::{
    DEADLINE_MAX_MS, DEADLINE_MIN_MS, MOVIEPILOT_DEADLINES, MOVIEPILOT_DEFAULT_DEADLINES,
    moviepilot_deadline_entries, switch,
};

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

/// How bridged tools' input schemas are published.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SchemaMode {
    /// MoviePilot's compact projection of large schemas (top-level object, required fields and
    /// the operation/action enum), plus a read tool that returns one operation's full contract.
    #[default]
    Compact,
    /// Every schema complete, as MoviePilot's full mode gives it.
    Full,
}

impl SchemaMode {
    /// The value of MoviePilot's `X-MCP-Schema-Mode` header.
    pub fn header_value(self) -> &'static str {
        match self {
            SchemaMode::Compact => "compact",
            SchemaMode::Full => "full",
        }
    }
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

fn flag(
    var: &dyn Fn(&str) -> Option<String>,
    name: &'static str,
    problems: &mut Vec<ConfigProblem>,
) -> bool {
    match non_empty(var(name)).map(|v| switch(&v)) {
        None => false,
        Some(Some(on)) => on,
        Some(None) => {
            // An unreadable switch stays off: the safe reading of a typo.
            problems.push(ConfigProblem::new(
                name,
                "must be 1/true/yes/on or 0/false/no/off; treated as off",
            ));
            false
        }
    }
}

fn list(var: &dyn Fn(&str) -> Option<String>, name: &str) -> Option<Vec<String>> {
    non_empty(var(name)).map(|v| {
        v.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    })
}

fn deadlines(
    var: &dyn Fn(&str) -> Option<String>,
    problems: &mut Vec<ConfigProblem>,
) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = MOVIEPILOT_DEFAULT_DEADLINES
        .iter()
        .map(|(name, ms)| ((*name).to_owned(), *ms))
        .collect();
    let Some(raw) = non_empty(var(MOVIEPILOT_DEADLINES)) else {
        return out;
    };
    for entry in moviepilot_deadline_entries(&raw) {
        match entry {
            Ok((name, ms)) => out.push((name.to_owned(), ms)),
            Err(entry) => problems.push(ConfigProblem::new(
                MOVIEPILOT_DEADLINES,
                format!(
                    "entry `{}` must be name=milliseconds ({DEADLINE_MIN_MS}..={DEADLINE_MAX_MS})",
                    entry.chars().take(60).collect::<String>()
                ),
            )),
        }
    }
    out
}

/// Reads the MoviePilot settings; `None` when `MOVIEPILOT_URL` is unset or unusable.
pub fn from_lookup(
    var: &dyn Fn(&str) -> Option<String>,
    problems: &mut Vec<ConfigProblem>,
) -> Option<MoviePilotConfig> {
    let raw = non_empty(var("MOVIEPILOT_URL"))?;
    let url = match BaseUrl::parse(&raw) {
        Ok(url) => url,
        Err(why) => {
            problems.push(ConfigProblem::new("MOVIEPILOT_URL", why));
            return None;
        }
    };
    let policy = Policy {
        allow_db_writes: flag(var, "MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES", problems),
        allow_secrets: flag(var, "MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS", problems),
        api_allow: list(var, "MEDIA_MCP_MOVIEPILOT_API_ALLOW"),
        api_deny: list(var, "MEDIA_MCP_MOVIEPILOT_API_DENY").unwrap_or_default(),
    };
    let schema_mode = match non_empty(var("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE"))
        .map(|v| v.to_ascii_lowercase())
        .as_deref()
    {
        None | Some("compact") => SchemaMode::Compact,
        Some("full") => SchemaMode::Full,
        Some(_) => {
            problems.push(ConfigProblem::new(
                "MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE",
                "must be compact or full; compact is used",
            ));
            SchemaMode::Compact
        }
    };
    Some(MoviePilotConfig {
        url,
        api_key: non_empty(var("MOVIEPILOT_API_KEY")),
        policy,
        deadlines: deadlines(var, problems),
        schema_mode,
    })
}

#[cfg(test)]
mod tests;
