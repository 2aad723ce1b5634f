//! MoviePilot's catalogue as the host cache keeps it between calls, so that a call in steady
//! state sends only `tools/call`.
//!
//! Entries are keyed by the endpoint URL and the schema mode, and hold what a call needs in the
//! form it needs it, never MoviePilot's whole schema:
//!
//! - the index: the protocol version negotiated, each tool's name, whether its listed schema
//!   is a projection and the argument that names its operations (when its form has them; a
//!   projected tool's form, and so its argument, comes with its first call), the problems
//!   discovery reported, and a generation number that a refresh increases;
//! - per tool and generation, its checking form: the weakened schema (see [`super::schema`]),
//!   or, for a tool whose `oneOf`/`anyOf` branches are told apart by an `operation_id` or
//!   `action` constant, the weakened schema without the branches;
//! - per tool and generation with operations, the operation names, read only when a call names
//!   an operation whose branch is not stored;
//! - per operation and generation, that operation's weakened branch with the weakened
//!   definitions it refers to (each definition weakened once per schema, never inlined), beside
//!   the form's schema without the branches.
//!
//! A call therefore reads and parses one small entry (the operation's, when the index names the
//! argument that selects it; else the form and then the branch), whatever the size of the whole
//! schema and however many operations it has.
//! The host may drop any entry; a missing one is read as "ask MoviePilot again".

use super::config::MoviePilotConfig;
use super::discovery::Discovered;
use super::schema::{OPERATION_KEYS, Weakener, branches, check_weak, names_under};
use crate::contract::ToolError;
use crate::host_cache::HostCache;
use crate::prelude::*;
use serde_json::{Map, Value, json};

/// Names the layout of the entries; a change of layout changes it, so old entries are ignored.
const FORMAT: &str = "moviepilot-catalogue/4";

/// One tool of the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedTool {
    /// Exact name for `tools/call`.
    pub name: String,
    /// Whether its listed schema was a projection (the full one comes from the schema helper).
    pub projected: bool,
    /// The argument naming its operation, when its stored form has operations.
    pub key: Option<String>,
}

/// What discovery found, without the schemas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Index {
    /// Increased by every refresh; part of the keys of the forms made from that discovery.
    pub generation: u64,
    /// The protocol version MoviePilot accepted.
    pub version: String,
    /// The usable tools, in MoviePilot's order.
    pub tools: Vec<IndexedTool>,
    /// What discovery had to leave out.
    pub problems: Vec<String>,
}

impl Index {
    /// The index of `found`.
    pub fn new(generation: u64, version: String, found: &Discovered) -> Self {
        Self {
            generation,
            version,
            tools: found
                .tools
                .iter()
                .map(|t| IndexedTool {
                    name: t.name.clone(),
                    projected: t.projected,
                    key: None,
                })
                .collect(),
            problems: found.problems.clone(),
        }
    }

    /// Tool `name`, unless it is missing or one of the names `taken` by the plugin's own tools.
    pub fn tool(&self, name: &str, taken: &[&str]) -> Option<&IndexedTool> {
        self.tools
            .iter()
            .find(|t| t.name == name && !taken.contains(&name))
    }

    fn to_json(&self) -> Value {
        let tools: Vec<Value> = self
            .tools
            .iter()
            .map(|t| json!([t.name, t.projected, t.key]))
            .collect();
        json!({"generation": self.generation, "version": self.version, "tools": tools, "problems": self.problems})
    }

