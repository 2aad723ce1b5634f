//! The Seerr backend over real stdio against the fake Seerr, which replays Seerr v3.1.0 as it
//! really answered (`crates/media-mcp-fakes/fixtures/seerr/v3.1.0/`): search and details,
//! requests as users with and without auto-approval, a used-up quota, a duplicate, blocklisted
//! media, decisions as the administrator, issues on Seerr's own media id, users and quotas,
//! read-only mode and a user nobody has. Every result is checked against its tool's
//! `outputSchema`.

use crate::support::{assert_valid, output_schemas};
use media_mcp_fakes::seerr::{FakeSeerr, RECORDED_KEY, SeerrRequest};
use media_mcp_tests::{Env, Harness, run_cli, structured};
use serde_json::{Value, json};
use std::collections::HashMap;

fn fake(scenario: &str) -> FakeSeerr {
    FakeSeerr::start_at(RECORDED_KEY, scenario).expect("fake Seerr")
}

fn env(fake: &FakeSeerr, user: Option<&str>) -> Env {
    let env = Env::new()
        .set("SEERR_URL", &fake.url())
        .set("SEERR_API_KEY", RECORDED_KEY);
    match user {
        Some(u) => env.set("SEERR_USER", u),
        None => env,
    }
}

/// A harness with the output schemas of its tools, to check every result against.
struct Client {
    h: Harness,
    schemas: HashMap<String, Value>,
}

impl Client {
    fn new(env: &Env) -> Client {
        let mut h = Harness::serve_initialized(env, "2025-11-25");
        let schemas = output_schemas(&mut h);
        Client { h, schemas }
    }

    /// `name` called with `args` (as `principal` when given), its envelope checked.
    fn call_as(&mut self, principal: Option<&str>, name: &str, args: Value) -> Value {
        let mut params = json!({"name": name, "arguments": args});
        if let Some(p) = principal {
            params["_meta"] = json!({"media-mcp/principal": p});
        }
        let response = self.h.rpc("tools/call", params);
        let s = structured(&response).clone();
        assert_valid(&self.schemas[name], &s, name);
        s
    }

    fn call(&mut self, name: &str, args: Value) -> Value {
        self.call_as(None, name, args)
    }
}

