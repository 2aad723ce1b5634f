//! Helpers shared by the fault, canary and soak tests: the advertised output schemas and
//! validation of a result against them.

use std::collections::HashMap;

use media_mcp_tests::Harness;
use serde_json::{Value, json};

/// Every listed tool's `outputSchema`, by tool name.
pub fn output_schemas(h: &mut Harness) -> HashMap<String, Value> {
    let list = h.rpc("tools/list", json!({}));
    list["result"]["tools"]
        .as_array()
        .expect("a tools array")
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap_or_default().to_owned(),
                t["outputSchema"].clone(),
            )
        })
        .collect()
}

/// Panics when `instance` breaks `schema`, naming `label`.
pub fn assert_valid(schema: &Value, instance: &Value, label: &str) {
    let validator = jsonschema::validator_for(schema).expect("outputSchema compiles");
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .take(5)
        .collect();
    assert!(
        errors.is_empty(),
        "{label}: structuredContent breaks outputSchema: {errors:?}\n{instance}"
    );
}
