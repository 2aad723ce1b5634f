//! Output budgets (contract: "Errors and partial effects"): 64 KiB of serialized structured
//! data, 100 records, 100 nested records per array, 500 log lines. Whatever is cut is said in
//! `warnings` with `truncated: true`.

use crate::prelude::*;
use serde_json::{Value, json};

/// Largest serialized structured result, in bytes.
pub const MAX_STRUCTURED_BYTES: usize = 64 * 1024;
/// Most records in any array of the result (log lines aside).
pub const MAX_ITEMS: usize = 100;
/// Most log lines in one result.
pub const MAX_LOG_LINES: usize = 500;
/// Most warnings in one result.
pub const MAX_WARNINGS: usize = 100;
/// Longest warning, in characters.
const MAX_WARNING_CHARS: usize = 500;

/// Cuts every array in `data` to its contract limit. Returns whether anything was cut.
pub fn cap_arrays(data: &mut Value, warnings: &mut Vec<String>) -> bool {
    let mut cut = false;
    walk_arrays(data, "", &mut |path, items| {
        let limit = if path.ends_with("lines") {
            MAX_LOG_LINES
        } else {
            MAX_ITEMS
        };
        if items.len() > limit {
            warnings.push(format!(
                "{path}: {} of {} entries returned",
                limit,
                items.len()
            ));
            items.truncate(limit);
            cut = true;
        }
    });
    cut
}

fn walk_arrays(node: &mut Value, path: &str, f: &mut dyn FnMut(&str, &mut Vec<Value>)) {
    match node {
        Value::Array(items) => {
            f(path, items);
            for item in items.iter_mut() {
                walk_arrays(item, path, f);
            }
        }
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                let child = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                walk_arrays(value, &child, f);
            }
        }
        _ => {}
    }
}

fn size_of(value: &Value) -> usize {
    serde_json::to_vec(value)
        .map(|v| v.len())
        .unwrap_or(usize::MAX)
}

/// Room kept for the warnings that get added after fitting.
const WARNING_RESERVE: usize = 8 * 1024;

/// Shrinks `envelope["data"]` until the whole envelope fits [`MAX_STRUCTURED_BYTES`]: first
/// drops trailing records (adjusting `page`), then shortens the longest strings.
pub fn fit_bytes(envelope: &mut Value, warnings: &mut Vec<String>) {
    let target = MAX_STRUCTURED_BYTES - WARNING_RESERVE;
    if size_of(envelope) <= target {
        return;
    }
    let before = size_of(envelope);
    for key in ["items", "lines", "values", "files"] {
        let Some(total) = envelope["data"]
            .get(key)
            .and_then(Value::as_array)
            .map(Vec::len)
        else {
            continue;
        };
        let mut dropped = 0;
        loop {
            let size = size_of(envelope);
            let list = envelope["data"][key].as_array_mut().expect("checked above");
            if list.is_empty() || size <= target {
                break;
            }
            // Drop a chunk proportional to the overshoot, at least one.
            let n = size_of_list_overshoot(list.len(), before, target).clamp(1, list.len());
            list.truncate(list.len() - n);
            dropped += n;
        }
        if dropped > 0 {
            let returned = total - dropped;
            warnings.push(format!(
                "result reduced to fit the 64 KiB budget: {returned} of {total} {key} returned"
            ));
            adjust_page(&mut envelope["data"], returned);
            envelope["truncated"] = json!(true);
        }
        if size_of(envelope) <= target {
            return;
        }
    }
    // Still too big: a few records carry very long text. Shorten the longest strings.
    let mut limit = 4096;
    while size_of(envelope) > target && limit >= 16 {
        shorten_strings(&mut envelope["data"], limit);
        limit /= 2;
    }
    warnings.push("long text shortened to fit the 64 KiB budget".to_owned());
    envelope["truncated"] = json!(true);
    if size_of(envelope) > target {
        // Nothing sensible left to cut: keep the envelope valid and say so.
        if let Some(obj) = envelope.as_object_mut() {
            obj.remove("data");
        }
    }
}

fn size_of_list_overshoot(len: usize, size: usize, target: usize) -> usize {
    if len == 0 || size == 0 {
        return 1;
    }
    let per_item = size / len.max(1);
    (size.saturating_sub(target)) / per_item.max(1) / 2
}

fn adjust_page(data: &mut Value, returned: usize) {
    if let Some(page) = data.get_mut("page").and_then(Value::as_object_mut) {
        let offset = page.get("offset").and_then(Value::as_u64).unwrap_or(0);
        page.insert("returned".into(), json!(returned));
        page.insert("has_more".into(), json!(true));
        page.insert("next_offset".into(), json!(offset + returned as u64));
    }
    if data.get("lines").is_some()
        && let Some(offset) = data.get("offset").and_then(Value::as_u64)
    {
        data["next_offset"] = json!(offset + returned as u64);
        data["truncated"] = json!(true);
    }
}

fn shorten_strings(node: &mut Value, limit: usize) {
    match node {
        Value::String(s) if s.chars().count() > limit => {
            let cut: String = s.chars().take(limit).collect();
            *s = format!("{cut}…");
        }
        Value::Array(items) => items.iter_mut().for_each(|v| shorten_strings(v, limit)),
        Value::Object(map) => map.values_mut().for_each(|v| shorten_strings(v, limit)),
        _ => {}
    }
}

/// At most [`MAX_WARNINGS`] warnings, each bounded, duplicates removed.
pub fn bound_warnings(warnings: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in warnings {
        let w: String = w
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_WARNING_CHARS)
            .collect();
        if !out.contains(&w) {
            out.push(w);
        }
    }
    if out.len() > MAX_WARNINGS {
        out.truncate(MAX_WARNINGS - 1);
        out.push("further warnings omitted".to_owned());
    }
    out
}

#[cfg(test)]
mod tests;
