//! The three layers of a MoviePilot answer: HTTP status and JSON-RPC error, then MCP `isError`, then the business JSON in the
//! text block (`success`, `error`/`input_contract`, `execution_outcome`, `collection`,
//! `tool_result_truncated`). Prose is read by [`prose`]: MoviePilot's failure sentences are
//! failures with its message, a notice line before JSON keeps both; other text is a read's
//! result, and for a write it is passed back with a warning that the change is not confirmed,
//! never as a success. Every cut is said: `truncated` and a warning naming what was cut.

use super::prose::{self, Verdict};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::prelude::*;
use crate::upstream::HttpResponse;
use crate::upstream::recognise::status_error;
use media_mcp_wire::code;
use media_mcp_wire::variables::{MOVIEPILOT_API_KEY, MOVIEPILOT_URL};
use serde_json::{Map, Value, json};

/// Longest plain text passed back, in characters.
const MAX_TEXT_CHARS: usize = 16 * 1024;
/// Longest business `message`, in characters.
const MAX_MESSAGE_CHARS: usize = 2000;
/// Longest piece of upstream text quoted inside one of the plugin's own error sentences, so the
/// sentence's own advice (for example "check with a read before retrying") survives the
/// 300-character cap of error messages.
const MAX_QUOTED_CHARS: usize = 160;

/// Upstream text made fit to quote in the middle of an error sentence: sanitized to one line
/// (a traceback after its first line would otherwise end the whole message there, cutting the
/// plugin's advice after the quote) and bounded.
fn quoted(text: &str) -> String {
    let one_line = crate::contract::error::sanitize(text);
    if one_line.chars().count() > MAX_QUOTED_CHARS {
        format!(
            "{}…",
            one_line.chars().take(MAX_QUOTED_CHARS).collect::<String>()
        )
    } else {
        one_line
    }
}

/// An error whose message is the plugin's own text (setting names like
/// `MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS` would otherwise be redacted as key-like words).
pub fn own_error(code: ErrorCode, message: &str) -> ToolError {
    ToolError {
        message: message.chars().filter(|c| !c.is_control()).collect(),
        ..ToolError::new(code, "")
    }
}

/// How to reconcile a write whose effect is not known.
pub const RECONCILE: &str =
    "check MoviePilot's current state with a read (for example a query or list operation)";

/// The warning for a write that may or may not have taken effect.
fn reconcile_warning() -> String {
    format!("the call may or may not have taken effect: {RECONCILE} before retrying")
}

/// The error for a failure status without a JSON-RPC error body.
pub fn http_error(resp: &HttpResponse, mutation: bool) -> ToolError {
    let status = resp.status;
    let err = match status {
        401 => own_error(
            ErrorCode::AuthenticationFailed,
            &format!(
                "MoviePilot refused the API key: check the X-API-KEY the host injects ({}) and that MoviePilot has a valid superuser",
                MOVIEPILOT_API_KEY.name
            ),
        ),
        // Authentication and other runtime services may not be initialised yet; nothing ran.
        503 => ToolError::new(
            ErrorCode::UpstreamRejected,
            "MoviePilot is not ready yet (HTTP 503); try again shortly",
        )
        .retryable(true)
        .with_retry_after(resp.retry_after_seconds),
        404 | 405 => ToolError::new(
            ErrorCode::UnsupportedCapability,
            format!(
                "configuration error: {} does not answer as an MCP endpoint; it must be the endpoint itself, for example https://host/api/v1/mcp",
                MOVIEPILOT_URL.name
            ),
        ),
        _ => match status_error(resp, mutation) {
            Some(e) => return e,
            None => ToolError::new(
                ErrorCode::UpstreamSchemaMismatch,
                format!("unexpected answer from MoviePilot (HTTP {status})"),
            ),
        },
    };
    err.with_status(status)
}

