//! Text for people: the tool list (`tools`, `demo`) and one-screen summaries of results
//! (`demo`'s tour). Pure functions over MCP values, no I/O.

use std::fmt::Write as _;

use rmcp::model::{CallToolResult, Tool};
use serde_json::Value;

/// The tool list: name, title, hints, first line of the description.
pub fn tool_list(tools: &[Tool]) -> String {
    let mut out = String::new();
    if tools.is_empty() {
        out.push_str(&format!(
            "  (none: is {} set?)\n",
            media_mcp_wire::variables::OMBI_URL.name
        ));
        return out;
    }
    let width = tools.iter().map(|t| t.name.len()).max().unwrap_or(0);
    for tool in tools {
        let mut hints = Vec::new();
        if let Some(a) = &tool.annotations {
            match a.read_only_hint {
                Some(true) => hints.push("read-only"),
                Some(false) => hints.push(if a.destructive_hint == Some(true) {
                    "writes, destructive"
                } else {
                    "writes"
                }),
                None => {}
            }
        }
        let title = tool.title.as_deref().unwrap_or_default();
        let hints = if hints.is_empty() {
            String::new()
        } else {
            format!(" [{}]", hints.join(", "))
        };
        let _ = writeln!(out, "  {:<width$}  {title}{hints}", tool.name);
        if let Some(line) = tool.description.as_deref().and_then(|d| d.lines().next()) {
            let _ = writeln!(out, "  {:<width$}  {}", "", shorten(line, 100));
        }
    }
    out
}

/// A few lines describing a tool result: outcome, then what the data holds.
pub fn result_summary(result: &CallToolResult) -> String {
    let mut out = String::new();
    let Some(envelope) = result.structured_content.as_ref() else {
        out.push_str("  (no structured content)\n");
        return out;
    };
    if envelope["ok"] == Value::Bool(false) || result.is_error == Some(true) {
        let error = &envelope["error"];
        let _ = writeln!(
            out,
            "  error {}: {}",
            error["code"].as_str().unwrap_or("?"),
            error["message"].as_str().unwrap_or_default()
        );
        return out;
    }
    let data = &envelope["data"];
    let kind = data["kind"].as_str().unwrap_or("data");
    if let Some(items) = data["items"].as_array() {
        let _ = writeln!(out, "  ok: {kind}, {} item(s)", items.len());
        for item in items.iter().take(5) {
            let _ = writeln!(out, "    - {}", item_line(item));
        }
        if items.len() > 5 {
            let _ = writeln!(out, "    ... and {} more", items.len() - 5);
        }
    } else if kind == "mutation" {
        let _ = write!(
            out,
            "  ok: mutation, outcome {}",
            data["outcome"].as_str().unwrap_or("?")
        );
        if let Some(id) = data["request_id"].as_i64() {
            let _ = write!(out, ", request {id}");
        }
        if let Some(message) = data["message"].as_str() {
            let _ = write!(out, ": {}", shorten(message, 100));
        }
        out.push('\n');
    } else {
        let _ = writeln!(out, "  ok: {kind}");
    }
    for warning in envelope["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let _ = writeln!(out, "  warning: {}", shorten(warning, 120));
    }
    if envelope["truncated"] == Value::Bool(true) {
        out.push_str("  (truncated)\n");
    }
    out
}

fn item_line(item: &Value) -> String {
    let title = ["title", "name", "display_name"]
        .iter()
        .find_map(|k| item[*k].as_str())
        .unwrap_or("(untitled)");
    let mut line = title.to_owned();
    if let Some(year) = item["year"].as_i64() {
        let _ = write!(line, " ({year})");
    }
    if let Some(media) = item["media"].as_str() {
        let _ = write!(line, " [{media}]");
    }
    let flags: Vec<&str> = [("available", "available"), ("requested", "requested")]
        .iter()
        .filter(|(k, _)| item[*k] == Value::Bool(true))
        .map(|(_, label)| *label)
        .collect();
    if !flags.is_empty() {
        let _ = write!(line, " - {}", flags.join(", "));
    }
    line
}

fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max_chars.saturating_sub(3)).collect();
    format!("{cut}...")
}

#[cfg(test)]
mod tests;
