//! The contract's error object: 13 codes, honest `retryable`, sanitized messages.
//!
//! Every message that may carry upstream text goes through [`sanitize`], so stack traces, HTML,
//! connection strings, credential-looking values and control characters never reach a caller.

use crate::prelude::*;
use serde_json::{Map, Value, json};

pub use media_mcp_wire::error_code::ErrorCode;

/// A tool failure as the contract's `error` object.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    /// What went wrong.
    pub code: ErrorCode,
    /// Sanitized, human-readable explanation.
    pub message: String,
    /// Whether repeating the same call is safe and may succeed.
    pub retryable: bool,
    /// Upstream HTTP status, when one was received.
    pub http_status: Option<u16>,
    /// The argument at fault, for `INVALID_ARGUMENT`.
    pub field: Option<String>,
    /// Seconds to wait, when upstream sent `Retry-After`.
    pub retry_after_seconds: Option<u64>,
}

impl ToolError {
    /// A non-retryable error with a sanitized message.
    pub fn new(code: ErrorCode, message: impl AsRef<str>) -> Self {
        Self {
            code,
            message: sanitize(message.as_ref()),
            retryable: false,
            http_status: None,
            field: None,
            retry_after_seconds: None,
        }
    }

    /// `INVALID_ARGUMENT` naming `field`.
    pub fn invalid_argument(field: impl Into<String>, message: impl AsRef<str>) -> Self {
        Self {
            field: Some(field.into()),
            ..Self::new(ErrorCode::InvalidArgument, message)
        }
    }

    /// `UPSTREAM_SCHEMA_MISMATCH`: upstream answered with an unexpected shape.
    pub fn schema_mismatch(message: impl AsRef<str>) -> Self {
        Self::new(ErrorCode::UpstreamSchemaMismatch, message)
    }

    /// `INTERNAL_ERROR`.
    pub fn internal(message: impl AsRef<str>) -> Self {
        Self::new(ErrorCode::InternalError, message)
    }

    /// `UNKNOWN_OUTCOME`: a change was sent and then `what` happened, so whether it took effect
    /// is unknown. `what` is sanitized to one line and bounded so that the advice closing the
    /// message always survives the message cap.
    pub fn unknown_outcome(what: impl AsRef<str>) -> Self {
        const ADVICE: &str = "; the effect is unknown, check with a read before retrying";
        let room = MAX_MESSAGE_CHARS - ADVICE.len() - 1;
        let what = sanitize(what.as_ref());
        let what = if what.chars().count() > room {
            let cut: String = what.chars().take(room).collect();
            format!("{}…", cut.trim_end())
        } else {
            what
        };
        Self {
            message: format!("{what}{ADVICE}"),
            ..Self::new(ErrorCode::UnknownOutcome, "")
        }
    }

    /// Marks the error as safe to retry.
    pub fn retryable(mut self, retryable: bool) -> Self {
        self.retryable = retryable;
        self
    }

    /// Records the upstream HTTP status.
    pub fn with_status(mut self, status: u16) -> Self {
        self.http_status = (100..=599).contains(&status).then_some(status);
        self
    }

    /// Records `Retry-After`.
    pub fn with_retry_after(mut self, seconds: Option<u64>) -> Self {
        self.retry_after_seconds = seconds;
        self
    }

    /// The contract's `error` object.
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("code".into(), json!(self.code.as_str()));
        o.insert("message".into(), json!(self.message));
        o.insert("retryable".into(), json!(self.retryable));
        if let Some(s) = self.http_status {
            o.insert("http_status".into(), json!(s));
        }
        if let Some(f) = &self.field {
            o.insert("field".into(), json!(f));
        }
        if let Some(s) = self.retry_after_seconds {
            o.insert("retry_after_seconds".into(), json!(s));
        }
        Value::Object(o)
    }
}

/// Longest message we pass on, in characters.
pub const MAX_MESSAGE_CHARS: usize = 300;

/// Makes upstream text safe to show: first line of real text only, no HTML, no stack trace or
/// internal type name (on a line of its own or inline), no connection string or
/// credential-looking value, no control characters, bounded length.
pub fn sanitize(text: &str) -> String {
    let without_tags = strip_tags(text);
    let mut kept: Vec<&str> = Vec::new();
    for line in without_tags.lines() {
        let (before, trace_starts) = before_trace(line);
        let t = before.trim();
        if !t.is_empty() {
            kept.push(t);
        }
        if trace_starts || kept.len() == 2 {
            break;
        }
    }
    let joined = redact_connection_strings(&kept.join(" "));
    let redacted: String = joined
        .split(' ')
        .filter(|w| !is_internal_type_name(w))
        .map(redact_word)
        .collect::<Vec<_>>()
        .join(" ");
    let cleaned: String = redacted
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_MESSAGE_CHARS)
        .collect();
    if cleaned.chars().count() == MAX_MESSAGE_CHARS {
        format!("{}…", cleaned.trim_end())
    } else {
        cleaned.trim().to_owned()
    }
}

