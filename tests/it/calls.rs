//! `tools/call` through the harness: results valid against the advertised outputSchema, a text
//! block with the same object, fresh correlation ids, the principal and default user, sandbox
//! timeouts as contract envelopes, and the API key's path (it reaches Ombi, nothing else).

use std::time::Duration;

use media_mcp_fakes::Reply;
use media_mcp_fakes::ombi::FakeOmbi;
use media_mcp_tests::{Env, Harness, assert_no_secret, canary_key, structured};
use serde_json::{Value, json};

const SEARCH: &str = "/api/v1/Search/movie/{searchTerm}";

fn search_args() -> Value {
    json!({"query": "matrix", "media": "movie"})
}

fn output_schema(h: &mut Harness, tool: &str) -> Value {
    let list = h.rpc("tools/list", json!({}));
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == tool)
        .expect("tool listed")["outputSchema"]
        .clone()
}

fn assert_valid(schema: &Value, instance: &Value) {
    let validator = jsonschema::validator_for(schema).expect("outputSchema compiles");
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "structuredContent breaks outputSchema: {errors:?}\n{instance}"
    );
}

#[test]
fn results_match_the_output_schema_and_carry_the_same_object_as_text() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    let schema = output_schema(&mut h, "read_search");
    let first = h.call_tool("read_search", search_args());
    let result = &first["result"];
    assert_eq!(result["isError"], false, "{first}");
    let envelope = structured(&first).clone();
    assert_valid(&schema, &envelope);
    assert_eq!(envelope["ok"], true);
    assert_eq!(envelope["operation"], "read_search");
    let text: Value =
        serde_json::from_str(result["content"][0]["text"].as_str().expect("a text block")).unwrap();
    assert_eq!(text, envelope);

    let second = h.call_tool("read_search", search_args());
    let (a, b) = (
        &envelope["correlation_id"],
        &structured(&second)["correlation_id"],
    );
    assert!(
        a.as_str().is_some_and(|s| s.len() >= 32) && a != b,
        "correlation ids {a} {b}"
    );

    let done = h.finish();
    let api: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/api/"))
        .collect();
    assert!(!api.is_empty());
    assert!(
        api.iter()
            .all(|r| r.api_key.as_deref() == Some(key.as_str())),
        "every /api request carries the key"
    );
    assert!(
        api.iter()
            .all(|r| r.api_key_query.is_none() && !r.query.contains(&key)),
        "never in the URL"
    );
    assert_no_secret(&done.stdout, &key, "stdout");
    assert_no_secret(&done.stderr, &key, "stderr (debug logging)");
}

#[test]
fn tool_errors_are_results_with_is_error_and_valid_envelopes() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    let schema = output_schema(&mut h, "read_search");
    let response = h.call_tool(
        "read_search",
        json!({"query": "matrix", "media": "movie", "bogus_field": 1}),
    );
    assert_eq!(response["result"]["isError"], true, "{response}");
    let envelope = structured(&response);
    assert_valid(&schema, envelope);
    assert_eq!(envelope["error"]["code"], "INVALID_ARGUMENT");
}