    fn from_json(v: &Value) -> Option<Self> {
        let tools = v
            .get("tools")?
            .as_array()?
            .iter()
            .map(|t| {
                let key = match t.get(2)? {
                    Value::Null => None,
                    k => Some(k.as_str()?.to_owned()),
                };
                Some(IndexedTool {
                    name: t.get(0)?.as_str()?.to_owned(),
                    projected: t.get(1)?.as_bool()?,
                    key,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let problems = v
            .get("problems")?
            .as_array()?
            .iter()
            .map(|p| p.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()?;
        Some(Self {
            generation: v.get("generation")?.as_u64()?,
            version: v.get("version")?.as_str()?.to_owned(),
            tools,
            problems,
        })
    }
}

/// How a tool's arguments are checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Form {
    /// Against one weakened schema.
    Whole(Value),
    /// Against `rest` (the schema without its branches) and the branch of the operation named
    /// by argument `key`.
    Operations {
        /// `operation_id` or `action`.
        key: String,
        /// The weakened schema without `oneOf`/`anyOf`.
        rest: Value,
    },
}

impl Form {
    /// The argument naming the operation, for a form with operations.
    pub fn key(&self) -> Option<&str> {
        match self {
            Form::Whole(_) => None,
            Form::Operations { key, .. } => Some(key),
        }
    }

    /// The operation `args` name, for a form with operations.
    pub fn operation<'a>(&self, args: &'a Value) -> Option<&'a str> {
        match self {
            Form::Whole(_) => None,
            Form::Operations { key, .. } => args.get(key.as_str()).and_then(Value::as_str),
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Form::Whole(w) => json!({"whole": w}),
            Form::Operations { key, rest } => json!({"key": key, "rest": rest}),
        }
    }

    fn from_json(mut v: Value) -> Option<Self> {
        let o = v.as_object_mut()?;
        if let Some(w) = o.remove("whole") {
            return Some(Form::Whole(w));
        }
        Some(Form::Operations {
            key: o.get("key")?.as_str()?.to_owned(),
            rest: o.remove("rest")?,
        })
    }
}

/// Why cached arguments checks could not conclude.
#[derive(Debug, Clone, PartialEq)]
pub enum Refused {
    /// The arguments do not fit the form.
    Invalid(ToolError),
    /// The operation's branch is not at hand (the host dropped it).
    Missing,
}

/// Checks `args` against the form and branch `prepared` holds.
///
/// # Errors
/// [`Refused::Invalid`] naming the argument at fault; [`Refused::Missing`] when the branch of
/// the operation named is not at hand and the operation is not known to be absent.
pub fn check(tool: &str, prepared: &Prepared, args: &Value) -> Result<(), Refused> {
    match &prepared.form {
        Form::Whole(weak) => check_weak(weak, args).map_err(Refused::Invalid),
        form @ Form::Operations { key, rest } => {
            check_weak(rest, args).map_err(Refused::Invalid)?;
            let Some(op) = form.operation(args) else {
                return Err(Refused::Invalid(ToolError::invalid_argument(
                    key.clone(),
                    format!("`{tool}` needs {key}: the name of one of its operations"),
                )));
            };
            match (&prepared.branch, &prepared.operations) {
                (Some(branch), _) => check_weak(branch, args).map_err(Refused::Invalid),
                (None, Some(operations)) if !operations.iter().any(|o| o == op) => {
                    let shown: String = op.chars().filter(|c| !c.is_control()).take(80).collect();
                    Err(Refused::Invalid(ToolError::invalid_argument(
                        key.clone(),
                        format!(
                            "MoviePilot's current schema of `{tool}` has no operation `{shown}`"
                        ),
                    )))
                }
                (None, _) => Err(Refused::Missing),
            }
        }
    }
}

/// The checking form of `schema`, giving the form with each operation's name and weakened
/// branch to `branch` as it is made, in schema order (so they need not all be held at once).
pub fn build(schema: &Value, branch: &mut dyn FnMut(&Form, &str, Value)) -> Form {
    let combinators = ["oneOf", "anyOf"]
        .iter()
        .filter(|k| schema.get(**k).is_some())
        .count();
    let parts = branches(schema);
    let key = OPERATION_KEYS
        .iter()
        .find(|k| !parts.is_empty() && parts.iter().all(|b| !names_under(b, k).is_empty()));
    let mut weakener = Weakener::new(schema);
    let (Some(key), 1) = (key, combinators) else {
        return Form::Whole(weakener.weaken(schema));
    };
    let mut rest: Map<String, Value> = schema.as_object().cloned().unwrap_or_default();
    rest.remove("oneOf");
    rest.remove("anyOf");
    rest.remove("$defs");
    rest.remove("definitions");
    let form = Form::Operations {
        key: (*key).to_owned(),
        rest: weakener.weaken(&Value::Object(rest)),
    };
    let mut operations: Vec<&str> = Vec::new();
    for (i, b) in parts.iter().enumerate() {
        for name in names_under(b, key) {
            if operations.contains(&name) {
                continue;
            }
            // Several branches may accept one name: it must fit one of them.
            let mut fitting: Vec<Value> = parts[i..]
                .iter()
                .filter(|other| names_under(other, key).contains(&name))
                .map(|other| weakener.weaken(other))
                .collect();
            let joined = if fitting.len() == 1 {
                fitting.remove(0)
            } else {
                // The definitions each carries move to the top, where their `$ref`s resolve.
                let mut defs = Map::new();
                for f in &mut fitting {
                    if let Some(Value::Object(d)) =
                        f.as_object_mut().and_then(|o| o.remove("$defs"))
                    {
                        defs.extend(d);
                    }
                }
                json!({"anyOf": fitting, "$defs": defs})
            };
            branch(&form, name, joined);
            operations.push(name);
        }
    }
    form
}

/// A form ready for one call: the form and the branch of the operation the call names.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The tool's form.
    pub form: Form,
    /// The weakened branch of the operation the arguments name, when there is one.
    pub branch: Option<Value>,
    /// The tool's operation names, when the form has operations, the branch is not at hand
    /// and the names are (they tell an unknown operation from a branch the host dropped).
    pub operations: Option<Vec<String>>,
}

impl Prepared {
    /// An operation's stored entry (the form's `rest` and the branch) as the form of `key`.
    fn from_entry(key: &str, mut entry: Value) -> Option<Self> {
        let o = entry.as_object_mut()?;
        Some(Prepared {
            form: Form::Operations {
                key: key.to_owned(),
                rest: o.remove("rest")?,
            },
            branch: Some(o.remove("branch")?),
            operations: None,
        })
    }

