use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn approve_success_targets_the_request_without_claiming_an_id() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/request/movie/approve",
        "v1-request-movie-approve.json",
    );
    let out = call(
        &up,
        "write_request_approve",
        json!({"media": "movie", "request_id": 12, "is_4k": true}),
    );
    assert_eq!(out["data"]["outcome"], "completed", "{out}");
    assert_eq!(out["data"]["target"], json!({"kind": "movie", "id": 12}));
    assert!(
        out["data"].get("request_id").is_none(),
        "Ombi returned requestId 0"
    );
    let body: serde_json::Value =
        serde_json::from_slice(up.requests()[0].body.as_ref().unwrap()).unwrap();
    assert_eq!(body, json!({"id": 12, "is4K": true}));
    assert!(out["warnings"].to_string().contains("administrator"));
}

#[test]
fn request_does_not_exist_without_a_code_is_not_found() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/request/movie/approve",
        "v1-request-movie-approve-missing.json",
    );
    let out = call(
        &up,
        "write_request_approve",
        json!({"media": "movie", "request_id": 99}),
    );
    assert_eq!(out["error"]["code"], "NOT_FOUND");
    assert_eq!(out["data"]["outcome"], "rejected");
}

#[test]
fn movie_send_failure_is_partial() {
    let body = json!({"result": false, "message": "Radarr refused", "isError": true, "errorMessage": "Radarr refused", "errorCode": null, "requestId": 0});
    let up = FakeUpstream::new().route(
        Method::Post,
        "/api/v1/request/movie/approve",
        Ok(json_response(body.to_string().into_bytes())),
    );
    let out = call(
        &up,
        "write_request_approve",
        json!({"media": "movie", "request_id": 12}),
    );
    assert_eq!(out["error"]["code"], "PARTIAL_FAILURE");
    assert_eq!(out["data"]["outcome"], "partial");
}

#[test]
fn tv_result_false_without_code_is_rejected_with_the_message() {
    let body = json!({"result": false, "isError": true, "errorMessage": "Child request has no seasons", "errorCode": null, "requestId": 0});
    let up = FakeUpstream::new().route(
        Method::Post,
        "/api/v1/request/tv/approve",
        Ok(json_response(body.to_string().into_bytes())),
    );
    let out = call(
        &up,
        "write_request_approve",
        json!({"media": "tv", "request_id": 7}),
    );
    assert_eq!(out["error"]["code"], "UPSTREAM_REJECTED");
    assert!(
        out["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Child request has no seasons")
    );
}

#[test]
fn tv_success_warns_that_the_send_is_unconfirmed_and_album_uses_the_music_route() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/request/tv/approve",
        "v1-request-tv-approve.json",
    );
    let out = call(
        &up,
        "write_request_approve",
        json!({"media": "tv", "request_id": 7}),
    );
    assert_eq!(out["data"]["target"], json!({"kind": "tv_child", "id": 7}));
    assert!(out["warnings"].to_string().contains("Sonarr"));
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/request/music/approve",
        "v1-request-music-approve.json",
    );
    let out = call(
        &up,
        "write_request_approve",
        json!({"media": "album", "request_id": 4}),
    );
    assert_eq!(out["data"]["target"], json!({"kind": "album", "id": 4}));
}

#[test]
fn is_4k_is_movie_only() {
    let up = FakeUpstream::new();
    let out = call(
        &up,
        "write_request_approve",
        json!({"media": "tv", "request_id": 7, "is_4k": true}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    assert!(up.requests().is_empty());
}

#[test]
fn a_permission_message_without_code_is_forbidden_not_partial() {
    let body = json!({"result": false, "isError": true, "errorMessage": "You do not have the correct permissions!", "errorCode": null, "requestId": 0});
    let up = FakeUpstream::new().route(
        Method::Post,
        "/api/v1/request/movie/approve",
        Ok(json_response(body.to_string().into_bytes())),
    );
    let out = call(
        &up,
        "write_request_approve",
        json!({"media": "movie", "request_id": 12}),
    );
    assert_eq!(out["error"]["code"], "FORBIDDEN", "{out}");
}
