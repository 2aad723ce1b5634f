//! The plugin's own guest variables read by their grammar. Each reader returns the value the
//! plugin uses (a bad value's safe reading) and adds a [`Problem`] naming the variable; the
//! plugin reads its configuration with them, and [`problems`] runs them all for a host that
//! refuses such values at start, so both sides judge a value by the same code.
//!
//! A lookup gives a variable's value as set; surrounding spaces are ignored and an empty value
//! counts as unset.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::settings::{
    CALL_DEADLINE, DEADLINE_MAX_MS, DEADLINE_MIN_MS, MOVIEPILOT_TOOL_DEADLINES, switch,
};
use crate::variables::{
    MOVIEPILOT_ALLOW_DB_WRITES, MOVIEPILOT_ALLOW_SECRETS, MOVIEPILOT_DEADLINES,
    MOVIEPILOT_SCHEMA_MODE, READ_ONLY, TOOLS, TOOLS_DENY,
};

/// A variable's value as set (the environment in the plugin, the checked settings in a host).
pub type Lookup<'a> = &'a dyn Fn(&str) -> Option<String>;

/// One variable the plugin cannot use as given (its value is never part of the message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The variable at fault.
    pub variable: &'static str,
    /// What is wrong, said after the variable's name.
    pub message: String,
    /// How the plugin reads the variable instead ("treated as off"), when it does.
    pub reading: Option<&'static str>,
}

impl Problem {
    /// `variable` could not be used: `message`.
    pub fn new(variable: &'static str, message: impl Into<String>) -> Self {
        Self {
            variable,
            message: message.into(),
            reading: None,
        }
    }

    fn read_as(mut self, reading: &'static str) -> Self {
        self.reading = Some(reading);
        self
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.variable, self.message)?;
        match self.reading {
            Some(reading) => write!(f, "; {reading}"),
            None => Ok(()),
        }
    }
}

/// How bridged MoviePilot tools' input schemas are published.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SchemaMode {
    /// MoviePilot's compact projection of large schemas (top-level object, required fields and
    /// the operation/action enum), plus a read tool that returns one operation's full contract.
    #[default]
    Compact,
    /// Every schema complete, as MoviePilot's full mode gives it.
    Full,
}

impl SchemaMode {
    /// The setting's word, which is also the value of MoviePilot's `X-MCP-Schema-Mode` header.
    pub fn header_value(self) -> &'static str {
        match self {
            SchemaMode::Compact => "compact",
            SchemaMode::Full => "full",
        }
    }
}

const SWITCH_WORDS: &str = "must be 1/true/yes/on or 0/false/no/off";

fn text(var: Lookup, name: &str) -> Option<String> {
    var(name)
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

/// An entry of a list as a message may show it: no control characters, at most 60 of them.
fn shown(entry: &str) -> String {
    entry.chars().filter(|c| !c.is_control()).take(60).collect()
}

fn switch_or(
    var: Lookup,
    name: &'static str,
    unreadable: bool,
    problems: &mut Vec<Problem>,
) -> bool {
    match text(var, name).map(|v| switch(&v)) {
        None => false,
        Some(Some(on)) => on,
        Some(None) => {
            let reading = if unreadable {
                "treated as on"
            } else {
                "treated as off"
            };
            problems.push(Problem::new(name, SWITCH_WORDS).read_as(reading));
            unreadable
        }
    }
}

/// `MEDIA_MCP_READ_ONLY`; an unreadable value is on (the safe reading of a typo).
pub fn read_only(var: Lookup, problems: &mut Vec<Problem>) -> bool {
    switch_or(var, READ_ONLY.name, true, problems)
}

/// A MoviePilot policy switch (`MEDIA_MCP_MOVIEPILOT_ALLOW_*`); an unreadable value is off.
pub fn moviepilot_switch(var: Lookup, name: &'static str, problems: &mut Vec<Problem>) -> bool {
    switch_or(var, name, false, problems)
}

/// Checks one tool pattern.
///
/// # Errors
///
/// Why the pattern can never name a tool.
pub fn check_pattern(pattern: &str) -> Result<(), &'static str> {
    if pattern
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_-.*?".contains(c))
    {
        Ok(())
    } else {
        Err("must be a tool name or a glob (letters, digits, _ - . and the wildcards * ?)")
    }
}