fn ids(record: &Value) -> Vec<(String, String)> {
    record["identifiers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| {
            (
                i["namespace"].as_str().unwrap_or("").to_owned(),
                i["value"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

fn has_id(record: &Value, namespace: &str, value: &str) -> bool {
    ids(record).contains(&(namespace.to_owned(), value.to_owned()))
}

fn posts(fake: &FakeSeerr) -> Vec<SeerrRequest> {
    fake.requests()
        .into_iter()
        .filter(|r| r.method != "GET")
        .collect()
}

#[test]
fn search_and_details_keep_every_id_namespace_and_refuse_what_seerr_cannot_do() {
    let fake = fake("search");
    let mut c = Client::new(&env(&fake, Some("alice")));
    let s = c.call("read_search", json!({"query": "matrix"}));
    assert_eq!(s["ok"], true, "{s}");
    let items = s["data"]["items"].as_array().expect("items");
    assert_eq!(items.len(), 2);
    assert!(has_id(&items[0], "tmdb", "603"), "{}", items[0]);
    assert_eq!(items[0]["title"], "The Matrix");
    assert_eq!(items[0]["year"], 1999);
    // Seerr holds no record of the title yet: no state is claimed.
    assert!(items[0].get("available").is_none() && items[0].get("status").is_none());
    assert_eq!(s["data"]["page"]["total"], 2);
    let searched = fake
        .requests()
        .into_iter()
        .find(|r| r.path == "/api/v1/search");
    let searched = searched.expect("a search was sent");
    assert_eq!(searched.query, "query=matrix&page=1");
    assert_eq!(
        searched.api_user.as_deref(),
        Some("2"),
        "acts as alice by id"
    );

    let m = c.call(
        "read_media",
        json!({"media": "movie", "id": "603", "include": ["credits", "providers"]}),
    );
    let movie = &m["data"]["items"][0];
    assert!(has_id(movie, "imdb", "tt0133093"), "{movie}");
    assert_eq!(movie["credits"][0]["name"], "Keanu Reeves");
    assert_eq!(movie["credits"][1]["role"], "Director");
    assert_eq!(movie["providers"][0]["name"], "Netflix");

    let t = c.call(
        "read_media",
        json!({"media": "tv", "id": "1399", "include": ["seasons"]}),
    );
    let show = &t["data"]["items"][0];
    assert!(has_id(show, "tvdb", "121361"), "{show}");
    assert_eq!(show["seasons"].as_array().map(Vec::len), Some(2));
    assert_eq!(show["seasons"][0]["truncated"], true);

    let before = fake.requests().len();
    for (tool, args, field) in [
        (
            "read_search",
            json!({"query": "matrix", "media": "movie", "year": 1999}),
            "year",
        ),
        (
            "read_search",
            json!({"query": "abba", "media": "album"}),
            "media",
        ),
        (
            "read_media",
            json!({"media": "movie", "id": "tt0133093", "id_namespace": "imdb"}),
            "id_namespace",
        ),
    ] {
        let r = c.call(tool, args);
        assert_eq!(r["error"]["code"], "UNSUPPORTED_CAPABILITY", "{r}");
        assert_eq!(r["error"]["field"], field, "{r}");
    }
    let sent: Vec<String> = fake.requests()[before..]
        .iter()
        .map(|r| r.path.clone())
        .collect();
    assert!(
        sent.iter().all(|p| p == "/api/v1/user"),
        "only the user look-up: {sent:?}"
    );
}

#[test]
fn requests_are_made_as_the_user_and_each_refusal_is_its_own_outcome() {
    let fake = fake("requests");
    let mut c = Client::new(&env(&fake, Some("alice")));
    let created = c.call(
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(created["ok"], true, "{created}");
    let m = &created["data"];
    assert_eq!(m["outcome"], "completed");
    assert_eq!(m["target"], json!({"kind": "movie", "id": 1}));
    assert_eq!(m["user_id"], "2", "attributed to alice");
    assert!(
        m["message"]
            .as_str()
            .unwrap_or("")
            .contains("waits for approval"),
        "{m}"
    );
    assert!(
        created["warnings"]
            .as_array()
            .is_none_or(|w| w.iter().all(|w| !w.to_string().contains("administrator")))
    );

    let again = c.call(
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(again["error"]["code"], "CONFLICT", "{again}");
    assert_eq!(again["data"]["outcome"], "rejected");
    assert!(
        again["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("Request for this media already exists.")
    );

    let bob = c.call_as(
        Some("bob"),
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 27205}),
    );
    assert!(
        bob["data"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("approved"),
        "{bob}"
    );

    let tv = c.call(
        "write_request_create",
        json!({"media": "tv", "tmdb_id": 1399, "first_season": true}),
    );
    assert_eq!(tv["data"]["target"]["kind"], "tv_child", "{tv}");
    let tv_again = c.call(
        "write_request_create",
        json!({"media": "tv", "tmdb_id": 1399, "first_season": true}),
    );
    assert_eq!(tv_again["error"]["code"], "CONFLICT", "{tv_again}");
    assert_eq!(tv_again["error"]["http_status"], 202);

    let ok = c.call_as(
        Some("carol"),
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 550}),
    );
    assert_eq!(ok["ok"], true, "{ok}");
    let quota = c.call_as(
        Some("carol"),
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 13}),
    );
    assert_eq!(quota["error"]["code"], "RATE_LIMITED", "{quota}");
    assert!(
        quota["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("Movie Quota exceeded.")
    );
    assert_eq!(quota["error"]["retryable"], false);

    let k4 = c.call(
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603, "is_4k": true}),
    );
    assert_eq!(k4["error"]["code"], "FORBIDDEN", "{k4}");
    let blocked = c.call(
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 604}),
    );
    assert_eq!(blocked["error"]["code"], "FORBIDDEN", "{blocked}");
    assert!(
        blocked["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("blocklisted")
    );

    // Every request carried is4k, the acting user's id, and never a relabelling userId.
    for p in posts(&fake) {
        let body: Value = serde_json::from_slice(&p.body).expect("JSON body");
        assert!(
            body.get("is4k").is_some() && body.get("userId").is_none(),
            "{body}"
        );
        assert!(
            p.api_user.is_some(),
            "a request sent as the administrator: {body}"
        );
    }
}