#[test]
fn principal_meta_becomes_the_user_name_and_ombi_user_is_the_default() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let env = Env::ombi(&fake, &key).set("OMBI_USER", "defaultuser");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let with_principal = h.rpc(
        "tools/call",
        json!({"name": "read_search", "arguments": search_args(), "_meta": {"media-mcp/principal": "alice"}}),
    );
    assert_eq!(
        with_principal["result"]["isError"], false,
        "{with_principal}"
    );
    assert_eq!(
        fake.requests().last().unwrap().user_name.as_deref(),
        Some("alice")
    );
    h.call_tool("read_search", search_args());
    assert_eq!(
        fake.requests().last().unwrap().user_name.as_deref(),
        Some("defaultuser")
    );
    let bad = h.rpc("tools/call", json!({"name": "read_search", "arguments": search_args(), "_meta": {"media-mcp/principal": 7}}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
}

#[test]
fn ombi_user_is_refused_at_start_unless_every_call_can_send_it() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    // The longest name the start accepts is one the component sends on a call.
    let longest = "u".repeat(host_harness::config::MAX_USER_NAME_CHARS);
    let mut h = Harness::serve_initialized(
        &Env::ombi(&fake, &key).set("OMBI_USER", &longest),
        "2025-11-25",
    );
    let response = h.call_tool("read_search", search_args());
    assert_eq!(response["result"]["isError"], false, "{response}");
    assert_eq!(
        fake.requests().last().unwrap().user_name.as_deref(),
        Some(longest.as_str())
    );
    drop(h);
    // Longer, non-ASCII or empty: the harness does not start, and says why.
    for (user, reason) in [
        (format!("{longest}u"), "at most 256 characters"),
        ("jos\u{e9}".to_owned(), "ASCII only"),
        (String::new(), "set but empty"),
    ] {
        let out =
            media_mcp_tests::run_cli(&["tools"], &Env::ombi(&fake, &key).set("OMBI_USER", &user));
        assert_eq!(out.status.code(), Some(2), "{user:?}: {}", out.stderr);
        assert!(out.stderr.contains("OMBI_USER"), "{}", out.stderr);
        assert!(out.stderr.contains(reason), "{user:?}: {}", out.stderr);
    }
}

#[test]
fn a_call_past_its_deadline_is_a_timeout_envelope_and_the_next_call_works() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    // The host's limit outlasts the component's deadline (a shorter one is refused at start),
    // so the component ends the call itself.
    let env = Env::ombi(&fake, &key)
        .set("MEDIA_MCP_CALL_DEADLINE_MS", "1000")
        .set("MEDIA_MCP_CALL_TIMEOUT_SECS", "2");
    let mut h = Harness::serve_initialized(&env, "2025-11-25");
    let schema = output_schema(&mut h, "read_search");
    fake.set_override(
        "GET",
        SEARCH,
        Reply::json(200, "[]").with_delay(Duration::from_secs(4)),
    );
    let response = h.call_tool("read_search", search_args());
    assert_eq!(response["result"]["isError"], true, "{response}");
    let envelope = structured(&response).clone();
    assert_valid(&schema, &envelope);
    assert_eq!(envelope["error"]["code"], "TIMEOUT");
    assert_eq!(
        envelope["error"]["retryable"], true,
        "a read may be retried"
    );
    assert_eq!(envelope["truncated"], false);
    let text: Value =
        serde_json::from_str(response["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, envelope);

    fake.clear_overrides();
    let next = h.call_tool("read_search", search_args());
    assert_eq!(
        next["result"]["isError"], false,
        "the next call works: {next}"
    );
}

/// Calls `read_search` over stdio with `env`: the fake Ombi got `key`, and no output shows it.
fn a_search_sends_the_key(env: &Env, fake: &FakeOmbi, key: &str) {
    let mut h = Harness::serve_initialized(env, "2025-11-25");
    let response = h.call_tool("read_search", search_args());
    assert_eq!(response["result"]["isError"], false, "{response}");
    assert_eq!(
        fake.requests().last().unwrap().api_key.as_deref(),
        Some(key)
    );
    let done = h.finish();
    assert_no_secret(&done.stdout, key, "stdout");
    assert_no_secret(&done.stderr, key, "stderr");
}

#[test]
fn pass_key_mode_lets_the_component_send_the_key() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let env = Env::ombi(&fake, &key).set("MEDIA_MCP_PASS_KEY_TO_GUEST", "1");
    a_search_sends_the_key(&env, &fake, &key);
}

#[test]
fn a_key_read_from_a_file_with_a_trailing_newline_reaches_ombi() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let file = media_mcp_tests::fresh_dir("secret").join("ombi_api_key");
    std::fs::write(&file, format!("{key}\n")).unwrap();
    let env = Env::new()
        .set("OMBI_URL", &fake.url())
        .set("OMBI_API_KEY_FILE", file.to_str().unwrap());
    a_search_sends_the_key(&env, &fake, &key);
}

