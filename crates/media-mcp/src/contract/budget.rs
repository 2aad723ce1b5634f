//! Output budgets (contract: "Errors and partial effects"): 64 KiB of serialized structured
//! data (warnings included), 100 records, 100 nested records per array, 500 log lines. Whatever
//! is cut is said in `warnings` with `truncated: true`.

use super::error::ToolError;
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

/// The length of `value` as compact JSON, counted while formatting: fitting measures the
/// envelope after each step, and a copy of a multi-megabyte result per step would cost memory
/// the call does not have.
fn size_of(value: &Value) -> usize {
    struct Count(usize);
    impl core::fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut count = Count(0);
    match core::fmt::write(&mut count, format_args!("{value}")) {
        Ok(()) => count.0,
        Err(_) => usize::MAX,
    }
}

/// Room kept for the few warnings fitting itself adds.
const FIT_WARNING_RESERVE: usize = 1024;
/// Most bytes of all warnings together, so warnings can never crowd out the data.
const MAX_WARNING_BYTES: usize = 16 * 1024;
/// Free text is never shortened below this many characters.
const MIN_FREE_TEXT_CHARS: usize = 64;
/// Ends a MoviePilot payload that was cut as a whole.
pub const CUT_MARKER: &str = "…[cut to fit the 64 KiB budget]";

/// Makes the whole envelope, warnings included, fit [`MAX_STRUCTURED_BYTES`] and sets its
/// `warnings`. In order: trailing records of the top-level list are dropped, keeping one
/// (adjusting `page` so the caller can continue), a MoviePilot payload loses trailing records and is then cut as a
/// whole with [`CUT_MARKER`], long free text is shortened (marked `…`). Identifiers, enum
/// values, `kind`, dates, URLs and numbers are never shortened: when only they are left, the
/// result becomes a clear `INTERNAL_ERROR` instead of an envelope without its data.
pub fn fit(envelope: &mut Value, warnings: Vec<String>) {
    let mut warnings = bound_warnings(warnings, MAX_WARNING_BYTES - FIT_WARNING_RESERVE);
    envelope["warnings"] = json!(warnings);
    let target = MAX_STRUCTURED_BYTES - FIT_WARNING_RESERVE;
    if size_of(envelope) <= target {
        // Nothing to fit (most calls): bounding the warnings again below would give the same
        // list, so the envelope is measured once instead of four times.
        return;
    }
    let mut added = Vec::new();
    drop_records(envelope, target, &mut added);
    if size_of(envelope) > target {
        cut_moviepilot_payload(envelope, target, &mut added);
    }
    if size_of(envelope) > target {
        shorten_free_text_to_fit(envelope, target, &mut added);
    }
    warnings.extend(added);
    envelope["warnings"] = json!(bound_warnings(warnings, MAX_WARNING_BYTES));
    if size_of(envelope) > MAX_STRUCTURED_BYTES {
        too_large(envelope);
    }
}

/// Drops trailing records of the top-level list of `data`, adjusting its continuation.
fn drop_records(envelope: &mut Value, target: usize, warnings: &mut Vec<String>) {
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
            // One record is always kept: a page of none could not be continued.
            if list.len() <= 1 || size <= target {
                break;
            }
            // Drop a chunk proportional to the overshoot, at least one.
            let n = size_of_list_overshoot(list.len(), before, target).clamp(1, list.len() - 1);
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
}

/// A bridged MoviePilot result: its `data` list loses trailing records (at least one is kept);
/// then `data` and `text`, still too large, become their text cut with [`CUT_MARKER`].
fn cut_moviepilot_payload(envelope: &mut Value, target: usize, warnings: &mut Vec<String>) {
    if envelope["data"]["kind"] != "moviepilot_result" {
        return;
    }
    if let Some(total) = envelope["data"]["data"].as_array().map(Vec::len) {
        let mut kept = total;
        while kept > 1 && size_of(envelope) > target {
            kept -= 1;
            envelope["data"]["data"]
                .as_array_mut()
                .expect("checked above")
                .truncate(kept);
        }
        if kept < total {
            warnings.push(format!("MoviePilot's data reduced to fit the 64 KiB budget: {kept} of {total} records returned; narrow or page the query for the rest"));
            envelope["truncated"] = json!(true);
        }
    }
    shorten_moviepilot_texts(envelope, target, warnings);
    for key in ["data", "text"] {
        if size_of(envelope) <= target {
            return;
        }
        let Some(payload) = envelope["data"].get(key) else {
            continue;
        };
        let (mut text, what) = match payload {
            Value::String(s) => (s.clone(), "text"),
            other => (other.to_string(), "JSON text"),
        };
        loop {
            envelope["data"][key] = json!(format!("{text}{CUT_MARKER}"));
            let size = size_of(envelope);
            if size <= target || text.is_empty() {
                break;
            }
            let mut keep = text.len().saturating_sub(size - target);
            while !text.is_char_boundary(keep) {
                keep -= 1;
            }
            text.truncate(keep);
        }
        warnings.push(format!(
            "MoviePilot's {key} was too large: data.{key} is its {what}, cut where it ends with \"{CUT_MARKER}\""
        ));
        envelope["truncated"] = json!(true);
    }
}