/// The error for a JSON-RPC `error` object received with HTTP `status`.
pub fn rpc_error(
    code: i64,
    message: &str,
    data: Option<&Value>,
    status: u16,
    mutation: bool,
) -> ToolError {
    let detail = quoted(&match data {
        Some(Value::String(s)) if !s.is_empty() => format!("{message}: {s}"),
        _ => message.to_owned(),
    });
    let err = match code {
        code::INVALID_PARAMS => ToolError::new(
            ErrorCode::InvalidArgument,
            format!("MoviePilot rejected the parameters: {detail}"),
        ),
        // Our own request was malformed: a plugin fault, not the caller's.
        code::PARSE_ERROR | code::INVALID_REQUEST => ToolError::internal(format!(
            "MoviePilot could not read the plugin's request (JSON-RPC {code}): {message}"
        )),
        code::METHOD_NOT_FOUND => ToolError::new(
            ErrorCode::UnsupportedCapability,
            format!("MoviePilot does not implement this MCP method: {message}"),
        ),
        code::INTERNAL_ERROR if mutation => ToolError::unknown_outcome(format!(
            "MoviePilot failed while handling the call: {detail}"
        )),
        code::INTERNAL_ERROR => ToolError::new(
            ErrorCode::UpstreamRejected,
            format!("MoviePilot reported an internal error: {detail}"),
        ),
        _ if status == 401 => {
            return http_error(
                &HttpResponse {
                    status,
                    ..Default::default()
                },
                mutation,
            );
        }
        _ => ToolError::new(
            ErrorCode::UpstreamRejected,
            format!("MoviePilot answered with JSON-RPC error {code}: {detail}"),
        ),
    };
    if (100..=599).contains(&status) && status != 200 {
        err.with_status(status)
    } else {
        err
    }
}

fn bounded(text: &str, max: usize) -> String {
    let clean: String = text
        .chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .collect();
    if clean.chars().count() > max {
        format!("{}…", clean.chars().take(max).collect::<String>())
    } else {
        clean
    }
}

/// Only the documented counters, only when they are non-negative integers (absent stays absent).
fn collection(v: &Value) -> Option<Value> {
    let obj = v.as_object()?;
    let kept: Map<String, Value> = ["result_count", "total_count", "page", "count"]
        .iter()
        .filter_map(|k| {
            obj.get(*k)
                .filter(|n| n.as_u64().is_some())
                .map(|n| ((*k).to_owned(), n.clone()))
        })
        .collect();
    (!kept.is_empty()).then_some(Value::Object(kept))
}

const KNOWN_KEYS: [&str; 9] = [
    "success",
    "message",
    "error",
    "input_contract",
    "execution_outcome",
    "collection",
    "tool_result_truncated",
    "content_preview",
    "data",
];

/// The `moviepilot_result` projection of a business JSON object.
fn project(tool: &str, business: &Map<String, Value>) -> Value {
    let mut out = Map::new();
    out.insert("kind".into(), json!("moviepilot_result"));
    out.insert("tool".into(), json!(tool));
    if let Some(b) = business.get("success").and_then(Value::as_bool) {
        out.insert("success".into(), json!(b));
    }
    if let Some(m) = business
        .get("message")
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty())
    {
        out.insert("message".into(), json!(bounded(m, MAX_MESSAGE_CHARS)));
    }
    if let Some(kind) = error_kind(business) {
        out.insert("error".into(), json!(bounded(&kind, 200)));
    }
    if let Some(c) = input_contract(business) {
        out.insert("input_contract".into(), c.clone());
    }
    if let Some(o) = business.get("execution_outcome").and_then(Value::as_str) {
        out.insert("execution_outcome".into(), json!(bounded(o, 100)));
    }
    if let Some(c) = business.get("collection").and_then(collection) {
        out.insert("collection".into(), c);
    }
    if let Some(p) = business.get("content_preview").and_then(Value::as_str) {
        out.insert("content_preview".into(), json!(bounded(p, MAX_TEXT_CHARS)));
    }
    match business.get("data") {
        Some(d) if !d.is_null() => {
            out.insert("data".into(), d.clone());
        }
        Some(_) => {}
        None => {
            // A tool without the usual wrapper: pass its other fields on as the data.
            let rest: Map<String, Value> = business
                .iter()
                .filter(|(k, _)| !KNOWN_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if !rest.is_empty() {
                out.insert("data".into(), Value::Object(rest));
            }
        }
    }
    Value::Object(out)
}

/// `error` as a string, or the `code`/`type` of an `error` object.
fn error_kind(business: &Map<String, Value>) -> Option<String> {
    match business.get("error")? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Object(o) => ["code", "type", "kind", "error"]
            .iter()
            .find_map(|k| o.get(*k)?.as_str().map(str::to_owned)),
        _ => None,
    }
}

