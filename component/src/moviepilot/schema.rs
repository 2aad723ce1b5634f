//! Local argument checks for bridged tools against the schema discovered in the same call.
//!
//! MoviePilot's schemas use keywords our interpreter (`crate::schema`) does not know (`$ref`,
//! `patternProperties`, ECMA patterns the regex engine cannot compile...). Ignoring a keyword inside
//! `oneOf`, `not` or `if` could *reject* valid arguments, so the checked copy is weakened to
//! something that only ever accepts more: local `$ref`s inlined (bounded), `oneOf` read as
//! `anyOf`, `not` and `if/then/else` dropped, `additionalProperties` dropped beside
//! `patternProperties`, uncompilable patterns dropped. MoviePilot still validates everything.

use crate::contract::ToolError;
use crate::prelude::*;
use serde_json::{Map, Value};

/// Deepest `$ref` nesting inlined; deeper references accept anything.
const MAX_REF_DEPTH: usize = 12;
/// Most schema nodes produced while inlining.
const MAX_NODES: usize = 100_000;

/// The arguments MoviePilot decodes from a JSON string before it validates them.
const STRING_ENCODED: [&str; 2] = ["body", "arguments"];

/// Decodes one layer of a JSON-string `body` or `arguments` into the object, array or `null` it
/// encodes, as MoviePilot's tool entry does before validating; nested strings and strings that
/// encode anything else keep their value.
pub fn decode_string_encoded(args: &mut Map<String, Value>) {
    for key in STRING_ENCODED {
        if let Some(Value::String(s)) = args.get(key)
            && let Ok(decoded @ (Value::Object(_) | Value::Array(_) | Value::Null)) =
                serde_json::from_str::<Value>(s)
        {
            args.insert(key.into(), decoded);
        }
    }
}

/// Checks `args` against a weakened copy of `schema`.
///
/// # Errors
/// `INVALID_ARGUMENT` naming the argument at fault.
pub fn check(schema: &Value, args: &Value) -> Result<(), ToolError> {
    check_weak(&weakened(schema, schema), args)
}

/// The weakened, self-contained copy of `node` (local `$ref`s resolved in `root` and inlined),
/// which [`check_weak`] checks arguments against.
pub fn weakened(node: &Value, root: &Value) -> Value {
    let mut budget = MAX_NODES;
    weaken(node, root, 0, &mut budget)
}

/// Checks `args` against a schema [`weakened`] already.
///
/// # Errors
/// `INVALID_ARGUMENT` naming the argument at fault.
pub fn check_weak(weak: &Value, args: &Value) -> Result<(), ToolError> {
    crate::schema::validate(weak, args).map_err(|v| {
        let field = if v.field.is_empty() {
            "arguments".to_owned()
        } else {
            v.field.clone()
        };
        let msg = if v.field.is_empty() {
            v.message
        } else {
            format!("{} {}", v.field, v.message)
        };
        ToolError::invalid_argument(field, msg)
    })
}

/// The node a local `$ref` (`#/a/b`, JSON-pointer escapes decoded) points at in `root`.
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let path = reference.strip_prefix("#/")?;
    path.split('/').try_fold(root, |node, seg| {
        node.get(seg.replace("~1", "/").replace("~0", "~"))
    })
}

fn weaken(node: &Value, root: &Value, depth: usize, budget: &mut usize) -> Value {
    if *budget == 0 {
        return Value::Bool(true);
    }
    *budget -= 1;
    match node {
        Value::Object(map) => {
            if let Some(r) = map.get("$ref").and_then(Value::as_str) {
                return match resolve(root, r) {
                    Some(target) if depth < MAX_REF_DEPTH => {
                        // Sibling keywords of $ref apply too (2020-12): check both.
                        let inner = weaken(target, root, depth + 1, budget);
                        let mut rest = map.clone();
                        rest.remove("$ref");
                        if rest.is_empty() {
                            inner
                        } else {
                            let rest = weaken(&Value::Object(rest), root, depth, budget);
                            serde_json::json!({"allOf": [inner, rest]})
                        }
                    }
                    _ => Value::Bool(true),
                };
            }
            let mut out = Map::new();
            for (k, v) in map {
                match k.as_str() {
                    "not" | "if" | "then" | "else" | "$defs" | "definitions" => {}
                    "oneOf" => {
                        out.insert("anyOf".into(), weaken(v, root, depth, budget));
                    }
                    "additionalProperties" if map.contains_key("patternProperties") => {}
                    "pattern"
                        if v.as_str()
                            .is_none_or(|p| crate::schema::pattern::Pattern::new(p).is_none()) => {}
                    "properties" => {
                        let props = v.as_object().map(|p| {
                            p.iter()
                                .map(|(name, s)| (name.clone(), weaken(s, root, depth, budget)))
                                .collect::<Map<_, _>>()
                        });
                        out.insert(
                            k.clone(),
                            props.map(Value::Object).unwrap_or(Value::Bool(true)),
                        );
                    }
                    _ => {
                        out.insert(k.clone(), weaken(v, root, depth, budget));
                    }
                }
            }
            if out.contains_key("anyOf") && map.contains_key("anyOf") {
                // Both oneOf and anyOf: keep the original anyOf, fold the weakened oneOf in allOf.
                let one = out.remove("anyOf").unwrap_or(Value::Bool(true));
                let any = weaken(&map["anyOf"], root, depth, budget);
                out.insert("anyOf".into(), any);
                out.insert("allOf".into(), serde_json::json!([{"anyOf": one}]));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| weaken(v, root, depth, budget))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests;