#[test]
fn an_ombi_url_with_a_path_prefix_is_followed() {
    let key = canary_key();
    let fake = FakeOmbi::builder(&key).base_path("/ombi").start().unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    let response = h.call_tool("read_search", search_args());
    assert_eq!(response["result"]["isError"], false, "{response}");
    assert!(
        fake.requests()
            .iter()
            .all(|r| r.path.starts_with("/ombi/api/")),
        "{:?}",
        fake.requests()
    );
}

/// A JSON array of `row(0)`, `row(1)`, … as long as fits just under the 4 MiB read cap, and
/// how many rows it holds.
fn list_at_the_read_cap(row: &dyn Fn(usize) -> Value) -> (String, usize) {
    const CAP: usize = 4 * 1024 * 1024;
    let mut body = String::from("[");
    let mut n = 0;
    loop {
        let next = row(n).to_string();
        if body.len() + next.len() + 2 > CAP - 1024 {
            break;
        }
        if n > 0 {
            body.push(',');
        }
        body.push_str(&next);
        n += 1;
    }
    body.push(']');
    (body, n)
}

#[test]
fn reference_lists_at_the_read_cap_fit_the_memory_limit() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    type Row = Box<dyn Fn(usize) -> Value>;
    let cases: [(&str, &str, Row); 4] = [
        (
            "genres_movie",
            "/api/v2/Search/Genres/{media}",
            Box::new(|i| json!({"id": i + 1, "name": format!("Genre {i}")})),
        ),
        (
            "languages",
            "/api/v2/Search/Languages",
            Box::new(
                |i| json!({"iso_639_1": format!("l{i}"), "english_name": format!("Language {i}"), "name": "n"}),
            ),
        ),
        (
            "keywords",
            "/api/v1/TheMovieDb/Keywords",
            Box::new(|i| json!({"id": i + 1, "name": format!("keyword {i}")})),
        ),
        (
            "features",
            "/api/v2/Features",
            Box::new(|i| json!({"name": format!("Feature{i}"), "enabled": i % 2 == 0})),
        ),
    ];
    for (kind, template, row) in &cases {
        let (body, n) = list_at_the_read_cap(row);
        fake.set_override("GET", template, Reply::json(200, body));
        let args = if *kind == "keywords" {
            json!({"kind": kind, "query": "keyword"})
        } else {
            json!({"kind": kind})
        };
        let response = h.call_tool("read_reference", args);
        let envelope = structured(&response);
        assert_eq!(envelope["ok"], true, "{kind}: {envelope}");
        assert_eq!(envelope["data"]["page"]["total"], n, "{kind}");
        assert_eq!(
            envelope["data"]["items"].as_array().unwrap().len(),
            20,
            "{kind}"
        );
    }
}

