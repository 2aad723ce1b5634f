//! Handler and schema agree: for every Ombi tool, argument objects its `inputSchema` allows are
//! generated, the handler runs on each (against upstreams that answer every request with one
//! JSON body: a list, an object, a string, `true`), and every argument read is checked against
//! the schema. Together the reads of
//! one tool must cover exactly the schema's properties, each default must be the schema's, and
//! no read may fail on an argument the schema made present. A tool with a selector argument
//! publishes its table of views as that argument's schema, and each view answers with the
//! result families its table entry names.

use super::backend::registry;
use super::call::Call;
use super::config::OmbiConfig;
use crate::config::Config;
use crate::contract::ErrorCode;
use crate::schema;
use crate::testing::{FakeUpstream, Rng, json_response};
use crate::tool::Args;
use crate::tool::Read;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// Strings that fit the patterns the tools use (ids, languages, countries, dates, log names).
const STRINGS: &[&str] = &[
    "matrix",
    "603",
    "1",
    "tt0133093",
    "5d1b1d2d-1a2b-4c3d-9e8f-0a1b2c3d4e5f",
    "en",
    "pt-BR",
    "US",
    "0123456789abcdef",
    "2024-01-01",
    "2024-06-01T00:00:00Z",
    "log20260502.txt",
    "/hideRequestsUsers",
    "",
];

/// Values that may fit property schema `prop` (the whole object is validated afterwards).
fn candidates(prop: &Value) -> Vec<Value> {
    if let Some(e) = prop.get("enum").and_then(Value::as_array) {
        return e.clone();
    }
    if let Some(c) = prop.get("const") {
        return vec![c.clone()];
    }
    match prop.get("type") {
        Some(Value::String(t)) if t == "integer" => {
            let min = prop.get("minimum").and_then(Value::as_i64).unwrap_or(0);
            let mut out = vec![json!(min), json!(min + 1)];
            if let Some(max) = prop.get("maximum").and_then(Value::as_i64) {
                out.push(json!(max));
            }
            out
        }
        Some(Value::String(t)) if t == "boolean" => vec![json!(true), json!(false)],
        Some(Value::String(t)) if t == "string" => STRINGS.iter().map(|s| json!(s)).collect(),
        Some(Value::String(t)) if t == "array" => {
            let items = prop.get("items").map(candidates).unwrap_or_default();
            let mut out: Vec<Value> = items.iter().map(|i| json!([i])).collect();
            out.push(Value::Array(items));
            out
        }
        Some(Value::String(t)) if t == "object" => {
            let props = prop.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = prop
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let Some(props) = props else {
                return vec![json!({})];
            };
            // Every combination of the required properties' candidates, then each optional
            // property added to the first.
            let mut combos = vec![Map::new()];
            for r in &required {
                let values = props.get(*r).map(candidates).unwrap_or_default();
                combos = combos
                    .iter()
                    .flat_map(|c| {
                        values.iter().map(move |v| {
                            let mut c = c.clone();
                            c.insert((*r).to_owned(), v.clone());
                            c
                        })
                    })
                    .collect();
            }
            let base = combos[0].clone();
            let mut out: Vec<Value> = combos.into_iter().map(Value::Object).collect();
            for (name, p) in props {
                for c in candidates(p).into_iter().take(2) {
                    let mut o = base.clone();
                    o.insert(name.clone(), c);
                    out.push(Value::Object(o));
                }
            }
            out
        }
        _ => vec![json!("matrix"), json!(1), json!(true), json!(null)],
    }
}

/// Up to `want` distinct argument objects `schema` allows.
fn allowed_arguments(schema: &Value, rng: &mut Rng, want: usize) -> Vec<Map<String, Value>> {
    let props = schema["properties"].as_object().expect("properties");
    let choices: Vec<(&String, Vec<Value>)> =
        props.iter().map(|(n, p)| (n, candidates(p))).collect();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for _ in 0..want * 200 {
        if out.len() >= want {
            break;
        }
        // Sparse objects as often as dense ones: conditional schemas allow few combinations.
        let one_in = 2 + rng.below(4);
        let mut map = Map::new();
        for (name, values) in &choices {
            if !values.is_empty() && rng.below(one_in) == 0 {
                map.insert((*name).clone(), values[rng.below(values.len())].clone());
            }
        }
        let value = Value::Object(map);
        if schema::validate(schema, &value).is_ok() && seen.insert(value.to_string()) {
            let Value::Object(map) = value else {
                unreachable!()
            };
            out.push(map);
        }
    }
    out
}

