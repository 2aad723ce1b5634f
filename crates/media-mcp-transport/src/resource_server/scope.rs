//! What a token's scope allows: with the read scope only the read-only tools
//! (`readOnlyHint: true`) are listed and callable; the write scope allows every tool the
//! plugin lists. The plugin's own selection (`MEDIA_MCP_READ_ONLY`, the tool lists) applies
//! first, so the stricter of the two wins.

use media_mcp_wire::method;
use serde_json::Value;

use crate::mcp::{ToolOutcome, ToolRecord, Tools};
use crate::prelude::*;

/// The tools a token may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The read-only tools.
    Read,
    /// Every tool.
    Write,
}

/// Whether a tool is annotated read-only.
pub fn read_only(tool: &ToolRecord) -> bool {
    serde_json::from_str::<Value>(&tool.annotations)
        .ok()
        .and_then(|a| a.get("readOnlyHint").and_then(Value::as_bool))
        .unwrap_or(false)
}

/// The plugin seen through a token's access.
pub struct Scoped<'a> {
    /// The plugin.
    pub tools: &'a dyn Tools,
    /// What the token allows.
    pub access: Access,
}

impl Scoped<'_> {
    /// The name of a tool `body` calls (`tools/call`) that the plugin has but this access does
    /// not allow; `None` for anything else.
    pub fn forbidden_call(&self, body: &[u8]) -> Option<String> {
        if self.access == Access::Write {
            return None;
        }
        let message: Value = serde_json::from_slice(body).ok()?;
        if message.get("method")?.as_str()? != method::TOOLS_CALL {
            return None;
        }
        let name = message.get("params")?.get("name")?.as_str()?;
        self.tools
            .list()
            .iter()
            .any(|t| t.name == name && !read_only(t))
            .then(|| name.to_owned())
    }
}

impl Tools for Scoped<'_> {
    fn list(&self) -> Vec<ToolRecord> {
        let mut tools = self.tools.list();
        if self.access == Access::Read {
            tools.retain(read_only);
        }
        tools
    }

    fn correlation_id(&self) -> String {
        self.tools.correlation_id()
    }

    fn call(
        &self,
        name: &str,
        arguments: &str,
        correlation_id: &str,
        principal: Option<String>,
    ) -> Result<ToolOutcome, String> {
        if self.access == Access::Read && !self.list().iter().any(|t| t.name == name) {
            return Err(name.to_owned());
        }
        self.tools.call(name, arguments, correlation_id, principal)
    }
}
