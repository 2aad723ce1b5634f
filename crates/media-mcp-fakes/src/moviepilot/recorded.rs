//! MoviePilot v2.9.15 (`APP_VERSION = 'v2.9.15'` of 2026-03-20), as it really answered: the whole
//! application run from source on loopback, offline, with a seeded database, recorded by
//! `fixtures/moviepilot/v2.9.15/record.py` into `listing.json` (its `initialize` result and
//! `tools/list` tools) and `calls.json` (every tool called, successes and failures).
//!
//! That version's endpoint has 39 per-purpose tools (`query_subscribes`, `add_subscribe`, ...),
//! no `moviepilot_api`, no schema modes (every schema is small and listed in full) and no
//! pages. A call of a listed tool is answered with the recording of the same arguments
//! (`explanation` aside) in the fake's state, else that tool's first recording in the state, else
//! its first recording; an unlisted name gets the JSON text `{"error": "工具 '<name>' 未找到"}`
//! without `isError`, and a hidden one `isError` with `错误: 工具 '<name>' 未找到`, both as
//! recorded.

use std::sync::OnceLock;

use serde_json::{Value, json};

/// The state the recordings were made in unless said otherwise: subscriptions 1 (Inception)
/// and 2 (Severance), site 1, workflow 1.
pub const SEEDED: &str = "seeded";
/// After `delete_subscribe` of subscription 2.
pub const AFTER_DELETE: &str = "after_delete";
/// With 62 subscriptions: `query_subscribes` answers a notice line, then JSON of the first 50.
pub const MANY_SUBSCRIPTIONS: &str = "many_subscriptions";

fn listing() -> &'static Value {
    static LISTING: OnceLock<Value> = OnceLock::new();
    LISTING.get_or_init(|| {
        serde_json::from_str(include_str!(
            "../../fixtures/moviepilot/v2.9.15/listing.json"
        ))
        .expect("listing.json is JSON")
    })
}

fn calls() -> &'static [Value] {
    static CALLS: OnceLock<Value> = OnceLock::new();
    CALLS
        .get_or_init(|| {
            serde_json::from_str(include_str!("../../fixtures/moviepilot/v2.9.15/calls.json"))
                .expect("calls.json is JSON")
        })
        .as_array()
        .expect("calls.json is an array")
}

/// The recorded `initialize` result.
pub fn initialize() -> &'static Value {
    &listing()["initialize"]
}

/// The recorded tools, in MoviePilot's order: name, description, input schema.
pub fn tools() -> Vec<(&'static str, &'static str, &'static Value)> {
    listing()["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            (
                t["name"].as_str().expect("name"),
                t["description"].as_str().unwrap_or(""),
                &t["inputSchema"],
            )
        })
        .collect()
}

/// Every recorded call: state, tool, arguments (without `explanation`) and the MCP result.
pub fn recorded_calls()
-> impl Iterator<Item = (&'static str, &'static str, &'static Value, &'static Value)> {
    calls().iter().map(|c| {
        (
            c["state"].as_str().unwrap_or(SEEDED),
            c["name"].as_str().unwrap_or(""),
            &c["arguments"],
            &c["result"],
        )
    })
}

fn without_explanation(args: &Value) -> Value {
    let mut a = args.clone();
    if let Some(o) = a.as_object_mut() {
        o.remove("explanation");
    }
    a
}

/// The recorded answer of the unknown tool `x` (or the hidden `execute_command`), with `name`.
fn unknown(name: &str, hidden: bool) -> Value {
    let model = if hidden { "execute_command" } else { "x" };
    let recorded = recorded_calls()
        .find(|(_, n, _, _)| *n == model)
        .map(|(_, _, _, r)| r.clone())
        .expect("an unknown tool was recorded");
    let text = recorded["content"][0]["text"]
        .as_str()
        .unwrap_or("")
        .replace(&format!("'{model}'"), &format!("'{name}'"));
    let mut out = recorded.clone();
    out["content"] = json!([{"type": "text", "text": text}]);
    out
}

/// The MCP result of `tools/call` of `name` with `args` in `state`; `listed` says whether the
/// fake lists the tool now, `hidden` whether MoviePilot hides it.
pub fn call(state: &str, name: &str, args: &Value, listed: bool, hidden: bool) -> Value {
    if hidden || !listed {
        return unknown(name, hidden);
    }
    let args = without_explanation(args);
    let of_tool = || recorded_calls().filter(|(_, n, _, _)| *n == name);
    of_tool()
        .find(|(s, _, a, _)| *s == state && **a == args)
        .or_else(|| of_tool().find(|(s, _, _, _)| *s == state))
        .or_else(|| of_tool().next())
        .map_or_else(
            // A listed tool the recordings never called: MoviePilot's answer to an exception.
            || json!({"content": [{"type": "text", "text": format!("{{\"error\": \"调用工具 '{name}' 时发生错误: not recorded\"}}")}]}),
            |(_, _, _, r)| r.clone(),
        )
}
