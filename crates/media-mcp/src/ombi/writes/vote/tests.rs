use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::Method;
use serde_json::json;

fn enabled(on: bool) -> FakeUpstream {
    FakeUpstream::new().route(
        Method::Get,
        "/api/v1/settings/voteenabled",
        Ok(json_response(on.to_string().into_bytes())),
    )
}

#[test]
fn votes_are_refused_before_sending_when_voting_is_off() {
    let up = enabled(false).fixture(
        Method::Post,
        "/api/v1/vote/up/movie/12",
        "v1-vote-up-movie.json",
    );
    let out = call(
        &up,
        "write_vote",
        json!({"media": "movie", "request_id": 12, "direction": "up"}),
    );
    assert_eq!(out["error"]["code"], "UNSUPPORTED_CAPABILITY", "{out}");
    assert_eq!(out["data"]["outcome"], "rejected");
    assert!(up.requests().iter().all(|r| r.method == Method::Get));
}

#[test]
fn an_upvote_warns_that_it_may_approve() {
    let up = enabled(true).fixture(
        Method::Post,
        "/api/v1/vote/up/album/4",
        "v1-vote-up-album.json",
    );
    let out = call(
        &up,
        "write_vote",
        json!({"media": "album", "request_id": 4, "direction": "up"}),
    );
    assert_eq!(out["data"]["outcome"], "completed", "{out}");
    assert!(out["warnings"].to_string().contains("approves the request"));
}

#[test]
fn already_voted_is_a_conflict_and_failed_approval_is_partial() {
    let up = enabled(true).fixture(
        Method::Post,
        "/api/v1/vote/up/movie/12",
        "v1-vote-already.json",
    );
    let out = call(
        &up,
        "write_vote",
        json!({"media": "movie", "request_id": 12, "direction": "up"}),
    );
    assert_eq!(out["error"]["code"], "CONFLICT");
    let body = json!({"result": true, "message": null, "isError": true, "errorMessage": "Voted succesfully but could not approve!"});
    let up = enabled(true).route(
        Method::Post,
        "/api/v1/vote/up/tv/7",
        Ok(json_response(body.to_string().into_bytes())),
    );
    let out = call(
        &up,
        "write_vote",
        json!({"media": "tv", "request_id": 7, "direction": "up"}),
    );
    assert_eq!(out["error"]["code"], "PARTIAL_FAILURE");
    assert_eq!(out["data"]["outcome"], "partial");
    assert_eq!(out["data"]["target"], json!({"kind": "tv_child", "id": 7}));
}
