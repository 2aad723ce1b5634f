//! The MoviePilot backend against both MoviePilot versions: the documented endpoint with its
//! router's recursive `JsonData-Input` definitions, and v2.9.15 (39 per-purpose tools) as the
//! real application answered, from the fake's recordings.

use media_mcp_fakes::moviepilot::{FakeMoviePilot, Version, recorded};
use media_mcp_tests::{Env, Harness, structured};
use serde_json::{Value, json};

fn env(fake: &FakeMoviePilot) -> Env {
    Env::new()
        .set("MOVIEPILOT_URL", &fake.mcp_url())
        .set("MOVIEPILOT_API_KEY", fake.key())
}

fn listed(h: &mut Harness) -> Vec<Value> {
    let r = h.rpc("tools/list", json!({}));
    r["result"]["tools"].as_array().expect("tools").clone()
}

fn v2_9_15() -> FakeMoviePilot {
    FakeMoviePilot::builder().version(Version::V2_9_15).start()
}

fn call(h: &mut Harness, name: &str, args: Value) -> Value {
    structured(&h.call_tool(name, args)).clone()
}

#[test]
fn a_call_against_the_routers_recursive_schema_answers_in_both_schema_modes() {
    // MoviePilot's real schema: a little over 200 operations, free-form parameters recursive.
    let fake = FakeMoviePilot::builder().api_operations(200).start();
    for mode in ["compact", "full"] {
        let env = env(&fake).set("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE", mode);
        let mut h = Harness::serve_initialized(&env, "2025-11-25");
        let _ = listed(&mut h);
        let s = call(
            &mut h,
            "moviepilot_api",
            json!({"operation_id": "subscription.list", "query": {"page": 1, "count": 20}}),
        );
        assert_eq!(s["ok"], true, "{mode}: {s}");
        assert_eq!(s["data"]["collection"]["count"], 20, "{mode}: {s}");
        let s = call(
            &mut h,
            "moviepilot_api",
            json!({"operation_id": "config.system.update", "body": {"key": "X", "value": {"a": [1, {"b": [null, "c"]}]}}}),
        );
        assert_eq!(s["data"]["data"]["revision"], 2, "{mode}: {s}");
        let s = call(
            &mut h,
            "moviepilot_api",
            json!({"operation_id": "subscription.list", "query": {"page": 0}}),
        );
        assert_eq!(s["error"]["code"], "INVALID_ARGUMENT", "{mode}: {s}");
    }
}

#[test]
fn a_huge_text_in_a_record_is_shortened_and_the_record_kept() {
    let fake = FakeMoviePilot::builder().overview_chars(200_000).start();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let s = call(
        &mut h,
        "moviepilot_api",
        json!({"operation_id": "media.detail", "path_params": {"media_id": "27205"}}),
    );
    assert_eq!(s["ok"], true, "{s}");
    assert_eq!(s["truncated"], true);
    let record = &s["data"]["data"];
    assert_eq!(record["release_date"], "2010-07-15", "{record}");
    assert_eq!(record["runtime"], 148);
    assert_eq!(record["genres"][1]["name"], "科幻");
    assert!(
        s["warnings"].to_string().contains("`overview`"),
        "{}",
        s["warnings"]
    );
}

