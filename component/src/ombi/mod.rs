//! The Ombi backend: its client, projections and the native tools.
//!
//! Every tool declares its `OmbiTool` spec as `TOOL` in its own file, next to its input schema
//! and handler; each group lists its tools (`TOOLS`) in catalogue order and `registry` chains
//! the groups.

use crate::prelude::*;
mod admin;
mod call;
mod client;
mod codes;
pub(crate) mod config;
mod details;
mod details_people;
mod ids;
mod media;
mod project;
mod reads;
mod search;
mod settings_revision;
mod shape;
pub(crate) mod status;
mod writes;

pub(crate) use call::{Call, OmbiTool};
pub(crate) use client::Ombi;
pub(crate) use config::OmbiConfig;

use crate::contract::{self, Rendered, Reply};
use crate::tool::{Access, Backend, CallContext, ToolDescriptor, ToolSpec, UnknownTool};
use crate::upstream::Upstream;

/// The Ombi tools, in catalogue order: reads first, then writes (their handlers are this
/// crate's business, so the handler type is opaque outside it).
pub fn tools() -> Vec<&'static ToolSpec<impl Sized + 'static>> {
    registry()
}

/// The Ombi tools, in catalogue order: reads first, then writes.
fn registry() -> Vec<&'static OmbiTool> {
    let groups: [&[&'static OmbiTool]; 4] = [CORE_READS, reads::TOOLS, admin::TOOLS, writes::TOOLS];
    groups.iter().flat_map(|g| g.iter().copied()).collect()
}

/// The Ombi backend: its settings and the whole-call deadline its calls get.
pub(crate) struct OmbiBackend {
    config: OmbiConfig,
    deadline_ms: u64,
}

impl OmbiBackend {
    /// A backend for `config` whose calls get `deadline_ms`.
    pub(crate) fn new(config: OmbiConfig, deadline_ms: u64) -> Self {
        Self {
            config,
            deadline_ms,
        }
    }

    fn find(name: &str) -> Option<&'static OmbiTool> {
        registry().into_iter().find(|t| t.name == name)
    }
}

impl Backend for OmbiBackend {
    fn own_names(&self) -> Vec<&'static str> {
        registry().into_iter().map(|t| t.name).collect()
    }

    fn list(&self, _upstream: &dyn Upstream, taken: &[&str]) -> Vec<ToolDescriptor> {
        registry()
            .into_iter()
            .filter(|t| !taken.contains(&t.name))
            .map(OmbiTool::descriptor)
            .collect()
    }

    fn access(&self, name: &str) -> Option<Access> {
        Self::find(name).map(|t| t.access)
    }

    fn deadline_ms(&self, name: &str, _arguments: &str) -> Option<u64> {
        Self::find(name).map(|_| self.deadline_ms)
    }

    fn call(
        &self,
        upstream: &dyn Upstream,
        name: &str,
        arguments: &str,
        ctx: &CallContext,
        taken: &[&str],
    ) -> Result<Rendered, UnknownTool> {
        let spec = Self::find(name)
            .filter(|t| !taken.contains(&t.name))
            .ok_or_else(|| UnknownTool(name.to_owned()))?;
        let reply = match spec.parse_arguments(arguments) {
            Err(e) => Reply::failure(e),
            Ok(args) => {
                let call = Call {
                    upstream,
                    config: &self.config,
                    principal: ctx.principal.as_deref(),
                    deadline_ms: self.deadline_ms,
                };
                (spec.handler)(&call, &args).unwrap_or_else(Reply::failure)
            }
        };
        Ok(contract::render(
            spec.name,
            &ctx.correlation_id,
            spec.advise(reply),
        ))
    }
}

/// The search and media-details tools, listed first.
static CORE_READS: &[&OmbiTool] = &[&search::TOOL, &details::TOOL];

#[cfg(test)]
mod tests;