fn input_contract(business: &Map<String, Value>) -> Option<&Value> {
    business
        .get("input_contract")
        .or_else(|| business.get("error")?.get("input_contract"))
        .filter(|v| !v.is_null())
}

/// Whether the business object of a `tools/call` result of `tool` says MoviePilot ran nothing
/// because its catalogue is not the one the call was checked against: it refused the
/// arguments against its current contract (`invalid_input` or `unknown_operation`, with an
/// `input_contract`), or it does not know the tool.
fn refused_as_changed(tool: &str, business: &Map<String, Value>) -> bool {
    let kind = error_kind(business);
    matches!(kind.as_deref(), Some("invalid_input" | "unknown_operation"))
        && input_contract(business).is_some()
        || kind.is_some_and(|k| names_unknown_tool(tool, &k))
}

/// Turns a `tools/call` result into the reply for `tool` (`mutation`: the call may change
/// state), and says whether the result shows MoviePilot ran nothing because its catalogue
/// is not the one the call was checked against (it refused the arguments against its current
/// contract, or it does not know the tool).
pub fn interpret(tool: &str, result: &Value, mutation: bool) -> (Reply, bool) {
    let Some(content) = result.get("content").and_then(Value::as_array) else {
        let e = ToolError::schema_mismatch("MoviePilot's tool result has no content");
        // Nothing says the catalogue changed: no text names a refusal or an unknown tool.
        return (
            Reply::failure(if mutation {
                ToolError::unknown_outcome(&e.message)
            } else {
                e
            }),
            false,
        );
    };
    let texts: Vec<&str> = content
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    let skipped = content.len() - texts.len();
    let text = texts.join("\n");
    let is_error = result
        .get("isError")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let (reply, changed) = match serde_json::from_str::<Value>(text.trim()) {
        Ok(Value::Object(business)) => (
            business_reply(tool, &business, is_error, mutation),
            refused_as_changed(tool, &business),
        ),
        _ if is_error => {
            let e = tool_error_text(tool, &text);
            let changed = e.code == ErrorCode::NotFound;
            let reply = Reply::failure(e);
            let reply = if mutation {
                reply.warn(reconcile_warning())
            } else {
                reply
            };
            (reply, changed)
        }
        Ok(Value::Array(items)) => (
            unconfirmed(
                json!({"kind": "moviepilot_result", "tool": tool, "data": items}),
                mutation,
            ),
            false,
        ),
        _ => (prose_reply(tool, &text, mutation), false),
    };
    let reply = if skipped > 0 {
        reply.warn(format!(
            "{skipped} non-text content block(s) from MoviePilot were left out"
        ))
    } else {
        reply
    };
    (reply, changed)
}

/// A prose answer: a notice line before JSON, a failure sentence, or text that claims nothing.
fn prose_reply(tool: &str, text: &str, mutation: bool) -> Reply {
    if let Some((notice, json)) = prose::notice_and_json(text) {
        let notice = bounded(&notice, MAX_MESSAGE_CHARS);
        let mut reply = match json {
            Value::Object(business) => {
                let mut r = business_reply(tool, &business, false, mutation);
                if let Some(d) = r.data.as_mut() {
                    d["text"] = json!(notice);
                }
                r
            }
            other => unconfirmed(
                json!({"kind": "moviepilot_result", "tool": tool, "text": notice, "data": other}),
                mutation,
            ),
        };
        if prose::says_cut(&notice) {
            reply = reply.truncated(true).warn(format!(
                "MoviePilot returned only part of the results (its notice: {}); narrow the query with the tool's filters for the rest",
                quoted(&notice)
            ));
        }
        return reply;
    }
    let total = text.chars().count();
    let shown = bounded(text, MAX_TEXT_CHARS);
    let data = json!({"kind": "moviepilot_result", "tool": tool, "text": shown});
    match prose::verdict(text) {
        Verdict::Failed(code) => {
            let message = format!("MoviePilot reported a failure: {}", quoted(text));
            let err = match code {
                ErrorCode::InvalidArgument => ToolError::invalid_argument("arguments", message),
                _ => ToolError::new(code, message),
            };
            Reply {
                data: Some(data),
                ..Reply::failure(err)
            }
        }
        Verdict::Neutral if total > MAX_TEXT_CHARS => unconfirmed(data, mutation)
            .truncated(true)
            .warn(format!(
                "MoviePilot's text was cut to its first {MAX_TEXT_CHARS} of {total} characters (data.text ends with …); narrow the query for the rest"
            )),
        Verdict::Neutral => unconfirmed(data, mutation),
    }
}

