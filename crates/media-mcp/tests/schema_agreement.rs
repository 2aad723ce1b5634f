//! Proves that the in-guest argument validator and the advertised `inputSchema` of every tool
//! agree: thousands of generated argument objects (valid and invalid) are judged by both the
//! `jsonschema` crate and `media_mcp::schema::validate`, and every verdict must match.

use media_mcp::ombi;
use media_mcp::schema::{SUPPORTED_KEYWORDS, validate};
use serde_json::{Map, Value, json};

#[path = "../src/testing/rng.rs"]
mod rng;
use rng::Rng;

/// Candidate values for one property schema: fitting ones, edge cases and wrong types.
fn candidates(prop: &Value) -> Vec<Value> {
    let mut out = vec![
        json!(null),
        json!(true),
        json!("x"),
        json!(1),
        json!(1.5),
        json!(-1),
        json!([]),
        json!({}),
    ];
    if let Some(e) = prop.get("enum").and_then(Value::as_array) {
        out.extend(e.iter().cloned());
        out.push(json!("NOT_AN_ENUM_VALUE"));
    }
    if let Some(c) = prop.get("const") {
        out.push(c.clone());
    }
    for key in ["minimum", "maximum"] {
        if let Some(n) = prop.get(key).and_then(Value::as_i64) {
            out.extend([json!(n), json!(n - 1), json!(n + 1), json!(n as f64)]);
        }
    }
    for s in [
        "1",
        "603",
        "0",
        "tt0133093",
        "tt",
        "5d1b1d2d-1a2b-4c3d-9e8f-0a1b2c3d4e5f",
        "en",
        "EN",
        "eng",
        "",
        "matrix",
        "a/b",
        "movie",
        "tv",
    ] {
        out.push(json!(s));
    }
    for key in ["minLength", "maxLength"] {
        if let Some(n) = prop.get(key).and_then(Value::as_u64) {
            out.push(json!("a".repeat(n as usize)));
            out.push(json!("a".repeat(n as usize + 1)));
        }
    }
    if let Some(items) = prop.get("items") {
        let inner = candidates(items);
        out.push(json!([inner[inner.len() - 1].clone()]));
        out.push(Value::Array(inner.iter().rev().take(3).cloned().collect()));
        out.push(Value::Array(
            inner
                .iter()
                .rev()
                .take(2)
                .cloned()
                .chain(inner.iter().rev().take(1).cloned())
                .collect(),
        ));
    }
    if let Some(props) = prop.get("properties").and_then(Value::as_object) {
        let mut obj = Map::new();
        for (k, v) in props {
            if let Some(c) = candidates(v).last() {
                obj.insert(k.clone(), c.clone());
            }
        }
        out.push(Value::Object(obj));
    }
    out
}

fn keywords_used(schema: &Value, out: &mut Vec<String>) {
    if let Some(map) = schema.as_object() {
        for (k, v) in map {
            out.push(k.clone());
            match k.as_str() {
                "properties" => v
                    .as_object()
                    .into_iter()
                    .flatten()
                    .for_each(|(_, p)| keywords_used(p, out)),
                "allOf" | "anyOf" | "oneOf" => v
                    .as_array()
                    .into_iter()
                    .flatten()
                    .for_each(|s| keywords_used(s, out)),
                "items" | "if" | "then" | "else" | "not" | "additionalProperties" => {
                    keywords_used(v, out)
                }
                _ => {}
            }
        }
    }
}

/// A tool's name, for the messages.
struct Named {
    name: &'static str,
}

/// A tool's name and the function making its input schema.
type Tool = (&'static str, fn() -> Value);

/// Every native tool of every backend: its name and input schema.
fn native_tools() -> Vec<Tool> {
    ombi::tools()
        .map(|t| (t.name, t.input_schema))
        .chain(media_mcp::seerr::tools().map(|t| (t.name, t.input_schema)))
        .collect()
}

#[test]
fn every_input_schema_uses_only_supported_keywords_and_is_valid() {
    for (name, input_schema) in native_tools() {
        let tool = Named { name };
        let schema = input_schema();
        jsonschema::meta::validate(&schema)
            .unwrap_or_else(|e| panic!("{}: invalid schema: {e}", tool.name));
        assert_eq!(schema["type"], "object", "{}", tool.name);
        assert_eq!(schema["additionalProperties"], false, "{}", tool.name);
        let mut used = Vec::new();
        keywords_used(&schema, &mut used);
        for k in used {
            assert!(
                SUPPORTED_KEYWORDS.contains(&k.as_str()),
                "{}: keyword {k} is not supported by the validator",
                tool.name
            );
        }
    }
}

#[test]
fn validator_agrees_with_jsonschema_on_generated_arguments() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (name, input_schema) in native_tools() {
        let tool = Named { name };
        let schema = input_schema();
        let reference = jsonschema::validator_for(&schema).expect("compiles");
        let props = schema["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let required: Vec<String> = schema["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(String::from))
            .collect();
        // Split each property's candidates into those its own schema accepts and the rest, so
        // both valid and invalid whole objects come up often.
        let per_prop: Vec<(String, Vec<Value>, Vec<Value>)> = props
            .iter()
            .map(|(k, v)| {
                let own = jsonschema::validator_for(v).expect("property schema compiles");
                let (good, bad): (Vec<Value>, Vec<Value>) =
                    candidates(v).into_iter().partition(|c| own.is_valid(c));
                (k.clone(), good, bad)
            })
            .collect();
        let (mut valid, mut invalid) = (0, 0);
        for _ in 0..4000 {
            let mut args = Map::new();
            for (name, good, bad) in &per_prop {
                let p = if required.contains(name) { 97 } else { 35 };
                if rng.chance(p) {
                    let pool = if good.is_empty() || (rng.chance(10) && !bad.is_empty()) {
                        bad
                    } else {
                        good
                    };
                    args.insert(name.clone(), rng.pick(pool).clone());
                }
            }
            if rng.chance(3) {
                args.insert("unexpected".into(), json!(1));
            }
            let value = Value::Object(args);
            let ours = validate(&schema, &value);
            let theirs = reference.is_valid(&value);
            assert_eq!(
                ours.is_ok(),
                theirs,
                "{}: disagreement on {value}: ours {ours:?}",
                tool.name
            );
            if theirs { valid += 1 } else { invalid += 1 }
        }
        assert!(
            valid > 20,
            "{}: only {valid} valid samples generated",
            tool.name
        );
        assert!(
            invalid > 20,
            "{}: only {invalid} invalid samples generated",
            tool.name
        );
    }
}