#[test]
fn v2_9_15_reads_are_reads_and_writes_stay_writes() {
    let fake = v2_9_15();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let tools: Vec<Value> = listed(&mut h)
        .into_iter()
        .filter(|t| t["name"] != "job_status" && t["name"] != "job_cancel")
        .collect();
    assert_eq!(tools.len(), 39, "nothing abridged: no input-contract tool");
    let hint = |name: &str| {
        let t = tools.iter().find(|t| t["name"] == name).expect(name);
        (
            t["annotations"]["readOnlyHint"].clone(),
            t["annotations"]["destructiveHint"].clone(),
        )
    };
    for read in [
        "query_sites",
        "query_workflows",
        "list_directory",
        "get_search_results",
        "search_person",
    ] {
        assert_eq!(hint(read).0, true, "{read}");
    }
    for write in [
        "add_subscribe",
        "search_subscribe",
        "search_torrents",
        "recognize_media",
        "run_scheduler",
    ] {
        assert_eq!(hint(write), (json!(false), json!(true)), "{write}");
    }
    let s = call(&mut h, "query_sites", json!({"explanation": "e"}));
    assert_eq!(s["ok"], true, "{s}");
    assert_eq!(s["data"]["data"][0]["name"], "LoopbackPT");
    assert!(!s["warnings"].to_string().contains("not confirmed"), "{s}");
    let s = call(&mut h, "query_downloaders", json!({"explanation": "e"}));
    assert_eq!(s["data"]["text"], "未配置下载器。");
    assert!(
        s["data"].get("success").is_none(),
        "prose claims nothing: {s}"
    );
    let s = call(
        &mut h,
        "run_scheduler",
        json!({"explanation": "e", "job_id": "clear_cache"}),
    );
    assert_eq!(s["ok"], true, "{s}");
    assert!(s["warnings"].to_string().contains("not confirmed"), "{s}");

    let ro = env(&fake).set("MEDIA_MCP_READ_ONLY", "1");
    let mut h = Harness::serve_initialized(&ro, "2025-11-25");
    let names: Vec<Value> = listed(&mut h).iter().map(|t| t["name"].clone()).collect();
    assert!(names.contains(&json!("query_sites")) && !names.contains(&json!("add_subscribe")));
    let s = call(&mut h, "query_sites", json!({"explanation": "e"}));
    assert_eq!(s["ok"], true, "{s}");
}

#[test]
fn v2_9_15_prose_failures_are_failures_with_moviepilots_message() {
    let fake = v2_9_15();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let s = call(
        &mut h,
        "add_subscribe",
        json!({"explanation": "e", "title": "Dune", "year": "2021", "media_type": "film"}),
    );
    assert_eq!(s["ok"], false, "{s}");
    assert_eq!(s["error"]["code"], "INVALID_ARGUMENT");
    assert!(
        s["error"]["message"]
            .as_str()
            .unwrap()
            .contains("无效的媒体类型"),
        "{s}"
    );
    let s = call(
        &mut h,
        "add_subscribe",
        json!({"explanation": "e", "title": "Dune", "year": "2021", "media_type": "movie", "tmdb_id": 438631}),
    );
    assert_eq!(s["error"]["code"], "UPSTREAM_REJECTED", "{s}");
    assert!(
        s["error"]["message"]
            .as_str()
            .unwrap()
            .contains("添加订阅失败")
    );
    let s = call(&mut h, "query_library_exists", json!({"explanation": "e"}));
    assert_eq!(s["error"]["code"], "INVALID_ARGUMENT", "参数错误: {s}");
    let s = call(
        &mut h,
        "delete_subscribe",
        json!({"explanation": "e", "subscribe_id": 99}),
    );
    assert_eq!(s["error"]["code"], "NOT_FOUND", "{s}");
    let s = call(
        &mut h,
        "update_subscribe",
        json!({"explanation": "e", "subscribe_id": 99, "quality": "BluRay"}),
    );
    assert_eq!(s["ok"], false, "success: false: {s}");
}

#[test]
fn v2_9_15_a_notice_and_its_json_are_both_kept_and_the_cut_is_said() {
    let fake = FakeMoviePilot::builder()
        .version(Version::V2_9_15)
        .recorded_state(recorded::MANY_SUBSCRIPTIONS)
        .start();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let s = call(&mut h, "query_subscribes", json!({"explanation": "e"}));
    assert_eq!(s["ok"], true, "{s}");
    assert_eq!(s["truncated"], true);
    assert_eq!(s["data"]["data"].as_array().map(Vec::len), Some(50));
    assert!(s["data"]["text"].as_str().unwrap().contains("共找到 62 条"));
    assert!(
        s["warnings"]
            .to_string()
            .contains("only part of the results"),
        "{}",
        s["warnings"]
    );
}

