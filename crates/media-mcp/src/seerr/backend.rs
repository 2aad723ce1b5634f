//! The Seerr backend as the catalogue sees it: its one static tool list and its [`Backend`]
//! impl. Each call first settles who it acts as ([`identity::resolve`]); acting as the
//! administrator, every result says so. When `SEERR_URL` is set but unusable it lists only
//! `seerr_status`. Its output schemas are the shared library's with Seerr's additions
//! (`defs.json` here: the `seerr_media` identifier namespace and a title's `status` and
//! `status_4k`), so the Ombi tools' schemas stay exactly the contract's.

use super::client::Acting;
use super::client::Seerr;
use super::config::SeerrConfig;
use super::identity;
use super::tool::SeerrTool;
use super::{issues, media, requests, search, server, status, users, writes};
use crate::contract::{self, Rendered, Reply, compose_output_schema_with};
use crate::prelude::*;
use crate::tool::{
    Access, Backend, CallContext, ConfigProblem, ToolDescriptor, ToolSpec, UnknownTool, published,
};
use crate::upstream::Upstream;
use once_cell::race::OnceBox;
use serde_json::{Map, Value};

/// The Seerr tools, in catalogue order: reads first, then writes.
static REGISTRY: &[&SeerrTool] = &[
    &search::TOOL,
    &media::TOOL,
    &requests::TOOL,
    &requests::STATS,
    &issues::TOOL,
    &users::TOOL,
    &server::TOOL,
    &writes::request_create::TOOL,
    &writes::request_decide::APPROVE,
    &writes::request_decide::DENY,
    &writes::request_decide::DELETE,
    &writes::issue::CREATE,
    &writes::issue::COMMENT,
    &writes::issue::STATUS,
];

/// The Seerr tools, in catalogue order (their handlers are this crate's business, so the
/// handler type is opaque outside it).
pub fn tools() -> impl Iterator<Item = &'static ToolSpec<impl Sized + 'static>> {
    registry()
}

fn registry() -> impl Iterator<Item = &'static SeerrTool> {
    REGISTRY.iter().copied()
}

/// This backend's additions to the shared `$defs` (`seerr/defs.json`), parsed once.
fn extra_defs() -> &'static Map<String, Value> {
    static DEFS: OnceBox<Map<String, Value>> = OnceBox::new();
    DEFS.get_or_init(|| {
        let root: Value =
            serde_json::from_str(include_str!("defs.json")).expect("seerr defs.json is JSON");
        Box::new(match root {
            Value::Object(mut o) => match o.remove("$defs") {
                Some(Value::Object(defs)) => defs,
                _ => panic!("seerr defs.json has an object `$defs`"),
            },
            _ => panic!("seerr defs.json is an object"),
        })
    })
}

/// The tool as listed: its output schema composed with Seerr's additions to the library.
fn descriptor(tool: &SeerrTool) -> ToolDescriptor {
    published(
        tool.name,
        tool.title,
        tool.description.to_owned(),
        tool.access,
        &(tool.input_schema)(),
        &compose_output_schema_with(tool.name, tool.families, extra_defs()),
    )
}

fn find(name: &str) -> Option<&'static SeerrTool> {
    registry().find(|t| t.name == name)
}

/// The Seerr backend: its settings and the whole-call deadline, or the problems that make
/// `SEERR_URL` unusable.
pub(crate) enum SeerrBackend {
    Ready {
        config: SeerrConfig,
        deadline_ms: u64,
    },
    Unusable {
        problems: Vec<ConfigProblem>,
    },
}

impl SeerrBackend {
    /// The backend the configuration asks for: ready with `config`, unusable when `SEERR_URL`
    /// is among `problems`, or none.
    pub(crate) fn configured(
        config: Option<&SeerrConfig>,
        problems: &[ConfigProblem],
        deadline_ms: u64,
    ) -> Option<Self> {
        match config {
            Some(config) => Some(Self::Ready {
                config: config.clone(),
                deadline_ms,
            }),
            None if status::seerr_unusable(problems) => Some(Self::Unusable {
                problems: problems.to_vec(),
            }),
            None => None,
        }
    }
}

/// Runs `spec` for the call's user: resolves who that is, then the handler; acting as the
/// administrator, the reply says so.
fn run(
    spec: &SeerrTool,
    upstream: &dyn Upstream,
    config: &SeerrConfig,
    deadline_ms: u64,
    principal: Option<&str>,
    arguments: &str,
) -> Reply {
    let args = match spec.parse_arguments(arguments) {
        Ok(args) => args,
        Err(e) => return Reply::failure(e),
    };
    let admin = Seerr::as_administrator(upstream, config, deadline_ms);
    let acting = match identity::resolve(&admin, principal, config.default_user.as_deref()) {
        Ok(acting) => acting,
        Err(e) => return Reply::failure(e),
    };
    let seerr = admin.acting_as(acting);
    let reply = (spec.handler)(&seerr, &args).unwrap_or_else(Reply::failure);
    match seerr.acting() {
        Acting::Administrator => reply.warn(identity::administrator_warning()),
        Acting::User { .. } => reply,
    }
}

impl Backend for SeerrBackend {
    fn own_names(&self) -> Vec<&'static str> {
        match self {
            Self::Ready { .. } => registry().map(|t| t.name).collect(),
            Self::Unusable { .. } => Vec::new(),
        }
    }

    fn list(&self, _upstream: &dyn Upstream, taken: &[&str]) -> Vec<ToolDescriptor> {
        match self {
            Self::Ready { .. } => registry()
                .filter(|t| !taken.contains(&t.name))
                .map(descriptor)
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
        let reply = run(
            spec,
            upstream,
            config,
            deadline_ms,
            ctx.principal.as_deref(),
            arguments,
        );
        Ok(contract::render(
            spec.name,
            &ctx.correlation_id,
            spec.advise(reply),
        ))
    }
}
