//! Calling bridged tools: the three layers of results, deadlines, policy and argument checks.

use super::*;
use crate::upstream::UpstreamError;

/// A scripted `tools/call` answer.
type Responder = Box<dyn Fn(&HttpRequest) -> Answer>;

/// A MoviePilot whose every `tools/call` answers `answer(req)`.
fn answering(answer: impl Fn(&HttpRequest) -> Answer + 'static) -> FakeUpstream {
    moviepilot(standard_tools(), move |req, _, _| answer(req))
}

fn sent_calls(up: &FakeUpstream) -> usize {
    methods(up).iter().filter(|m| *m == "tools/call").count()
}

/// `add_subscribe` (a write) with a title, on a default plugin.
fn call_subscribe(up: &FakeUpstream) -> Value {
    call(
        &plugin_with(&[]),
        up,
        "add_subscribe",
        json!({"title": "x"}),
    )
}

/// `search_media` (a read) with a title, on a default plugin.
fn call_search(up: &FakeUpstream) -> Value {
    call(&plugin_with(&[]), up, "search_media", json!({"title": "x"}))
}

fn code(out: &Value) -> &str {
    out["error"]["code"].as_str().unwrap_or("")
}

#[test]
fn a_business_success_is_ok_with_collection_and_data() {
    let up = answering(|req| {
        text(
            req,
            r#"{"collection":{"result_count":1,"page":1,"count":20},"success":true,"message":"","data":[{"title":"Inception"}]}"#,
            false,
        )
    });
    let out = call(
        &plugin_with(&[]),
        &up,
        "moviepilot_api",
        json!({"operation_id": "subscription.list", "query": {"page": 1}}),
    );
    assert_eq!(out["ok"], true);
    assert_eq!(out["data"]["success"], true);
    assert_eq!(out["data"]["data"][0]["title"], "Inception");
    assert_eq!(
        out["data"]["collection"],
        json!({"result_count": 1, "page": 1, "count": 20}),
        "total_count absent stays absent"
    );
    assert_eq!(out["warnings"], json!([]));
    let sent = body(&up.requests()[3]);
    assert_eq!(
        sent["params"],
        json!({"name": "moviepilot_api", "arguments": {"operation_id": "subscription.list", "query": {"page": 1}}})
    );
}

#[test]
fn http_and_json_rpc_failures_map_to_contract_codes() {
    let cases: Vec<(Responder, &str, bool)> = vec![
        (
            Box::new(|_| json_answer(401, json!({"detail": "Invalid API key"}))),
            "AUTHENTICATION_FAILED",
            false,
        ),
        (
            Box::new(|_| json_answer(503, json!({"detail": "not ready"}))),
            "UPSTREAM_REJECTED",
            true,
        ),
        (
            Box::new(|r| rpc_error(r, 400, -32602, "Invalid params", Some("missing tool name"))),
            "INVALID_ARGUMENT",
            false,
        ),
        (
            Box::new(|r| rpc_error(r, 200, -32601, "Method not found", None)),
            "UNSUPPORTED_CAPABILITY",
            false,
        ),
        (
            Box::new(|r| rpc_error(r, 500, -32603, "Internal error", Some("boom"))),
            "UNKNOWN_OUTCOME",
            false,
        ),
        (
            Box::new(|r| rpc_error(r, 400, -32700, "Parse error", None)),
            "INTERNAL_ERROR",
            false,
        ),
    ];
    for (answer, want, retryable) in cases {
        let up = answering(answer);
        let out = call(
            &plugin_with(&[]),
            &up,
            "add_subscribe",
            json!({"title": "Dune"}),
        );
        assert_eq!(
            (code(&out), out["error"]["retryable"].as_bool()),
            (want, Some(retryable)),
            "{out}"
        );
    }
    // A read that fails inside MoviePilot is not an unknown outcome.
    let up = answering(|r| rpc_error(r, 500, -32603, "Internal error", None));
    assert_eq!(code(&call_search(&up)), "UPSTREAM_REJECTED");
}

