use super::*;
use crate::testing::{FakeUpstream, call};
use crate::upstream::Method;

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

#[test]
fn dot_segment_queries_are_refused_unsent() {
    for (media, query) in [("multi", ".."), ("movie", "."), ("tv", "..")] {
        let up = FakeUpstream::new();
        let out = call(&up, "read_search", json!({"query": query, "media": media}));
        assert_eq!(out["error"]["code"], "INVALID_ARGUMENT", "{out}");
        assert!(out["error"].to_string().contains("query"), "{out}");
        assert!(up.requests().is_empty(), "{:?}", up.requests());
    }
}