#[test]
fn v2_9_15_a_removed_tool_is_refreshed_once_and_unknown() {
    let fake = v2_9_15();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let names = |tools: Vec<Value>| -> Vec<String> {
        tools
            .iter()
            .map(|t| t["name"].as_str().expect("name").to_owned())
            .collect()
    };
    assert!(names(listed(&mut h)).contains(&"query_sites".to_owned()));
    fake.remove_tool("query_sites");
    // MoviePilot's `{"error": "工具 'query_sites' 未找到"}` makes the catalogue refresh once; the
    // tool is then unknown, as with the documented endpoint, and no longer listed.
    let r = h.call_tool("query_sites", json!({"explanation": "e"}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let after = names(listed(&mut h));
    assert!(!after.contains(&"query_sites".to_owned()), "{after:?}");
    assert!(after.contains(&"query_subscribes".to_owned()), "{after:?}");
}

#[test]
fn v2_9_15_local_checks_accept_moviepilots_coercions_and_a_refusal_costs_no_request() {
    let fake = v2_9_15();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let _ = listed(&mut h);
    for (tool, args) in [
        (
            "query_subscribes",
            json!({"explanation": "e", "tmdb_id": "27205"}),
        ),
        (
            "query_subscribes",
            json!({"explanation": "e", "status": null}),
        ),
        (
            "add_download",
            json!({"explanation": "e", "torrent_url": "http://127.0.0.1:9/t.torrent"}),
        ),
        (
            "list_directory",
            json!({"explanation": "e", "path": "/", "sort_by": null}),
        ),
    ] {
        let before = fake.tool_calls(tool);
        let s = call(&mut h, tool, args.clone());
        assert_ne!(s["error"]["code"], "INVALID_ARGUMENT", "{tool} {args}: {s}");
        assert_eq!(
            fake.tool_calls(tool),
            before + 1,
            "{tool} {args} reached MoviePilot"
        );
    }
    fake.clear_requests();
    let s = call(
        &mut h,
        "query_site_userdata",
        json!({"explanation": "e", "site_id": "one"}),
    );
    assert_eq!(s["error"]["code"], "INVALID_ARGUMENT", "{s}");
    assert_eq!(s["error"]["field"], "site_id");
    assert!(fake.requests().is_empty(), "{:?}", fake.request_counts());
}

#[test]
fn a_torrent_search_is_a_write_in_both_versions() {
    let code = |s: &Value| s["error"]["code"].clone();
    let documented = FakeMoviePilot::start();
    // An allowlist of reads plus the torrent search does not make moviepilot_api read-only.
    let ro = env(&documented).set("MEDIA_MCP_READ_ONLY", "1").set(
        "MEDIA_MCP_MOVIEPILOT_API_ALLOW",
        "media.search,search.torrents",
    );
    let mut h = Harness::serve_initialized(&ro, "2025-11-25");
    assert!(!listed(&mut h).iter().any(|t| t["name"] == "moviepilot_api"));
    let s = call(
        &mut h,
        "moviepilot_api",
        json!({"operation_id": "search.torrents", "query": {"title": "Inception"}}),
    );
    assert_eq!(code(&s), "FORBIDDEN", "{s}");
    let fake = v2_9_15();
    let mut h =
        Harness::serve_initialized(&env(&fake).set("MEDIA_MCP_READ_ONLY", "1"), "2025-11-25");
    assert!(
        !listed(&mut h)
            .iter()
            .any(|t| t["name"] == "search_torrents")
    );
    let s = call(
        &mut h,
        "search_torrents",
        json!({"explanation": "e", "tmdb_id": 27205}),
    );
    assert_eq!(code(&s), "FORBIDDEN", "{s}");
    assert_eq!(fake.tool_calls("search_torrents"), 0);
    assert_eq!(documented.tool_calls("moviepilot_api"), 0);
}

#[test]
fn v2_9_15_has_no_contract_tool_to_call() {
    // Nothing of v2.9.15 is abridged: the contract tool is answered as any unlisted name is.
    let fake = v2_9_15();
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    assert!(
        !listed(&mut h)
            .iter()
            .any(|t| t["name"] == "moviepilot_input_contract")
    );
    let answer = |h: &mut Harness, name: &str| {
        let mut r = h.call_tool(name, json!({"tool": "query_sites"}));
        r["id"] = Value::Null;
        r.to_string().replace(name, "NAME")
    };
    let contract = answer(&mut h, "moviepilot_input_contract");
    assert_eq!(contract, answer(&mut h, "moviepilot_no_such_tool"));
    assert!(contract.contains("unknown tool"), "{contract}");
}
