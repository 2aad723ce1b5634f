//! `read_logs` → `logs`.
//!
//! `files` lists Ombi's log files whose names pass the vetting pattern (Serilog's daily
//! `log{yyyyMMdd}.txt`); the name is the opaque `file_id`. `read` fetches one file through
//! `GET /api/v2/System/logs/{file}` (JSON string, or text when negotiation gives text) and
//! returns at most 500 sanitized lines. The raw download route (`/logs/download/{file}`,
//! octet-stream) is never called, and a non-text answer is refused rather than passed on.

use super::log_lines::sanitize_line;
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::paging;
use crate::prelude::*;
use crate::schema::pattern::Pattern;
use crate::tool::{Args, Gloss, Prose, View, Views};
use crate::upstream::Effect;
use crate::upstream::{MAX_BODY_BYTES, Method};
use once_cell::race::OnceBox;
use serde_json::{Value, json};

/// The names a log file may have (also the `file_id` pattern of the input schema).
const FILE_PATTERN: &str = r"^log\d{8}(_\d{3})?\.txt$";
/// Most files listed at once (the contract's record budget).
const MAX_FILES: usize = 100;
/// Most lines returned at once (the contract's log budget).
const MAX_LINES: usize = 500;
/// Bytes of line text per result, leaving room for the envelope inside 64 KiB; enforced here so
/// that from-the-end reads lose their oldest lines, not their newest.
const LINE_BYTES_BUDGET: usize = 48 * 1024;

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_logs",
    "Read server logs",
    "List Ombi's log files (newest first) and read lines of one of them, newest lines by default. Values that look like credentials or e-mail addresses are redacted. Needs an administrator.",
    &["logs"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A view of the logs, given its window (offset and limit, in files or lines) and the
/// warnings so far.
type ViewFn = fn(&Ombi<'_>, &Args, Lines, Vec<String>) -> Result<Reply, ToolError>;

/// The tool's own window: files or lines to skip, and at most how many to return.
#[derive(Debug, Clone, Copy)]
struct Lines {
    offset: usize,
    limit: usize,
}

static VIEWS: Views<ViewFn> = Views {
    field: "view",
    default: None,
    prose: Prose::Joined {
        intro: "",
        gloss: Gloss::Space,
        sep: "; ",
        last: "; ",
        end: ".",
    },
    views: &[
        View {
            name: "files",
            description: "lists the log files (newest first)",
            families: &["logs"],
            handler: files,
        },
        View {
            name: "read",
            description: "returns lines of one file",
            families: &["logs"],
            handler: read,
        },
    ],
};

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "view": VIEWS.property(),
            "file_id": {"type": "string", "pattern": FILE_PATTERN, "description": "The file to read, as listed by view=files (for example log20260502.txt)."},
            "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "Files to skip (files), or lines to skip (read; counted from the end of the file when from_end is true)."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 200, "description": "Most lines to return (read; up to 500), or files (files; up to 100)."},
            "from_end": {"type": "boolean", "default": true, "description": "read: count offset from the newest line backwards (true, default) or from the first line (false)."}
        },
        "required": ["view"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"required": ["view"], "properties": {"view": {"const": "read"}}}, "then": {"required": ["file_id"]},
             "else": {"not": {"anyOf": [{"required": ["file_id"]}, {"required": ["from_end"]}]}}}
        ]
    })
}

fn file_pattern() -> &'static Pattern {
    static RE: OnceBox<Pattern> = OnceBox::new();
    RE.get_or_init(|| Box::new(Pattern::new(FILE_PATTERN).expect("valid pattern")))
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    // This tool's own paging (lines, up to MAX_LINES), so not the common window.
    let lines = Lines {
        offset: args.int("offset")?.max(0) as usize,
        limit: args.int("limit")?.clamp(1, MAX_LINES as i64) as usize,
    };
    let warnings = vec![paging::NO_SNAPSHOT_WARNING.to_owned()];
    (VIEWS.select(args)?.handler)(&ombi, args, lines, warnings)
}

fn files(
    ombi: &Ombi<'_>,
    _: &Args,
    Lines { offset, limit }: Lines,
    mut warnings: Vec<String>,
) -> Result<Reply, ToolError> {
    let body = ombi.get::<Value>("/api/v2/System/logs")?;
    let names = super::common::array(body, "log file names")?;
    let mut vetted = Vec::new();
    let mut refused = 0;
    for n in &names {
        match n.as_str() {
            Some(s) if file_pattern().is_match(s) => vetted.push(s.to_owned()),
            Some(_) => refused += 1,
            None => {
                return Err(ToolError::schema_mismatch(
                    "a log file name from Ombi is not a string",
                ));
            }
        }
    }
    if refused > 0 {
        warnings.push(format!(
            "{refused} entries that are not Ombi log file names were left out"
        ));
    }
    let limit = limit.min(MAX_FILES);
    let files: Vec<Value> = vetted
        .iter()
        .skip(offset)
        .take(limit)
        .map(|n| json!({"file_id": n, "name": n}))
        .collect();
    let end = offset + files.len();
    let next = (end < vetted.len()).then_some(end);
    Ok(Reply::ok(json!({"kind": "logs", "files": files, "offset": offset, "next_offset": next, "truncated": false})).warn_all(warnings))
}

