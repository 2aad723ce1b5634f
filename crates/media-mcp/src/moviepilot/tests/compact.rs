//! Compact schema mode: projected schemas published abridged, the input-contract tool, and
//! argument checks against the full schema at call time.

use super::*;
use crate::testing::FakeUpstream;

fn no_calls(_: &HttpRequest, name: &str, _: &Value) -> Answer {
    panic!("tools/call {name} must not be sent")
}

fn projected() -> Value {
    json!({"type": "object", "properties": {"operation_id": {"type": "string", "enum": ["media.search", "system.restart"]}}, "required": ["operation_id"], "x-moviepilot-schema-projection": {"mode": "auto"}})
}

fn full() -> Value {
    json!({
        "type": "object",
        "required": ["operation_id"],
        "oneOf": [
            {"type": "object", "properties": {"operation_id": {"const": "media.search"}, "query": {"$ref": "#/$defs/Query"}}, "required": ["operation_id", "query"], "additionalProperties": false},
            {"$ref": "#/$defs/Restart"}
        ],
        "$defs": {
            "Query": {"type": "object", "properties": {"title": {"type": "string", "minLength": 1}, "paging": {"$ref": "#/$defs/Paging"}}, "required": ["title"]},
            "Paging": {"type": "object", "properties": {"page": {"type": "integer", "minimum": 1}}},
            "Restart": {"type": "object", "properties": {"operation_id": {"const": "system.restart"}}, "required": ["operation_id"]},
            "Unused": {"type": "string"}
        }
    })
}

fn mp(call: impl Fn(&HttpRequest, &str, &Value) -> Answer + 'static) -> FakeUpstream {
    moviepilot(vec![tool("moviepilot_api", projected())], call).route(
        Method::Get,
        "/api/v1/mcp/tools/moviepilot_api/schema",
        json_answer(200, json!({"success": true, "message": "", "data": full()})),
    )
}

#[test]
fn compact_listing_publishes_the_projection_and_the_contract_tool_without_the_helper() {
    let up = mp(no_calls);
    let listed = plugin_with(&[]).list_tools(&up);
    let names: Vec<&str> = listed.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["moviepilot_api", "moviepilot_input_contract"]);
    let schema: Value = serde_json::from_str(&listed[0].input_schema).unwrap();
    assert_eq!(
        schema["properties"]["operation_id"]["enum"],
        json!(["media.search", "system.restart"]),
        "the operation list is kept"
    );
    assert!(schema.get("x-moviepilot-schema-projection").is_none());
    assert!(listed[0].description.contains("moviepilot_input_contract"));
    assert!(
        !methods(&up).iter().any(|m| m.starts_with("GET")),
        "{:?}",
        methods(&up)
    );
    let contract: Value = serde_json::from_str(&listed[1].annotations).unwrap();
    assert_eq!(contract["readOnlyHint"], true);
}

#[test]
fn the_contract_tool_returns_one_operation_with_only_the_defs_it_uses() {
    let up = mp(no_calls);
    let plugin = plugin_with(&[]);
    let r = call(
        &plugin,
        &up,
        "moviepilot_input_contract",
        json!({"tool": "moviepilot_api", "operation": "media.search"}),
    );
    assert_eq!(r["ok"], true, "{r}");
    let contract = &r["data"]["input_contract"];
    assert_eq!(contract["operation"], "media.search");
    let schema = &contract["input_schema"];
    assert_eq!(
        schema["properties"]["operation_id"]["const"],
        "media.search"
    );
    let defs: Vec<&String> = schema["$defs"].as_object().unwrap().keys().collect();
    assert_eq!(defs, ["Paging", "Query"]);
    // A branch given as a $ref is found too.
    let r = call(
        &plugin,
        &up,
        "moviepilot_input_contract",
        json!({"tool": "moviepilot_api", "operation": "system.restart"}),
    );
    assert_eq!(
        r["data"]["input_contract"]["input_schema"]["required"],
        json!(["operation_id"])
    );
}

#[test]
fn the_contract_tool_names_what_is_missing_or_unknown() {
    let up = mp(no_calls);
    let plugin = plugin_with(&[]);
    let r = call(
        &plugin,
        &up,
        "moviepilot_input_contract",
        json!({"tool": "moviepilot_api"}),
    );
    assert_eq!(r["error"]["code"], "INVALID_ARGUMENT", "{r}");
    assert_eq!(r["error"]["field"], "operation");
    let r = call(
        &plugin,
        &up,
        "moviepilot_input_contract",
        json!({"tool": "moviepilot_api", "operation": "nope"}),
    );
    assert_eq!(r["error"]["code"], "NOT_FOUND", "{r}");
    let r = call(
        &plugin,
        &up,
        "moviepilot_input_contract",
        json!({"tool": "ghost"}),
    );
    assert_eq!(r["error"]["code"], "NOT_FOUND", "{r}");
    let r = call(&plugin, &up, "moviepilot_input_contract", json!({}));
    assert_eq!(r["error"]["field"], "tool", "{r}");
}

#[test]
fn compact_calls_check_arguments_against_the_full_schema() {
    let up = mp(|req, _, _| text(req, r#"{"success": true, "message": "ok"}"#, false));
    let plugin = plugin_with(&[]);
    // The full schema requires query.title: refused locally, nothing sent.
    let r = call(
        &plugin,
        &up,
        "moviepilot_api",
        json!({"operation_id": "media.search", "query": {}}),
    );
    assert_eq!(r["error"]["code"], "INVALID_ARGUMENT", "{r}");
    assert!(!methods(&up).contains(&"tools/call".to_owned()));
    // Accepted by the full schema (a field the projection never mentions): sent.
    let r = call(
        &plugin,
        &up,
        "moviepilot_api",
        json!({"operation_id": "media.search", "query": {"title": "x", "paging": {"page": 2}}}),
    );
    assert_eq!(r["ok"], true, "{r}");
    assert!(methods(&up).contains(&"tools/call".to_owned()));
}

#[test]
fn full_mode_lists_no_contract_tool_and_refuses_calls_to_it() {
    let up = mp(no_calls);
    let plugin = plugin_with(&[FULL]);
    let names: Vec<String> = plugin.list_tools(&up).into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["moviepilot_api"]);
    assert!(try_call(&plugin, &up, "moviepilot_input_contract", r#"{"tool":"x"}"#).is_err());
}

#[test]
fn with_nothing_abridged_the_contract_tool_is_unknown_like_any_unlisted_tool() {
    // Compact mode, but every schema comes complete: nothing to fetch a contract of.
    let up = moviepilot(standard_tools(), no_calls);
    let plugin = plugin_with(&[]);
    let names: Vec<String> = plugin.list_tools(&up).into_iter().map(|t| t.name).collect();
    assert!(
        !names.iter().any(|n| n == "moviepilot_input_contract"),
        "{names:?}"
    );
    let contract = try_call(
        &plugin,
        &up,
        "moviepilot_input_contract",
        r#"{"tool": "moviepilot_api"}"#,
    );
    let ghost = try_call(&plugin, &up, "moviepilot_ghost", r#"{}"#);
    assert!(
        matches!(&contract, Err(UnknownTool(n)) if n == "moviepilot_input_contract"),
        "{contract:?}"
    );
    assert!(ghost.is_err(), "{ghost:?}");
}