/// Whether MoviePilot's error text says it has no tool `tool` (`工具 'x' 未找到`).
fn names_unknown_tool(tool: &str, message: &str) -> bool {
    message.contains(&format!("工具 '{tool}' 未找到"))
}

/// `isError` with prose, for example `错误: 工具 'x' 未找到`.
fn tool_error_text(tool: &str, text: &str) -> ToolError {
    let msg = text.trim().trim_start_matches("错误:").trim();
    if msg.contains("未找到")
        || msg.to_ascii_lowercase().contains("not found") && msg.contains(tool)
    {
        return ToolError::new(
            ErrorCode::NotFound,
            format!("MoviePilot no longer offers the tool `{tool}`; list the tools again"),
        );
    }
    ToolError::new(
        ErrorCode::UpstreamRejected,
        format!("MoviePilot reported a tool failure: {}", bounded(msg, 300)),
    )
}

/// A result without business status (text, or a JSON array): a read's answer as it is; for a
/// write, passed back with a warning, neither a failure nor a confirmed success.
fn unconfirmed(data: Value, mutation: bool) -> Reply {
    let reply = Reply::ok(data);
    if mutation {
        reply.warn(format!(
            "MoviePilot's answer states no success or failure, so the change is not confirmed: {RECONCILE} before retrying"
        ))
    } else {
        reply
    }
}

fn business_reply(
    tool: &str,
    business: &Map<String, Value>,
    is_error: bool,
    mutation: bool,
) -> Reply {
    let data = project(tool, business);
    let kind = error_kind(business);
    let failed = is_error || business.get("success") == Some(&json!(false)) || kind.is_some();
    let message = data
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let outcome = business.get("execution_outcome").and_then(Value::as_str);
    let mut reply = if outcome == Some("unknown") {
        // MoviePilot could not tell whether the effect happened, whatever its flags say.
        Reply {
            data: Some(data),
            ..Reply::failure(ToolError::unknown_outcome(
                "MoviePilot reports execution_outcome unknown",
            ))
        }
    } else if failed {
        let what = quoted(&if message.is_empty() {
            kind.clone().unwrap_or_else(|| "no reason given".into())
        } else {
            message.clone()
        });
        let err = match kind.as_deref() {
            Some("invalid_input") => {
                let e = ToolError::new(
                    ErrorCode::InvalidArgument,
                    format!("MoviePilot rejected the arguments: {what}; see data.input_contract"),
                );
                ToolError {
                    field: Some("arguments".into()),
                    ..e
                }
            }
            Some("unknown_operation") => ToolError::invalid_argument(
                "operation_id",
                format!("MoviePilot does not know this operation: {what}"),
            ),
            Some("permission_denied") => ToolError::new(
                ErrorCode::Forbidden,
                format!("MoviePilot refused the operation: {what}"),
            ),
            Some(k) if names_unknown_tool(tool, k) => ToolError::new(
                ErrorCode::NotFound,
                format!("MoviePilot no longer offers the tool `{tool}`; list the tools again"),
            ),
            // An exception inside the tool (`调用工具 'x' 时发生错误: …`): a write may have begun.
            Some(k) if mutation && k.starts_with("调用工具") => ToolError::unknown_outcome(
                format!("MoviePilot failed while running the tool: {what}"),
            ),
            _ => ToolError::new(
                ErrorCode::UpstreamRejected,
                format!("MoviePilot reported a failure: {what}"),
            ),
        };
        Reply {
            data: Some(data),
            ..Reply::failure(err)
        }
    } else {
        match outcome {
            Some("pending") => Reply::ok(data)
                .warn("MoviePilot accepted the request but has not confirmed its effect (execution_outcome pending); check with a read later"),
            _ => {
                let r = Reply::ok(data);
                if business.get("success").is_none() {
                    r.warn("MoviePilot's result does not state success; judge it from data")
                } else {
                    r
                }
            }
        }
    };
    if business.get("tool_result_truncated") == Some(&json!(true)) {
        reply = reply
            .truncated(true)
            .warn("MoviePilot cut this result (tool_result_truncated); content_preview is only a preview: narrow the query or page it, and never repeat a write because of it");
    }
    reply
}
