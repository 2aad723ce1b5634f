//! The MoviePilot backend: MoviePilot serves MCP itself, so the plugin is its MCP
//! client and republishes its tools with the plugin's own honest envelope.
//!
//! Each guest call runs in a fresh instance; what one call learns for the next lives in the
//! host cache ([`crate::host_cache`], laid out by [`memo`]). `list-tools` runs the handshake and
//! full discovery and stores what it found. A call to a bridged tool reads the stored catalogue,
//! checks the arguments against the tool's stored checking form and the safety policy, and
//! sends only `tools/call` (MoviePilot's endpoint keeps no session). With nothing stored (first
//! call, or a host without a cache) the call runs the handshake and discovery itself, completing
//! only that tool's projected schema. Stored knowledge is refreshed once in a call when it
//! cannot be trusted: the tool is not in it, or MoviePilot answers that it does not know the tool
//! or that the arguments break its current contract. Arguments the stored form refuses are
//! refused without a request (the form accepts whatever MoviePilot accepts). Only those answers prove nothing ran, so only after
//! them is `tools/call` sent again, once, and only when the refreshed form differs. A tool
//! MoviePilot no longer lists is an unknown tool. When MoviePilot cannot be reached at listing
//! time, or a name collides with an Ombi tool, a `moviepilot_status` tool is listed whose
//! description and result say what is wrong.
//!
//! In compact schema mode (the default) listing asks MoviePilot for its compact projection and
//! publishes large schemas abridged, plus (when some schema was abridged)
//! `moviepilot_input_contract`, which returns one operation's full contract; a call still checks its arguments against the tool's full schema,
//! read once from the helper endpoint and stored as its checking form.

use crate::prelude::*;
mod client;
pub(crate) mod config;
mod contract_tool;
mod discovery;
mod memo;
mod policy;
mod prose;
mod republish;
mod result;
mod schema;

#[cfg(test)]
mod tests;

pub(crate) use config::MoviePilotConfig;
pub use config::SEARCH_TORRENTS_DEADLINE_MS;

use crate::contract::{self, ErrorCode, Reply, ToolError};
use crate::host_cache::HostCache;
use crate::tool::{Access, Backend, CallContext, ToolDescriptor, UnknownTool, parse_object};
use crate::upstream::{Effect, Upstream};
use alloc::rc::Rc;
use client::Client;
use config::SchemaMode;
use contract_tool::CONTRACT_TOOL;
use discovery::{Complete, Discovered, discover, full_schema};
use memo::{Index, Memo, Prepared, Refused};
use serde_json::{Value, json};

/// The diagnostic tool listed when MoviePilot's tools are not (all) available.
pub(crate) const STATUS_TOOL: &str = "moviepilot_status";
/// Most deadline anyone gets for one call, discovery included.
const MAX_CALL_MS: u64 = 900_000;

/// The MoviePilot backend: its settings and the whole-call deadline its calls get by default.
pub(crate) struct MoviePilotBackend {
    config: MoviePilotConfig,
    deadline_ms: u64,
    cache: Rc<dyn HostCache>,
}

impl MoviePilotBackend {
    /// A backend for `config` whose calls get `deadline_ms` unless configured otherwise and
    /// which keeps what it discovers in `cache`.
    pub(crate) fn new(
        config: MoviePilotConfig,
        deadline_ms: u64,
        cache: Rc<dyn HostCache>,
    ) -> Self {
        Self {
            config,
            deadline_ms,
            cache,
        }
    }
}

