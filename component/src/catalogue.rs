//! The tool catalogue: one [`ToolSpec`] per tool, the single source for `list-tools`, argument
//! validation and dispatch (like ripgrep's flag registry).

use crate::args::Args;
use crate::config::Config;
use crate::contract::{self, Rendered, Reply, ToolError, compose_output_schema};
use crate::moviepilot;
use crate::ombi;
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

/// Everything a handler may use during one call.
pub struct Call<'a> {
    /// The component's configuration.
    pub config: &'a Config,
    /// Outbound HTTP.
    pub upstream: &'a dyn Upstream,
    /// The user the host wants the call to act as.
    pub principal: Option<&'a str>,
}

impl Call<'_> {
    /// An Ombi client acting as the call's principal.
    ///
    /// # Errors
    /// `UNSUPPORTED_CAPABILITY` when Ombi is not configured; `INVALID_ARGUMENT` for a bad principal.
    pub fn ombi(&self) -> Result<ombi::Ombi<'_>, ToolError> {
        let cfg = self.config.ombi.as_ref().ok_or_else(|| {
            ToolError::new(
                contract::ErrorCode::UnsupportedCapability,
                "Ombi is not configured",
            )
        })?;
        ombi::Ombi::new(
            self.upstream,
            cfg,
            self.principal,
            self.config.call_deadline_ms,
        )
    }
}

/// A tool handler: validated arguments in, a reply out.
pub type Handler = fn(&Call<'_>, &Args) -> Result<Reply, ToolError>;

/// One tool.
pub struct ToolSpec {
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
    pub handler: Handler,
    /// The read tool that reconciles an unknown outcome (writes only).
    pub reconcile_with: Option<&'static str>,
}

impl ToolSpec {
    /// MCP annotations (ledger §2: `openWorldHint` true for every tool).
    pub fn annotations(&self) -> Value {
        match self.access {
            Access::Read => {
                json!({"title": self.title, "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true})
            }
            Access::Write => {
                json!({"title": self.title, "readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true})
            }
        }
    }
}

/// A tool as published by `list-tools`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDescriptor {
    /// Name.
    pub name: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Input schema as JSON text.
    pub input_schema: String,
    /// Output schema as JSON text.
    pub output_schema: String,
    /// Annotations as JSON text.
    pub annotations: String,
}

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

/// The plugin: configuration plus catalogue.
pub struct Plugin {
    config: Config,
}

impl Plugin {
    /// A plugin for `config`.
    pub fn new(config: Config) -> Self {
        Self { config }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The tools this configuration offers.
    pub fn tools(&self) -> Vec<&'static ToolSpec> {
        if self.config.ombi.is_some() {
            ombi::tools()
        } else {
            Vec::new()
        }
    }

    fn find(&self, name: &str) -> Option<&'static ToolSpec> {
        self.tools().into_iter().find(|t| t.name == name)
    }

    /// The published catalogue: the Ombi tools, then MoviePilot's bridged tools (discovered
    /// through `upstream` when `MOVIEPILOT_URL` is set).
    pub fn list_tools(&self, upstream: &dyn Upstream) -> Vec<ToolDescriptor> {
        let mut out: Vec<ToolDescriptor> = self
            .tools()
            .into_iter()
            .map(|t| ToolDescriptor {
                name: t.name.to_owned(),
                title: t.title.to_owned(),
                description: t.description.to_owned(),
                input_schema: (t.input_schema)().to_string(),
                output_schema: compose_output_schema(t.name, t.families).to_string(),
                annotations: t.annotations().to_string(),
            })
            .collect();
        if let Some(mp) = &self.config.moviepilot {
            out.extend(moviepilot::list(
                mp,
                upstream,
                &self.own_names(),
                self.config.call_deadline_ms,
            ));
        }
        out
    }

    fn own_names(&self) -> Vec<&'static str> {
        self.tools().into_iter().map(|t| t.name).collect()
    }

    /// The whole-call deadline a call of `name` needs (bridged tools may take longer, e.g.
    /// MoviePilot's `search.torrents`).
    pub fn call_deadline_ms(&self, name: &str, arguments: &str) -> u64 {
        match &self.config.moviepilot {
            Some(mp) if self.find(name).is_none() => {
                moviepilot::call_budget_ms(mp, name, arguments, self.config.call_deadline_ms)
            }
            _ => self.config.call_deadline_ms,
        }
    }

    /// Runs tool `name` with `arguments` (JSON text).
    ///
    /// # Errors
    /// [`UnknownTool`] when no listed tool has that name; every other failure is a result.
    pub fn call_tool(
        &self,
        name: &str,
        arguments: &str,
        ctx: &CallContext,
        upstream: &dyn Upstream,
    ) -> Result<Rendered, UnknownTool> {
        let Some(spec) = self.find(name) else {
            // Not one of ours: a bridged MoviePilot tool, discovered again in this call.
            return match &self.config.moviepilot {
                Some(mp) => moviepilot::call(
                    mp,
                    upstream,
                    name,
                    arguments,
                    ctx,
                    &self.own_names(),
                    self.config.call_deadline_ms,
                ),
                None => Err(UnknownTool(name.to_owned())),
            };
        };
        let reply = match parse_arguments(spec, arguments) {
            Err(e) => Reply::failure(e),
            Ok(args) => {
                let call = Call {
                    config: &self.config,
                    upstream,
                    principal: ctx.principal.as_deref(),
                };
                (spec.handler)(&call, &args).unwrap_or_else(Reply::failure)
            }
        };
        let reply = match (&reply.error, spec.reconcile_with) {
            (Some(e), Some(read)) if e.code == contract::ErrorCode::UnknownOutcome => reply.warn(format!(
                "the request may or may not have taken effect: check with {read} before retrying"
            )),
            _ => reply,
        };
        Ok(contract::render(spec.name, &ctx.correlation_id, reply))
    }
}

fn parse_arguments(spec: &ToolSpec, arguments: &str) -> Result<Args, ToolError> {
    let text = if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    };
    let value: Value = serde_json::from_str(text)
        .map_err(|_| ToolError::invalid_argument("arguments", "arguments must be a JSON object"))?;
    let Value::Object(map) = value else {
        return Err(ToolError::invalid_argument(
            "arguments",
            "arguments must be a JSON object",
        ));
    };
    let value = Value::Object(map);
    schema::validate(&(spec.input_schema)(), &value).map_err(|v| {
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
    Ok(Args::new(map))
}
