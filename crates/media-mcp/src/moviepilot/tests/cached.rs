//! Calls with a host cache: one `tools/call` per call in steady state, and one refresh when the
//! stored catalogue cannot be trusted (tool gone, schema changed, entries dropped by the host).

use super::*;
use crate::host_cache::HostCache;
use crate::testing::MemoryCache;
use std::cell::RefCell;
use std::rc::Rc;

/// MoviePilot's current tools and what `tools/call` answers, changeable between calls.
struct Live {
    tools: RefCell<Vec<Value>>,
    schemas: RefCell<HashMap<String, Value>>,
}

type Caller = Rc<dyn Fn(&HttpRequest, &str, &Value) -> Answer>;

fn live(tools: Vec<Value>) -> Rc<Live> {
    Rc::new(Live {
        tools: RefCell::new(tools),
        schemas: RefCell::default(),
    })
}

/// A MoviePilot listing `live`'s tools (a tool it does not list answers `未找到`), serving
/// `live`'s full schemas at the helper endpoint.
fn upstream(live: &Rc<Live>, call: Caller) -> FakeUpstream {
    let listing = live.clone();
    let helper = live.clone();
    FakeUpstream::new()
        .script(move |req| {
            let name = req.url.strip_prefix(&format!("{URL}/tools/"))?;
            let name = name.strip_suffix("/schema")?;
            let schema = helper.schemas.borrow().get(name).cloned();
            Some(match schema {
                Some(s) => json_answer(200, s),
                None => json_answer(404, json!({"detail": "Not Found"})),
            })
        })
        .script(move |req| {
            let tools = listing.tools.borrow().clone();
            let call = call.clone();
            mp_script(tools.clone(), move |req, name, args| {
                if tools.iter().any(|t| t["name"] == name) {
                    call(req, name, args)
                } else {
                    text(req, &format!("错误: 工具 '{name}' 未找到"), true)
                }
            })(req)
        })
}

fn ok_call(req: &HttpRequest, _: &str, _: &Value) -> Answer {
    text(
        req,
        r#"{"success": true, "message": "", "data": []}"#,
        false,
    )
}

fn cached_plugin(extra: &[(&str, &str)], cache: &Rc<MemoryCache>) -> Plugin {
    let mut map: HashMap<String, String> = extra
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    map.insert("MOVIEPILOT_URL".into(), URL.into());
    let cache: Rc<dyn HostCache> = cache.clone();
    Plugin::with_cache(Config::from_lookup(|k| map.get(k).cloned()), cache)
}

fn api_schema(ops: &[&str]) -> Value {
    let branches: Vec<Value> = ops
        .iter()
        .map(|op| json!({"type": "object", "properties": {"operation_id": {"const": op}, "query": {"$ref": "#/$defs/Query"}}, "required": ["operation_id"], "additionalProperties": false}))
        .collect();
    json!({"type": "object", "properties": {"operation_id": {"type": "string"}}, "required": ["operation_id"], "oneOf": branches,
        "$defs": {"Query": {"type": "object", "properties": {"title": {"type": "string", "minLength": 1}}, "additionalProperties": false}}})
}

fn tool_calls(up: &FakeUpstream) -> usize {
    methods(up).iter().filter(|m| *m == "tools/call").count()
}

/// What a refresh sends.
const REFRESH: [&str; 3] = ["initialize", "notifications/initialized", "tools/list"];

