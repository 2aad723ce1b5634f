use crate::testing::{FakeUpstream, call, fixture, json_response};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn movie_detail_labels_id_as_tmdb_and_keeps_the_collection_apart() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/search/movie/603",
        "v2-search-movie-by-tmdb.json",
    );
    let out = call(&up, "read_media", json!({"media": "movie", "id": "603"}));
    let items = out["data"]["items"].as_array().unwrap();
    assert_eq!(
        items[0]["identifiers"],
        json!([{"namespace": "tmdb", "value": "603"}, {"namespace": "imdb", "value": "tt0133093"}])
    );
    assert_eq!(
        items[0]["request_targets"],
        json!([{"kind": "movie", "id": 12}])
    );
    assert_eq!(items[1]["media"], "collection");
    assert_eq!(
        items[1]["identifiers"],
        json!([{"namespace": "tmdb", "value": "2344"}])
    );
    assert!(items[0].get("credits").is_none(), "credits only when asked");
}

#[test]
fn v2_tv_detail_never_labels_series_id_as_tvmaze() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/search/tv/moviedb/1396",
        "v2-search-tv-moviedb.json",
    );
    let out = call(
        &up,
        "read_media",
        json!({"media": "tv", "id": "1396", "include": ["seasons", "credits"]}),
    );
    let item = &out["data"]["items"][0];
    let ids = item["identifiers"].as_array().unwrap();
    assert!(ids.iter().all(|i| i["namespace"] != "tvmaze"), "{ids:?}");
    assert!(ids.contains(&json!({"namespace": "tvdb", "value": "81189"})));
    assert_eq!(
        item["request_targets"],
        json!([{"kind": "tv_parent", "id": 7}])
    );
    assert_eq!(item["seasons"][0]["season_number"], 1);
    assert_eq!(
        item["seasons"][0]["episodes"][0],
        json!({"episode_number": 1, "title": "Pilot", "requested": true, "available": true})
    );
    assert_eq!(item["credits"][0]["name"], "Bryan Cranston");
}

#[test]
fn tvdb_route_labels_tvdb_and_tvmaze() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/search/tv/info/81189",
        "v1-search-tv-info.json",
    );
    let out = call(
        &up,
        "read_media",
        json!({"media": "tv", "id": "81189", "id_namespace": "tvdb"}),
    );
    let ids = &out["data"]["items"][0]["identifiers"];
    assert!(
        ids.as_array()
            .unwrap()
            .contains(&json!({"namespace": "tvmaze", "value": "169"}))
    );
    assert!(out["data"]["items"][0].get("requested").is_none());
}

#[test]
fn no_content_is_not_found() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/search/movie/999",
        Ok(crate::upstream::HttpResponse {
            status: 204,
            ..Default::default()
        }),
    );
    let out = call(&up, "read_media", json!({"media": "movie", "id": "999"}));
    assert_eq!(out["error"]["code"], "NOT_FOUND");
}

#[test]
fn a_failed_extra_is_a_partial_failure_with_the_title() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v2/search/movie/603",
            "v2-search-movie-by-tmdb.json",
        )
        .route(
            Method::Get,
            "/api/v2/search/stream/movie/603",
            Ok(crate::upstream::HttpResponse {
                status: 503,
                ..Default::default()
            }),
        )
        .route(
            Method::Get,
            "/api/v2/search/ratings/movie/The%20Matrix/1999",
            Ok(json_response(fixture("v2-search-ratings-movie.json"))),
        );
    let out = call(
        &up,
        "read_media",
        json!({"media": "movie", "id": "603", "include": ["providers", "ratings"]}),
    );
    assert_eq!(out["ok"], false);
    assert_eq!(out["error"]["code"], "PARTIAL_FAILURE");
    let ratings = out["data"]["items"][0]["ratings"].as_array().unwrap();
    assert!(ratings.contains(&json!({"name": "rotten_tomatoes_critics_score", "value": 83.0})));
}

#[test]
fn namespace_and_media_must_agree() {
    let up = FakeUpstream::new();
    let out = call(
        &up,
        "read_media",
        json!({"media": "tv", "id": "tt0133093", "id_namespace": "imdb"}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    let out = call(&up, "read_media", json!({"media": "album", "id": "603"}));
    assert_eq!(out["error"]["field"], "id");
    let out = call(&up, "read_media", json!({"media": "person", "id": "6384"}));
    assert_eq!(out["error"]["field"], "person_name");
    assert!(up.requests().is_empty());
}

#[test]
fn cut_credits_seasons_and_episodes_set_truncated_and_say_so() {
    let mut v: serde_json::Value =
        serde_json::from_slice(&fixture("v2-search-tv-moviedb.json")).unwrap();
    v["cast"] = json!(
        (0..130)
            .map(|i| json!({"person": format!("Actor {i}"), "character": "c"}))
            .collect::<Vec<_>>()
    );
    v["crew"] = json!([]);
    v["seasonRequests"] = json!((1..=3)
        .map(|s| json!({"seasonNumber": s, "episodes": (1..=120).map(|e| json!({"episodeNumber": e})).collect::<Vec<_>>()}))
        .collect::<Vec<_>>());
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/search/tv/moviedb/1396",
        Ok(json_response(v.to_string().into_bytes())),
    );
    let out = call(
        &up,
        "read_media",
        json!({"media": "tv", "id": "1396", "include": ["seasons", "credits"]}),
    );
    let item = &out["data"]["items"][0];
    assert_eq!(item["credits"].as_array().unwrap().len(), 100);
    assert_eq!(
        item["seasons"][0]["episodes"].as_array().unwrap().len(),
        100
    );
    assert_eq!(out["truncated"], true, "{}", out["warnings"]);
    let warnings = out["warnings"].to_string();
    assert!(warnings.contains("100 of 130 credits"), "{warnings}");
    assert!(warnings.contains("episodes"), "{warnings}");
}
