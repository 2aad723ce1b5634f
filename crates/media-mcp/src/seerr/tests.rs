//! The Seerr backend through the plugin, against a scripted upstream answering as Seerr
//! v3.1.0 was recorded answering: identity, projections, refusals and each request outcome.

use crate::catalogue::Plugin;
use crate::config::Config;
use crate::testing::{FakeUpstream, call_plugin, json_response};
use crate::tool::CallContext;
use crate::upstream::{HttpRequest, HttpResponse, Method};
use serde_json::{Value, json};

fn plugin(user: Option<&str>) -> Plugin {
    let user = user.map(str::to_owned);
    Plugin::new(Config::from_lookup(move |k| match k {
        "SEERR_URL" => Some("http://seerr.test".to_owned()),
        "SEERR_USER" => user.clone(),
        _ => None,
    }))
}

fn answer(status: u16, body: &Value) -> HttpResponse {
    HttpResponse {
        status,
        ..json_response(body.to_string().into_bytes())
    }
}

const USERS: &str = r#"{"pageInfo":{"pages":1,"pageSize":100,"results":1,"page":1},"results":[{"id":2,"username":"alice","displayName":"alice","email":"alice@home.local","plexUsername":null}]}"#;

/// A scripted Seerr: the user search knows alice (id 2); `routes` answer by method and path
/// (query included).
fn seerr(routes: Vec<(Method, &'static str, u16, Value)>) -> FakeUpstream {
    FakeUpstream::new().script(move |r: &HttpRequest| {
        let path = r.url.strip_prefix("http://seerr.test/api/v1")?;
        if r.method == Method::Get && path.starts_with("/user?take=100&q=") {
            return Some(Ok(json_response(USERS.as_bytes().to_vec())));
        }
        routes
            .iter()
            .find(|(m, p, _, _)| *m == r.method && *p == path)
            .map(|(_, _, s, b)| Ok(answer(*s, b)))
    })
}

fn call(up: &FakeUpstream, user: Option<&str>, tool: &str, args: Value) -> Value {
    call_plugin(&plugin(user), up, tool, args, None)
}

fn header<'a>(r: &'a HttpRequest, name: &str) -> Option<&'a str> {
    r.headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn request_row(id: i64, status: i64, is_4k: bool, media_status: i64) -> Value {
    json!({"id": id, "status": status, "type": "movie", "is4k": is_4k, "createdAt": "2026-12-06T08:28:51.000Z",
           "media": {"id": 5, "mediaType": "movie", "tmdbId": 550, "tvdbId": null, "imdbId": null, "status": media_status, "status4k": 1},
           "seasons": [], "requestedBy": {"id": 4, "username": "carol", "email": "carol@home.local"}})
}

#[test]
fn a_name_is_acted_as_by_its_id_and_an_unknown_one_sends_nothing_else() {
    let up = seerr(vec![(
        Method::Get,
        "/request?take=20&skip=0&filter=all&sort=added&sortDirection=desc&mediaType=movie",
        200,
        json!({"pageInfo": {"results": 1}, "results": [request_row(8, 1, false, 2)]}),
    )]);
    let r = call(&up, Some("ALICE"), "read_requests", json!({}));
    assert_eq!(r["ok"], true, "{r}");
    let sent = up.requests();
    assert_eq!(
        header(&sent[0], "x-api-user"),
        None,
        "the look-up is the administrator's"
    );
    assert_eq!(header(&sent[1], "x-api-user"), Some("2"));
    assert!(
        r.get("warnings")
            .is_none_or(|w| !w.to_string().contains("administrator"))
    );

    let up = seerr(vec![]);
    let r = call(&up, Some("nobody"), "read_requests", json!({}));
    assert_eq!(r["error"]["code"], "NOT_FOUND", "{r}");
    assert_eq!(up.requests().len(), 1);
}

#[test]
fn a_request_projects_seerr_states_and_the_4k_side_apart() {
    let rows = json!({"pageInfo": {"results": 2}, "results": [request_row(8, 3, false, 2), request_row(9, 2, true, 5)]});
    let up = seerr(vec![(
        Method::Get,
        "/request?take=20&skip=0&filter=all&sort=added&sortDirection=desc&mediaType=movie",
        200,
        rows,
    )]);
    let r = call(&up, None, "read_requests", json!({}));
    let items = &r["data"]["items"];
    assert_eq!(items[0]["target"], json!({"kind": "movie", "id": 8}));
    assert_eq!(items[0]["denied"], true);
    assert_eq!(items[0]["approved"], false);
    assert_eq!(items[0]["status_text"], "declined; media pending");
    assert_eq!(items[0]["requested_user_id"], "4");
    assert!(items[0]["identifiers"].to_string().contains("seerr_media"));
    assert_eq!(items[1]["approved_4k"], true);
    assert_eq!(
        items[1]["available_4k"], false,
        "the 4K side of the media is unknown (1)"
    );
    assert!(items[1].get("approved").is_none(), "{}", items[1]);
    assert!(
        r["warnings"]
            .to_string()
            .contains("acts as Seerr's administrator")
    );
    assert_eq!(r["data"]["page"]["total"], 2);
    assert!(!r.to_string().contains("carol@"), "no e-mail addresses");
}