    /// Whether `other` checks arguments as this one does.
    pub fn checks_as(&self, other: &Prepared) -> bool {
        self.form == other.form && self.branch == other.branch
    }
}

/// The host cache, as this MoviePilot endpoint and schema mode use it.
pub struct Memo<'a> {
    cache: &'a dyn HostCache,
    prefix: String,
}

impl<'a> Memo<'a> {
    /// The entries of the endpoint and schema mode `cfg` names.
    pub fn new(cache: &'a dyn HostCache, cfg: &MoviePilotConfig) -> Self {
        Self {
            cache,
            prefix: format!(
                "{FORMAT} {} {}",
                cfg.schema_mode.header_value(),
                cfg.url.as_str()
            ),
        }
    }

    /// Whether the host keeps anything.
    pub fn enabled(&self) -> bool {
        self.cache.enabled()
    }

    fn read(&self, key: &str) -> Option<Value> {
        serde_json::from_str(&self.cache.get(key)?).ok()
    }

    fn index_key(&self) -> String {
        format!("{} index", self.prefix)
    }

    fn form_key(&self, generation: u64, tool: &str) -> String {
        format!("{} {generation} form {tool}", self.prefix)
    }

    fn operations_key(&self, generation: u64, tool: &str) -> String {
        format!("{} {generation} operations {tool}", self.prefix)
    }

    fn operation_key(&self, generation: u64, tool: &str, op: &str) -> String {
        format!("{} {generation} op {tool} {op}", self.prefix)
    }

    /// The index, if the host has one.
    pub fn index(&self) -> Option<Index> {
        Index::from_json(&self.read(&self.index_key())?)
    }

    /// Stores `index`, replacing the previous one.
    pub fn put_index(&self, index: &Index) {
        if self.enabled() {
            self.cache
                .set(&self.index_key(), &index.to_json().to_string());
        }
    }

    /// Records in the stored index that argument `key` names `tool`'s operations, so that its
    /// next calls read their operation's entry alone. A projected tool's form is made by its
    /// first call, after the refresh that wrote the index. The index is read again and changed
    /// only while it is still of `generation` (a refresh since keeps its own), so what other
    /// calls learnt meanwhile stays.
    pub fn learn_key(&self, generation: u64, tool: &str, key: &str) {
        if !self.enabled() {
            return;
        }
        let Some(mut index) = self.index().filter(|i| i.generation == generation) else {
            return;
        };
        if let Some(t) = index.tools.iter_mut().find(|t| t.name == tool) {
            t.key = Some(key.to_owned());
            self.put_index(&index);
        }
    }

    /// The stored form of `tool` with the branch `args` name (or, when that is not stored, the
    /// tool's operation names), if the host has the form. With `key`, the argument the index
    /// says names the tool's operation, the operation's entry alone is read when it is stored.
    pub fn prepared(
        &self,
        generation: u64,
        tool: &str,
        key: Option<&str>,
        args: &Value,
    ) -> Option<Prepared> {
        let named = key.and_then(|k| Some((k, args.get(k)?.as_str()?)));
        if let Some((key, op)) = named
            && let Some(entry) = self.read(&self.operation_key(generation, tool, op))
        {
            return Prepared::from_entry(key, entry);
        }
        let form = Form::from_json(self.read(&self.form_key(generation, tool))?)?;
        if let (Some(key), Some(op)) = (form.key(), form.operation(args))
            // Not when it was just read and not there.
            && named != Some((key, op))
            && let Some(entry) = self.read(&self.operation_key(generation, tool, op))
        {
            return Prepared::from_entry(key, entry);
        }
        let operations = match form {
            Form::Operations { .. } => self
                .read(&self.operations_key(generation, tool))
                .and_then(|v| serde_json::from_value(v).ok()),
            Form::Whole(_) => None,
        };
        Some(Prepared {
            form,
            branch: None,
            operations,
        })
    }

    /// Builds `tool`'s form from its full `schema`, stores it and its branches under
    /// `generation` (when the host keeps anything), and returns it ready for `args`.
    pub fn prepare(&self, generation: u64, tool: &str, schema: &Value, args: &Value) -> Prepared {
        let mut wanted: Option<Value> = None;
        let mut operations: Vec<String> = Vec::new();
        let mut sink = |form: &Form, op: &str, weak: Value| {
            let Form::Operations { key, rest } = form else {
                return;
            };
            if self.enabled() {
                let entry = format!(r#"{{"rest":{rest},"branch":{weak}}}"#);
                self.cache
                    .set(&self.operation_key(generation, tool, op), &entry);
            }
            if args.get(key.as_str()).and_then(Value::as_str) == Some(op) {
                wanted = Some(weak);
            }
            operations.push(op.to_owned());
        };
        let form = build(schema, &mut sink);
        let branch = wanted;
        let operations = matches!(form, Form::Operations { .. }).then_some(operations);
        if self.enabled() {
            if let Some(names) = &operations {
                self.cache.set(
                    &self.operations_key(generation, tool),
                    &json!(names).to_string(),
                );
            }
            self.cache.set(
                &self.form_key(generation, tool),
                &form.to_json().to_string(),
            );
        }
        Prepared {
            form,
            branch,
            operations,
        }
    }
}

#[cfg(test)]
mod tests;