#[test]
fn a_multi_line_upstream_reason_keeps_the_plugins_advice_and_drops_the_traceback() {
    // Found by the MoviePilot fault matrix (tests/it/moviepilot_faults.rs): a traceback in the
    // JSON-RPC error's `data` ended the message at its second line, cutting "check with a read
    // before retrying" off an UNKNOWN_OUTCOME.
    let trace = "db locked\nTraceback (most recent call last):\n  File \"/app/mcp.py\", line 9, in call\nOperationalError: Password=hunter2";
    let up = answering(move |r| rpc_error(r, 200, -32603, "Internal error", Some(trace)));
    let out = call(
        &plugin_with(&[]),
        &up,
        "add_subscribe",
        json!({"title": "Dune"}),
    );
    let message = out["error"]["message"].as_str().unwrap();
    assert_eq!(code(&out), "UNKNOWN_OUTCOME", "{out}");
    assert!(
        message.contains("Internal error: db locked") && message.ends_with("before retrying"),
        "{message}"
    );
    assert!(
        !message.contains("File") && !message.contains("hunter2"),
        "{message}"
    );
    // The same for a business failure's message inside "...; see data.input_contract".
    let up = answering(|r| {
        text(
            r,
            r#"{"success":false,"error":"invalid_input","message":"title 无效\nTraceback (most recent call last):\n  File \"/app/x.py\", line 1","input_contract":{"title":"string"}}"#,
            false,
        )
    });
    let out = call(
        &plugin_with(&[]),
        &up,
        "add_subscribe",
        json!({"title": "Dune"}),
    );
    let message = out["error"]["message"].as_str().unwrap();
    assert_eq!(code(&out), "INVALID_ARGUMENT", "{out}");
    assert!(
        message.ends_with("see data.input_contract") && !message.contains("File"),
        "{message}"
    );
}

#[test]
fn a_401_at_the_handshake_names_the_key_setting() {
    let up = FakeUpstream::new().script(|_| Some(json_answer(401, json!({"detail": "no"}))));
    let out = call_search(&up);
    assert_eq!(code(&out), "AUTHENTICATION_FAILED");
    assert!(
        out["error"]["message"]
            .as_str()
            .unwrap()
            .contains("MOVIEPILOT_API_KEY")
    );
    assert_eq!(out["error"]["http_status"], 401);
}

#[test]
fn is_error_text_is_a_tool_failure_and_a_missing_tool_asks_to_list_again() {
    let up = answering(|r| text(r, "错误: 工具 'add_subscribe' 未找到", true));
    let out = call_subscribe(&up);
    assert_eq!(code(&out), "NOT_FOUND");
    assert!(
        out["error"]["message"]
            .as_str()
            .unwrap()
            .contains("list the tools again")
    );
    let up = answering(|r| text(r, "错误: 下载器未连接", true));
    assert_eq!(code(&call_subscribe(&up)), "UPSTREAM_REJECTED");
}

