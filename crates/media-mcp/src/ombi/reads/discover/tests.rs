//! Handler and projection tests for `read_discover`.

use super::BrowseRow;
use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::{HttpResponse, Method, UpstreamError};
use serde_json::{Value, json};

fn body(v: Value) -> Result<HttpResponse, UpstreamError> {
    Ok(json_response(v.to_string().into_bytes()))
}

#[test]
fn season_trees_are_skipped_while_parsing() {
    let rows: Vec<BrowseRow> =
        serde_json::from_slice(&crate::testing::fixture("v2-search-tv-popular-paged.json"))
            .unwrap();
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|r| !r.0.contains_key("seasonRequests") && r.0.contains_key("title"))
    );
}

#[test]
fn tv_popular_offers_a_continuation_only_from_the_first_page() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/search/tv/popular/0/2",
        "v2-search-tv-popular-paged.json",
    );
    let out = call(
        &up,
        "read_discover",
        json!({"media": "tv", "category": "popular", "limit": 2}),
    );
    assert_eq!(out["ok"], true, "{out}");
    let page = &out["data"]["page"];
    assert_eq!(
        (
            page["next_offset"].as_u64(),
            page["has_more"].is_null(),
            page["total"].is_null()
        ),
        (Some(2), true, true)
    );
    assert!(out["data"]["items"][0].get("seasons").is_none());
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/search/tv/popular/20/2",
        "v2-search-tv-popular-paged.json",
    );
    let out = call(
        &up,
        "read_discover",
        json!({"media": "tv", "category": "popular", "offset": 20, "limit": 2}),
    );
    assert!(out["data"]["page"]["next_offset"].is_null());
    assert!(out["warnings"].to_string().contains("skips or repeats"));
}

#[test]
fn movie_pages_are_upstream_with_unknown_total() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/search/movie/popular/0/20",
        "v2-search-movie-popular-paged.json",
    );
    let out = call(
        &up,
        "read_discover",
        json!({"media": "movie", "category": "popular"}),
    );
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(
        out["data"]["items"][0]["identifiers"][0],
        json!({"namespace": "tmdb", "value": "27205"})
    );
    let page = &out["data"]["page"];
    assert_eq!(
        (
            page["mode"].as_str(),
            page["total"].is_null(),
            page["has_more"].is_null()
        ),
        (Some("upstream"), true, true)
    );
}

#[test]
fn requested_falls_back_to_the_recent_feed_truncated() {
    let parents = json!({"collection": [{"id": 7, "externalProviderId": 1396, "childRequests": [{"id": 23}]}], "total": 0});
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v2/requests/recentlyrequested",
            "v2-requests-recently-requested.json",
        )
        .route(
            Method::Get,
            "/api/v1/request/tvlite/100/0/2/0/0",
            body(parents),
        );
    let out = call(
        &up,
        "read_discover",
        json!({"media": "tv", "category": "requested"}),
    );
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(out["truncated"], true);
    let page = &out["data"]["page"];
    assert!(page["total"].is_null() && page["has_more"].is_null() && page["next_offset"].is_null());
    let items = out["data"]["items"].as_array().unwrap();
    assert!(items.iter().all(|i| i["media"] == "tv"));
    assert_eq!(
        items[0]["request_targets"],
        json!([{"kind": "tv_parent", "id": 7}])
    );
    assert!(
        up.requests()
            .iter()
            .all(|r| !r.url.contains("/search/tv/requested")),
        "the cached paged route is not used"
    );
}

#[test]
fn similar_and_advanced_post_their_bodies() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Post,
            "/api/v2/search/movie/similar",
            "v2-search-movie-similar.json",
        )
        .fixture(
            Method::Post,
            "/api/v2/search/advancedsearch/movie/0/20",
            "v2-search-advanced-movie.json",
        );
    let out = call(
        &up,
        "read_discover",
        json!({"media": "movie", "category": "similar", "tmdb_id": 603}),
    );
    assert_eq!(out["data"]["page"]["mode"], "local", "{out}");
    let out = call(
        &up,
        "read_discover",
        json!({"media": "movie", "category": "advanced", "filters": {"genre_ids": [28], "release_year": 1999}}),
    );
    assert_eq!(out["ok"], true, "{out}");
    let sent: Vec<Value> = up
        .requests()
        .iter()
        .map(|r| serde_json::from_slice(r.body.as_ref().unwrap()).unwrap())
        .collect();
    assert_eq!(sent[0], json!({"theMovieDbId": 603, "languageCode": "en"}));
    assert_eq!(
        sent[1],
        json!({"type": "movie", "genreIds": [28], "releaseYear": 1999})
    );
}

#[test]
fn category_must_fit_the_media() {
    let up = FakeUpstream::new();
    for bad in [
        json!({"media": "tv", "category": "top_rated"}),
        json!({"media": "movie", "category": "similar"}),
        json!({"media": "movie", "category": "advanced"}),
        json!({"media": "movie", "category": "popular", "tmdb_id": 5}),
    ] {
        assert_eq!(
            call(&up, "read_discover", bad.clone())["error"]["code"],
            "INVALID_ARGUMENT",
            "{bad}"
        );
    }
}
