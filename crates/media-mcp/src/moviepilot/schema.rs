//! Local argument checks for bridged tools against the schema discovered in the same call.
//!
//! MoviePilot's schemas use keywords our interpreter (`crate::schema`) does not know
//! (`patternProperties`, ECMA patterns the regex engine cannot compile...). Ignoring a keyword
//! inside `oneOf`, `not` or `if` could *reject* valid arguments, so the checked copy is weakened
//! to something that only ever accepts more: `oneOf` read as `anyOf`, `not` and `if/then/else`
//! dropped, `additionalProperties` dropped beside `patternProperties`, uncompilable patterns
//! dropped; annotations (`description`, `title`, `default`, `examples`) are left out, and `const`
//! and `enum` values are kept as they are. It also accepts MoviePilot's own coercions: `null` for a field that is not
//! required (MoviePilot publishes `Optional[T]` as plain `T`), a numeric string for an integer
//! or a number, and a single item for an array.
//!
//! Local `$ref`s are never expanded: each definition a schema refers to is weakened once and
//! carried beside it under `$defs` (keyed by its original pointer), and the interpreter
//! resolves references as it reaches them. A recursive definition (MoviePilot's router
//! publishes `JsonData-Input`, a JSON value whose object and array branches refer back to
//! itself) therefore costs its own size, once. A definition that accepts every JSON value, as
//! that one does, is dropped with the references to it ([`universal`]). The weakened copy is
//! then rewritten with fewer nodes that accept the same values ([`simplify`]), since stored
//! forms are parsed on every call. MoviePilot still validates everything.

mod simplify;
mod universal;

use crate::contract::ToolError;
use crate::prelude::*;
use alloc::collections::{BTreeMap, BTreeSet};
use serde_json::{Map, Value, json};

/// Most definitions weakened for one schema; references past it accept anything.
const MAX_DEFS: usize = 4096;
/// A numeric string MoviePilot turns into an integer.
const INTEGER_TEXT: &str = "^ *-?[0-9]+ *$";
/// A numeric string MoviePilot turns into a number.
const NUMBER_TEXT: &str = "^ *-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)? *$";

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

/// The weakened, self-contained copy of `node` (with the weakened definitions it refers to in
/// `root`), which [`check_weak`] checks arguments against.
pub fn weakened(node: &Value, root: &Value) -> Value {
    Weakener::new(root).weaken(node)
}

/// Weakens nodes of one schema, each definition once however many nodes refer to it.
pub struct Weakener<'a> {
    root: &'a Value,
    /// Weakened definitions by original pointer, with the pointers each refers to.
    defs: BTreeMap<String, (Value, Vec<String>)>,
}

impl<'a> Weakener<'a> {
    /// A weakener of nodes of `root`.
    pub fn new(root: &'a Value) -> Self {
        Self {
            root,
            defs: BTreeMap::new(),
        }
    }

    /// The weakened copy of `node`, carrying every definition it reaches under `$defs`.
    pub fn weaken(&mut self, node: &Value) -> Value {
        let (mut out, mut table, reached) = self.weaken_apart(node);
        simplify::simplify(&mut out, &mut table);
        with_defs(out, table, reached)
    }

    /// [`Weakener::weaken`] without the simplification, to compare with.
    #[cfg(test)]
    pub fn weaken_unsimplified(&mut self, node: &Value) -> Value {
        let (out, table, reached) = self.weaken_apart(node);
        with_defs(out, table, reached)
    }

