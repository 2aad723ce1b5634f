//! What every backend's tools are made of: the [`ToolSpec`] registry entry, the
//! [`ToolDescriptor`] `list-tools` publishes, the call context, argument parsing, tables of
//! [`View`]s for arguments that select an operation, and the [`Backend`] trait the catalogue
//! merges.
//!
//! This layer knows no backend; backends and the catalogue depend on it.

mod args;
mod problem;
mod selection;
mod spec;
mod status;
mod view;

#[cfg(test)]
pub(crate) use args::Read;
pub(crate) use args::{Args, Choice, parse_object};
pub use problem::ConfigProblem;
pub use selection::{READ_ONLY_VAR, Selection};
pub(crate) use spec::published;
pub use spec::{Access, ToolDescriptor, ToolSpec};
pub(crate) use status::{Problem, StatusTool};
pub use view::{Gloss, Prose, View, Views};

use crate::contract::Rendered;
use crate::prelude::*;
use crate::upstream::Upstream;

/// What the host tells the plugin about one call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallContext {
    /// Echoed as `correlation_id`.
    pub correlation_id: String,
    /// The user to act as.
    pub principal: Option<String>,
}

/// The call named a tool that is not listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTool(pub String);

/// One upstream's tools, as the catalogue merges them.
pub(crate) trait Backend {
    /// Names of this backend's tools that are known without asking its upstream.
    fn own_names(&self) -> Vec<&'static str>;

    /// The tools to publish, leaving out (and reporting, where the backend can) any name in
    /// `taken`, which earlier backends already publish.
    fn list(&self, upstream: &dyn Upstream, taken: &[&str]) -> Vec<ToolDescriptor>;

    /// Whether tool `name` only reads, decided without asking the upstream; `None` when `name`
    /// is not known to be this backend's. A backend that cannot tell its names without asking
    /// answers for every name, [`Access::Write`] unless the tool is proven read-only.
    fn access(&self, name: &str) -> Option<Access>;

    /// The whole-call deadline a call of `name` needs, or `None` when `name` is not known to be
    /// this backend's.
    fn deadline_ms(&self, name: &str, arguments: &str) -> Option<u64>;

    /// Runs tool `name`; `taken` as for [`Backend::list`].
    ///
    /// # Errors
    /// [`UnknownTool`] when this backend has no tool `name`; every other failure is a result.
    fn call(
        &self,
        upstream: &dyn Upstream,
        name: &str,
        arguments: &str,
        ctx: &CallContext,
        taken: &[&str],
    ) -> Result<Rendered, UnknownTool>;
}