impl Backend for MoviePilotBackend {
    /// MoviePilot's tool names are known only after asking it.
    fn own_names(&self) -> Vec<&'static str> {
        Vec::new()
    }

    fn list(&self, upstream: &dyn Upstream, taken: &[&str]) -> Vec<ToolDescriptor> {
        let memo = Memo::new(self.cache.as_ref(), &self.config);
        list(&self.config, &memo, upstream, taken, self.deadline_ms)
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
        let memo = Memo::new(self.cache.as_ref(), &self.config);
        call(
            &self.config,
            &memo,
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
    memo: &Memo<'_>,
    upstream: &dyn Upstream,
    taken: &[&str],
    timeout_ms: u64,
) -> Vec<ToolDescriptor> {
    let client = Client::new(upstream, cfg, timeout_ms);
    let complete = match cfg.schema_mode {
        SchemaMode::Compact => Complete::Nothing,
        SchemaMode::Full => Complete::All,
    };
    let catalogue = match refresh(&client, memo, complete, None) {
        Ok((_, c, _)) => c,
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
    if kept.iter().any(|t| t.projected)
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

/// Handshake and discovery (completing the projected schemas `complete` names). The index and
/// the checking forms of the complete schemas found go to the host cache under a new
/// generation; the form of tool `called` is returned ready for its arguments.
///
/// # Errors
/// Protocol failures of the handshake or discovery.
fn refresh(
    client: &Client<'_>,
    memo: &Memo<'_>,
    complete: Complete<'_>,
    called: Option<(&str, &Value)>,
) -> Result<(Index, Discovered, Option<Prepared>), ToolError> {
    let version = client.handshake()?;
    let found = discover(client, complete)?;
    let generation = memo.index().map_or(1, |i| i.generation.wrapping_add(1));
    let mut prepared = None;
    for tool in found.tools.iter().filter(|t| !t.projected) {
        match called {
            Some((name, args)) if name == tool.name => {
                prepared = Some(memo.prepare(generation, name, &tool.input_schema, args));
            }
            _ if memo.enabled() => {
                memo.prepare(generation, &tool.name, &tool.input_schema, &Value::Null);
            }
            _ => {}
        }
    }
    let index = Index::new(generation, version, &found);
    memo.put_index(&index);
    Ok((index, found, prepared))
}

/// Calls bridged tool `name` (or the status or contract tool).
///
/// # Errors
/// [`UnknownTool`] when MoviePilot, asked in this call, offers no such tool.
#[allow(
    clippy::too_many_arguments,
    reason = "the backend's settings and the call's inputs"
)]
fn call(
    cfg: &MoviePilotConfig,
    memo: &Memo<'_>,
    upstream: &dyn Upstream,
    name: &str,
    arguments: &str,
    ctx: &CallContext,
    taken: &[&str],
    timeout_ms: u64,
) -> Result<contract::Rendered, UnknownTool> {
    let client = Client::new(upstream, cfg, timeout_ms);
    let own =
        name == STATUS_TOOL || name == CONTRACT_TOOL && cfg.schema_mode == SchemaMode::Compact;
    let reply = if own {
        own_tool(&client, cfg, name, arguments, taken, timeout_ms)?
    } else {
        bridged(&client, cfg, memo, name, arguments, taken, timeout_ms)?
    };
    Ok(contract::render(name, &ctx.correlation_id, reply))
}

/// The status and contract tools, answered from a discovery made in this call (a MoviePilot
/// tool of the same name is called instead).
fn own_tool(
    client: &Client<'_>,
    cfg: &MoviePilotConfig,
    name: &str,
    arguments: &str,
    taken: &[&str],
    timeout_ms: u64,
) -> Result<Reply, UnknownTool> {
    let catalogue = match client
        .handshake()
        .and_then(|_| discover(client, Complete::Only(name)))
    {
        Err(e) => return Ok(Reply::failure(e)),
        Ok(c) => c,
    };
    let (kept, problems) = split(catalogue, taken);
    Ok(match kept.iter().find(|t| t.name == name) {
        Some(tool) => {
            let args = match parse_object(arguments) {
                Ok(mut a) => {
                    schema::decode_string_encoded(&mut a);
                    Value::Object(a)
                }
                Err(e) => return Ok(Reply::failure(e)),
            };
            match schema::check(&tool.input_schema, &args) {
                Ok(()) => {
                    send(
                        client,
                        cfg,
                        name,
                        &args,
                        deadline(cfg, name, &args, timeout_ms),
                    )
                    .0
                }
                Err(e) => Reply::failure(e),
            }
        }
        None if name == STATUS_TOOL => status_reply(kept.len(), problems),
        None => contract_tool::reply(client, &kept, arguments),
    })
}

/// A call of bridged tool `name`: checked against the stored catalogue, refreshed at most once.
fn bridged(
    client: &Client<'_>,
    cfg: &MoviePilotConfig,
    memo: &Memo<'_>,
    name: &str,
    arguments: &str,
    taken: &[&str],
    timeout_ms: u64,
) -> Result<Reply, UnknownTool> {
    let parsed = parse_object(arguments).map(|mut a| {
        schema::decode_string_encoded(&mut a);
        Value::Object(a)
    });
    let nothing = Value::Null;
    let args = parsed.as_ref().unwrap_or(&nothing);
    // What the previous round sent and MoviePilot's answer saying its catalogue differs.
    let mut previous: Option<(Prepared, Reply)> = None;
    let mut stored = memo.index().map(|i| (i, None));
    let mut fresh = false;
    loop {
        let (index, ready) = match stored.take() {
            Some(s) => s,
            None => {
                fresh = true;
                match refresh(client, memo, Complete::Only(name), Some((name, args))) {
                    Ok((index, _, ready)) => (index, ready),
                    Err(e) => return Ok(previous.map_or_else(|| Reply::failure(e), |(_, r)| r)),
                }
            }
        };
        let Some(tool) = index.tool(name, taken) else {
            if fresh {
                return Err(UnknownTool(name.to_owned()));
            }
            continue;
        };
        if let Err(e) = &parsed {
            return Ok(Reply::failure(e.clone()));
        }
        let ready = match ready.or_else(|| memo.prepared(index.generation, name, args)) {
            Some(p) => p,
            None if tool.projected => match full_schema(client, name) {
                Ok(full) => memo.prepare(index.generation, name, &full, args),
                Err(e) => return Ok(Reply::failure(e)),
            },
            // The host dropped the form: ask MoviePilot again.
            None if !fresh => continue,
            None => {
                return Ok(Reply::failure(ToolError::schema_mismatch(format!(
                    "MoviePilot's schema of `{name}` could not be read"
                ))));
            }
        };
        if let Some((before, answer)) = previous.take()
            && before == ready
        {
            // The same contract as before: MoviePilot's refusal stands, nothing is sent again.
            return Ok(answer);
        }
        match memo::check(name, &ready.form, ready.branch.as_ref(), args) {
            Ok(()) => {}
            // The checks accept whatever MoviePilot accepts, so a refusal costs no request.
            Err(Refused::Invalid(e)) => return Ok(Reply::failure(e)),
            // The host dropped the operation's branch: ask MoviePilot again.
            Err(Refused::Missing) if !fresh => continue,
            Err(Refused::Missing) => {
                return Ok(Reply::failure(ToolError::schema_mismatch(format!(
                    "MoviePilot's schema of `{name}` lost an operation while it was read"
                ))));
            }
        }
        if !fresh {
            client.resume(&index.version);
        }
        let (reply, changed) = send(
            client,
            cfg,
            name,
            args,
            deadline(cfg, name, args, timeout_ms),
        );
        if changed && !fresh {
            // MoviePilot ran nothing and its catalogue differs from the stored one.
            previous = Some((ready, reply));
            continue;
        }
        return Ok(reply);
    }
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

/// The deadline of one `tools/call` of `name` with `args`.
fn deadline(cfg: &MoviePilotConfig, name: &str, args: &Value, default_ms: u64) -> u64 {
    let op = args.get("operation_id").and_then(Value::as_str);
    cfg.deadline_for(name, op).unwrap_or(default_ms)
}

/// Checks the policy, sends `tools/call` and reads the answer; also says whether the answer proves MoviePilot
/// ran nothing because its catalogue differs from the one the call was checked against.
fn send(
    client: &Client<'_>,
    cfg: &MoviePilotConfig,
    name: &str,
    args: &Value,
    deadline_ms: u64,
) -> (Reply, bool) {
    let map = args.as_object().expect("object");
    if let Err(e) = policy::check(name, map, &cfg.policy) {
        return (Reply::failure(e), false);
    }
    let read = policy::call_is_read(name, map);
    let effect = if read { Effect::Read } else { Effect::Write };
    let params = json!({"name": name, "arguments": args});
    let (reply, changed) = match client.request("tools/call", params, effect, Some(deadline_ms)) {
        Ok(result) => (
            result::interpret(name, &result, !read),
            result::catalogue_changed(name, &result),
        ),
        Err(e) => (Reply::failure(e), false),
    };
    (
        reply.advise_unknown_outcome("the call", result::RECONCILE),
        changed,
    )
}