#[test]
fn as_the_administrator_every_result_says_so_and_decisions_are_checked_first() {
    let fake = fake("decisions");
    let mut admin = Client::new(&env(&fake, None));
    let warned = |s: &Value| {
        s["warnings"]
            .to_string()
            .contains("acts as Seerr's administrator")
    };
    let approved = admin.call(
        "write_request_approve",
        json!({"media": "movie", "request_id": 1}),
    );
    assert_eq!(approved["data"]["outcome"], "completed", "{approved}");
    assert!(warned(&approved), "{approved}");
    let declined = admin.call(
        "write_request_deny",
        json!({"media": "movie", "request_id": 5}),
    );
    assert_eq!(
        declined["data"]["message"], "the request is now declined",
        "{declined}"
    );
    let reason = admin.call(
        "write_request_deny",
        json!({"media": "movie", "request_id": 5, "reason": "no"}),
    );
    assert_eq!(reason["error"]["code"], "UNSUPPORTED_CAPABILITY");
    assert!(warned(&reason));
    let missing = admin.call(
        "write_request_approve",
        json!({"media": "movie", "request_id": 999}),
    );
    assert_eq!(missing["error"]["code"], "NOT_FOUND", "{missing}");

    let mut alice = Client::new(&env(&fake, Some("alice")));
    let not_hers = alice.call(
        "write_request_delete",
        json!({"target_kind": "movie", "request_id": 2}),
    );
    assert_eq!(not_hers["error"]["code"], "FORBIDDEN", "{not_hers}");
    let wrong_kind = alice.call(
        "write_request_delete",
        json!({"target_kind": "movie", "request_id": 3}),
    );
    assert_eq!(
        wrong_kind["error"]["code"], "INVALID_ARGUMENT",
        "{wrong_kind}"
    );
    let deleted = alice.call(
        "write_request_delete",
        json!({"target_kind": "tv_child", "request_id": 3}),
    );
    assert_eq!(deleted["data"]["outcome"], "completed", "{deleted}");
    let deletes: Vec<_> = posts(&fake)
        .into_iter()
        .filter(|r| r.method == "DELETE")
        .collect();
    assert_eq!(deletes.len(), 1, "a refused kind sends nothing");

    let list = admin.call("read_requests", json!({}));
    let items = list["data"]["items"].as_array().expect("items");
    let first = &items[0];
    assert!(first["status_text"].as_str().is_some(), "{first}");
    assert!(
        ids(first).iter().any(|(n, _)| n == "seerr_media"),
        "{first}"
    );
    assert_eq!(list["data"]["page"]["mode"], "upstream");
}

#[test]
fn issues_are_reported_on_seerrs_media_id_commented_and_resolved() {
    let fake = fake("issues");
    let mut alice = Client::new(&env(&fake, Some("alice")));
    let created = alice.call(
        "write_issue_create",
        json!({"title": "The Matrix", "request_type": "movie", "subject": "Audio out of sync",
               "description": "The audio drifts after ten minutes.", "category_id": 2, "request_id": 1}),
    );
    assert_eq!(created["data"]["issue_id"], 1, "{created}");
    let sent = posts(&fake);
    let body: Value = serde_json::from_slice(&sent[0].body).expect("body");
    assert_eq!(
        body["mediaId"], 1,
        "Seerr's media id, not the TMDB id: {body}"
    );
    let wrong_title = alice.call(
        "write_issue_create",
        json!({"title": "Inception", "request_type": "movie", "subject": "x", "description": "y", "category_id": 2, "provider_id": "603"}),
    );
    assert_eq!(wrong_title["error"]["field"], "title", "{wrong_title}");
    assert_eq!(posts(&fake).len(), 1, "a wrong title sends nothing");

    let mut admin = Client::new(&env(&fake, None));
    let listed = admin.call("read_issues", json!({"view": "list"}));
    let issues = listed["data"]["items"].as_array().expect("items");
    let matrix = issues
        .iter()
        .find(|i| i["provider_id"] == "603")
        .expect("the movie's issue");
    assert_eq!(matrix["status"], "pending", "{matrix}");
    assert_eq!(matrix["category_id"], 2);
    let commented = admin.call(
        "write_issue_comment",
        json!({"action": "add", "issue_id": 1, "comment": "Replaced the file, please check."}),
    );
    assert_eq!(commented["data"]["outcome"], "completed", "{commented}");
    assert!(commented["data"]["comment_id"].as_i64().is_some());
    let resolved = admin.call(
        "write_issue_status",
        json!({"issue_id": 1, "status": "resolved"}),
    );
    assert_eq!(resolved["data"]["outcome"], "completed", "{resolved}");
    let progress = admin.call(
        "write_issue_status",
        json!({"issue_id": 1, "status": "in_progress"}),
    );
    assert_eq!(progress["error"]["code"], "UNSUPPORTED_CAPABILITY");
    let counts = admin.call("read_issues", json!({"view": "counts"}));
    assert!(
        counts["data"]["values"]
            .to_string()
            .contains("\"subtitles\""),
        "{counts}"
    );
}