/// The entries of `MEDIA_MCP_TOOLS` or `MEDIA_MCP_TOOLS_DENY` (`name`), `None` when unset; an
/// entry that is not a valid pattern is `None` (what that means is the caller's choice).
pub fn tool_patterns(
    var: Lookup,
    name: &'static str,
    problems: &mut Vec<Problem>,
) -> Option<Vec<Option<String>>> {
    let raw = text(var, name)?;
    Some(
        raw.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|p| match check_pattern(p) {
                Ok(()) => Some(p.to_owned()),
                Err(why) => {
                    problems.push(Problem::new(name, format!("entry `{}` {why}", shown(p))));
                    None
                }
            })
            .collect(),
    )
}

/// `MEDIA_MCP_CALL_DEADLINE_MS`; an unreadable value is the default.
pub fn call_deadline_ms(var: Lookup, problems: &mut Vec<Problem>) -> u64 {
    match text(var, CALL_DEADLINE.name) {
        None => CALL_DEADLINE.default,
        Some(v) => CALL_DEADLINE.parse(&v).unwrap_or_else(|| {
            problems.push(Problem::new(
                CALL_DEADLINE.name,
                format!("must be {}..={}", CALL_DEADLINE.min, CALL_DEADLINE.max),
            ));
            CALL_DEADLINE.default
        }),
    }
}

/// A comma list (`MEDIA_MCP_MOVIEPILOT_API_ALLOW`, `_DENY`), `None` when unset; any entry goes.
pub fn list(var: Lookup, name: &str) -> Option<Vec<String>> {
    text(var, name).map(|v| {
        v.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    })
}

/// The MoviePilot deadlines, built-ins first and then `MEDIA_MCP_MOVIEPILOT_DEADLINES`' entries
/// (a later entry for the same name wins); a bad entry is skipped.
pub fn moviepilot_deadlines(var: Lookup, problems: &mut Vec<Problem>) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = MOVIEPILOT_TOOL_DEADLINES
        .defaults
        .iter()
        .map(|(name, ms)| ((*name).to_owned(), *ms))
        .collect();
    let Some(raw) = text(var, MOVIEPILOT_DEADLINES.name) else {
        return out;
    };
    for entry in MOVIEPILOT_TOOL_DEADLINES.entries(&raw) {
        match entry {
            Ok((name, ms)) => out.push((name.to_owned(), ms)),
            Err(entry) => problems.push(Problem::new(
                MOVIEPILOT_DEADLINES.name,
                format!(
                    "entry `{}` must be name=milliseconds ({DEADLINE_MIN_MS}..={DEADLINE_MAX_MS})",
                    shown(entry)
                ),
            )),
        }
    }
    out
}

/// `MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE` (any case); an unreadable value is compact.
pub fn schema_mode(var: Lookup, problems: &mut Vec<Problem>) -> SchemaMode {
    match text(var, MOVIEPILOT_SCHEMA_MODE.name)
        .map(|v| v.to_ascii_lowercase())
        .as_deref()
    {
        None | Some("compact") => SchemaMode::Compact,
        Some("full") => SchemaMode::Full,
        Some(_) => {
            problems.push(
                Problem::new(MOVIEPILOT_SCHEMA_MODE.name, "must be compact or full")
                    .read_as("compact is used"),
            );
            SchemaMode::Compact
        }
    }
}

/// Every problem the plugin finds in its own variables (the upstreams' URLs, keys and user
/// aside), in the order it reads them; MoviePilot's are checked whether or not MoviePilot is
/// configured.
pub fn problems(var: Lookup) -> Vec<Problem> {
    let mut problems = Vec::new();
    call_deadline_ms(var, &mut problems);
    moviepilot_switch(var, MOVIEPILOT_ALLOW_DB_WRITES.name, &mut problems);
    moviepilot_switch(var, MOVIEPILOT_ALLOW_SECRETS.name, &mut problems);
    schema_mode(var, &mut problems);
    moviepilot_deadlines(var, &mut problems);
    read_only(var, &mut problems);
    tool_patterns(var, TOOLS.name, &mut problems);
    tool_patterns(var, TOOLS_DENY.name, &mut problems);
    problems
}

#[cfg(test)]
mod tests;