#[test]
fn business_failures_are_failures_even_without_is_error() {
    let up = answering(|r| text(r, r#"{"success":false,"message":"已存在订阅"}"#, false));
    let out = call_subscribe(&up);
    assert_eq!(code(&out), "UPSTREAM_REJECTED");
    assert_eq!(out["data"]["message"], "已存在订阅");
    assert_eq!(out["data"]["success"], false);
}

#[test]
fn invalid_input_passes_the_input_contract_back() {
    let up = answering(|r| {
        text(
            r,
            r#"{"success":false,"error":"invalid_input","message":"query.count must be <= 200","input_contract":{"required":["operation_id"],"properties":{"count":{"maximum":200}}}}"#,
            false,
        )
    });
    let out = call(
        &plugin_with(&[]),
        &up,
        "moviepilot_api",
        json!({"operation_id": "subscription.list", "query": {"count": 500}}),
    );
    assert_eq!(code(&out), "INVALID_ARGUMENT");
    assert_eq!(out["data"]["error"], "invalid_input");
    assert_eq!(
        out["data"]["input_contract"]["properties"]["count"]["maximum"],
        200
    );
    let up = answering(|r| {
        text(
            r,
            r#"{"success":false,"error":{"code":"permission_denied","message":"no"}}"#,
            false,
        )
    });
    assert_eq!(
        code(&call(
            &plugin_with(&[]),
            &up,
            "moviepilot_api",
            json!({"operation_id": "x.y"})
        )),
        "FORBIDDEN"
    );
}

#[test]
fn pending_is_ok_with_a_warning_and_unknown_is_not_retryable() {
    let up = answering(|r| {
        text(
            r,
            r#"{"success":true,"message":"已提交","execution_outcome":"pending"}"#,
            false,
        )
    });
    let out = call_subscribe(&up);
    assert_eq!(out["ok"], true);
    assert!(out["warnings"][0].as_str().unwrap().contains("pending"));
    let up = answering(|r| {
        text(
            r,
            r#"{"success":true,"execution_outcome":"unknown"}"#,
            false,
        )
    });
    let out = call_subscribe(&up);
    assert_eq!(
        (code(&out), out["error"]["retryable"].clone()),
        ("UNKNOWN_OUTCOME", json!(false))
    );
    assert!(out["warnings"].to_string().contains("before retrying"));
}

#[test]
fn truncated_results_say_so() {
    let up = answering(|r| {
        text(
            r,
            r#"{"success":true,"tool_result_truncated":true,"content_preview":"[{\"id\":1"}"#,
            false,
        )
    });
    let out = call_search(&up);
    assert_eq!(
        (out["ok"].clone(), out["truncated"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(out["data"]["content_preview"], "[{\"id\":1");
    assert!(
        out["warnings"][0]
            .as_str()
            .unwrap()
            .contains("tool_result_truncated")
    );
}

#[test]
fn a_reads_text_is_its_result_and_a_writes_unconfirmed_text_says_so() {
    let long = format!("Found 3 results {}", "z".repeat(40_000));
    let up = answering(move |r| text(r, &long, false));
    let out = call_search(&up);
    assert_eq!(out["ok"], true, "{out}");
    assert!(
        out["data"]["text"]
            .as_str()
            .unwrap()
            .starts_with("Found 3 results")
    );
    assert!(out["data"]["text"].as_str().unwrap().chars().count() <= 16 * 1024 + 1);
    assert!(out["data"].get("success").is_none());
    // A JSON array is a result too: parsed into data.data.
    let up = answering(|r| text(r, r#"[{"title":"Inception"},{"title":"Heat"}]"#, false));
    let out = call_search(&up);
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(out["data"]["data"][1]["title"], "Heat");
    // A write's prose is neither a failure nor a confirmed success.
    let up = answering(|r| text(r, "订阅成功", false));
    let out = call_subscribe(&up);
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(out["data"]["text"], "订阅成功");
    assert!(out["data"].get("success").is_none());
    assert!(
        out["warnings"].to_string().contains("not confirmed"),
        "{out}"
    );
}

#[test]
fn execution_outcome_unknown_beats_a_failure_flag() {
    for answer in [
        r#"{"success":false,"message":"下载器超时","execution_outcome":"unknown"}"#,
        r#"{"error":"timeout","execution_outcome":"unknown"}"#,
    ] {
        let up = answering(move |r| text(r, answer, false));
        let out = call_subscribe(&up);
        assert_eq!(
            (code(&out), out["error"]["retryable"].clone()),
            ("UNKNOWN_OUTCOME", json!(false)),
            "{answer}"
        );
        assert!(out["warnings"].to_string().contains("before retrying"));
    }
}

#[test]
fn a_write_tools_error_prose_carries_the_reconcile_warning() {
    let up = answering(|r| text(r, "错误: 下载器未连接", true));
    let out = call_subscribe(&up);
    assert_eq!(code(&out), "UPSTREAM_REJECTED");
    assert!(
        out["warnings"].to_string().contains("before retrying"),
        "{out}"
    );
    let out = call_search(&up);
    assert_eq!(code(&out), "UPSTREAM_REJECTED");
    assert_eq!(
        out["warnings"],
        json!([]),
        "a read has nothing to reconcile"
    );
}

#[test]
fn huge_business_data_stays_within_the_64_kib_budget() {
    let items: Vec<Value> = (0..500)
        .map(|i| json!({"id": i, "overview": "o".repeat(500)}))
        .collect();
    let payload = json!({"success": true, "data": items}).to_string();
    let up = answering(move |r| text(r, &payload, false));
    let out = call_search(&up);
    assert!(out.to_string().len() <= 64 * 1024);
    assert_eq!(out["truncated"], true);
    // An object payload is cut as a whole; kind and tool stay intact and the schema holds.
    let payload = json!({"success": true, "data": {"site_name": "s".repeat(70_000), "note": "n ".repeat(10_000)}}).to_string();
    let up = answering(move |r| text(r, &payload, false));
    let out = call_subscribe(&up);
    assert!(out.to_string().len() <= 64 * 1024);
    assert_eq!(
        (
            out["ok"].clone(),
            out["data"]["kind"].clone(),
            out["data"]["tool"].clone()
        ),
        (
            json!(true),
            json!("moviepilot_result"),
            json!("add_subscribe")
        )
    );
    assert!(
        out["data"]["data"]
            .as_str()
            .unwrap()
            .ends_with(crate::contract::budget::CUT_MARKER)
    );
}

#[test]
fn torrent_searches_get_300_s_and_a_timeout_after_a_sent_write_is_unknown() {
    let up = answering(|r| text(r, r#"{"success":true,"data":[]}"#, false));
    let plugin = plugin_with(&[]);
    call(
        &plugin,
        &up,
        "moviepilot_api",
        json!({"operation_id": "search.torrents", "query": {"title": "x"}}),
    );
    assert_eq!(up.requests()[3].timeout_ms, 300_000);
    assert_eq!(
        up.requests()[0].timeout_ms,
        media_mcp_wire::settings::CALL_DEADLINE.default
    );
    let args = json!({"operation_id": "search.torrents"}).to_string();
    assert!(plugin.call_deadline_ms("moviepilot_api", &args) >= 300_000);
    // The id is found beside other arguments and when written with escapes.
    let escaped = r#"{"query": {"title": "x", "n": [1, {"a": null}]}, "operation_id": "search\u002etorrents"}"#;
    assert!(plugin.call_deadline_ms("moviepilot_api", escaped) >= 300_000);
    assert_eq!(
        plugin.call_deadline_ms("search_media", "{}"),
        media_mcp_wire::settings::CALL_DEADLINE.default
    );

    let up = answering(|_| Err(UpstreamError::Timeout { sent: true }));
    let out = call(&plugin, &up, "add_subscribe", json!({"title": "x"}));
    assert_eq!(
        (code(&out), out["error"]["retryable"].clone()),
        ("UNKNOWN_OUTCOME", json!(false))
    );
    let out = call(&plugin, &up, "search_media", json!({"title": "x"}));
    assert_eq!(
        (code(&out), out["error"]["retryable"].clone()),
        ("TIMEOUT", json!(true))
    );
}

#[test]
fn policy_refusals_never_reach_moviepilot_and_name_the_setting() {
    let up = answering(|r| text(r, r#"{"success":true}"#, false));
    let plugin = plugin_with(&[("MEDIA_MCP_MOVIEPILOT_API_DENY", "system.restart")]);
    for (tool, args, setting) in [
        (
            "database_operation",
            json!({"action": "write", "arguments": {"sql": "delete from subscribe"}}),
            "MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES",
        ),
        (
            "database_operation",
            json!({"action": "query", "arguments": {"sql": "select * from systemconfig", "show_secrets": true}}),
            "MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS",
        ),
        (
            "moviepilot_api",
            json!({"operation_id": "system.restart"}),
            "MEDIA_MCP_MOVIEPILOT_API_DENY",
        ),
    ] {
        let out = call(&plugin, &up, tool, args);
        assert_eq!(code(&out), "FORBIDDEN");
        assert!(
            out["error"]["message"].as_str().unwrap().contains(setting),
            "{out}"
        );
    }
    assert_eq!(sent_calls(&up), 0);
    let out = call(
        &plugin,
        &up,
        "database_operation",
        json!({"action": "tables", "arguments": {}}),
    );
    assert_eq!(out["ok"], true);
    assert_eq!(sent_calls(&up), 1);
}

#[test]
fn arguments_are_checked_against_the_schema_discovered_in_the_same_call() {
    let up = answering(|r| text(r, r#"{"success":true}"#, false));
    let plugin = plugin_with(&[]);
    for bad in [json!({}), json!({"title": 7})] {
        let out = call(&plugin, &up, "search_media", bad);
        assert_eq!(
            (code(&out), out["error"]["field"].clone()),
            ("INVALID_ARGUMENT", json!("title"))
        );
    }
    let out = try_call(&plugin, &up, "search_media", "[1]").unwrap();
    assert_eq!(code(&out), "INVALID_ARGUMENT");
    assert_eq!(sent_calls(&up), 0);
}

#[test]
fn a_tool_moviepilot_does_not_list_is_unknown() {
    let up = answering(|r| text(r, "{}", false));
    assert_eq!(
        try_call(&plugin_with(&[]), &up, "execute_command", "{}").unwrap_err(),
        UnknownTool("execute_command".into())
    );
    assert_eq!(sent_calls(&up), 0);
}

#[test]
fn both_backends_together_route_each_tool_to_its_own_server() {
    let up = answering(|r| text(r, r#"{"success":true}"#, false)).fixture(
        Method::Post,
        "/api/v2/search/multi/matrix",
        "v2-search-multi.json",
    );
    let plugin = plugin_with(&[("OMBI_URL", "http://ombi.test")]);
    let out = call(&plugin, &up, "search_media", json!({"title": "x"}));
    assert_eq!(out["ok"], true);
    let ctx = CallContext::default();
    let before = up.requests().len();
    let out = plugin
        .call_tool("read_search", r#"{"query":"matrix"}"#, &ctx, &up)
        .unwrap();
    assert_eq!(out.structured["ok"], true, "{}", out.structured);
    assert!(
        up.requests()[before..]
            .iter()
            .all(|r| r.url.starts_with("http://ombi.test"))
    );
}

#[test]
fn a_json_string_body_or_arguments_is_decoded_one_layer_before_the_local_check() {
    let tools = vec![
        tool(
            "moviepilot_api",
            json!({"type": "object", "properties": {"operation_id": {"type": "string"}, "body": {"type": ["object", "array", "null"], "properties": {"name": {"type": "string"}}}}, "required": ["operation_id"]}),
        ),
        tool(
            "database_operation",
            json!({"type": "object", "properties": {"action": {"enum": ["tables", "query"]}, "arguments": {"type": "object"}}, "required": ["action"]}),
        ),
    ];
    let up = moviepilot(tools, |r, _, _| text(r, r#"{"success":true}"#, false));
    let plugin = plugin_with(&[]);
    for (name, args) in [
        (
            "moviepilot_api",
            json!({"operation_id": "subscription.update", "body": "{\"name\": \"{\\\"kept\\\": 1}\"}"}),
        ),
        (
            "moviepilot_api",
            json!({"operation_id": "x.y", "body": "null"}),
        ),
        (
            "database_operation",
            json!({"action": "query", "arguments": "{\"sql\": \"select 1\"}"}),
        ),
    ] {
        up.log.borrow_mut().clear();
        let out = call(&plugin, &up, name, args.clone());
        assert_eq!(out["ok"], true, "{args}: {out}");
        assert_eq!(sent_calls(&up), 1, "{args}");
    }
    // Only one layer, and only to an object, array or null: nested strings keep their value.
    up.log.borrow_mut().clear();
    call(
        &plugin,
        &up,
        "moviepilot_api",
        json!({"operation_id": "subscription.update", "body": "{\"name\": \"{\\\"kept\\\": 1}\"}"}),
    );
    let sent = body(&up.requests()[3]);
    assert_eq!(sent["params"]["arguments"]["body"]["name"], "{\"kept\": 1}");
    // A string that is not such JSON is still checked as it is.
    up.log.borrow_mut().clear();
    let out = call(
        &plugin,
        &up,
        "moviepilot_api",
        json!({"operation_id": "x.y", "body": "dev"}),
    );
    assert_eq!(code(&out), "INVALID_ARGUMENT", "{out}");
    assert_eq!(sent_calls(&up), 0);
}

#[test]
fn format_characters_are_stripped_from_bridged_answers() {
    let up = answering(|r| {
        text(
            r,
            "{\"success\":true,\"message\":\"已\u{200b}订阅 \u{202e}evil\u{202c} 😀\",\"data\":[{\"title\":\"千と千尋\u{2066}の神隠し\u{feff}\"}]}",
            false,
        )
    });
    let out = call_search(&up);
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(out["data"]["message"], "已订阅 evil 😀");
    assert_eq!(out["data"]["data"][0]["title"], "千と千尋の神隠し");
    let up = answering(|r| text(r, "plain \u{200b}text\u{202e}", false));
    let out = call_search(&up);
    assert_eq!(out["data"]["text"], "plain text", "{out}");
}

#[test]
fn prose_failures_are_failures_with_moviepilots_message() {
    for (answer, want) in [
        (
            "错误：无效的媒体类型 'film'，支持的类型：'movie', 'tv'",
            "INVALID_ARGUMENT",
        ),
        ("添加订阅失败：未识别到媒体信息", "UPSTREAM_REJECTED"),
        ("订阅 ID 99 不存在", "NOT_FOUND"),
        (
            r#"{"error": "调用工具 'add_subscribe' 时发生错误: boom"}"#,
            "UNKNOWN_OUTCOME",
        ),
    ] {
        let up = answering(move |req| text(req, answer, false));
        let out = call_subscribe(&up);
        assert_eq!(out["ok"], false, "{answer}: {out}");
        assert_eq!(code(&out), want, "{answer}: {out}");
        let first = answer.chars().take(6).collect::<String>();
        assert!(
            out["error"]["message"].as_str().unwrap().contains(&first) || answer.starts_with('{'),
            "MoviePilot's own words: {out}"
        );
    }
    let up = answering(|req| text(req, "未找到相关订阅", false));
    let out = call_search(&up);
    assert_eq!(out["ok"], true);
    assert_eq!(out["data"]["text"], "未找到相关订阅");
    assert!(out["data"].get("success").is_none());
    assert_eq!(
        out["warnings"],
        json!([]),
        "a read's prose claims nothing, warns nothing"
    );
}

#[test]
fn an_unknown_tool_in_json_text_is_not_found() {
    let up = answering(|req| text(req, r#"{"error": "工具 'search_media' 未找到"}"#, false));
    let out = call_search(&up);
    assert_eq!(code(&out), "NOT_FOUND", "{out}");
}

#[test]
fn a_notice_before_json_keeps_both_and_a_cut_is_said() {
    let rows: Vec<Value> = (0..50)
        .map(|i| json!({"id": i, "name": format!("m{i}")}))
        .collect();
    let answer = format!(
        "注意：查询结果共找到 62 条，为节省上下文空间，仅显示前 50 条结果。\n\n{}",
        serde_json::to_string_pretty(&rows).unwrap()
    );
    let up = answering(move |req| text(req, &answer, false));
    let out = call_search(&up);
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(out["truncated"], true);
    assert_eq!(out["data"]["data"].as_array().unwrap().len(), 50);
    assert!(out["data"]["text"].as_str().unwrap().starts_with("注意"));
    assert!(out["warnings"][0].as_str().unwrap().contains("only part"));
    let long = "长".repeat(20_000);
    let up = answering(move |req| text(req, &long, false));
    let out = call_search(&up);
    assert_eq!(out["truncated"], true, "{}", out["warnings"]);
    assert!(out["warnings"].to_string().contains("16384 of 20000"));
}