#[test]
fn each_answer_to_a_new_request_is_its_own_outcome() {
    for (status, body, code) in [
        (
            409,
            json!({"message": "Request for this media already exists."}),
            "CONFLICT",
        ),
        (
            202,
            json!({"message": "No seasons available to request"}),
            "CONFLICT",
        ),
        (
            403,
            json!({"message": "Movie Quota exceeded."}),
            "RATE_LIMITED",
        ),
        (
            403,
            json!({"message": "This media is blocklisted."}),
            "FORBIDDEN",
        ),
        (
            500,
            json!({"message": "[TMDB] Failed to fetch movie details"}),
            "UNKNOWN_OUTCOME",
        ),
    ] {
        let up = seerr(vec![(Method::Post, "/request", status, body.clone())]);
        let r = call(
            &up,
            Some("alice"),
            "write_request_create",
            json!({"media": "movie", "tmdb_id": 603}),
        );
        assert_eq!(r["error"]["code"], code, "{status}: {r}");
        let said = body["message"].as_str().unwrap_or("");
        assert!(
            r["error"]["message"]
                .as_str()
                .unwrap_or("")
                .contains(said.trim_end_matches('.')),
            "{r}"
        );
        if code != "UNKNOWN_OUTCOME" {
            assert_eq!(r["data"]["outcome"], "rejected", "{r}");
        }
        let sent = up.requests();
        let body: Value =
            serde_json::from_slice(sent[1].body.as_deref().unwrap_or_default()).expect("body");
        assert_eq!(
            body,
            json!({"mediaType": "movie", "mediaId": 603, "is4k": false})
        );
    }
    let created =
        json!({"id": 1, "status": 1, "type": "movie", "is4k": false, "requestedBy": {"id": 2}});
    let up = seerr(vec![(Method::Post, "/request", 201, created)]);
    let r = call(
        &up,
        Some("alice"),
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(r["data"]["outcome"], "completed");
    assert_eq!(r["data"]["request_id"], 1);
    assert_eq!(r["data"]["user_id"], "2");
}

#[test]
fn a_season_given_with_only_some_episodes_is_refused_before_sending() {
    let show = json!({"id": 1399, "name": "Game of Thrones", "seasons": [{"seasonNumber": 0, "episodeCount": 3}, {"seasonNumber": 1, "episodeCount": 3}, {"seasonNumber": 2, "episodeCount": 2}]});
    let up = seerr(vec![
        (Method::Get, "/tv/1399", 200, show),
        (
            Method::Post,
            "/request",
            201,
            json!({"id": 4, "status": 1, "type": "tv", "is4k": false}),
        ),
    ]);
    let part = call(
        &up,
        Some("alice"),
        "write_request_create",
        json!({"media": "tv", "tmdb_id": 1399, "seasons": [{"season_number": 1, "episodes": [1, 2]}]}),
    );
    assert_eq!(part["error"]["code"], "UNSUPPORTED_CAPABILITY", "{part}");
    assert_eq!(part["error"]["field"], "seasons");
    assert!(up.requests().iter().all(|r| r.method == Method::Get));
    let latest = call(
        &up,
        Some("alice"),
        "write_request_create",
        json!({"media": "tv", "tmdb_id": 1399, "latest_season": true, "seasons": [{"season_number": 1, "episodes": [3, 1, 2]}]}),
    );
    assert_eq!(
        latest["data"]["target"],
        json!({"kind": "tv_child", "id": 4}),
        "{latest}"
    );
    let post = up
        .requests()
        .into_iter()
        .find(|r| r.method == Method::Post)
        .expect("sent");
    let body: Value =
        serde_json::from_slice(post.body.as_deref().unwrap_or_default()).expect("body");
    assert_eq!(
        body["seasons"],
        json!([1, 2]),
        "season 0 is not the first season"
    );
}

#[test]
fn a_decision_on_a_request_of_another_kind_sends_nothing() {
    let tv = json!({"id": 3, "status": 1, "type": "tv", "is4k": false});
    let up = seerr(vec![(Method::Get, "/request/3", 200, tv)]);
    let r = call(
        &up,
        None,
        "write_request_approve",
        json!({"media": "movie", "request_id": 3}),
    );
    assert_eq!(r["error"]["code"], "INVALID_ARGUMENT", "{r}");
    assert_eq!(r["error"]["field"], "media");
    assert!(up.requests().iter().all(|r| r.method == Method::Get));
    let r = call(
        &up,
        None,
        "write_request_deny",
        json!({"media": "tv", "request_id": 3, "reason": "no"}),
    );
    assert_eq!(r["error"]["code"], "UNSUPPORTED_CAPABILITY");
    assert_eq!(r["error"]["field"], "reason");
}

#[test]
fn a_refused_delete_answered_401_is_forbidden_not_bad_credentials() {
    let up = seerr(vec![
        (
            Method::Get,
            "/request/2",
            200,
            json!({"id": 2, "status": 2, "type": "movie", "is4k": false}),
        ),
        (
            Method::Delete,
            "/request/2",
            401,
            json!({"message": "You do not have permission to delete this request."}),
        ),
    ]);
    let r = call(
        &up,
        Some("alice"),
        "write_request_delete",
        json!({"target_kind": "movie", "request_id": 2}),
    );
    assert_eq!(r["error"]["code"], "FORBIDDEN", "{r}");
    assert_eq!(r["data"]["outcome"], "rejected");
}

#[test]
fn media_state_is_reported_only_where_seerr_holds_the_title() {
    let search = json!({"page": 1, "totalPages": 1, "totalResults": 3, "results": [
        {"id": 603, "mediaType": "movie", "title": "The Matrix", "releaseDate": "1999-03-30", "posterPath": "/p603.jpg",
         "mediaInfo": {"id": 1, "tmdbId": 603, "status": 4, "status4k": 6}},
        {"id": 604, "mediaType": "movie", "title": "The Matrix Reloaded"},
        {"id": 6384, "mediaType": "person", "name": "Keanu Reeves"}]});
    let up = seerr(vec![(
        Method::Get,
        "/search?query=the%20matrix&page=1",
        200,
        search,
    )]);
    let r = call(
        &up,
        Some("alice"),
        "read_search",
        json!({"query": "the matrix", "media": "movie"}),
    );
    let items = &r["data"]["items"];
    assert_eq!(items.as_array().map(Vec::len), Some(2), "{r}");
    assert_eq!(items[0]["status"], "partially_available");
    assert_eq!(items[0]["status_4k"], "blocklisted");
    assert_eq!(items[0]["available"], false);
    assert!(items[0].get("requested").is_none());
    assert_eq!(
        items[0]["artwork_uris"][0],
        "https://image.tmdb.org/t/p/original/p603.jpg"
    );
    assert!(items[1].get("available").is_none() && items[1].get("status").is_none());
    assert_eq!(
        r["data"]["page"]["total"], 2,
        "the movies of a complete search"
    );
}

#[test]
fn quotas_are_metrics_as_seerr_reports_them() {
    let quota = json!({"movie": {"days": 7, "limit": 1, "used": 1, "remaining": 0, "restricted": true}, "tv": {"used": 0, "restricted": false}});
    let up = seerr(vec![(Method::Get, "/user/2/quota", 200, quota)]);
    let r = call(
        &up,
        Some("alice"),
        "read_request_stats",
        json!({"scope": "quota"}),
    );
    let values = r["data"]["values"].as_array().expect("values");
    let named = |n: &str| {
        values
            .iter()
            .find(|v| v["name"] == n)
            .map(|v| (v["value"].clone(), v["scope"].clone()))
    };
    assert_eq!(
        named("movie.remaining"),
        Some((json!(0), json!("principal")))
    );
    assert_eq!(named("movie.restricted").map(|v| v.0), Some(json!(true)));
    assert_eq!(named("tv.has_limit").map(|v| v.0), Some(json!(false)));
    assert_eq!(named("tv.limit"), None);
    assert_eq!(named("tv.remaining"), None);
}

#[test]
fn an_unusable_or_doubled_request_server_lists_only_the_status_tools() {
    let both = Plugin::new(Config::from_lookup(|k| match k {
        "SEERR_URL" => Some("http://seerr.test".to_owned()),
        "OMBI_URL" => Some("http://ombi.test".to_owned()),
        _ => None,
    }));
    let up = FakeUpstream::new();
    let names: Vec<String> = both.list_tools(&up).into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["ombi_status", "seerr_status"]);
    let r = both
        .call_tool("seerr_status", "{}", &CallContext::default(), &up)
        .expect("listed");
    assert!(
        r.structured["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("SEERR_URL is set together with OMBI_URL"),
        "{}",
        r.structured
    );
    assert!(up.requests().is_empty());
}
