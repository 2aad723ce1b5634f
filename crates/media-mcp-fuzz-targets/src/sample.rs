//! Valid arguments from an input schema: a small instance that satisfies it, best effort (a
//! port of the conformance checker's `sample`). Candidates are checked with `jsonschema`, so
//! what comes back is valid whenever it is `Some`.

use serde_json::{Map, Value, json};

/// Strings tried, in order, for a string property.
const CANDIDATE_STRINGS: &[&str] = &[
    "1",
    "27205",
    "tt1375666",
    "inception",
    "movie",
    "en",
    "US",
    "5d1b1d2d-1a2b-4c3d-9e8f-0a1b2c3d4e5f",
    "test",
    "/title",
];

/// Valid arguments for `schema` (with its own `$defs`), or `None`.
pub fn arguments(schema: &Value) -> Option<Value> {
    let value = sample(schema, schema, 0)?;
    jsonschema::is_valid(schema, &value).then_some(value)
}

fn fits(value: &Value, schema: &Value) -> bool {
    jsonschema::validator_for(schema).is_ok_and(|v| v.is_valid(value))
}

fn sample(schema: &Value, root: &Value, depth: usize) -> Option<Value> {
    if depth > 16 {
        return None;
    }
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/")?;
        return sample(root.get("$defs")?.get(name)?, root, depth + 1);
    }
    if let Some(c) = schema.get("const") {
        return Some(c.clone());
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return Some(first.clone());
    }
    if let Some(d) = schema.get("default") {
        return Some(d.clone());
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(branches) = schema.get(key).and_then(Value::as_array) {
            for branch in branches {
                let mut merged: Map<String, Value> = schema
                    .as_object()?
                    .iter()
                    .filter(|(k, _)| k.as_str() != key)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                if let Some(b) = branch.as_object() {
                    merged.extend(b.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                let merged = Value::Object(merged);
                if let Some(v) = sample(&merged, root, depth + 1)
                    && fits(&v, &merged)
                {
                    return Some(v);
                }
            }
            return None;
        }
    }
    let ty = match schema.get("type") {
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        Some(Value::String(t)) => t.as_str(),
        _ if schema.get("properties").is_some() => "object",
        _ => "",
    };
    match ty {
        "object" => {
            let mut out = Map::new();
            let props = schema.get("properties");
            for name in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                let prop = props
                    .and_then(|p| p.get(name))
                    .cloned()
                    .unwrap_or(json!({}));
                out.insert(name.to_owned(), sample(&prop, root, depth + 1)?);
            }
            Some(Value::Object(out))
        }
        "string" => CANDIDATE_STRINGS
            .iter()
            .map(|s| json!(s))
            .find(|s| fits(s, schema)),
        "integer" => {
            let lo = schema.get("minimum").and_then(Value::as_i64).unwrap_or(1);
            Some(json!(lo.max(1)))
        }
        "number" => Some(schema.get("minimum").cloned().unwrap_or(json!(1))),
        "boolean" => Some(json!(false)),
        "array" => {
            let n = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            (0..n)
                .map(|_| sample(&items, root, depth + 1))
                .collect::<Option<Vec<_>>>()
                .map(Value::Array)
        }
        "null" => Some(Value::Null),
        _ => Some(json!("1")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_satisfy_their_schema() {
        let schema = json!({
            "type": "object",
            "properties": {
                "id": {"type": "integer", "minimum": 3},
                "media": {"enum": ["tv", "movie"]},
                "q": {"type": "string", "pattern": "^tt[0-9]+$"}
            },
            "required": ["id", "media", "q"],
            "additionalProperties": false
        });
        assert_eq!(
            arguments(&schema),
            Some(json!({"id": 3, "media": "tv", "q": "tt1375666"}))
        );
    }
}
