//! Handler tests for `write_request_create`: one per outcome rule.

use crate::testing::{FakeUpstream, call, call_as, json_response};
use crate::upstream::{HttpResponse, Method, UpstreamError};
use serde_json::{Value, json};

const MOVIE: &str = "/api/v1/request/movie";

fn engine(v: Value) -> Result<HttpResponse, UpstreamError> {
    Ok(json_response(v.to_string().into_bytes()))
}

fn sent_body(up: &FakeUpstream, i: usize) -> Value {
    serde_json::from_slice(up.requests()[i].body.as_ref().expect("a body")).unwrap()
}

fn has_warning(out: &Value, needle: &str) -> bool {
    out["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains(needle))
}

#[test]
fn movie_success_reports_the_returned_request_id() {
    let up = FakeUpstream::new().fixture(Method::Post, MOVIE, "v1-request-movie-post-ok.json");
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["ok"], true, "{out}");
    let d = &out["data"];
    assert_eq!(d["outcome"], "completed");
    assert_eq!(d["target"], json!({"kind": "movie", "id": 12}));
    assert_eq!(d["request_id"], 12);
    assert_eq!(d["upstream_result"], true);
    assert_eq!(d["upstream_is_error"], false);
    let body = sent_body(&up, 0);
    assert_eq!(
        (body["theMovieDbId"].as_i64(), body["is4kRequest"].as_bool()),
        (Some(603), Some(false))
    );
    assert_eq!(
        up.requests().len(),
        1,
        "no 4K feature lookup when is_4k is not asked for"
    );
}

#[test]
fn success_without_a_request_id_has_no_target() {
    let up = FakeUpstream::new().route(
        Method::Post,
        MOVIE,
        engine(json!({"result": true, "isError": false, "requestId": 0})),
    );
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["data"]["outcome"], "completed");
    assert!(
        out["data"].get("target").is_none() && out["data"].get("request_id").is_none(),
        "{out}"
    );
}

#[test]
fn already_requested_is_a_conflict_with_the_ordinal_and_name() {
    let up = FakeUpstream::new().fixture(Method::Post, MOVIE, "v1-request-movie-post-already.json");
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["ok"], false);
    assert_eq!(out["error"]["code"], "CONFLICT");
    assert_eq!(out["error"]["retryable"], false);
    assert_eq!(out["data"]["outcome"], "rejected");
    assert_eq!(out["data"]["upstream_error_code"], 0);
    assert_eq!(out["data"]["upstream_is_error"], true);
    assert!(
        out["data"]["message"]
            .as_str()
            .unwrap()
            .starts_with("AlreadyRequested"),
        "{out}"
    );
    assert!(out["data"].get("request_id").is_none());
}

#[test]
fn tv_duplicate_is_a_conflict() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v2/requests/tv",
        "v2-requests-tv-post-dupe.json",
    );
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "tv", "tmdb_id": 1396, "request_all": true}),
    );
    assert_eq!(out["error"]["code"], "CONFLICT");
}

#[test]
fn quota_is_rate_limited_and_not_retryable() {
    let up = FakeUpstream::new().fixture(Method::Post, MOVIE, "v1-request-movie-post-quota.json");
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["error"]["code"], "RATE_LIMITED");
    assert_eq!(out["error"]["retryable"], false);
    assert_eq!(out["data"]["upstream_error_code"], 9);
}

#[test]
fn permission_code_is_forbidden() {
    let up = FakeUpstream::new().route(Method::Post, MOVIE, engine(json!({"result": false, "isError": true, "errorMessage": "You do not have permissions to Request a Movie", "errorCode": "NoPermissionsRequestMovie", "requestId": 0})));
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["error"]["code"], "FORBIDDEN");
    assert_eq!(out["data"]["upstream_error_code"], 6);
}