/// Shortens the longest texts inside a MoviePilot payload's `data` (MoviePilot's free text may
/// have no spaces, Chinese prose), halving the limit until the envelope fits, so the record keeps
/// its structure, identifiers, dates, numbers and enum values. The warning names the fields cut.
fn shorten_moviepilot_texts(envelope: &mut Value, target: usize, warnings: &mut Vec<String>) {
    let mut limit = 4096;
    let mut cut: Vec<String> = Vec::new();
    while size_of(envelope) > target && limit >= MIN_FREE_TEXT_CHARS {
        if let Some(payload) = envelope["data"].get_mut("data") {
            shorten_long_text(payload, "data", limit, &mut cut);
        }
        limit /= 2;
    }
    if !cut.is_empty() {
        cut.sort();
        cut.dedup();
        let fields: Vec<String> = cut.iter().take(10).map(|k| format!("`{k}`")).collect();
        warnings.push(format!(
            "MoviePilot's long text shortened (ending in …) to fit the 64 KiB budget, other fields kept whole: {}",
            fields.join(", ")
        ));
        envelope["truncated"] = json!(true);
    }
}

/// Shortens strings longer than `limit` characters under keys that name no identifier, date,
/// enum or address, pushing each key cut to `cut`.
fn shorten_long_text(node: &mut Value, key: &str, limit: usize, cut: &mut Vec<String>) {
    match node {
        Value::String(s) if s.chars().count() > limit && is_free_text_key(key) => {
            let kept: String = s.chars().take(limit).collect();
            *s = format!("{kept}…");
            cut.push(key.to_owned());
        }
        Value::Array(items) => {
            for v in items.iter_mut() {
                shorten_long_text(v, key, limit, cut);
            }
        }
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                shorten_long_text(v, k, limit, cut);
            }
        }
        _ => {}
    }
}

/// Shortens the longest free text in `data`, halving the limit until the envelope fits.
fn shorten_free_text_to_fit(envelope: &mut Value, target: usize, warnings: &mut Vec<String>) {
    let mut limit = 4096;
    let mut cut = false;
    while size_of(envelope) > target && limit >= MIN_FREE_TEXT_CHARS {
        let skip: &[&str] = if envelope["data"]["kind"] == "moviepilot_result" {
            // Cut as a whole already.
            &["data", "text"]
        } else {
            &[]
        };
        if let Some(map) = envelope.get_mut("data").and_then(Value::as_object_mut) {
            for (key, value) in map.iter_mut() {
                if !skip.contains(&key.as_str()) {
                    cut |= shorten_free_text(value, key, limit);
                }
            }
        }
        limit /= 2;
    }
    if cut {
        warnings.push("long free text shortened (ending in …) to fit the 64 KiB budget".to_owned());
        envelope["truncated"] = json!(true);
    }
}

/// Replaces a result that cannot fit by a failure that says so (the error of a failed result
/// is kept; its data is left out with a warning).
fn too_large(envelope: &mut Value) {
    const WHY: &str = "the result is larger than the 64 KiB budget even with free text shortened and records dropped; ask for less (a smaller limit or a narrower query)";
    let Some(obj) = envelope.as_object_mut() else {
        return;
    };
    obj.remove("data");
    obj.insert("truncated".into(), json!(true));
    if obj.get("ok") == Some(&json!(true)) {
        obj.insert("ok".into(), json!(false));
        obj.insert("error".into(), ToolError::internal(WHY).to_json());
    } else if let Some(Value::Array(w)) = obj.get_mut("warnings") {
        w.push(json!(format!("data left out: {WHY}")));
    }
    // Warnings are at most MAX_WARNING_BYTES, so the envelope now fits.
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

/// Whether the string under `key` is free text that may be shortened: prose (it has
/// whitespace) under a key that names no identifier, enum, date or address.
fn is_free_text(key: &str, s: &str) -> bool {
    s.contains(char::is_whitespace) && is_free_text_key(key)
}

/// Whether a key may hold free text: it names no identifier, enum, date or address.
fn is_free_text_key(key: &str) -> bool {
    const NEVER: [&str; 8] = [
        "kind",
        "tool",
        "operation",
        "id",
        "status",
        "state",
        "media",
        "value",
    ];
    !NEVER.contains(&key)
        && ![
            "_id", "_at", "date", "url", "uri", "hash", "path", "code", "name",
        ]
        .iter()
        .any(|end| key.ends_with(end))
}

/// Shortens free text longer than `limit` characters (never below [`MIN_FREE_TEXT_CHARS`]).
/// Returns whether anything was cut.
fn shorten_free_text(node: &mut Value, key: &str, limit: usize) -> bool {
    match node {
        Value::String(s) if s.chars().count() > limit && is_free_text(key, s) => {
            let cut: String = s.chars().take(limit).collect();
            *s = format!("{cut}…");
            true
        }
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |cut, v| shorten_free_text(v, key, limit) | cut),
        Value::Object(map) => map
            .iter_mut()
            .fold(false, |cut, (k, v)| shorten_free_text(v, k, limit) | cut),
        _ => false,
    }
}

/// At most [`MAX_WARNINGS`] warnings and `max_bytes` of them in all, each bounded, duplicates
/// removed.
fn bound_warnings(warnings: Vec<String>, max_bytes: usize) -> Vec<String> {
    const OMITTED: &str = "further warnings omitted";
    let mut out: Vec<String> = Vec::new();
    let mut bytes = 0;
    let mut omitted = false;
    for w in warnings {
        let w: String = w
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_WARNING_CHARS)
            .collect();
        if out.contains(&w) {
            continue;
        }
        // Room is kept for the closing note.
        if out.len() == MAX_WARNINGS - 1 || bytes + w.len() + 3 > max_bytes - OMITTED.len() - 3 {
            omitted = true;
            break;
        }
        bytes += w.len() + 3;
        out.push(w);
    }
    if omitted {
        out.push(OMITTED.to_owned());
    }
    out
}

#[cfg(test)]
mod tests;
