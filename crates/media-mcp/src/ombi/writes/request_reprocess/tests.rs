use crate::testing::{FakeUpstream, call};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn reprocess_is_only_accepted_and_uses_the_request_type_codes() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v2/requests/reprocess/0/7/false",
        "v2-requests-reprocess.json",
    );
    let out = call(
        &up,
        "write_request_reprocess",
        json!({"media": "tv", "request_id": 7}),
    );
    assert_eq!(out["data"]["outcome"], "accepted", "{out}");
    assert!(out["warnings"].to_string().contains("only approved"));
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v2/requests/reprocess/1/12/true",
        "v2-requests-reprocess.json",
    );
    let out = call(
        &up,
        "write_request_reprocess",
        json!({"media": "movie", "request_id": 12, "is_4k": true}),
    );
    assert_eq!(out["data"]["target"], json!({"kind": "movie", "id": 12}));
}