#[test]
fn result_false_without_code_may_have_saved_the_request_so_it_is_unknown() {
    let up = FakeUpstream::new().route(Method::Post, MOVIE, engine(json!({"result": false, "message": "Radarr is down", "isError": true, "errorMessage": "Radarr is down", "errorCode": null, "requestId": 0})));
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["ok"], false);
    assert_eq!(out["error"]["code"], "UNKNOWN_OUTCOME");
    assert_eq!(out["error"]["retryable"], false);
    assert_eq!(out["data"]["outcome"], "unknown");
    assert_eq!(out["data"]["message"], "Radarr is down");
    assert!(has_warning(&out, "read_requests"), "{out}");
}

#[test]
fn http_200_with_an_error_flag_but_result_true_is_a_failure() {
    let up = FakeUpstream::new().route(Method::Post, MOVIE, engine(json!({"result": true, "isError": true, "errorMessage": "odd", "errorCode": "NoPermissions", "requestId": 5})));
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["ok"], false);
    assert_eq!(out["error"]["code"], "FORBIDDEN");
    assert!(
        out["data"].get("request_id").is_none(),
        "no id on a failure"
    );
}

#[test]
fn internal_error_after_sending_is_unknown_outcome_with_the_reconcile_warning() {
    let up = FakeUpstream::new(); // every POST answers Ombi's 500 {"error": ...}
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["error"]["code"], "UNKNOWN_OUTCOME");
    assert_eq!(out["error"]["retryable"], false);
    assert_eq!(out["error"]["http_status"], 500);
    assert!(
        has_warning(&out, "check with read_requests before retrying"),
        "{out}"
    );
}

#[test]
fn timeout_after_sending_is_unknown_outcome_not_retryable() {
    let up = FakeUpstream::new().route(
        Method::Post,
        MOVIE,
        Err(UpstreamError::Timeout { sent: true }),
    );
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(
        (
            out["error"]["code"].as_str(),
            out["error"]["retryable"].as_bool()
        ),
        (Some("UNKNOWN_OUTCOME"), Some(false))
    );
    assert!(has_warning(&out, "read_requests"));
    let up = FakeUpstream::new().route(Method::Post, MOVIE, Err(UpstreamError::ConnectionLost));
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["error"]["code"], "UNKNOWN_OUTCOME");
}

#[test]
fn never_sent_is_retryable() {
    let up = FakeUpstream::new().route(Method::Post, MOVIE, Err(UpstreamError::Unreachable));
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["error"]["retryable"], true, "{out}");
    assert_ne!(out["error"]["code"], "UNKNOWN_OUTCOME");
    assert!(!has_warning(&out, "before retrying"));
}

#[test]
fn rate_limit_status_carries_retry_after_but_is_not_retryable_for_a_write() {
    let resp = HttpResponse {
        status: 429,
        retry_after_seconds: Some(30),
        ..Default::default()
    };
    let up = FakeUpstream::new().route(Method::Post, MOVIE, Ok(resp));
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["error"]["code"], "RATE_LIMITED");
    assert_eq!(out["error"]["retry_after_seconds"], 30);
    assert_eq!(out["error"]["retryable"], false);
}

#[test]
fn an_empty_answer_is_never_taken_for_success() {
    let up = FakeUpstream::new().route(
        Method::Post,
        MOVIE,
        Ok(HttpResponse {
            status: 200,
            ..Default::default()
        }),
    );
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert_eq!(out["error"]["code"], "UNKNOWN_OUTCOME");
}

#[test]
fn tv_request_id_is_a_child_target_and_seasons_are_sent() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v2/requests/tv",
        "v2-requests-tv-post-ok.json",
    );
    let args = json!({"media": "tv", "tmdb_id": 1396, "seasons": [{"season_number": 1, "episodes": [1, 2]}]});
    let out = call(&up, "write_request_create", args);
    assert_eq!(
        out["data"]["target"],
        json!({"kind": "tv_child", "id": 1396})
    );
    let body = sent_body(&up, 0);
    assert_eq!(
        body["seasons"],
        json!([{"seasonNumber": 1, "episodes": [{"episodeNumber": 1}, {"episodeNumber": 2}]}])
    );
    assert_eq!(body["theMovieDbId"], 1396);
}