    /// The weakened copy of `node`, the weakened definitions it reaches by the pointer
    /// references use, and their original pointers.
    fn weaken_apart(&mut self, node: &Value) -> (Value, Map<String, Value>, BTreeSet<String>) {
        let mut refs = Vec::new();
        let mut out = self.node(node, &mut refs);
        // Every definition reached, directly or through other definitions.
        let mut reached: BTreeSet<String> = BTreeSet::new();
        let mut queue = refs;
        while let Some(r) = queue.pop() {
            if !reached.insert(r.clone()) {
                continue;
            }
            if !self.defs.contains_key(&r) {
                if self.defs.len() >= MAX_DEFS {
                    self.defs.insert(r.clone(), (Value::Bool(true), Vec::new()));
                } else {
                    let target =
                        crate::schema::resolve(self.root, &r).unwrap_or(&Value::Bool(true));
                    let mut inner = Vec::new();
                    let weak = self.node(target, &mut inner);
                    self.defs.insert(r.clone(), (weak, inner));
                }
            }
            queue.extend(self.defs[&r].1.iter().cloned());
        }
        // By the pointer references use; the table keeps the original pointers.
        let mut table: Map<String, Value> = reached
            .iter()
            .map(|r| (carried(r), self.defs[r].0.clone()))
            .collect();
        let everything = universal::universal(&table);
        if !everything.is_empty() {
            universal::drop_references(&mut out, &everything);
            table
                .values_mut()
                .for_each(|weak| universal::drop_references(weak, &everything));
            let still = universal::reached(&out, &table);
            table.retain(|pointer, _| still.contains(pointer));
        }
        (out, table, reached)
    }

    /// `node` weakened, its references rewritten into the carried `$defs` and pushed to `refs`.
    fn node(&self, node: &Value, refs: &mut Vec<String>) -> Value {
        match node {
            Value::Object(map) => lenient(self.object(map, refs)),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.node(v, refs)).collect()),
            other => other.clone(),
        }
    }

    fn object(&self, map: &Map<String, Value>, refs: &mut Vec<String>) -> Value {
        let mut out = Map::new();
        for (k, v) in map {
            match k.as_str() {
                "not" | "if" | "then" | "else" | "$defs" | "definitions" => {}
                // Annotations check nothing; the stored forms are read on every call.
                "title" | "description" | "default" | "examples" | "$comment" => {}
                // Values, not schemas: kept as they are.
                "const" | "enum" => {
                    out.insert(k.clone(), v.clone());
                }
                "$ref" => match v.as_str() {
                    Some(r)
                        if r.starts_with('#') && crate::schema::resolve(self.root, r).is_some() =>
                    {
                        refs.push(r.to_owned());
                        out.insert(k.clone(), json!(carried(r)));
                    }
                    // An unresolvable reference accepts anything.
                    _ => {}
                },
                // Both are read as `anyOf`, below.
                "oneOf" | "anyOf" => {}
                "additionalProperties" if map.contains_key("patternProperties") => {}
                "pattern"
                    if v.as_str()
                        .is_none_or(|p| crate::schema::pattern::Pattern::new(p).is_none()) => {}
                "properties" => {
                    let required: Vec<&str> = map
                        .get("required")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .collect();
                    let props = v.as_object().map(|p| {
                        p.iter()
                            .map(|(name, s)| {
                                let weak = self.node(s, refs);
                                let weak = if required.contains(&name.as_str()) {
                                    weak
                                } else {
                                    // Optional[T] is published as T: null is accepted too.
                                    json!({"anyOf": [{"type": "null"}, weak]})
                                };
                                (name.clone(), weak)
                            })
                            .collect::<Map<_, _>>()
                    });
                    out.insert(
                        k.clone(),
                        props.map(Value::Object).unwrap_or(Value::Bool(true)),
                    );
                }
                _ => {
                    out.insert(k.clone(), self.node(v, refs));
                }
            }
        }
        // Each combinator is weakened once: a copy would be checked twice at every level a
        // recursive definition is entered, twice as often per level of the arguments.
        match (map.get("oneOf"), map.get("anyOf")) {
            (Some(one), Some(any)) => {
                // Both: `anyOf` stays, the weakened `oneOf` joins the `allOf` conditions.
                let one = json!({"anyOf": self.node(one, refs)});
                out.insert("anyOf".into(), self.node(any, refs));
                match out.get_mut("allOf") {
                    Some(Value::Array(all)) => all.push(one),
                    _ => {
                        out.insert("allOf".into(), json!([one]));
                    }
                }
            }
            (Some(only), None) | (None, Some(only)) => {
                out.insert("anyOf".into(), self.node(only, refs));
            }
            (None, None) => {}
        }
        Value::Object(out)
    }
}

