//! The Ombi backend as the catalogue sees it: its one static tool list and its [`Backend`]
//! impl. When `OMBI_URL` is set but unusable it lists only `ombi_status` instead.

use super::call::{Call, OmbiTool};
use super::config::OmbiConfig;
use super::{admin, details, reads, search, status, writes};
use crate::contract::{self, Rendered, Reply};
use crate::prelude::*;
use crate::tool::{
    Access, Backend, CallContext, ConfigProblem, ToolDescriptor, ToolSpec, UnknownTool,
};
use crate::upstream::Upstream;

/// The search and media-details tools, listed first.
static CORE_READS: &[&OmbiTool] = &[&search::TOOL, &details::TOOL];

/// The Ombi tools, in catalogue order: reads first, then writes (their handlers are this
/// crate's business, so the handler type is opaque outside it).
pub fn tools() -> impl Iterator<Item = &'static ToolSpec<impl Sized + 'static>> {
    registry()
}

const GROUPS: [&[&OmbiTool]; 4] = [CORE_READS, reads::TOOLS, admin::TOOLS, writes::TOOLS];

const COUNT: usize = {
    let (mut n, mut g) = (0, 0);
    while g < GROUPS.len() {
        n += GROUPS[g].len();
        g += 1;
    }
    n
};

/// Every group's tools in one table, made at compile time.
static REGISTRY: [&OmbiTool; COUNT] = {
    let mut out = [CORE_READS[0]; COUNT];
    let (mut n, mut g) = (0, 0);
    while g < GROUPS.len() {
        let mut t = 0;
        while t < GROUPS[g].len() {
            out[n] = GROUPS[g][t];
            n += 1;
            t += 1;
        }
        g += 1;
    }
    out
};

/// The Ombi tools, in catalogue order: reads first, then writes.
pub(super) fn registry() -> impl Iterator<Item = &'static OmbiTool> {
    REGISTRY.iter().copied()
}

fn find(name: &str) -> Option<&'static OmbiTool> {
    registry().find(|t| t.name == name)
}

/// The Ombi backend: its settings and the whole-call deadline its calls get, or the problems
/// that make `OMBI_URL` unusable.
pub(crate) enum OmbiBackend {
    Ready {
        config: OmbiConfig,
        deadline_ms: u64,
    },
    Unusable {
        problems: Vec<ConfigProblem>,
    },
}

impl OmbiBackend {
    /// The backend the configuration asks for: ready with `config`, unusable when `OMBI_URL`
    /// is among `problems` (then every problem is reported), or none.
    pub(crate) fn configured(
        config: Option<&OmbiConfig>,
        problems: &[ConfigProblem],
        deadline_ms: u64,
    ) -> Option<Self> {
        match config {
            Some(config) => Some(Self::Ready {
                config: config.clone(),
                deadline_ms,
            }),
            None if status::ombi_unusable(problems) => Some(Self::Unusable {
                problems: problems.to_vec(),
            }),
            None => None,
        }
    }
}

impl Backend for OmbiBackend {
    fn own_names(&self) -> Vec<&'static str> {
        match self {
            Self::Ready { .. } => registry().map(|t| t.name).collect(),
            // Listed first, its name is never another backend's (as before it was a backend).
            Self::Unusable { .. } => Vec::new(),
        }
    }

    fn list(&self, _upstream: &dyn Upstream, taken: &[&str]) -> Vec<ToolDescriptor> {
        match self {
            Self::Ready { .. } => registry()
                .filter(|t| !taken.contains(&t.name))
                .map(OmbiTool::descriptor)
                .collect(),
            Self::Unusable { problems } => vec![status::descriptor(problems)],
        }
    }

    fn access(&self, name: &str) -> Option<Access> {
        match self {
            Self::Ready { .. } => find(name).map(|t| t.access),
            Self::Unusable { .. } => (name == status::TOOL.name).then_some(Access::Read),
        }
    }

    fn deadline_ms(&self, name: &str, _arguments: &str) -> Option<u64> {
        match self {
            Self::Ready { deadline_ms, .. } => find(name).map(|_| *deadline_ms),
            Self::Unusable { .. } => None,
        }
    }

    fn call(
        &self,
        upstream: &dyn Upstream,
        name: &str,
        arguments: &str,
        ctx: &CallContext,
        taken: &[&str],
    ) -> Result<Rendered, UnknownTool> {
        let (config, deadline_ms) = match self {
            Self::Ready {
                config,
                deadline_ms,
            } => (config, *deadline_ms),
            Self::Unusable { problems } if name == status::TOOL.name => {
                return Ok(status::call(problems, &ctx.correlation_id));
            }
            Self::Unusable { .. } => return Err(UnknownTool(name.to_owned())),
        };
        let spec = find(name)
            .filter(|t| !taken.contains(&t.name))
            .ok_or_else(|| UnknownTool(name.to_owned()))?;
        let reply = match spec.parse_arguments(arguments) {
            Err(e) => Reply::failure(e),
            Ok(args) => {
                let call = Call {
                    upstream,
                    config,
                    principal: ctx.principal.as_deref(),
                    deadline_ms,
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
