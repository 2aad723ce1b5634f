//! The top layer: merges the configured backends ([`crate::backends`]) into one tool list, in
//! their order, keeps names unique, and routes each call to the backend that lists the tool. It
//! knows no backend by name.
//!
//! It also applies the operator's [`Selection`]: a tool it leaves out is not listed and a call
//! to it is an unknown tool; in read-only mode a call to a tool that may write is a `FORBIDDEN`
//! result naming `MEDIA_MCP_READ_ONLY`, and nothing is sent.

use crate::backends;
use crate::config::Config;
use crate::contract::{self, ErrorCode, Rendered, Reply, ToolError};
use crate::host_cache::{HostCache, NoCache};
use crate::prelude::*;
use crate::tool::{
    Access, Backend, CallContext, READ_ONLY_VAR, Selection, ToolDescriptor, UnknownTool,
};
use crate::upstream::Upstream;
use alloc::rc::Rc;

/// The plugin: configuration plus the backends it enables, in listing order.
pub struct Plugin {
    config: Config,
    backends: Vec<Box<dyn Backend>>,
}

impl Plugin {
    /// A plugin for `config` whose host keeps nothing between calls.
    pub fn new(config: Config) -> Self {
        Self::with_cache(config, Rc::new(NoCache))
    }

    /// A plugin for `config` that keeps what it learns between calls in `cache`.
    pub fn with_cache(config: Config, cache: Rc<dyn HostCache>) -> Self {
        let backends = backends::enabled(&config, cache);
        Self { config, backends }
    }

    /// A plugin merging `backends`, in their order, under `config`'s selection.
    #[cfg(test)]
    fn with_backends(config: Config, backends: Vec<Box<dyn Backend>>) -> Self {
        Self { config, backends }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Each backend with the names the backends before it own.
    fn in_order(&self) -> impl Iterator<Item = (&dyn Backend, Vec<&'static str>)> {
        let mut taken: Vec<&'static str> = Vec::new();
        self.backends.iter().map(move |b| {
            let before = taken.clone();
            taken.extend(b.own_names());
            (b.as_ref(), before)
        })
    }

    fn selection(&self) -> &Selection {
        &self.config.selection
    }

    /// Whether tool `name` only reads, as the first backend that knows the name says.
    fn access(&self, name: &str) -> Option<Access> {
        self.backends.iter().find_map(|b| b.access(name))
    }

    /// Whether read-only mode lets a tool with `access` be listed and called.
    fn permits(&self, access: Access) -> bool {
        !self.selection().read_only || access == Access::Read
    }

    /// The published tools: each backend's, in order, as far as the selection keeps them; a
    /// name already published is never published again.
    pub fn list_tools(&self, upstream: &dyn Upstream) -> Vec<ToolDescriptor> {
        let selection = self.selection();
        let mut out: Vec<ToolDescriptor> = Vec::new();
        for (backend, taken) in self.in_order() {
            for tool in backend.list(upstream, &taken) {
                let kept = selection.shows(&tool.name)
                    && self.permits(self.access(&tool.name).unwrap_or(Access::Write));
                if kept && !out.iter().any(|t| t.name == tool.name) {
                    out.push(tool);
                }
            }
        }
        out
    }

    /// The whole-call deadline a call of `name` needs (bridged tools may take longer, e.g.
    /// MoviePilot's `search.torrents`).
    pub fn call_deadline_ms(&self, name: &str, arguments: &str) -> u64 {
        self.backends
            .iter()
            .find_map(|b| b.deadline_ms(name, arguments))
            .unwrap_or(self.config.call_deadline_ms)
    }

    /// Runs tool `name` with `arguments` (JSON text).
    ///
    /// # Errors
    /// [`UnknownTool`] when no backend lists a tool of that name, or the selection leaves it
    /// out; every other failure is a result.
    pub fn call_tool(
        &self,
        name: &str,
        arguments: &str,
        ctx: &CallContext,
        upstream: &dyn Upstream,
    ) -> Result<Rendered, UnknownTool> {
        if !self.selection().shows(name) {
            return Err(UnknownTool(name.to_owned()));
        }
        if let Some(access) = self.access(name)
            && !self.permits(access)
        {
            let shown: String = name.chars().filter(|c| !c.is_control()).take(80).collect();
            let refusal = ToolError::new(
                ErrorCode::Forbidden,
                format!(
                    "refused: {READ_ONLY_VAR} is on and `{shown}` is not proven read-only; nothing was sent (unset {READ_ONLY_VAR} to allow it)"
                ),
            );
            return Ok(contract::render(
                name,
                &ctx.correlation_id,
                Reply::failure(refusal),
            ));
        }
        for (backend, taken) in self.in_order() {
            match backend.call(upstream, name, arguments, ctx, &taken) {
                Err(UnknownTool(_)) => continue,
                done => return done,
            }
        }
        Err(UnknownTool(name.to_owned()))
    }
}

#[cfg(test)]
mod tests;
