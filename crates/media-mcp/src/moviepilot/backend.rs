//! The MoviePilot backend as the catalogue sees it: its own tools (the status and contract
//! tools; the rest are MoviePilot's, known only after asking it) and its [`Backend`] impl.

use super::bridge::{BridgedCall, call_budget_ms, own_tool, refresh, split};
use super::client::Client;
use super::config::{MoviePilotConfig, SchemaMode};
use super::contract_tool::{self, CONTRACT_TOOL};
use super::discovery::Complete;
use super::memo::Memo;
use super::{policy, republish, status};
use crate::contract::{self, Rendered};
use crate::host_cache::HostCache;
use crate::prelude::*;
use crate::tool::{Access, Backend, CallContext, Problem, ToolDescriptor, UnknownTool};
use crate::upstream::Upstream;
use alloc::rc::Rc;

/// The plugin's own MoviePilot tools; both only read.
static OWN_TOOLS: &[&str] = &[status::TOOL.name, CONTRACT_TOOL];

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
        let client = Client::new(upstream, &self.config, self.deadline_ms);
        let complete = match self.config.schema_mode {
            SchemaMode::Compact => Complete::Nothing,
            SchemaMode::Full => Complete::All,
        };
        let catalogue = match refresh(&client, &memo, complete, None) {
            Ok((_, c, _)) => c,
            Err(e) => {
                return vec![status::descriptor(&[Problem::Upstream(format!(
                    "MoviePilot's tools are unavailable: {}",
                    e.message
                ))])];
            }
        };
        let (kept, problems) = split(catalogue, taken);
        let mut out: Vec<ToolDescriptor> = kept
            .iter()
            .map(|t| match republish::descriptor(t, &self.config.policy) {
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
            && !out.iter().any(|t| t.name == status::TOOL.name)
            && !taken.contains(&status::TOOL.name)
        {
            out.push(status::descriptor(&problems));
        }
        out
    }

    /// Every name not proven read-only counts as a write: MoviePilot's names are known only
    /// after asking it, and nothing may be sent for a refused call.
    fn access(&self, name: &str) -> Option<Access> {
        let read =
            OWN_TOOLS.contains(&name) || policy::tool_is_read_only(name, &self.config.policy);
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
    ) -> Result<Rendered, UnknownTool> {
        let memo = Memo::new(self.cache.as_ref(), &self.config);
        let client = Client::new(upstream, &self.config, self.deadline_ms);
        let own = name == status::TOOL.name
            || name == CONTRACT_TOOL && self.config.schema_mode == SchemaMode::Compact;
        let reply = if own {
            own_tool(
                &client,
                &self.config,
                name,
                arguments,
                taken,
                self.deadline_ms,
            )?
        } else {
            BridgedCall {
                client: &client,
                cfg: &self.config,
                memo: &memo,
                name,
                taken,
                timeout_ms: self.deadline_ms,
            }
            .run(arguments)?
        };
        Ok(contract::render(name, &ctx.correlation_id, reply))
    }
}