#[test]
fn album_success_targets_the_album_request() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/request/music",
        "v1-request-music-post-ok.json",
    );
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "album", "musicbrainz_album_id": "5d1b1d2d-1a2b-4c3d-9e8f-0a1b2c3d4e5f"}),
    );
    assert_eq!(out["data"]["target"], json!({"kind": "album", "id": 4}));
    assert_eq!(
        sent_body(&up, 0)["foreignAlbumId"],
        "5d1b1d2d-1a2b-4c3d-9e8f-0a1b2c3d4e5f"
    );
}

#[test]
fn collection_success_is_only_unknown_with_a_warning_and_no_id() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v2/requests/movie/collection/2344",
        "v2-requests-movie-collection-post.json",
    );
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie_collection", "tmdb_id": 2344}),
    );
    assert_eq!(out["ok"], true);
    assert_eq!(out["data"]["outcome"], "unknown");
    assert!(out["data"].get("request_id").is_none() && out["data"].get("target").is_none());
    assert!(has_warning(&out, "some or all"), "{out}");
    assert!(up.requests()[0].body.is_none());
}

#[test]
fn is_4k_is_not_sent_when_the_feature_is_off() {
    let features = json!([{"name": "Movie4KRequests", "enabled": false}, {"name": "PlayedSync", "enabled": false}]);
    let up = FakeUpstream::new()
        .route(Method::Get, "/api/v2/features", engine(features))
        .fixture(Method::Post, MOVIE, "v1-request-movie-post-ok.json");
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603, "is_4k": true}),
    );
    assert_eq!(sent_body(&up, 1)["is4kRequest"], false);
    assert!(has_warning(&out, "Movie4KRequests"), "{out}");
}

#[test]
fn is_4k_is_sent_when_the_feature_is_on() {
    let up = FakeUpstream::new()
        .fixture(Method::Get, "/api/v2/features", "v2-features.json")
        .fixture(Method::Post, MOVIE, "v1-request-movie-post-ok.json");
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603, "is_4k": true}),
    );
    assert_eq!(sent_body(&up, 1)["is4kRequest"], true);
    assert!(!has_warning(&out, "Movie4KRequests"));
}

#[test]
fn a_failed_feature_lookup_sends_nothing() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/features",
        Err(UpstreamError::Unreachable),
    );
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603, "is_4k": true}),
    );
    assert_eq!(out["error"]["retryable"], true);
    assert!(up.requests().iter().all(|r| r.method == Method::Get));
}

#[test]
fn acting_user_is_sent_as_username_and_silences_the_admin_warning() {
    let up = FakeUpstream::new().fixture(Method::Post, MOVIE, "v1-request-movie-post-ok.json");
    let out = call_as(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
        Some("alice"),
    );
    let headers = &up.requests()[0].headers;
    assert!(
        headers.iter().any(|(k, v)| k == "username" && v == "alice"),
        "{headers:?}"
    );
    assert!(!has_warning(&out, "administrator"), "{out}");

    let up = FakeUpstream::new().fixture(Method::Post, MOVIE, "v1-request-movie-post-ok.json");
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "movie", "tmdb_id": 603}),
    );
    assert!(
        up.requests()[0]
            .headers
            .iter()
            .all(|(k, _)| k != "username")
    );
    assert!(has_warning(&out, "administrator"), "{out}");
}

#[test]
fn tv_needs_a_season_choice_and_nothing_is_sent_without_one() {
    let up = FakeUpstream::new();
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "tv", "tmdb_id": 1396}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "tv", "tmdb_id": 1396, "request_all": false}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    let out = call(
        &up,
        "write_request_create",
        json!({"media": "album", "tmdb_id": 1}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    assert!(up.requests().is_empty());
}

#[test]
fn annotations_mark_the_tool_destructive_and_not_idempotent() {
    let tool = crate::testing::plugin()
        .list_tools(&crate::testing::FakeUpstream::new())
        .into_iter()
        .find(|t| t.name == "write_request_create")
        .unwrap();
    let ann: Value = serde_json::from_str(&tool.annotations).unwrap();
    assert_eq!(
        (
            ann["readOnlyHint"].as_bool(),
            ann["destructiveHint"].as_bool(),
            ann["idempotentHint"].as_bool()
        ),
        (Some(false), Some(true), Some(false))
    );
}