/// Hand-picked allowed arguments for tools whose handlers check values more closely than the
/// generator can guess (a settings change must name a writable field with a fitting value).
fn examples(tool: &str) -> Vec<Value> {
    match tool {
        "write_settings_update" => vec![
            json!({"section": "ombi", "changes": [{"name": "/hideRequestsUsers", "value": true}], "revision": "0123456789abcdef"}),
        ],
        _ => Vec::new(),
    }
}

fn required(schema: &Value) -> BTreeSet<String> {
    schema["required"]
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

fn ombi_config() -> OmbiConfig {
    Config::from_lookup(|k| (k == "OMBI_URL").then(|| "http://ombi.test".to_owned()))
        .ombi
        .expect("ombi configured")
}

/// Upstreams that answer every request with one JSON body: a list, an object, a string, `true`.
fn one_body_upstreams() -> Vec<FakeUpstream> {
    ["[]", "{}", "\"line one\"", "true"]
        .into_iter()
        .map(|body| FakeUpstream::new().script(move |_| Some(Ok(json_response(body.into())))))
        .collect()
}

#[test]
fn every_handler_reads_exactly_its_schema_fields_with_the_schema_defaults() {
    let config = ombi_config();
    let upstreams = one_body_upstreams();
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut failures = BTreeSet::new();
    for tool in registry() {
        let schema = (tool.input_schema)();
        let props = schema["properties"].as_object().expect("properties");
        let required = required(&schema);
        let mut sets = allowed_arguments(&schema, &mut rng, 100);
        for example in examples(tool.name) {
            assert!(
                schema::validate(&schema, &example).is_ok(),
                "{}: {example}",
                tool.name
            );
            let Value::Object(map) = example else {
                unreachable!()
            };
            sets.push(map);
        }
        assert!(
            !sets.is_empty(),
            "{}: no allowed arguments generated",
            tool.name
        );
        let mut read_names = BTreeSet::new();
        for (given, upstream) in sets
            .into_iter()
            .flat_map(|g| upstreams.iter().map(move |u| (g.clone(), u)))
        {
            let call = Call {
                upstream,
                config: &config,
                principal: Some("alice"),
                deadline_ms: 30_000,
            };
            let shown = Value::Object(given.clone()).to_string();
            let args = Args::from_schema(&schema, given.clone());
            let outcome = (tool.handler)(&call, &args);
            if let Err(e) = &outcome
                && e.code == ErrorCode::InternalError
            {
                failures.insert(format!("{}: {shown}: {}", tool.name, e.message));
            }
            for Read {
                name,
                present,
                value,
            } in args.reads()
            {
                let Some(prop) = props.get(&name) else {
                    failures.insert(format!(
                        "{}: reads {name}, which its schema lacks",
                        tool.name
                    ));
                    continue;
                };
                let default = prop.get("default");
                if !present && (default.is_some() || required.contains(&name)) {
                    failures.insert(format!(
                        "{}: reads {name} as optional, but its schema makes it present",
                        tool.name
                    ));
                }
                if let Some(default) = default
                    && !given.contains_key(&name)
                    && value.as_ref() != Some(default)
                {
                    failures.insert(format!(
                        "{}: {name} read as {value:?}, not the schema default {default}",
                        tool.name
                    ));
                }
                read_names.insert(name);
            }
        }
        let unread: Vec<&String> = props.keys().filter(|p| !read_names.contains(*p)).collect();
        if !unread.is_empty() {
            failures.insert(format!("{}: never reads {unread:?}", tool.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{}",
        failures.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn defaults_are_filled_from_the_schema_and_given_values_win() {
    let schema = json!({"type": "object", "properties": {
        "view": {"enum": ["list", "detail"], "default": "list"},
        "offset": crate::paging::offset_schema(),
        "limit": crate::paging::limit_schema(),
        "query": {"type": "string"}
    }});
    let given = json!({"view": "detail", "limit": 5});
    let Value::Object(map) = given else {
        unreachable!()
    };
    let args = Args::from_schema(&schema, map);
    assert_eq!(args.str("view").unwrap(), "detail");
    let window = args.window().unwrap();
    assert_eq!((window.offset, window.limit), (0, 5));
    assert!(args.given("limit") && !args.given("offset"));
    assert_eq!(args.opt_str("query"), None);
    let missing = args.str("query").unwrap_err();
    assert_eq!(missing.code, ErrorCode::InternalError);
    assert!(missing.message.contains("query"), "{}", missing.message);
}

/// The tools whose selector argument (`view`, `scope`, `kind`, `category`, `media`, `action`)
/// chooses which operation runs.
const VIEW_TOOLS: &[&str] = &[
    "read_search",
    "read_media",
    "read_discover",
    "read_requests",
    "read_request_stats",
    "read_issues",
    "read_votes",
    "read_users",
    "read_reference",
    "read_library",
    "read_server",
    "read_logs",
    "write_issue_comment",
    "write_request_create",
];

#[test]
fn every_view_table_is_its_selectors_schema_and_covers_the_tools_families() {
    let mut with_views = BTreeSet::new();
    for tool in registry() {
        let Some(views) = tool.views else {
            continue;
        };
        with_views.insert(tool.name);
        let schema = (tool.input_schema)();
        let property = &schema["properties"][views.field()];
        assert_eq!(property["enum"], json!(views.names()), "{}", tool.name);
        assert_eq!(*property, views.property(), "{}", tool.name);
        let mut answered = BTreeSet::new();
        for name in views.names() {
            let families = views.families(name).expect("a listed view");
            assert!(
                !families.is_empty(),
                "{}: view {name} has no family",
                tool.name
            );
            for family in families {
                assert!(
                    tool.families.contains(family),
                    "{}: view {name} answers with {family}, which the tool does not declare",
                    tool.name
                );
                answered.insert(*family);
            }
        }
        let declared: BTreeSet<&str> = tool.families.iter().copied().collect();
        assert_eq!(
            answered, declared,
            "{}: a family no view answers with",
            tool.name
        );
    }
    let expected: BTreeSet<&str> = VIEW_TOOLS.iter().copied().collect();
    assert_eq!(with_views, expected);
}

#[test]
fn every_view_answers_with_its_own_families() {
    let config = ombi_config();
    let mut upstreams = one_body_upstreams();
    // An engine result, the only answer a request write completes with, and the health
    // check's answer.
    for body in [r#"{"result": true, "requestId": 7}"#, "\"Healthy\""] {
        upstreams.push(FakeUpstream::new().script(move |_| Some(Ok(json_response(body.into())))));
    }
    let mut rng = Rng(0x5EED_1234_ABCD_0002);
    let mut checked = BTreeSet::new();
    for tool in registry() {
        let Some(views) = tool.views else {
            continue;
        };
        let schema = (tool.input_schema)();
        for given in allowed_arguments(&schema, &mut rng, 150) {
            for upstream in &upstreams {
                let call = Call {
                    upstream,
                    config: &config,
                    principal: Some("alice"),
                    deadline_ms: 30_000,
                };
                let args = Args::from_schema(&schema, given.clone());
                let view = args.str(views.field()).expect("selected").to_owned();
                let Ok(reply) = (tool.handler)(&call, &args) else {
                    continue;
                };
                let Some(kind) = reply.data.as_ref().and_then(|d| d["kind"].as_str()) else {
                    continue;
                };
                let families = views.families(&view).expect("a listed view");
                assert!(
                    families.contains(&kind),
                    "{} view {view} answered with {kind}, not one of {families:?}",
                    tool.name
                );
                checked.insert((tool.name, view));
            }
        }
    }
    let every_view: BTreeSet<(&str, String)> = registry()
        .filter_map(|t| Some((t.name, t.views?)))
        .flat_map(|(name, views)| views.names().into_iter().map(move |v| (name, v.to_owned())))
        .collect();
    let unchecked: Vec<_> = every_view.difference(&checked).collect();
    assert!(
        unchecked.is_empty(),
        "views with no answer checked: {unchecked:?}"
    );
}
