//! Test only: MCP Inspector 2.12's tool-schema portability rules (`mcp-inspector --cli
//! --method tools/list --strict`), so a schema that a client would reject or misread fails
//! here, natively, before any client sees it:
//!
//! - `boolean-schema` (error): a bare `true`/`false` where a schema object is expected (a
//!   boolean is fine as the value of `additionalProperties`, `unevaluatedProperties`,
//!   `additionalItems` and `unevaluatedItems`); `{"not": {}}` is the object form of `false`;
//! - `untyped-schema` (warning): a schema with no validation keyword (accepts anything),
//!   except directly under `not`; an `if` counts only with its `then`/`else`;
//! - `type-union` (warning): `type` given as an array;
//! - `remote-ref` (warning): a `$ref` outside the document.

use serde_json::Value;

use crate::prelude::*;

const BOOLEAN_VALUED: &[&str] = &[
    "additionalProperties",
    "unevaluatedProperties",
    "additionalItems",
    "unevaluatedItems",
];
const SUBSCHEMA: &[&str] = &[
    "items",
    "contains",
    "not",
    "propertyNames",
    "if",
    "then",
    "else",
    "additionalProperties",
    "unevaluatedProperties",
    "additionalItems",
    "unevaluatedItems",
    "contentSchema",
];
const SUBSCHEMA_ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
    "$defs",
    "definitions",
];
const CONSTRAINING: &[&str] = &[
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "format",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "items",
    "prefixItems",
    "contains",
    "additionalItems",
    "unevaluatedItems",
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "dependentSchemas",
    "dependencies",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
];

/// One finding: rule, `error` or `warning`, and where (`properties.view`, …).
pub type Finding = (&'static str, &'static str, String);

/// Every finding in `schema`.
pub fn findings(schema: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    walk(schema, "", None, 0, &mut out);
    out
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn walk(node: &Value, path: &str, keyword: Option<&str>, depth: usize, out: &mut Vec<Finding>) {
    if depth > 64 {
        return;
    }
    if let Value::Bool(_) = node {
        if !keyword.is_some_and(|k| BOOLEAN_VALUED.contains(&k)) {
            out.push(("boolean-schema", "error", path.to_owned()));
        }
        return;
    }
    let Value::Object(map) = node else { return };
    if map.get("type").is_some_and(Value::is_array) {
        out.push(("type-union", "warning", path.to_owned()));
    }
    if map
        .get("$ref")
        .and_then(Value::as_str)
        .is_some_and(|r| !r.is_empty() && !r.starts_with('#'))
    {
        out.push(("remote-ref", "warning", path.to_owned()));
    }
    let constrains = map.keys().any(|k| CONSTRAINING.contains(&k.as_str()))
        || (map.contains_key("if") && (map.contains_key("then") || map.contains_key("else")));
    if !constrains && keyword != Some("not") {
        out.push(("untyped-schema", "warning", path.to_owned()));
    }
    for key in SUBSCHEMA_MAPS {
        if let Some(Value::Object(children)) = map.get(*key) {
            for (name, child) in children {
                walk(
                    child,
                    &join(&join(path, key), name),
                    Some(key),
                    depth + 1,
                    out,
                );
            }
        }
    }
    for key in SUBSCHEMA_ARRAYS {
        if let Some(Value::Array(children)) = map.get(*key) {
            for (i, child) in children.iter().enumerate() {
                let at = format!("{}[{i}]", join(path, key));
                walk(child, &at, Some(key), depth + 1, out);
            }
        }
    }
    for key in SUBSCHEMA {
        match map.get(*key) {
            Some(Value::Array(items)) if *key == "items" => {
                for (i, child) in items.iter().enumerate() {
                    let at = format!("{}[{i}]", join(path, key));
                    walk(child, &at, Some(key), depth + 1, out);
                }
            }
            Some(child) => walk(child, &join(path, key), Some(key), depth + 1, out),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{FakeUpstream, plugin};
    use serde_json::json;

    #[test]
    fn the_rules_find_what_the_inspector_flags() {
        let schema = json!({
            "type": "object",
            "properties": {"a": false, "b": {}, "c": {"type": ["string", "null"]}, "d": {"not": {}}},
            "additionalProperties": false,
            "allOf": [{"if": {"required": ["a"]}, "else": {"properties": {"e": true}}}]
        });
        let found: Vec<(&str, String)> = findings(&schema)
            .into_iter()
            .map(|(rule, _, path)| (rule, path))
            .collect();
        assert_eq!(
            found,
            [
                ("boolean-schema", "properties.a".to_owned()),
                ("untyped-schema", "properties.b".to_owned()),
                ("type-union", "properties.c".to_owned()),
                ("boolean-schema", "allOf[0].else.properties.e".to_owned()),
            ]
        );
    }

    /// Every listed schema is portable: no error-severity finding (what `--strict` fails
    /// on) and no untyped or remote schema. The remaining warnings are the contract's
    /// nullable scalars (`"type": ["integer", "null"]` and the like in the shared `$defs`),
    /// which the contract's wording pins.
    #[test]
    fn every_listed_schema_is_portable() {
        let up = FakeUpstream::new();
        let tools = plugin().list_tools(&up);
        assert!(tools.len() > 30, "{}", tools.len());
        for tool in tools {
            for (kind, text) in [
                ("inputSchema", &tool.input_schema),
                ("outputSchema", &tool.output_schema),
            ] {
                let schema: Value = serde_json::from_str(text).unwrap();
                let bad: Vec<Finding> = findings(&schema)
                    .into_iter()
                    .filter(|(rule, _, _)| *rule != "type-union")
                    .collect();
                assert!(bad.is_empty(), "{} {kind}: {bad:?}", tool.name);
            }
        }
    }
}