/// The part of `line` before a stack trace starts in it, and whether one does: a .NET frame
/// (`at Namespace.Type.Method(`), an inner-exception marker (`--->`, a line starting `---`), a
/// Python traceback or frame (`Traceback`, `File "`), wherever they stand in the line.
fn before_trace(line: &str) -> (&str, bool) {
    if line.trim_start().starts_with("---") {
        return ("", true);
    }
    let mut cut = ["--->", "Traceback", "File \""]
        .iter()
        .filter_map(|m| line.find(m))
        .min();
    let mut from = 0;
    while let Some(i) = line[from..].find("at ").map(|i| i + from) {
        let starts_word = i == 0 || line[..i].ends_with(char::is_whitespace);
        let next = line[i + 3..].split_whitespace().next().unwrap_or("");
        if starts_word && next.contains('.') && next.contains('(') {
            cut = Some(cut.map_or(i, |c| c.min(i)));
            break;
        }
        from = i + 3;
    }
    match cut {
        Some(i) => (&line[..i], true),
        None => (line, false),
    }
}

/// A namespace-qualified type or member name (`System.NullReferenceException:`,
/// `app.chain.download.DownloadChain`): identifier segments, either all capitalised or three
/// or more with one capitalised. Host names (lower case), file names (`Startup.cs`) and
/// versions (numeric segments) are not.
fn is_internal_type_name(word: &str) -> bool {
    let core = word.trim_matches(|c: char| ":,;()'\"".contains(c));
    let segments: Vec<&str> = core.split('.').collect();
    let capitalised = |s: &&str| s.starts_with(|c: char| c.is_ascii_uppercase());
    segments.len() >= 2
        && segments.iter().all(|s| {
            s.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_+`".contains(c))
        })
        && (segments.iter().all(capitalised)
            || segments.len() >= 3 && segments.iter().any(capitalised))
}

/// Keys of ADO.NET, Npgsql, MySQL and SQLite connection strings.
const CONNECTION_KEYS: [&str; 22] = [
    "server",
    "host",
    "data source",
    "datasource",
    "database",
    "initial catalog",
    "user id",
    "userid",
    "uid",
    "user",
    "username",
    "user name",
    "password",
    "pwd",
    "port",
    "address",
    "addr",
    "network address",
    "integrated security",
    "trusted_connection",
    "sslmode",
    "ssl mode",
];

/// Replaces every `key=value` fragment of a connection string (a known key, any order, spaces
/// around `=` allowed) by `[redacted]`, up to the next `;` or the end of the text.
fn redact_connection_strings(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(eq) = rest.find('=') {
        let head = &rest[..eq];
        let key_start = head
            .rfind(|c: char| ";,(:\"'".contains(c))
            .map_or(0, |i| i + 1);
        let key = head[key_start..].trim().to_ascii_lowercase();
        let matched = CONNECTION_KEYS.iter().find(|k| {
            key == **k
                || key
                    .strip_suffix(**k)
                    .is_some_and(|p| p.ends_with(char::is_whitespace))
        });
        match matched {
            Some(k) => {
                // Keep the text before the key itself.
                let key_at = head.len() - head.trim_end().len();
                let key_begin = eq - key_at - k.len();
                out.push_str(&rest[..key_begin]);
                out.push_str("[redacted]");
                rest = match rest[eq..].find(';') {
                    Some(semi) => &rest[eq + semi..],
                    None => "",
                };
            }
            None => {
                out.push_str(&rest[..=eq]);
                rest = &rest[eq + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Replaces a word that looks like a secret, a connection-string pair or a URL with credentials.
fn redact_word(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    const SECRET_KEYS: [&str; 10] = [
        "password=",
        "pwd=",
        "apikey",
        "api_key",
        "token",
        "secret",
        "user id=",
        "uid=",
        "server=",
        "data source=",
    ];
    if SECRET_KEYS.iter().any(|k| lower.contains(k)) {
        return "[redacted]".to_owned();
    }
    if let Some(rest) = lower.split("://").nth(1)
        && rest
            .split('/')
            .next()
            .is_some_and(|auth| auth.contains('@'))
    {
        return "[redacted-url]".to_owned();
    }
    // Long opaque hex/base64 runs look like keys or tokens.
    let alnum = word.chars().filter(|c| c.is_ascii_alphanumeric()).count();
    if alnum >= 32
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=+/".contains(c))
    {
        return "[redacted]".to_owned();
    }
    word.to_owned()
}

fn strip_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests;