/// `out` carrying the definitions of `table` (by the pointer references use) under `$defs`,
/// each under its original pointer among `reached`.
fn with_defs(mut out: Value, mut table: Map<String, Value>, reached: BTreeSet<String>) -> Value {
    if let (false, Some(o)) = (table.is_empty(), out.as_object_mut()) {
        let table: Map<String, Value> = reached
            .into_iter()
            .filter_map(|r| Some((r.clone(), table.remove(&carried(&r))?)))
            .collect();
        o.insert("$defs".into(), Value::Object(table));
    }
    out
}

/// The pointer of definition `reference` in the carried `$defs` table.
fn carried(reference: &str) -> String {
    format!(
        "#/$defs/{}",
        reference.replace('~', "~0").replace('/', "~1")
    )
}

/// `weak` also accepting what MoviePilot coerces into its type: a numeric string for an
/// integer or a number, one item for an array.
fn lenient(weak: Value) -> Value {
    let types: Vec<&str> = match weak.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return weak,
    };
    let mut also = Vec::new();
    if types.contains(&"integer") {
        also.push(json!({"type": "string", "pattern": INTEGER_TEXT}));
    } else if types.contains(&"number") {
        also.push(json!({"type": "string", "pattern": NUMBER_TEXT}));
    }
    // A list field (`array`, perhaps nullable), not a union with other shapes.
    if types.contains(&"array") && types.iter().all(|t| ["array", "null"].contains(t)) {
        let item = weak.get("items").cloned().unwrap_or(Value::Bool(true));
        also.push(json!({"allOf": [{"type": ["string", "number", "boolean", "object"]}, item]}));
    }
    if also.is_empty() {
        return weak;
    }
    also.insert(0, weak);
    json!({"anyOf": also})
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

/// The node a local `$ref` points at in `root`.
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    crate::schema::resolve(root, reference)
}

/// The argument keys that tell a tool's operations apart.
pub(super) const OPERATION_KEYS: [&str; 2] = ["operation_id", "action"];

/// The branches of `schema`'s `oneOf`/`anyOf`, `$ref`s resolved.
pub(super) fn branches(schema: &Value) -> Vec<&Value> {
    ["oneOf", "anyOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Value::as_array))
        .flatten()
        .map(|b| match b.get("$ref").and_then(Value::as_str) {
            Some(r) => resolve(schema, r).unwrap_or(b),
            None => b,
        })
        .collect()
}

/// The operation names a branch accepts (`const` or `enum` of an operation key).
fn operation_names(branch: &Value) -> Vec<&str> {
    OPERATION_KEYS
        .iter()
        .flat_map(|k| names_under(branch, k))
        .collect()
}

/// The operation names a branch accepts for argument `key` (its `const` or `enum`).
pub(super) fn names_under<'a>(branch: &'a Value, key: &str) -> Vec<&'a str> {
    branch
        .get("properties")
        .and_then(|p| p.get(key))
        .into_iter()
        .flat_map(|p| {
            let c = p.get("const").and_then(Value::as_str);
            let e = p.get("enum").and_then(Value::as_array);
            c.into_iter()
                .chain(e.into_iter().flatten().filter_map(Value::as_str))
        })
        .collect()
}

pub(super) fn operations(schema: &Value) -> Vec<&str> {
    branches(schema)
        .into_iter()
        .flat_map(operation_names)
        .collect()
}

pub(super) fn branch<'a>(schema: &'a Value, op: &str) -> Option<&'a Value> {
    branches(schema)
        .into_iter()
        .find(|b| operation_names(b).contains(&op))
}

#[cfg(test)]
mod tests;