/// `REFRESH` with `before` and `after` around it.
fn refresh_between(before: &[&str], after: &[&str]) -> Vec<String> {
    [before, &REFRESH[..], after]
        .concat()
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// A cached plugin that listed MoviePilot's `tools` once; the requests so far are forgotten.
struct Warm {
    cache: Rc<MemoryCache>,
    plugin: Plugin,
    state: Rc<Live>,
    up: FakeUpstream,
}

fn warm(extra: &[(&str, &str)], tools: Vec<Value>, answer: Caller) -> Warm {
    let cache = Rc::new(MemoryCache::default());
    let plugin = cached_plugin(extra, &cache);
    let state = live(tools);
    let up = upstream(&state, answer);
    plugin.list_tools(&up);
    up.log.borrow_mut().clear();
    Warm {
        cache,
        plugin,
        state,
        up,
    }
}

#[test]
fn after_listing_every_call_is_one_tools_call() {
    for mode in ["full", "compact"] {
        let setting = [("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE", mode)];
        let w = warm(&setting, standard_tools(), Rc::new(ok_call));
        for _ in 0..3 {
            let r = call(&w.plugin, &w.up, "search_media", json!({"title": "Dune"}));
            assert_eq!(r["ok"], true, "{r}");
        }
        assert_eq!(methods(&w.up), ["tools/call"; 3], "{mode}");
        let sent = &w.up.requests()[0];
        assert_eq!(header(sent, "mcp-protocol-version"), Some("2025-11-25"));
        assert_eq!(header(sent, "mcp-session-id"), None);
    }
}

#[test]
fn a_first_call_discovers_once_and_the_next_sends_only_tools_call() {
    let cache = Rc::new(MemoryCache::default());
    let plugin = cached_plugin(&[], &cache);
    let up = upstream(&live(standard_tools()), Rc::new(ok_call));
    call(&plugin, &up, "search_media", json!({"title": "Dune"}));
    call(&plugin, &up, "add_subscribe", json!({"title": "Dune"}));
    assert_eq!(
        methods(&up),
        refresh_between(&[], &["tools/call", "tools/call"])
    );
}

#[test]
fn a_projected_schema_is_read_from_the_helper_once_and_checked_per_operation() {
    let projected = json!({"type": "object", "properties": {"operation_id": {"enum": ["media.search", "media.detail"]}}, "required": ["operation_id"], "x-moviepilot-schema-projection": {"mode": "auto"}});
    let w = warm(
        &[],
        vec![tool("moviepilot_api", projected)],
        Rc::new(ok_call),
    );
    w.state.schemas.borrow_mut().insert(
        "moviepilot_api".into(),
        api_schema(&["media.search", "media.detail"]),
    );
    let args = json!({"operation_id": "media.search", "query": {"title": "Dune"}});
    for _ in 0..3 {
        assert_eq!(
            call(&w.plugin, &w.up, "moviepilot_api", args.clone())["ok"],
            true
        );
    }
    assert_eq!(
        methods(&w.up),
        [
            "GET /tools/moviepilot_api/schema",
            "tools/call",
            "tools/call",
            "tools/call"
        ]
    );
    // The whole schema is never stored: one entry per operation, and the rest without branches.
    let stored = w.cache.map.borrow();
    assert!(
        stored
            .keys()
            .any(|k| k.ends_with(" op moviepilot_api media.detail"))
    );
    assert!(stored.values().all(|v| !v.contains("oneOf")), "{stored:?}");
    drop(stored);
    // The first call learnt which argument names the operation: a call reads the index and its
    // operation's entry, not the form first.
    w.cache.reads.borrow_mut().clear();
    call(&w.plugin, &w.up, "moviepilot_api", args.clone());
    let reads = w.cache.reads.borrow().clone();
    assert!(
        matches!(&reads[..], [index, op] if index.ends_with(" index") && op.ends_with(" op moviepilot_api media.search")),
        "{reads:?}"
    );
    w.up.log.borrow_mut().clear();
    let bad = call(
        &w.plugin,
        &w.up,
        "moviepilot_api",
        json!({"operation_id": "media.detail", "query": {"title": ""}}),
    );
    assert_eq!(bad["error"]["code"], "INVALID_ARGUMENT", "{bad}");
    // The stored form accepts whatever MoviePilot accepts: its refusal costs no request.
    assert!(methods(&w.up).is_empty(), "{:?}", methods(&w.up));
}

#[test]
fn a_removed_tool_is_refreshed_once_and_unknown() {
    let w = warm(&[], standard_tools(), Rc::new(ok_call));
    w.state
        .tools
        .borrow_mut()
        .retain(|t| t["name"] != "add_subscribe");
    let r = try_call(&w.plugin, &w.up, "add_subscribe", r#"{"title": "Dune"}"#);
    assert_eq!(r, Err(UnknownTool("add_subscribe".into())));
    assert_eq!(
        methods(&w.up),
        refresh_between(&["tools/call"], &[]),
        "the answer proved nothing ran; the write is not sent again"
    );
    w.up.log.borrow_mut().clear();
    assert!(try_call(&w.plugin, &w.up, "add_subscribe", "{}").is_err());
    assert_eq!(methods(&w.up), REFRESH);
}

#[test]
fn a_tool_that_is_not_stored_is_looked_up_once() {
    let w = warm(&[], standard_tools(), Rc::new(ok_call));
    w.state
        .tools
        .borrow_mut()
        .push(tool("plugin_notes", open_schema()));
    assert_eq!(
        call(&w.plugin, &w.up, "plugin_notes", json!({}))["ok"],
        true
    );
    assert_eq!(methods(&w.up), refresh_between(&[], &["tools/call"]));
}

fn invalid_input(req: &HttpRequest) -> Answer {
    text(
        req,
        r#"{"success": false, "error": "invalid_input", "message": "year is required", "input_contract": {"year": "string"}}"#,
        false,
    )
}

fn needs_year(req: &HttpRequest, _: &str, args: &Value) -> Answer {
    if args.get("year").is_some() {
        ok_call(req, "", args)
    } else {
        invalid_input(req)
    }
}

fn with_year_required() -> Vec<Value> {
    let mut tools = standard_tools();
    tools[1] = tool(
        "add_subscribe",
        json!({"type": "object", "properties": {"title": {"type": "string"}, "year": {"type": "string"}}, "required": ["title", "year"]}),
    );
    tools
}

#[test]
fn a_changed_schema_is_learnt_from_invalid_input_and_checked_locally_without_resending() {
    let w = warm(&[], standard_tools(), Rc::new(needs_year));
    *w.state.tools.borrow_mut() = with_year_required();
    let r = call(&w.plugin, &w.up, "add_subscribe", json!({"title": "Dune"}));
    assert_eq!(r["error"]["code"], "INVALID_ARGUMENT", "{r}");
    assert_eq!(r["error"]["field"], "year", "{r}");
    assert_eq!(methods(&w.up), refresh_between(&["tools/call"], &[]));
    // The refreshed catalogue is stored: the next call is one tools/call again.
    w.up.log.borrow_mut().clear();
    let args = json!({"title": "Dune", "year": "2021"});
    assert_eq!(call(&w.plugin, &w.up, "add_subscribe", args)["ok"], true);
    assert_eq!(methods(&w.up), ["tools/call"]);
}

#[test]
fn invalid_input_against_an_unchanged_schema_is_answered_without_resending() {
    let w = warm(
        &[],
        standard_tools(),
        Rc::new(|req, _, _| invalid_input(req)),
    );
    let r = call(&w.plugin, &w.up, "add_subscribe", json!({"title": "Dune"}));
    assert_eq!(r["error"]["code"], "INVALID_ARGUMENT", "{r}");
    assert_eq!(
        r["data"]["input_contract"],
        json!({"year": "string"}),
        "{r}"
    );
    assert_eq!(tool_calls(&w.up), 1, "{:?}", methods(&w.up));
}

#[test]
fn a_changed_schema_that_accepts_the_arguments_is_sent_again_once() {
    // MoviePilot's schema lost `year` after the listing; the first answer still asked for it.
    let calls = Rc::new(RefCell::new(0));
    let seen = calls.clone();
    let answer: Caller = Rc::new(move |req, _, _| {
        *seen.borrow_mut() += 1;
        if *seen.borrow() == 1 {
            invalid_input(req)
        } else {
            ok_call(req, "", &Value::Null)
        }
    });
    let w = warm(&[], with_year_required(), answer);
    *w.state.tools.borrow_mut() = standard_tools();
    let r = call(
        &w.plugin,
        &w.up,
        "add_subscribe",
        json!({"title": "Dune", "year": "2021"}),
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(
        methods(&w.up),
        refresh_between(&["tools/call"], &["tools/call"])
    );
}

#[test]
fn a_refusal_from_the_stored_form_costs_no_request_and_a_new_listing_learns_the_change() {
    let w = warm(&[], with_year_required(), Rc::new(ok_call));
    *w.state.tools.borrow_mut() = standard_tools();
    let r = call(&w.plugin, &w.up, "add_subscribe", json!({"title": "Dune"}));
    assert_eq!(r["error"]["field"], "year", "{r}");
    assert!(methods(&w.up).is_empty(), "{:?}", methods(&w.up));
    // Listing again stores MoviePilot's current schema, which no longer needs the year.
    w.plugin.list_tools(&w.up);
    w.up.log.borrow_mut().clear();
    let r = call(&w.plugin, &w.up, "add_subscribe", json!({"title": "Dune"}));
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(methods(&w.up), ["tools/call"]);
}

#[test]
fn a_write_with_an_unknown_outcome_or_a_lost_answer_is_never_sent_again() {
    let unknown = |req: &HttpRequest, _: &str, _: &Value| {
        text(
            req,
            r#"{"success": true, "execution_outcome": "unknown"}"#,
            false,
        )
    };
    let lost = |_: &HttpRequest, _: &str, _: &Value| -> Answer {
        Err(crate::upstream::UpstreamError::ConnectionLost)
    };
    let answers: [Caller; 2] = [Rc::new(unknown), Rc::new(lost)];
    for answer in answers {
        let w = warm(&[], standard_tools(), answer);
        let r = call(&w.plugin, &w.up, "add_subscribe", json!({"title": "Dune"}));
        assert_eq!(r["error"]["code"], "UNKNOWN_OUTCOME", "{r}");
        assert_eq!(methods(&w.up), ["tools/call"]);
    }
}

#[test]
fn the_policy_refuses_with_a_warm_cache_and_nothing_is_sent() {
    let deny = [("MEDIA_MCP_MOVIEPILOT_API_DENY", "media.search")];
    let w = warm(&deny, standard_tools(), Rc::new(ok_call));
    let r = call(
        &w.plugin,
        &w.up,
        "database_operation",
        json!({"action": "write"}),
    );
    assert_eq!(r["error"]["code"], "FORBIDDEN", "{r}");
    let r = call(
        &w.plugin,
        &w.up,
        "moviepilot_api",
        json!({"operation_id": "media.search"}),
    );
    assert_eq!(r["error"]["code"], "FORBIDDEN", "{r}");
    assert!(w.up.requests().is_empty(), "{:?}", methods(&w.up));
}

#[test]
fn entries_the_host_dropped_are_discovered_again() {
    let full = [("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE", "full")];
    let tools = vec![tool(
        "moviepilot_api",
        api_schema(&["media.search", "media.detail"]),
    )];
    let w = warm(&full, tools, Rc::new(ok_call));
    w.cache.map.borrow_mut().retain(|k, _| !k.contains(" op "));
    let args = json!({"operation_id": "media.detail", "query": {"title": "Dune"}});
    assert_eq!(
        call(&w.plugin, &w.up, "moviepilot_api", args.clone())["ok"],
        true
    );
    assert_eq!(methods(&w.up), refresh_between(&[], &["tools/call"]));
    w.up.log.borrow_mut().clear();
    assert_eq!(call(&w.plugin, &w.up, "moviepilot_api", args)["ok"], true);
    assert_eq!(methods(&w.up), ["tools/call"]);
}

#[test]
fn each_endpoint_and_schema_mode_has_its_own_entries() {
    let full = [("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE", "full")];
    let w = warm(&full, standard_tools(), Rc::new(ok_call));
    let compact = cached_plugin(&[], &w.cache);
    call(&compact, &w.up, "search_media", json!({"title": "Dune"}));
    assert_eq!(
        methods(&w.up)[0],
        "initialize",
        "compact mode found nothing of its own"
    );
    let indexes = w
        .cache
        .map
        .borrow()
        .keys()
        .filter(|k| k.ends_with(" index"))
        .count();
    assert_eq!(indexes, 2);
}
