//! The Seerr tools against their Ombi namesakes: the same input schema (descriptions aside)
//! and the same result families, so clients, views and prompts work with either.

use crate::prelude::*;
use serde_json::Value;

/// `schema` without any `description` (what each backend words for its own server).
fn shape(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "description")
                .map(|(k, v)| (k.clone(), shape(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(shape).collect()),
        other => other.clone(),
    }
}

/// Seerr tools whose schema differs from Ombi's on purpose: Seerr keeps no reason for a
/// declined request, so `reason` is optional (and refused when given).
const DIFFERENT: &[&str] = &["write_request_deny"];

#[test]
fn every_seerr_tool_has_its_ombi_namesakes_schema_and_families() {
    let ombi: Vec<_> = crate::ombi::tools().collect();
    let mut compared = 0;
    let mut differ = Vec::new();
    for seerr in crate::seerr::tools() {
        let twin = ombi
            .iter()
            .find(|o| o.name == seerr.name)
            .unwrap_or_else(|| panic!("{} has no Ombi namesake", seerr.name));
        assert_eq!(seerr.families, twin.families, "{}", seerr.name);
        assert_eq!(seerr.access, twin.access, "{}", seerr.name);
        assert!(seerr.description.contains("Seerr"), "{}", seerr.name);
        if DIFFERENT.contains(&seerr.name) {
            continue;
        }
        let (mine, theirs) = (
            shape(&(seerr.input_schema)()),
            shape(&(twin.input_schema)()),
        );
        if mine != theirs {
            differ.push(format!("{}:\n  Seerr {mine}\n  Ombi  {theirs}", seerr.name));
        }
        compared += 1;
    }
    assert!(
        differ.is_empty(),
        "input schemas differ from Ombi's:\n{}",
        differ.join("\n")
    );
    assert!(compared >= 13, "{compared}");
}

#[test]
fn write_request_deny_differs_only_in_reason_being_optional() {
    let ombi = crate::ombi::tools()
        .find(|t| t.name == "write_request_deny")
        .map(|t| shape(&(t.input_schema)()))
        .expect("Ombi's deny");
    let mut seerr = crate::seerr::tools()
        .find(|t| t.name == "write_request_deny")
        .map(|t| shape(&(t.input_schema)()))
        .expect("Seerr's deny");
    seerr["required"]
        .as_array_mut()
        .expect("required")
        .push(Value::from("reason"));
    assert_eq!(seerr, ombi);
}
