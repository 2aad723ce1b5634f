//! Job handles and the Tasks extension over real stdio pipes, against a fake MoviePilot whose
//! torrent search outlasts the job threshold: the handle, `job_status` reading the tool's own
//! result, one upstream call for identical calls, principals kept apart, the bounds,
//! `job_cancel` of a write, tasks for a client that declares the extension, and a job that
//! finishes after its client has gone.

use std::time::Duration;

use media_mcp_fakes::moviepilot::faults::CallFault;
use media_mcp_fakes::moviepilot::{FakeMoviePilot, Version};
use media_mcp_tests::{Env, Harness, structured, torrent_search};
use serde_json::{Value, json};

const AFTER_MS: u64 = 1_000;
const SEARCH_DELAY: Duration = Duration::from_secs(3);

fn fake(version: Version) -> FakeMoviePilot {
    FakeMoviePilot::builder()
        .version(version)
        .torrent_search_delay(SEARCH_DELAY)
        .start()
}

fn env(fake: &FakeMoviePilot) -> Env {
    Env::new()
        .set("MOVIEPILOT_URL", &fake.mcp_url())
        .set("MOVIEPILOT_API_KEY", fake.key())
        .set("MEDIA_MCP_JOB_AFTER_MS", &AFTER_MS.to_string())
}

fn torrent_searches(fake: &FakeMoviePilot, version: Version) -> usize {
    fake.tool_calls(torrent_search(version).0)
}

/// Polls `job_status` until the job has ended; returns its final answer.
fn status_until_done(h: &mut Harness, id: &str) -> Value {
    for _ in 0..20 {
        let answer = h.call_tool("job_status", json!({"job_id": id}));
        if structured(&answer)["data"]["kind"] != "job" {
            return answer;
        }
    }
    panic!("job {id} did not finish");
}

