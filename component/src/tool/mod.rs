//! What every backend's tools are made of: the [`ToolSpec`] registry entry, the
//! [`ToolDescriptor`] `list-tools` publishes, the call context, argument parsing and the
//! [`Backend`] trait the catalogue merges.
//!
//! This layer knows no backend; backends and the catalogue depend on it.

pub(crate) mod args;
mod problem;
pub mod selection;

pub(crate) use args::{Args, Choice};
pub use problem::ConfigProblem;
pub use selection::Selection;

use crate::contract::{Rendered, Reply, ToolError, compose_output_schema};
use crate::prelude::*;
use crate::schema;
use crate::upstream::Upstream;
use serde_json::{Value, json};

/// Whether a tool reads or changes upstream state (drives the MCP annotations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No side effects: `readOnlyHint: true`, `idempotentHint: true`.
    Read,
    /// Changes state: `readOnlyHint: false`, `idempotentHint: false`, `destructiveHint: true`.
    Write,
}

impl Access {
    /// MCP annotations for a tool titled `title`. `openWorldHint` is true for every tool: each
    /// one talks to an upstream server.
    pub fn annotations(self, title: &str) -> Value {
        match self {
            Access::Read => {
                json!({"title": title, "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true})
            }
            Access::Write => {
                json!({"title": title, "readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true})
            }
        }
    }
}

/// One tool of a backend's own registry; `H` is the backend's handler type.
pub struct ToolSpec<H> {
    /// Tool name, as in the contract.
    pub name: &'static str,
    /// Human-readable title.
    pub title: &'static str,
    /// What it does, for the model (never the output contract).
    pub description: &'static str,
    /// Read or write.
    pub access: Access,
    /// The result families it may return (contract tool → family matrix).
    pub families: &'static [&'static str],
    /// Its `inputSchema`.
    pub input_schema: fn() -> Value,
    /// The work.
    pub handler: H,
    /// The read tool that reconciles an unknown outcome (writes only).
    pub reconcile_with: Option<&'static str>,
}

impl<H> ToolSpec<H> {
    /// A read tool returning one of `families`.
    pub const fn read(
        name: &'static str,
        title: &'static str,
        description: &'static str,
        families: &'static [&'static str],
        input_schema: fn() -> Value,
        handler: H,
    ) -> Self {
        Self {
            name,
            title,
            description,
            access: Access::Read,
            families,
            input_schema,
            handler,
            reconcile_with: None,
        }
    }

    /// A write tool: it returns `mutation`, and the read tool `reconcile_with` checks an
    /// unknown outcome.
    pub const fn write(
        name: &'static str,
        title: &'static str,
        description: &'static str,
        reconcile_with: &'static str,
        input_schema: fn() -> Value,
        handler: H,
    ) -> Self {
        Self {
            name,
            title,
            description,
            access: Access::Write,
            families: &["mutation"],
            input_schema,
            handler,
            reconcile_with: Some(reconcile_with),
        }
    }

    /// MCP annotations.
    pub fn annotations(&self) -> Value {
        self.access.annotations(self.title)
    }

    /// The tool as `list-tools` publishes it.
    pub fn descriptor(&self) -> ToolDescriptor {
        ToolDescriptor {
            name: self.name.to_owned(),
            title: self.title.to_owned(),
            description: self.description.to_owned(),
            input_schema: (self.input_schema)().to_string(),
            output_schema: compose_output_schema(self.name, self.families).to_string(),
            annotations: self.annotations().to_string(),
        }
    }

    /// `arguments` (JSON text) checked against this tool's `inputSchema`.
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` naming the offending field.
    pub(crate) fn parse_arguments(&self, arguments: &str) -> Result<Args, ToolError> {
        let map = parse_object(arguments)?;
        let value = Value::Object(map);
        let input_schema = (self.input_schema)();
        schema::validate(&input_schema, &value).map_err(|v| {
            let msg = if v.field.is_empty() {
                v.message.clone()
            } else {
                format!("{} {}", v.field, v.message)
            };
            ToolError::invalid_argument(
                if v.field.is_empty() {
                    "arguments".to_owned()
                } else {
                    v.field
                },
                msg,
            )
        })?;
        let Value::Object(map) = value else {
            return Err(ToolError::internal("arguments changed type"));
        };
        Ok(Args::from_schema(&input_schema, map))
    }

    /// `reply` with, for an `UNKNOWN_OUTCOME` of a write, the advice to reconcile with a read.
    pub(crate) fn advise(&self, reply: Reply) -> Reply {
        match self.reconcile_with {
            Some(read) => {
                reply.advise_unknown_outcome("the request", &format!("check with {read}"))
            }
            None => reply,
        }
    }
}

/// Arguments as a JSON object; empty text is `{}`.
///
/// # Errors
/// `INVALID_ARGUMENT` (`arguments`) when the text is not a JSON object.
pub(crate) fn parse_object(arguments: &str) -> Result<serde_json::Map<String, Value>, ToolError> {
    let text = if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(ToolError::invalid_argument(
            "arguments",
            "arguments must be a JSON object",
        )),
    }
}

/// A tool as published by `list-tools`: the record every host receives (`media-mcp-wire`).
pub use media_mcp_wire::ToolRecord as ToolDescriptor;

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
