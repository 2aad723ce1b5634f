use super::*;
use crate::testing::{FakeUpstream, call};
use crate::upstream::Method;

#[test]
fn tvmaze_rows_label_tvdb_and_tvmaze_and_omit_request_state() {
    let row = json!({"id": 81189, "theMovieDbId": "81189", "seriesId": 169, "imdbId": "tt0903747",
                     "title": "Breaking Bad", "requested": false, "requestId": 0, "available": false});
    let v = project_tvmaze(&row).into_json();
    assert_eq!(
        v["identifiers"],
        json!([
        {"namespace": "tvdb", "value": "81189"}, {"namespace": "tvmaze", "value": "169"},
        {"namespace": "imdb", "value": "tt0903747"}])
    );
    assert!(v.get("requested").is_none());
    assert!(v.get("request_targets").is_none());
}

#[test]
fn multi_media_type_is_case_insensitive_and_year_suffix_split() {
    let mut w = Vec::new();
    let v = project_multi(
        &json!({"id": "a74b", "mediaType": "Artist", "title": "Radiohead"}),
        &mut w,
    )
    .into_json();
    assert_eq!(v["media"], "artist");
    assert_eq!(v["identifiers"][0]["namespace"], "musicbrainz");
    let v = project_multi(
        &json!({"id": "603", "mediaType": "movie", "title": "The Matrix (1999)"}),
        &mut w,
    )
    .into_json();
    assert_eq!(
        (v["title"].as_str(), v["year"].as_i64()),
        (Some("The Matrix"), Some(1999))
    );
    assert!(w.is_empty());
}

#[test]
fn movie_request_target_only_with_a_request() {
    let v = project_movie(
        &json!({"id": 603, "theMovieDbId": "603", "requestId": 0, "requested": false}),
    )
    .into_json();
    assert!(v.get("request_targets").is_none());
    assert_eq!(v["requested"], false);
    let v = project_movie(&json!({"id": 603, "requestId": 12})).into_json();
    assert_eq!(v["request_targets"], json!([{"kind": "movie", "id": 12}]));
}

#[test]
fn multi_search_posts_the_filter_and_windows_locally() {
    let up = FakeUpstream::new().fixture(
        Method::Post,
        "/api/v2/search/multi/matrix",
        "v2-search-multi.json",
    );
    let out = call(&up, "read_search", json!({"query": "matrix", "limit": 2}));
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(out["data"]["page"]["returned"], 2);
    assert_eq!(out["data"]["page"]["mode"], "local");
    let sent = &up.requests()[0];
    let body: serde_json::Value = serde_json::from_slice(sent.body.as_ref().unwrap()).unwrap();
    assert_eq!(
        body,
        json!({"movies": true, "tvShows": true, "music": true, "people": true})
    );
}

#[test]
fn unknown_argument_is_invalid_argument_naming_it() {
    let up = FakeUpstream::new();
    let out = call(&up, "read_search", json!({"query": "x", "bogus": 1}));
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    assert_eq!(out["error"]["field"], "bogus");
    assert!(
        up.requests().is_empty(),
        "nothing is sent for bad arguments"
    );
}

#[test]
fn html_page_for_unknown_route_is_a_schema_mismatch() {
    let up = FakeUpstream::new();
    let out = call(&up, "read_search", json!({"query": "x", "media": "movie"}));
    assert_eq!(out["error"]["code"], "UPSTREAM_SCHEMA_MISMATCH");
}
