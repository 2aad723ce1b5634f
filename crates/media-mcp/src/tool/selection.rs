//! Which tools a deployment publishes: `MEDIA_MCP_TOOLS` (names and globs to keep),
//! `MEDIA_MCP_TOOLS_DENY` (names and globs to drop, applied after the first) and
//! `MEDIA_MCP_READ_ONLY` (drop and refuse every tool not proven read-only).
//!
//! A pattern is a tool name in which `*` matches any run of characters and `?` any one
//! character; tool names use letters, digits, `_`, `-` and `.`, so anything else is a typo.
//! Unreadable settings fail closed: a bad `MEDIA_MCP_TOOLS` entry keeps nothing, a bad
//! `MEDIA_MCP_TOOLS_DENY` entry drops everything, an unreadable `MEDIA_MCP_READ_ONLY` is on.
//! Hosts are expected to refuse such settings at start (the harness does).

use media_mcp_wire::{plugin_settings, variables};

use super::problem::ConfigProblem;
use crate::prelude::*;

/// The variable that hides and refuses writing tools.
pub const READ_ONLY_VAR: &str = variables::READ_ONLY.name;
/// The variable listing the tools to publish.
pub const TOOLS_VAR: &str = variables::TOOLS.name;
/// The variable listing the tools never to publish.
pub const TOOLS_DENY_VAR: &str = variables::TOOLS_DENY.name;

/// The operator's choice of tools.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selection {
    /// Only tools proven read-only are published and callable.
    pub read_only: bool,
    /// When set, only tools matching one of these patterns are published.
    allow: Option<Vec<String>>,
    /// Tools matching one of these patterns are never published.
    deny: Vec<String>,
}

impl Selection {
    /// Reads the selection through `var`; problems (never values of other variables) are added
    /// to `problems`.
    pub fn from_lookup(
        var: &dyn Fn(&str) -> Option<String>,
        problems: &mut Vec<ConfigProblem>,
    ) -> Self {
        let read_only = plugin_settings::read_only(var, problems);
        let allow = plugin_settings::tool_patterns(var, TOOLS_VAR, problems)
            .map(|patterns| patterns.into_iter().flatten().collect());
        let deny = plugin_settings::tool_patterns(var, TOOLS_DENY_VAR, problems)
            .unwrap_or_default()
            .into_iter()
            .map(|p| p.unwrap_or_else(|| "*".to_owned()))
            .collect();
        Self {
            read_only,
            allow,
            deny,
        }
    }

    /// Whether tool `name` is published at all (read-only mode aside).
    pub fn shows(&self, name: &str) -> bool {
        let allowed = self
            .allow
            .as_ref()
            .is_none_or(|a| a.iter().any(|p| glob_matches(p, name)));
        allowed && !self.deny.iter().any(|p| glob_matches(p, name))
    }
}

/// Whether `name` matches `pattern` (`*`: any run of characters, `?`: one character).
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    // Classic linear backtracking over the last `*`.
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ni));
            pi += 1;
        } else if let Some((sp, sn)) = star {
            pi = sp + 1;
            ni = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests;
