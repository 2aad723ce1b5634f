use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::{HttpResponse, Method};
use serde_json::json;

fn movie_info() -> FakeUpstream {
    FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/request/movie/info/12",
        "v1-request-movie-info.json",
    )
}

#[test]
fn movie_delete_reads_first_then_deletes() {
    let up = movie_info().fixture(
        Method::Delete,
        "/api/v1/request/movie/12",
        "v1-request-movie-delete.json",
    );
    let out = call(
        &up,
        "write_request_delete",
        json!({"target_kind": "movie", "request_id": 12}),
    );
    assert_eq!(out["data"]["outcome"], "completed", "{out}");
    assert_eq!(up.requests()[1].method, Method::Delete);
}

#[test]
fn missing_movie_is_not_found_and_nothing_is_deleted() {
    let err500 = HttpResponse {
        status: 500,
        content_type: Some("application/json".into()),
        body: br#"{"error":"Object reference not set"}"#.to_vec(),
        ..Default::default()
    };
    let up = FakeUpstream::new().route(Method::Get, "/api/v1/request/movie/info/99", Ok(err500));
    let out = call(
        &up,
        "write_request_delete",
        json!({"target_kind": "movie", "request_id": 99}),
    );
    assert_eq!(out["error"]["code"], "NOT_FOUND", "{out}");
    assert!(up.requests().iter().all(|r| r.method == Method::Get));
}

#[test]
fn not_the_owner_is_forbidden() {
    let up = movie_info().fixture(
        Method::Delete,
        "/api/v1/request/movie/12",
        "v1-request-movie-delete-forbidden.json",
    );
    let out = call(
        &up,
        "write_request_delete",
        json!({"target_kind": "movie", "request_id": 12}),
    );
    assert_eq!(out["error"]["code"], "FORBIDDEN");
    assert_eq!(out["data"]["upstream_error_code"], 3);
}

#[test]
fn tv_parent_empty_body_is_completed_without_counts() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/request/tv/5",
            "v1-request-tv-by-id.json",
        )
        .route(
            Method::Delete,
            "/api/v1/request/tv/5",
            Ok(HttpResponse {
                status: 200,
                ..Default::default()
            }),
        );
    let out = call(
        &up,
        "write_request_delete",
        json!({"target_kind": "tv_parent", "request_id": 5}),
    );
    assert_eq!(
        out["data"],
        json!({"kind": "mutation", "outcome": "completed", "target": {"kind": "tv_parent", "id": 5}})
    );
}

#[test]
fn tv_parent_204_is_not_found() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/request/tv/5",
        Ok(HttpResponse {
            status: 204,
            ..Default::default()
        }),
    );
    let out = call(
        &up,
        "write_request_delete",
        json!({"target_kind": "tv_parent", "request_id": 5}),
    );
    assert_eq!(out["error"]["code"], "NOT_FOUND");
    assert_eq!(up.requests().len(), 1);
}

#[test]
fn tv_child_warns_about_the_parent() {
    let up = FakeUpstream::new().route(
        Method::Delete,
        "/api/v1/request/tv/child/7",
        Ok(json_response(crate::testing::fixture(
            "v1-request-tv-child-delete.json",
        ))),
    );
    let out = call(
        &up,
        "write_request_delete",
        json!({"target_kind": "tv_child", "request_id": 7}),
    );
    assert!(out["warnings"].to_string().contains("parent"), "{out}");
}
