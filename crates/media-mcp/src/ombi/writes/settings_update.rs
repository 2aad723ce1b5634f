//! `write_settings_update` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#partial-settings-post-wipes-fields).
//!
//! Settings POSTs replace the whole section, and an `ombi` section posted without its `apiKey`
//! breaks every API call until Ombi restarts. So: read the full section, refuse with CONFLICT
//! when it no longer matches the caller's `revision` (see [`crate::ombi::settings_revision`]),
//! change only allowlisted non-secret leaves, and post the freshly read object back, secrets and
//! all. Features are switched one by one through `POST /api/v2/Features/{enable|disable}`.

use super::outcome::{Mutation, Outcome, bool_answer, failed_item, failure_with, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::ombi::settings_revision::{
    Leaf, SectionSpec, WRITABLE_SECTIONS, leaf_value, revision, section, writable_leaf,
};
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_settings_update",
    "Change Ombi settings",
    "Change writable, non-secret fields of one Ombi settings section (as listed by read_settings), keeping every other field as it is. Pass the revision from read_settings so a concurrent change is refused instead of overwritten. Needs an administrator.",
    "read_settings",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    let sections: Vec<&str> = WRITABLE_SECTIONS.iter().map(|s| s.name).collect();
    json!({
        "type": "object",
        "properties": {
            "section": {"enum": sections, "description": "The settings section to change (as read with read_settings)."},
            "changes": {"type": "array", "minItems": 1, "maxItems": 50, "description": "Fields to change.",
                "items": {"type": "object", "additionalProperties": false, "required": ["name", "value"], "properties": {
                    "name": {"type": "string", "pattern": "^/?[A-Za-z0-9]+$", "description": "The field's JSON Pointer name as read_settings lists it, e.g. /hideRequestsUsers (the leading / may be left out); only writable fields are accepted."},
                    "value": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}], "description": "The new value, of the field's type."}}}},
            "revision": {"type": "string", "pattern": "^[0-9a-f]{16}$", "description": "The revision read_settings returned; the change is refused if the section changed since."}
        },
        "required": ["section", "changes"],
        "additionalProperties": false
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let name = args.str("section")?;
    let spec = section(name)
        .ok_or_else(|| ToolError::invalid_argument("section", "is not a writable section"))?;
    let changes = validated_changes(name, args.value("changes")?)?;
    let current: Value = ombi.get(spec.read_path)?.ok_or_else(|| {
        ToolError::schema_mismatch(
            "Ombi returned no settings for this section; nothing was changed",
        )
    })?;
    if (name == "features") != current.is_array() || !(current.is_array() || current.is_object()) {
        return Err(ToolError::schema_mismatch(
            "Ombi's settings had an unexpected shape; nothing was changed",
        ));
    }
    let mut warnings = Vec::new();
    match args.opt_str("revision") {
        Some(rev) if Some(rev) != revision(name, &current).as_deref() => {
            let err = ToolError::new(
                ErrorCode::Conflict,
                "the section changed since it was read: read it again with read_settings and re-apply the change; nothing was changed",
            );
            return Ok(failure_with(err, Mutation::new(Outcome::Rejected)));
        }
        Some(_) => {}
        None => warnings.push(
            "no revision given: the changes were applied without checking for concurrent edits"
                .to_owned(),
        ),
    }
    for (i, (pointer, _)) in changes.iter().enumerate() {
        if leaf_value(name, &current, pointer).is_none() {
            return Err(ToolError::invalid_argument(
                format!("changes[{i}].name"),
                "this Ombi has no such field in the section",
            ));
        }
    }
    let reply = if name == "features" {
        switch_features(&ombi, &current, &changes)?
    } else {
        replace_section(&ombi, spec, current, &changes)?
    };
    if name == "ombi" && reply.is_ok() {
        warnings.push(
            "Ombi marks its setup wizard as done whenever the ombi section is saved".to_owned(),
        );
    }
    Ok(reply.warn_all(warnings))
}

/// Every change checked against the allowlist and its field type before anything is read.
fn validated_changes(
    section_name: &str,
    changes: &Value,
) -> Result<Vec<(String, Value)>, ToolError> {
    let list = changes.as_array().cloned().unwrap_or_default();
    let mut out: Vec<(String, Value)> = Vec::new();
    for (i, c) in list.iter().enumerate() {
        let raw = c["name"].as_str().unwrap_or_default();
        // Names are JSON Pointers; a bare field name is taken as the pointer to it.
        let pointer = if raw.starts_with('/') {
            raw.to_owned()
        } else {
            format!("/{raw}")
        };
        let Some(leaf) = writable_leaf(section_name, &pointer) else {
            let allowed: Vec<&str> = section(section_name)
                .map(|s| s.writable.iter().map(|(p, _)| *p).collect())
                .unwrap_or_default();
            return Err(ToolError::invalid_argument(
                format!("changes[{i}].name"),
                format!(
                    "is not a writable field of {section_name}; writable: {}",
                    allowed.join(", ")
                ),
            ));
        };
        if !fits(leaf, &c["value"]) {
            return Err(ToolError::invalid_argument(
                format!("changes[{i}].value"),
                format!("does not fit {pointer} ({})", describe(leaf)),
            ));
        }
        if out.iter().any(|(p, _)| *p == pointer) {
            return Err(ToolError::invalid_argument(
                format!("changes[{i}].name"),
                "names a field twice",
            ));
        }
        out.push((pointer, c["value"].clone()));
    }
    Ok(out)
}