fn read(
    ombi: &Ombi<'_>,
    args: &Args,
    Lines { offset, limit }: Lines,
    mut warnings: Vec<String>,
) -> Result<Reply, ToolError> {
    let file = args.str("file_id")?;
    // The schema already checked the pattern; checked again because the name becomes a path.
    if !file_pattern().is_match(file) {
        return Err(ToolError::invalid_argument(
            "file_id",
            "not an Ombi log file name",
        ));
    }
    let text = file_text(ombi, file, &args.segment("file_id")?)?;
    let from_end = args.bool("from_end")?;
    let (lines, next, truncated, redacted) = window(&text, offset, limit, from_end);
    if redacted > 0 {
        warnings.push(format!(
            "{redacted} lines had values that looked like credentials or personal data redacted"
        ));
    }
    if truncated {
        warnings
            .push("lines were shortened or the window was cut to fit the result budget".to_owned());
    }
    if from_end {
        warnings.push(
            "offsets count back from the newest line; lines are returned oldest first".to_owned(),
        );
    }
    Ok(Reply::ok(json!({"kind": "logs", "lines": lines, "offset": offset, "next_offset": next, "truncated": truncated}))
        .warn_all(warnings)
        .truncated(truncated))
}

/// The text of log file `file` (path segment `segment`): a JSON string or plain text, never
/// anything else.
fn file_text(ombi: &Ombi<'_>, file: &str, segment: &str) -> Result<String, ToolError> {
    let resp = ombi
        .exchange(Method::Get, &format!("/api/v2/System/logs/{segment}"), None, Effect::Read)
        .map_err(|e| match e.code {
            // Ombi sends a log file only whole; one beyond the read cap is refused unread.
            ErrorCode::UpstreamSchemaMismatch if e.message.contains("byte cap") => ToolError::new(
                ErrorCode::UnsupportedCapability,
                format!("{file} is larger than the {MAX_BODY_BYTES} bytes the plugin reads, and Ombi only sends whole files"),
            ),
            _ => e,
        })?;
    let ct = resp
        .content_type
        .as_deref()
        .unwrap_or("")
        .to_ascii_lowercase();
    if resp.status == 204 || resp.body.is_empty() {
        Ok(String::new())
    } else if ct.starts_with("application/json") {
        match crate::upstream::recognise::json_body::<Value>(&resp)? {
            Some(Value::String(s)) => Ok(s),
            None | Some(Value::Null) => Ok(String::new()),
            Some(_) => Err(ToolError::schema_mismatch(
                "expected the log file as one JSON string from Ombi",
            )),
        }
    } else if ct.starts_with("text/plain") {
        Ok(String::from_utf8_lossy(&resp.body).into_owned())
    } else {
        // Never raw bytes: octet-stream, HTML and anything else are refused.
        Err(ToolError::schema_mismatch(
            "Ombi answered the log read with something other than text",
        ))
    }
}

/// The sanitized lines of `text` in the window, in file order, with the continuation offset,
/// whether anything was cut, and how many lines had redactions.
fn window(
    text: &str,
    offset: usize,
    limit: usize,
    from_end: bool,
) -> (Vec<String>, Option<usize>, bool, usize) {
    let all: Vec<&str> = text.lines().collect();
    let n = all.len();
    let (mut start, mut end) = if from_end {
        let end = n.saturating_sub(offset);
        (end.saturating_sub(limit), end)
    } else {
        let start = offset.min(n);
        (start, (start + limit).min(n))
    };
    let mut truncated = false;
    let mut redacted = 0;
    let mut bytes = 0;
    let mut picked: Vec<String> = Vec::new();
    // Walk from the side the caller anchored on, so a budget cut drops the far end.
    let order: Vec<usize> = if from_end {
        (start..end).rev().collect()
    } else {
        (start..end).collect()
    };
    for i in order {
        let (line, r, cut) = sanitize_line(all[i]);
        // Serialized size: quotes and backslashes grow when escaped.
        let size = serde_json::to_string(&line).map_or(line.len() * 2, |s| s.len()) + 1;
        if bytes + size > LINE_BYTES_BUDGET {
            truncated = true;
            if from_end {
                start = i + 1
            } else {
                end = i
            }
            break;
        }
        bytes += size;
        redacted += usize::from(r);
        truncated |= cut;
        picked.push(line);
    }
    if from_end {
        picked.reverse();
    }
    let next = if from_end {
        (start > 0).then_some(offset + (end - start))
    } else {
        (end < n).then_some(end)
    };
    (picked, next, truncated, redacted)
}

#[cfg(test)]
mod tests;
