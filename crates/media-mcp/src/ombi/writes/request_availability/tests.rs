use crate::testing::{FakeUpstream, call};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn available_and_unavailable_pick_the_route() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/request/movie/unavailable",
        "v1-request-movie-unavailable.json",
    );
    let out = call(
        &up,
        "write_request_availability",
        json!({"media": "movie", "request_id": 12, "available": false}),
    );
    assert_eq!(out["data"]["outcome"], "completed", "{out}");
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/request/music/available",
        "v1-request-music-available.json",
    );
    let out = call(
        &up,
        "write_request_availability",
        json!({"media": "album", "request_id": 4, "available": true}),
    );
    assert_eq!(out["data"]["target"], json!({"kind": "album", "id": 4}));
}

#[test]
fn tv_warns_that_every_episode_is_marked() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v1/request/tv/available",
        "v1-request-tv-available.json",
    );
    let out = call(
        &up,
        "write_request_availability",
        json!({"media": "tv", "request_id": 7, "available": true}),
    );
    assert!(
        out["warnings"].to_string().contains("every episode"),
        "{out}"
    );
}