#[test]
fn a_long_search_answers_with_a_handle_and_job_status_returns_its_own_result() {
    for version in [Version::Documented, Version::V2_9_15] {
        let fake = fake(version);
        let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
        let tools = h.rpc("tools/list", json!({}))["result"]["tools"].clone();
        let names: Vec<&str> = tools
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert!(
            names.contains(&"job_status") && names.contains(&"job_cancel"),
            "{names:?}"
        );
        let (tool, args) = torrent_search(version);
        let handle = h.call_tool(tool, args);
        let s = structured(&handle);
        assert_eq!(handle["result"]["isError"], false, "{handle}");
        assert_eq!(
            (&s["ok"], &s["operation"]),
            (&json!(true), &json!(tool)),
            "{s}"
        );
        assert_eq!(s["data"]["kind"], "job", "{s}");
        assert_eq!(s["data"]["status"], "running");
        assert_eq!(s["data"]["tool"], tool);
        let id = s["data"]["job_id"].as_str().unwrap().to_owned();
        assert!(id.len() >= 22, "{id}");
        let text = handle["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("job_status") && text.contains(&id), "{text}");

        let done = status_until_done(&mut h, &id);
        let s = structured(&done);
        assert_eq!(s["operation"], tool, "{done}");
        assert_eq!(s["ok"], true, "{done}");
        assert_eq!(s["data"]["kind"], "moviepilot_result", "{done}");
        // Read again: the same result.
        let again = h.call_tool("job_status", json!({"job_id": id, "wait_ms": 0}));
        assert_eq!(structured(&again), s);
        assert_eq!(torrent_searches(&fake, version), 1, "{version:?}");
    }
}

#[test]
fn identical_calls_share_one_job_and_one_upstream_call() {
    let fake = fake(Version::Documented);
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let (tool, args) = torrent_search(Version::Documented);
    let first = h.request("tools/call", json!({"name": tool, "arguments": args}));
    let second = h.request("tools/call", json!({"name": tool, "arguments": args}));
    let (a, b) = (h.response(first), h.response(second));
    let id = structured(&a)["data"]["job_id"].clone();
    assert!(id.is_string(), "{a}");
    assert_eq!(structured(&b)["data"]["job_id"], id, "{b}");
    let done = status_until_done(&mut h, id.as_str().unwrap());
    assert_eq!(structured(&done)["ok"], true);
    assert_eq!(torrent_searches(&fake, Version::Documented), 1);
}

#[test]
fn another_principals_id_is_not_found_and_says_nothing_of_the_job() {
    let fake = fake(Version::Documented);
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let (tool, args) = torrent_search(Version::Documented);
    let handle = h.rpc(
        "tools/call",
        json!({"name": tool, "arguments": args, "_meta": {"media-mcp/principal": "alice"}}),
    );
    let id = structured(&handle)["data"]["job_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let theirs = h.rpc(
        "tools/call",
        json!({"name": "job_status", "arguments": {"job_id": id}, "_meta": {"media-mcp/principal": "bob"}}),
    );
    let unknown = h.call_tool("job_status", json!({"job_id": "0".repeat(32)}));
    let (theirs, unknown) = (structured(&theirs), structured(&unknown));
    assert_eq!(theirs["error"]["code"], "NOT_FOUND", "{theirs}");
    assert_eq!(theirs["error"], unknown["error"]);
    assert!(!theirs.to_string().contains(tool));
    let cancel = h.rpc(
        "tools/call",
        json!({"name": "job_cancel", "arguments": {"job_id": id}, "_meta": {"media-mcp/principal": "bob"}}),
    );
    assert_eq!(structured(&cancel)["error"]["code"], "NOT_FOUND");
    let mine = h.rpc(
        "tools/call",
        json!({"name": "job_status", "arguments": {"job_id": id}, "_meta": {"media-mcp/principal": "alice"}}),
    );
    assert!(structured(&mine)["operation"].is_string(), "{mine}");
    assert_ne!(structured(&mine)["error"]["code"], "NOT_FOUND", "{mine}");
}

#[test]
fn past_the_per_user_bound_a_call_is_refused_and_nothing_is_sent() {
    let fake = fake(Version::Documented);
    let env = env(&fake).set("MEDIA_MCP_JOB_MAX_PER_USER", "1");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let (tool, args) = torrent_search(Version::Documented);
    let handle = h.call_tool(tool, args);
    assert_eq!(structured(&handle)["data"]["kind"], "job", "{handle}");
    let other = h.call_tool(
        tool,
        json!({"operation_id": "search.torrents", "query": {"title": "Memento"}}),
    );
    let s = structured(&other);
    assert_eq!(s["error"]["code"], "RATE_LIMITED", "{s}");
    assert!(
        s["error"]["message"]
            .as_str()
            .unwrap()
            .contains("MEDIA_MCP_JOB_MAX_PER_USER")
    );
    assert_eq!(torrent_searches(&fake, Version::Documented), 1);
}

#[test]
fn cancelling_a_write_job_leaves_an_unknown_outcome() {
    let fake = fake(Version::Documented);
    fake.set_call_fault("moviepilot_api", CallFault::Late(Duration::from_secs(5)));
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let handle = h.call_tool(
        "moviepilot_api",
        json!({"operation_id": "subscription.add", "body": {"name": "Inception", "type": "电影"}}),
    );
    let s = structured(&handle);
    assert_eq!(s["data"]["kind"], "job", "{s}");
    let id = s["data"]["job_id"].as_str().unwrap().to_owned();
    let cancelled = h.call_tool("job_cancel", json!({"job_id": id}));
    let c = structured(&cancelled);
    assert_eq!(
        (&c["ok"], &c["data"]["status"]),
        (&json!(true), &json!("cancelled")),
        "{c}"
    );
    let after = h.call_tool("job_status", json!({"job_id": id}));
    let a = structured(&after);
    assert_eq!(a["operation"], "moviepilot_api", "{a}");
    assert_eq!(a["error"]["code"], "UNKNOWN_OUTCOME", "{a}");
    assert_eq!(after["result"]["isError"], true);
}

#[test]
fn a_job_finishes_after_its_client_has_gone() {
    let fake = fake(Version::Documented);
    let mut h = Harness::serve_initialized(&env(&fake), "2025-11-25");
    let (tool, args) = torrent_search(Version::Documented);
    let handle = h.call_tool(tool, args);
    assert_eq!(structured(&handle)["data"]["kind"], "job", "{handle}");
    let done = h.finish();
    assert!(done.status.success(), "{}", done.stderr);
    assert!(
        done.stderr
            .contains("job(s) still running; letting them finish"),
        "{}",
        done.stderr
    );
    assert!(
        done.stderr.contains(&format!("call {tool} [")) && done.stderr.contains("] ok in"),
        "the search ran to its end: {}",
        done.stderr
    );
    assert_eq!(torrent_searches(&fake, Version::Documented), 1);
}

#[test]
fn a_client_that_declares_tasks_gets_a_task_and_polls_it_to_the_result() {
    let fake = fake(Version::Documented);
    let mut h = Harness::spawn(&["serve"], &env(&fake));
    let meta = |tasks: bool| {
        let capabilities = if tasks {
            json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
        } else {
            json!({})
        };
        json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/clientInfo": {"name": "it", "version": "0"},
        })
    };
    let discover = h.rpc("server/discover", json!({"_meta": meta(true)}));
    assert_eq!(
        discover["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({}),
        "{discover}"
    );
    let _ = h.rpc("tools/list", json!({"_meta": meta(true)}));
    let (tool, args) = torrent_search(Version::Documented);
    let created = h.rpc(
        "tools/call",
        json!({"name": tool, "arguments": args, "_meta": meta(true)}),
    );
    let task = &created["result"];
    assert_eq!(task["resultType"], "task", "{created}");
    assert_eq!(task["status"], "working");
    assert!(task["ttlMs"].as_u64().unwrap() >= 900_000, "{task}");
    let id = task["taskId"].as_str().unwrap().to_owned();
    let mut last = Value::Null;
    for _ in 0..40 {
        last = h.rpc("tasks/get", json!({"taskId": id, "_meta": meta(true)}));
        if last["result"]["status"] != "working" {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(last["result"]["status"], "completed", "{last}");
    assert_eq!(
        last["result"]["result"]["structuredContent"]["ok"], true,
        "{last}"
    );
    let unknown = h.rpc("tasks/get", json!({"taskId": "nope", "_meta": meta(true)}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    // Without the extension declared: a job handle.
    let handle = h.rpc(
        "tools/call",
        json!({"name": tool, "arguments": {"operation_id": "search.torrents", "query": {"title": "Memento"}}, "_meta": meta(false)}),
    );
    assert_eq!(handle["result"]["resultType"], "complete", "{handle}");
    assert_eq!(handle["result"]["structuredContent"]["data"]["kind"], "job");
    assert_eq!(torrent_searches(&fake, Version::Documented), 2);
}

#[test]
fn with_job_mode_off_the_call_blocks_and_no_job_tool_is_listed() {
    let fake = FakeMoviePilot::builder()
        .torrent_search_delay(Duration::from_millis(1_500))
        .start();
    let env = env(&fake).set("MEDIA_MCP_JOB_AFTER_MS", "0");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let tools = h.rpc("tools/list", json!({}))["result"]["tools"].to_string();
    assert!(!tools.contains("\"job_status\""));
    let (tool, args) = torrent_search(Version::Documented);
    let answer = h.call_tool(tool, args);
    assert_eq!(
        structured(&answer)["data"]["kind"],
        "moviepilot_result",
        "{answer}"
    );
}

#[test]
fn rmcps_own_client_gets_a_task_when_it_declares_the_extension_and_a_handle_otherwise() {
    use rmcp::model::{
        CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, GetTaskParams,
        ProtocolVersion, TaskStatus,
    };
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _};

    let fake = fake(Version::Documented);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let spawn = || {
            let mut command = tokio::process::Command::new(media_mcp_tests::harness_binary());
            command
                .arg("serve")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .kill_on_drop(true);
            env(&fake).apply(command.as_std_mut());
            let mut child = command.spawn().unwrap();
            let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
            (child, transport)
        };
        let modern = || ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        };
        let (tool, args) = torrent_search(Version::Documented);
        let call = || {
            let mut call = CallToolRequestParams::new(tool);
            call.arguments = args.as_object().cloned();
            call
        };

        let (_child, transport) = spawn();
        let mut info = ClientConfig::default();
        info.capabilities = ClientCapabilities::builder().enable_tasks().build();
        let client = info
            .serve_with_lifecycle(transport, modern())
            .await
            .expect("a modern session");
        let _ = client.list_all_tools().await.unwrap();
        let CallToolResponse::Task(created) = client.call_tool_once(call()).await.unwrap() else {
            panic!("no task for a client that declares the extension")
        };
        assert!(created.task.ttl_ms.unwrap() >= 900_000);
        let mut state = None;
        for _ in 0..40 {
            let got = client
                .get_task(GetTaskParams::new(created.task.task_id.clone()))
                .await
                .unwrap();
            if got.task.status() != TaskStatus::Working {
                state = Some(got);
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let state = serde_json::to_value(state.expect("the task ended")).unwrap();
        assert_eq!(state["status"], "completed", "{state}");
        assert_eq!(state["result"]["structuredContent"]["ok"], true, "{state}");
        let _ = client.cancel().await;

        let (_child, transport) = spawn();
        let client = ().serve_with_lifecycle(transport, modern()).await.expect("a modern session");
        let _ = client.list_all_tools().await.unwrap();
        let CallToolResponse::Complete(handle) = client.call_tool_once(call()).await.unwrap()
        else {
            panic!("a task for a client that did not declare the extension")
        };
        assert_eq!(handle.structured_content.unwrap()["data"]["kind"], "job");
        let _ = client.cancel().await;
    });
}