#[test]
fn users_quotas_and_the_server_read_as_seerr_reports_them() {
    let fake = fake("users");
    let mut admin = Client::new(&env(&fake, None));
    let users = admin.call("read_users", json!({"view": "list"}));
    let items = users["data"]["items"].as_array().expect("items");
    assert_eq!(items.len(), 4, "{users}");
    assert!(
        !users.to_string().contains("@home.local"),
        "no e-mail addresses"
    );
    let carol = admin.call(
        "read_request_stats",
        json!({"scope": "quota", "user_id": "4"}),
    );
    let values = carol["data"]["values"].as_array().expect("values");
    let value = |name: &str| {
        values
            .iter()
            .find(|v| v["name"] == name)
            .map(|v| v["value"].clone())
    };
    assert_eq!(value("movie.limit"), Some(json!(1)), "{carol}");
    assert_eq!(value("movie.days"), Some(json!(7)));
    assert_eq!(value("tv.has_limit"), Some(json!(false)));
    assert_eq!(value("tv.limit"), None, "no limit is not a limit of 0");
    let status = admin.call("read_server", json!({"view": "status"}));
    assert!(
        status["data"]["values"]
            .to_string()
            .contains("develop-f74306ed"),
        "{status}"
    );

    let mut alice = Client::new(&env(&fake, Some("alice")));
    let refused = alice.call(
        "read_request_stats",
        json!({"scope": "quota", "user_id": "4"}),
    );
    assert_eq!(refused["error"]["code"], "FORBIDDEN", "{refused}");
}

#[test]
fn a_user_nobody_has_is_not_found_and_nothing_goes_as_the_administrator() {
    let fake = fake("requests");
    let mut c = Client::new(&env(&fake, Some("nobody")));
    let r = c.call("read_requests", json!({}));
    assert_eq!(r["error"]["code"], "NOT_FOUND", "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("nobody")
    );
    let sent: Vec<String> = fake
        .requests()
        .iter()
        .map(|r| format!("{} {}", r.path, r.query))
        .collect();
    assert_eq!(sent, ["/api/v1/user take=100&q=nobody"]);
}

#[test]
fn read_only_mode_refuses_writes_with_nothing_sent() {
    let fake = fake("requests");
    let mut h = Harness::serve_initialized(
        &env(&fake, Some("alice")).set("MEDIA_MCP_READ_ONLY", "1"),
        "2025-11-25",
    );
    let listed = h.rpc("tools/list", json!({}));
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(
        names.contains(&"read_requests") && !names.iter().any(|n| n.starts_with("write_")),
        "{names:?}"
    );
    let r = h.call_tool(
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert!(
        r.get("error").is_some() || r["result"]["isError"] == true,
        "{r}"
    );
    assert!(
        posts(&fake).is_empty(),
        "a write reached Seerr in read-only mode"
    );
}

#[test]
fn ombi_and_seerr_together_stop_the_harness_naming_both() {
    let fake = fake("server");
    let env = env(&fake, None)
        .set("OMBI_URL", "http://127.0.0.1:9")
        .set("OMBI_API_KEY", "ombi-key-1234");
    let done = run_cli(&["tools"], &env);
    assert!(!done.status.success());
    assert!(
        done.stderr.contains("OMBI_URL and SEERR_URL are both set"),
        "{}",
        done.stderr
    );
}
