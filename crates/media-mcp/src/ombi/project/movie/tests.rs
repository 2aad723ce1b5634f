use super::*;
use serde_json::json;

#[test]
fn movie_request_target_only_with_a_request() {
    let v =
        list_item(&json!({"id": 603, "theMovieDbId": "603", "requestId": 0, "requested": false}))
            .into_json();
    assert!(v.get("request_targets").is_none());
    assert_eq!(v["requested"], false);
    let v = list_item(&json!({"id": 603, "requestId": 12})).into_json();
    assert_eq!(v["request_targets"], json!([{"kind": "movie", "id": 12}]));
}
