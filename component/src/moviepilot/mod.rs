//! The MoviePilot backend: MoviePilot serves MCP itself, so the plugin is its MCP
//! client and republishes its tools with the plugin's own honest envelope.
//!
//! Each guest call runs in a fresh instance, so nothing is cached between calls: `list-tools`
//! runs the handshake and full discovery; a call to a bridged tool runs the handshake and
//! discovery again (completing only that tool's projected schema), checks the arguments against
//! the schema found in that same call and the safety policy, then forwards `tools/call`. A tool
//! MoviePilot no longer lists is an unknown tool; one it reports missing at call time is
//! `NOT_FOUND` asking the caller to list again. When MoviePilot cannot be reached at listing
//! time, or a name collides with an Ombi tool, a `moviepilot_status` tool is listed whose
//! description and result say what is wrong.
//!
//! In compact schema mode (the default) listing asks MoviePilot for its compact projection and
//! publishes large schemas abridged, plus `moviepilot_input_contract`, which returns one
//! operation's full contract; a call still checks its arguments against the tool's full schema,
//! completed from the helper endpoint in that call.

use crate::prelude::*;
mod client;
pub(crate) mod config;
mod contract_tool;
mod discovery;
mod policy;
mod republish;
mod result;
mod schema;

#[cfg(test)]
mod tests;

pub(crate) use config::MoviePilotConfig;
pub use config::SEARCH_TORRENTS_DEADLINE_MS;

use crate::contract::{self, ErrorCode, Reply};
use crate::tool::{Access, Backend, CallContext, ToolDescriptor, UnknownTool, parse_object};
use crate::upstream::{Effect, Upstream};
use client::Client;
use config::SchemaMode;
use contract_tool::CONTRACT_TOOL;
use discovery::{Complete, Discovered, discover};
use serde_json::{Value, json};

/// The diagnostic tool listed when MoviePilot's tools are not (all) available.
pub(crate) const STATUS_TOOL: &str = "moviepilot_status";
/// Most deadline anyone gets for one call, discovery included.
const MAX_CALL_MS: u64 = 900_000;

/// The MoviePilot backend: its settings and the whole-call deadline its calls get by default.
pub(crate) struct MoviePilotBackend {
    config: MoviePilotConfig,
    deadline_ms: u64,
}

impl MoviePilotBackend {
    /// A backend for `config` whose calls get `deadline_ms` unless configured otherwise.
    pub(crate) fn new(config: MoviePilotConfig, deadline_ms: u64) -> Self {
        Self {
            config,
            deadline_ms,
        }
    }
}

impl Backend for MoviePilotBackend {
    /// MoviePilot's tool names are known only after asking it.
    fn own_names(&self) -> Vec<&'static str> {
        Vec::new()
    }

    fn list(&self, upstream: &dyn Upstream, taken: &[&str]) -> Vec<ToolDescriptor> {
        list(&self.config, upstream, taken, self.deadline_ms)
    }

    /// Every name not proven read-only counts as a write: MoviePilot's names are known only
    /// after asking it, and nothing may be sent for a refused call.
    fn access(&self, name: &str) -> Option<Access> {
        let read = [STATUS_TOOL, CONTRACT_TOOL].contains(&name)
            || policy::tool_is_read_only(name, &self.config.policy);
        Some(if read { Access::Read } else { Access::Write })
    }

    fn deadline_ms(&self, name: &str, arguments: &str) -> Option<u64> {
        Some(call_budget_ms(
            &self.config,
            name,
            arguments,
            self.deadline_ms,
        ))
    }

    fn call(
        &self,
        upstream: &dyn Upstream,
        name: &str,
        arguments: &str,
        ctx: &CallContext,
        taken: &[&str],
    ) -> Result<contract::Rendered, UnknownTool> {
        call(
            &self.config,
            upstream,
            name,
            arguments,
            ctx,
            taken,
            self.deadline_ms,
        )
    }
}

/// The bridged tools for the catalogue, after the plugin's own tools named `taken`.
fn list(
    cfg: &MoviePilotConfig,
    upstream: &dyn Upstream,
    taken: &[&str],
    timeout_ms: u64,
) -> Vec<ToolDescriptor> {
    let client = Client::new(upstream, cfg, timeout_ms);
    let complete = match cfg.schema_mode {
        SchemaMode::Compact => Complete::Nothing,
        SchemaMode::Full => Complete::All,
    };
    let catalogue = match client.handshake().and_then(|_| discover(&client, complete)) {
        Ok(c) => c,
        Err(e) => {
            return vec![status_descriptor(&[format!(
                "MoviePilot's tools are unavailable: {}",
                e.message
            )])];
        }
    };
    let (kept, problems) = split(catalogue, taken);
    let mut out: Vec<ToolDescriptor> = kept
        .iter()
        .map(|t| match republish::descriptor(t, &cfg.policy) {
            d if t.projected => contract_tool::note_abridged(d),
            d => d,
        })
        .collect();
    if cfg.schema_mode == SchemaMode::Compact
        && !out.iter().any(|t| t.name == CONTRACT_TOOL)
        && !taken.contains(&CONTRACT_TOOL)
    {
        out.push(contract_tool::descriptor());
    }
    if !problems.is_empty()
        && !out.iter().any(|t| t.name == STATUS_TOOL)
        && !taken.contains(&STATUS_TOOL)
    {
        out.push(status_descriptor(&problems));
    }
    out
}

