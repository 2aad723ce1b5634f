use crate::testing::{FakeUpstream, call};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn overview_keeps_counts_and_never_reports_my_vote() {
    let up = FakeUpstream::new().fixture(Method::Get, "/api/v1/vote", "v1-vote-overview.json");
    let out = call(&up, "read_votes", json!({}));
    assert_eq!(out["ok"], true, "{out}");
    let items = out["data"]["items"].as_array().unwrap();
    assert_eq!(
        items[0],
        json!({"request_id": 14, "up": 2, "down": 1, "media": "movie"})
    );
    assert_eq!(items[1]["media"], "tv");
    assert!(
        items
            .iter()
            .all(|i| i.get("vote_code").is_none() && i.get("user_id").is_none())
    );
    assert_eq!(out["data"]["page"]["total"], 2);
}

#[test]
fn by_request_uses_music_route_and_drops_other_media_and_deleted_votes() {
    let body = json!([
        {"requestId": 3, "voteType": 0, "requestType": 2, "userId": "u1", "deleted": false, "id": 1},
        {"requestId": 3, "voteType": 1, "requestType": 1, "userId": "u2", "deleted": false, "id": 2},
        {"requestId": 3, "voteType": 1, "requestType": 2, "userId": "u3", "deleted": true, "id": 3},
        {"requestId": 3, "voteType": 9, "requestType": 2, "userId": "u4", "deleted": false, "id": 4}
    ]);
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/vote/music/3",
        Ok(crate::testing::json_response(body.to_string().into_bytes())),
    );
    let out = call(
        &up,
        "read_votes",
        json!({"view": "by_request", "media": "album", "request_id": 3}),
    );
    assert_eq!(out["ok"], true, "{out}");
    let items = out["data"]["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0],
        json!({"request_id": 3, "user_id": "u1", "media": "album", "vote_code": 0})
    );
    assert!(
        items[1].get("vote_code").is_none(),
        "unknown vote code is not carried"
    );
    let w = out["warnings"].to_string();
    assert!(
        w.contains("another media") && w.contains("deleted") && w.contains("vote type code 9"),
        "{w}"
    );
}

#[test]
fn by_request_needs_media_and_id() {
    let up = FakeUpstream::new();
    let out = call(
        &up,
        "read_votes",
        json!({"view": "by_request", "media": "movie"}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    let out = call(&up, "read_votes", json!({"request_id": 3}));
    assert_eq!(
        out["error"]["code"], "INVALID_ARGUMENT",
        "request_id only with by_request"
    );
}
