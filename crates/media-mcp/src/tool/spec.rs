//! One tool's registry entry ([`ToolSpec`]), its access and the record `list-tools` publishes.

use super::args::{Args, parse_object};
use super::view::ViewTable;
use crate::contract::{Reply, ToolError, compose_output_schema};
use crate::prelude::*;
use crate::schema;
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
    pub handler: H,
    /// The read tool that reconciles an unknown outcome (writes only).
    pub reconcile_with: Option<&'static str>,
    /// The table of the argument that selects which operation runs, if the tool has one.
    pub views: Option<&'static dyn ViewTable>,
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
            views: None,
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
            views: None,
        }
    }

    /// This tool with `views`, the table of its selector argument.
    pub const fn with_views(mut self, views: &'static dyn ViewTable) -> Self {
        self.views = Some(views);
        self
    }

    pub fn annotations(&self) -> Value {
        self.access.annotations(self.title)
    }

    /// The tool as `list-tools` publishes it.
    pub fn descriptor(&self) -> ToolDescriptor {
        published(
            self.name,
            self.title,
            self.description.to_owned(),
            self.access,
            &(self.input_schema)(),
            &compose_output_schema(self.name, self.families),
        )
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

/// A tool as published by `list-tools`: the record every host receives (`media-mcp-wire`).
pub use media_mcp_wire::ToolRecord as ToolDescriptor;

/// The record of a tool not in a static registry (a bridged tool, a status tool); its
/// annotations follow `access` under `title`.
pub(crate) fn published(
    name: &str,
    title: &str,
    description: String,
    access: Access,
    input_schema: &Value,
    output_schema: &Value,
) -> ToolDescriptor {
    ToolDescriptor {
        name: name.to_owned(),
        title: title.to_owned(),
        description,
        input_schema: input_schema.to_string(),
        output_schema: output_schema.to_string(),
        annotations: access.annotations(title).to_string(),
    }
}