/// Usable tools and the problems found, collisions with `taken` first.
fn split(catalogue: Discovered, taken: &[&str]) -> (Vec<discovery::UpstreamTool>, Vec<String>) {
    let (clashing, kept): (Vec<_>, Vec<_>) = catalogue
        .tools
        .into_iter()
        .partition(|t| taken.contains(&t.name.as_str()));
    let names: Vec<String> = clashing.into_iter().map(|t| t.name).collect();
    let mut problems: Vec<String> = republish::collision_problem(&names).into_iter().collect();
    problems.extend(catalogue.problems);
    (kept, problems)
}

fn status_descriptor(problems: &[String]) -> ToolDescriptor {
    let said = republish::sanitize_description(&problems.join("; "));
    ToolDescriptor {
        name: STATUS_TOOL.to_owned(),
        title: "MoviePilot backend status".to_owned(),
        description: format!(
            "Checks the MoviePilot backend again and reports why its tools are not all available. At listing time: {said}"
        ),
        input_schema: json!({"type": "object", "properties": {}, "additionalProperties": false})
            .to_string(),
        output_schema: republish::output_schema(STATUS_TOOL).to_string(),
        annotations: Access::Read
            .annotations("MoviePilot backend status")
            .to_string(),
    }
}

/// The whole-call deadline a call of `name` needs: its own deadline plus room for discovery.
pub(crate) fn call_budget_ms(
    cfg: &MoviePilotConfig,
    name: &str,
    arguments: &str,
    default_ms: u64,
) -> u64 {
    let args: Value = serde_json::from_str(arguments).unwrap_or(Value::Null);
    let op = args.get("operation_id").and_then(Value::as_str);
    match cfg.deadline_for(name, op) {
        Some(ms) => ms.saturating_add(default_ms).min(MAX_CALL_MS),
        None => default_ms,
    }
}

/// Calls bridged tool `name` (or the status tool).
///
/// # Errors
/// [`UnknownTool`] when MoviePilot, reached in this call, offers no such tool.
fn call(
    cfg: &MoviePilotConfig,
    upstream: &dyn Upstream,
    name: &str,
    arguments: &str,
    ctx: &CallContext,
    taken: &[&str],
    timeout_ms: u64,
) -> Result<contract::Rendered, UnknownTool> {
    let client = Client::new(upstream, cfg, timeout_ms);
    let reply = match client
        .handshake()
        .and_then(|_| discover(&client, Complete::Only(name)))
    {
        Err(e) => Reply::failure(e),
        Ok(catalogue) => {
            let (kept, problems) = split(catalogue, taken);
            match kept.iter().find(|t| t.name == name) {
                Some(tool) => invoke(&client, cfg, tool, arguments, timeout_ms),
                None if name == STATUS_TOOL => status_reply(kept.len(), problems),
                None if name == CONTRACT_TOOL && cfg.schema_mode == SchemaMode::Compact => {
                    contract_tool::reply(&client, &kept, arguments)
                }
                None => return Err(UnknownTool(name.to_owned())),
            }
        }
    };
    Ok(contract::render(name, &ctx.correlation_id, reply))
}

fn status_reply(count: usize, problems: Vec<String>) -> Reply {
    let message = format!("MoviePilot answers and offers {count} usable tool(s)");
    let data = json!({"kind": "moviepilot_result", "tool": STATUS_TOOL, "success": problems.is_empty(), "message": message});
    match problems
        .iter()
        .find(|p| p.starts_with("configuration error"))
    {
        Some(p) => Reply {
            data: Some(data),
            ..Reply::failure(result::own_error(ErrorCode::UnsupportedCapability, p))
        },
        None => Reply::ok(data)
            .warn_all(problems)
            .warn("list the tools again to see MoviePilot's current tools"),
    }
}

fn invoke(
    client: &Client<'_>,
    cfg: &MoviePilotConfig,
    tool: &discovery::UpstreamTool,
    arguments: &str,
    timeout_ms: u64,
) -> Reply {
    let mut args = match parse_object(arguments) {
        Ok(a) => a,
        Err(e) => return Reply::failure(e),
    };
    schema::decode_string_encoded(&mut args);
    let value = Value::Object(args);
    if let Err(e) = schema::check(&tool.input_schema, &value)
        .and_then(|_| policy::check(&tool.name, value.as_object().expect("object"), &cfg.policy))
    {
        return Reply::failure(e);
    }
    let args = value.as_object().expect("object");
    let read = policy::call_is_read(&tool.name, args);
    let effect = if read { Effect::Read } else { Effect::Write };
    let op = args.get("operation_id").and_then(Value::as_str);
    let deadline = cfg.deadline_for(&tool.name, op).unwrap_or(timeout_ms);
    let params = json!({"name": tool.name, "arguments": value});
    let reply = match client.request("tools/call", params, effect, Some(deadline)) {
        Ok(result) => result::interpret(&tool.name, &result, !read),
        Err(e) => Reply::failure(e),
    };
    reply.advise_unknown_outcome("the call", result::RECONCILE)
}