fn fits(leaf: Leaf, v: &Value) -> bool {
    match leaf {
        Leaf::Bool => v.is_boolean(),
        Leaf::Int(min, max) => crate::schema::as_int(v).is_some_and(|n| (min..=max).contains(&n)),
        Leaf::Text(max) => v.as_str().is_some_and(|s| s.chars().count() <= max),
        Leaf::OptText(max) => v.is_null() || v.as_str().is_some_and(|s| s.chars().count() <= max),
    }
}

fn describe(leaf: Leaf) -> String {
    match leaf {
        Leaf::Bool => "true or false".to_owned(),
        Leaf::Int(min, max) => format!("an integer {min}..{max}"),
        Leaf::Text(max) => format!("text of at most {max} characters"),
        Leaf::OptText(max) => format!("text of at most {max} characters, or null"),
    }
}

/// Posts the freshly read object with only the allowlisted leaves changed.
fn replace_section(
    ombi: &Ombi<'_>,
    spec: &SectionSpec,
    mut object: Value,
    changes: &[(String, Value)],
) -> Result<Reply, ToolError> {
    for (pointer, value) in changes {
        if let Some(slot) = object.pointer_mut(pointer) {
            *slot = value.clone();
        }
    }
    let answer = write(ombi, Method::Post, spec.write_path, Some(&object))?;
    let names: Vec<&str> = changes.iter().map(|(p, _)| p.as_str()).collect();
    // Jobs answer `{result, message}` (an invalid cron expression is `result: false`).
    let (saved, message) = match answer {
        Some(Value::Object(o)) if spec.name == "jobs" => {
            match o.get("result").and_then(Value::as_bool) {
                Some(r) => (
                    r,
                    o.get("message").and_then(Value::as_str).map(str::to_owned),
                ),
                None => return Err(ToolError::unknown_outcome("the answer had no result flag")),
            }
        }
        other => (bool_answer(other)?, None),
    };
    let m = Mutation::new(if saved {
        Outcome::Completed
    } else {
        Outcome::Rejected
    })
    .set("upstream_result", json!(saved));
    if saved {
        return Ok(Reply::ok(
            m.message(&format!("changed {}", names.join(", ")))
                .into_json(),
        ));
    }
    let why = message.unwrap_or_else(|| "Ombi did not save the settings".to_owned());
    Ok(failure_with(
        ToolError::new(
            ErrorCode::UpstreamRejected,
            format!("Ombi refused the settings: {why}"),
        ),
        m.message(&why),
    ))
}

/// The reconcile advice when a flag's new state is not confirmed.
const UNCONFIRMED_FLAGS: &str = "Ombi's answer did not show every flag in the requested state: check with read_settings before retrying";

/// One enable/disable call per feature flag; per-item outcomes from Ombi's returned list.
fn switch_features(
    ombi: &Ombi<'_>,
    _current: &Value,
    changes: &[(String, Value)],
) -> Result<Reply, ToolError> {
    let mut items: Vec<Value> = Vec::new();
    for (pointer, value) in changes {
        let feature = pointer.trim_start_matches('/');
        let on = value.as_bool().unwrap_or(false);
        let path = format!("/api/v2/Features/{}", if on { "enable" } else { "disable" });
        match write(ombi, Method::Post, &path, Some(&json!({"name": feature}))) {
            Ok(answer) => {
                let now = answer
                    .as_ref()
                    .and_then(|a| leaf_value("features", a, pointer))
                    .and_then(Value::as_bool);
                let outcome = if now == Some(on) {
                    "completed"
                } else {
                    "unknown"
                };
                items.push(json!({"identifier": pointer, "outcome": outcome}));
            }
            Err(e) if items.is_empty() => return Err(e),
            Err(e) => {
                let unknown = e.code == ErrorCode::UnknownOutcome;
                items.push(failed_item(pointer, &e));
                let err = ToolError::new(
                    ErrorCode::PartialFailure,
                    format!(
                        "switching {pointer} failed after earlier flags were switched; later flags were not sent"
                    ),
                );
                let reply = failure_with(
                    err,
                    Mutation::new(Outcome::Partial).set("item_results", Value::Array(items)),
                );
                return Ok(if unknown {
                    reply.warn(UNCONFIRMED_FLAGS)
                } else {
                    reply
                });
            }
        }
    }
    let all_done = items.iter().all(|i| i["outcome"] == "completed");
    let m = Mutation::new(if all_done {
        Outcome::Completed
    } else {
        Outcome::Unknown
    })
    .set("item_results", Value::Array(items));
    let reply = Reply::ok(m.into_json());
    Ok(if all_done {
        reply
    } else {
        reply.warn(UNCONFIRMED_FLAGS)
    })
}

#[cfg(test)]
mod tests;