#[test]
fn media_details_at_the_read_cap_fit_the_memory_limit() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    // The smallest credit and season entries are the costliest as JSON trees.
    let (movie_cast, movie_n) = list_at_the_read_cap(&|i| json!({"name": format!("p{i}")}));
    let (tv_cast, tv_n) = list_at_the_read_cap(&|i| json!({"person": format!("p{i}")}));
    let (seasons, seasons_n) = list_at_the_read_cap(&|i| json!({"seasonNumber": i}));
    let cases = [
        (
            "movie",
            "/api/v2/Search/movie/{movieDbId}",
            "credits",
            format!(r#"{{"id":7,"title":"Big","credits":{{"cast":{movie_cast},"crew":[]}}}}"#),
            format!("100 of {movie_n} credits returned"),
        ),
        (
            "tv",
            "/api/v2/Search/tv/moviedb/{moviedbid}",
            "credits",
            format!(r#"{{"id":7,"title":"Big","cast":{tv_cast}}}"#),
            format!("100 of {tv_n} credits returned"),
        ),
        (
            "tv",
            "/api/v2/Search/tv/moviedb/{moviedbid}",
            "seasons",
            format!(r#"{{"id":7,"title":"Big","seasonRequests":{seasons}}}"#),
            format!("100 of {seasons_n} seasons returned"),
        ),
    ];
    for (media, template, part, body, warning) in &cases {
        fake.set_override("GET", template, Reply::json(200, body.clone()));
        let response = h.call_tool(
            "read_media",
            json!({"media": media, "id": "7", "include": [part]}),
        );
        let envelope = structured(&response);
        assert_eq!(envelope["ok"], true, "{media} {part}: {envelope}");
        assert_eq!(envelope["truncated"], true, "{media} {part}");
        let item = &envelope["data"]["items"][0];
        assert_eq!(item[part].as_array().unwrap().len(), 100, "{media} {part}");
        assert!(
            envelope["warnings"].to_string().contains(warning.as_str()),
            "{media} {part}: {envelope}"
        );
    }
}

#[test]
fn notification_preferences_at_the_read_cap_fit_the_memory_limit() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    // The smallest rows a list can hold are the costliest as JSON trees.
    let (body, n) = list_at_the_read_cap(&|i| json!({"agent": i % 12, "value": "x"}));
    fake.set_override(
        "GET",
        "/api/v1/Identity/notificationpreferences",
        Reply::json(200, body),
    );
    let response = h.call_tool("read_users", json!({"view": "notification_preferences"}));
    let envelope = structured(&response);
    assert_eq!(envelope["ok"], true, "{envelope}");
    assert_eq!(envelope["data"]["page"]["total"], n);
    assert_eq!(envelope["data"]["items"].as_array().unwrap().len(), 20);
}

#[test]
fn recent_requests_at_the_read_cap_fit_the_memory_limit() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    let (body, n) = list_at_the_read_cap(&|i| json!({"requestId": i + 1, "type": 1 + i % 2}));
    fake.set_override(
        "GET",
        "/api/v2/Requests/recentlyRequested",
        Reply::json(200, body),
    );
    let response = h.call_tool("read_requests", json!({"view": "recent"}));
    let envelope = structured(&response);
    assert_eq!(envelope["ok"], true, "{envelope}");
    assert_eq!(envelope["data"]["items"].as_array().unwrap().len(), 20);
    assert_eq!(envelope["data"]["page"]["has_more"], true, "{n} rows");
}

#[test]
fn server_capabilities_with_features_at_the_read_cap_fit_the_memory_limit() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    let (body, n) =
        list_at_the_read_cap(&|i| json!({"name": format!("F{i}"), "enabled": i % 2 == 0}));
    fake.set_override("GET", "/api/v2/Features", Reply::json(200, body));
    let response = h.call_tool("read_server", json!({"view": "capabilities"}));
    let envelope = structured(&response);
    assert_eq!(envelope["ok"], true, "{envelope}");
    assert_eq!(envelope["truncated"], true);
    let values = envelope["data"]["values"].as_array().unwrap();
    assert_eq!(values[0]["name"], "issues_enabled");
    assert!(
        values.iter().any(|v| v["name"] == "feature:F0"),
        "{envelope}"
    );
    let total = n + 6;
    assert!(
        envelope["warnings"]
            .to_string()
            .contains(&format!("of {total} entries returned")),
        "{envelope}"
    );
}

#[test]
fn integration_lists_at_the_read_cap_fit_the_memory_limit() {
    let key = canary_key();
    let fake = FakeOmbi::start(&key).unwrap();
    let mut h = Harness::serve_initialized(&Env::ombi(&fake, &key), "2025-11-25");
    type Row = Box<dyn Fn(usize) -> Value>;
    let cases: [(&str, &str, &str, Row); 2] = [
        (
            "sonarr",
            "tags",
            "/api/v1/Sonarr/tags",
            Box::new(|i| json!({"id": i + 1, "label": "t"})),
        ),
        (
            "plex",
            "users",
            "/api/v1/Plex/friends",
            Box::new(|i| json!({"id": i + 1})),
        ),
    ];
    for (service, resource, template, row) in &cases {
        let (body, n) = list_at_the_read_cap(row);
        fake.set_override("GET", template, Reply::json(200, body));
        let response = h.call_tool(
            "read_integration",
            json!({"service": service, "resource": resource}),
        );
        let envelope = structured(&response);
        assert_eq!(envelope["ok"], true, "{resource}: {envelope}");
        assert_eq!(envelope["data"]["page"]["total"], n, "{resource}");
        assert_eq!(
            envelope["data"]["items"].as_array().unwrap().len(),
            20,
            "{resource}"
        );
    }
}
