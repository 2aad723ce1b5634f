//! Handler tests for `read_library` against the fake Ombi.

use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::Method;
use serde_json::{Value, json};

fn body(v: Value) -> crate::testing::Answer {
    Ok(json_response(v.to_string().into_bytes()))
}

#[test]
fn recently_added_movies_never_emit_the_local_row_id() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/RecentlyAdded/movies",
        "v1-recentlyadded-movies.json",
    );
    let out = call(
        &up,
        "read_library",
        json!({"view": "recently_added_movies"}),
    );
    let item = &out["data"]["items"][0];
    assert_eq!(
        item["identifiers"],
        json!([{"namespace": "tmdb", "value": "550"}, {"namespace": "imdb", "value": "tt0137523"}])
    );
    assert!(
        !out["data"].to_string().contains("4242"),
        "local content row id leaked"
    );
    assert_eq!(
        (item["title"].as_str(), item["year"].as_i64()),
        (Some("Fight Club"), Some(1999))
    );
    assert!(item.get("overview").is_none(), "null overview stays absent");
    assert_eq!(out["data"]["page"]["total"], 1);
}

#[test]
fn tv_rows_keep_their_episode_and_grouped_rows_only_the_season() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/RecentlyAdded/tv",
            "v1-recentlyadded-tv.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/RecentlyAdded/tv/grouped",
            "v1-recentlyadded-tv-grouped.json",
        );
    let out = call(&up, "read_library", json!({"view": "recently_added_tv"}));
    assert_eq!(
        out["data"]["items"][1]["seasons"],
        json!([{"season_number": 1, "episodes": [{"episode_number": 2}], "truncated": false}])
    );
    assert_eq!(
        out["data"]["items"][1]["identifiers"][1],
        json!({"namespace": "tvdb", "value": "81189"})
    );
    let out = call(
        &up,
        "read_library",
        json!({"view": "recently_added_tv_grouped"}),
    );
    assert_eq!(
        out["data"]["items"][0]["seasons"],
        json!([{"season_number": 1, "episodes": [], "truncated": true}])
    );
    assert!(out["warnings"].to_string().contains("collapse"));
}

#[test]
fn a_full_feed_has_no_known_total() {
    let rows: Vec<Value> = (0..30)
        .map(|i| json!({"id": i, "title": format!("M{i}"), "theMovieDbId": format!("{}", i + 1)}))
        .collect();
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/RecentlyAdded/movies",
        body(json!(rows)),
    );
    let out = call(
        &up,
        "read_library",
        json!({"view": "recently_added_movies", "offset": 20, "limit": 20}),
    );
    let page = &out["data"]["page"];
    assert_eq!(
        (
            page["total"].clone(),
            page["has_more"].clone(),
            page["returned"].as_u64()
        ),
        (json!(null), json!(null), Some(10))
    );
    assert_eq!(
        out["data"]["items"][0]["title"], "M20",
        "the requested window is returned"
    );
}

#[test]
fn calendar_has_dates_without_time_zone_and_route_labelled_ids() {
    let up = FakeUpstream::new().fixture(Method::Get, "/api/v2/Calendar", "v2-calendar.json");
    let out = call(&up, "read_library", json!({"view": "calendar"}));
    let items = &out["data"]["items"];
    assert_eq!(
        items[0],
        json!({"title": "Seven Thirty-Seven", "date": "2026-05-10", "media": "tv", "identifiers": []})
    );
    assert_eq!(
        items[1]["identifiers"],
        json!([{"namespace": "tmdb", "value": "603"}])
    );
    assert!(
        items[1].get("available").is_none(),
        "processing is not 'unavailable'"
    );
    assert_eq!(out["data"]["page"]["unit"], "calendar_entries");
}

#[test]
fn unmapped_calendar_types_degrade_with_a_warning() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/Calendar",
        body(
            json!([{"title": "X", "start": "0001-01-01T00:00:00Z", "type": 7, "extraParams": []}]),
        ),
    );
    let out = call(&up, "read_library", json!({"view": "calendar"}));
    assert_eq!(
        out["data"]["items"][0],
        json!({"title": "X", "media": "unknown", "identifiers": []})
    );
    assert!(out["warnings"].to_string().contains("type code 7"));
}

#[test]
fn artwork_is_validated_and_labelled_by_what_ombi_returns() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/Images/tv/81189",
            "v1-images-banner-tv.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/Images/poster/tv/tmdb/1396",
            "v1-images-poster-tv-tmdb.json",
        )
        .fixture(
            Method::Get,
            "/api/v2/Search/releasegroupart/b1392450-e666-3926-a536-22c65f834433",
            "v2-search-releasegroupart.json",
        );
    let out = call(
        &up,
        "read_library",
        json!({"view": "artwork", "media": "tv", "id": "81189", "id_namespace": "tvdb", "artwork_kind": "banner"}),
    );
    assert_eq!(out["data"]["items"][0]["kind"], "season_poster");
    assert_eq!(out["data"]["items"][0]["mime_type"], "image/jpeg");
    let out = call(
        &up,
        "read_library",
        json!({"view": "artwork", "media": "tv", "id": "1396", "id_namespace": "tmdb"}),
    );
    assert_eq!(
        out["data"]["items"][0]["uri"],
        "https://image.tmdb.org/t/p/original/ztkUQFLlC19CCMYHW9o1zWhJRNq.jpg"
    );
    let out = call(
        &up,
        "read_library",
        json!({"view": "artwork", "media": "album", "id": "b1392450-e666-3926-a536-22c65f834433", "id_namespace": "musicbrainz"}),
    );
    assert_eq!(out["data"]["items"][0]["kind"], "cover");
}

#[test]
fn unsafe_or_missing_artwork_is_left_out_with_a_warning() {
    let up = FakeUpstream::new()
        .route(
            Method::Get,
            "/api/v1/Images/poster/movie/603",
            body(json!("https://user:pw@assets.fanart.tv/a.jpg")),
        )
        .route(
            Method::Get,
            "/api/v1/Images/background/movie/603",
            body(json!("")),
        );
    let out = call(
        &up,
        "read_library",
        json!({"view": "artwork", "media": "movie", "id": "603", "id_namespace": "tmdb"}),
    );
    assert_eq!(out["data"]["items"], json!([]));
    assert!(!out.to_string().contains("user:pw"));
    assert!(out["warnings"].to_string().contains("failed validation"));
    let out = call(
        &up,
        "read_library",
        json!({"view": "artwork", "media": "movie", "id": "603", "id_namespace": "tmdb", "artwork_kind": "banner"}),
    );
    assert_eq!(out["data"]["items"], json!([]));
    assert!(out["warnings"].to_string().contains("no movie banners"));
}

#[test]
fn artwork_arguments_are_checked_by_the_schema() {
    let up = FakeUpstream::new();
    for args in [
        json!({"view": "artwork", "media": "movie", "id": "603", "id_namespace": "tvdb"}),
        json!({"view": "artwork", "media": "tv", "id": "1396", "id_namespace": "tmdb", "artwork_kind": "banner"}),
        json!({"view": "artwork", "media": "movie", "id": "../x", "id_namespace": "tmdb"}),
        json!({"view": "artwork", "media": "album", "id": "603", "id_namespace": "musicbrainz"}),
        json!({"view": "calendar", "id": "603"}),
        json!({"view": "artwork", "media": "movie"}),
    ] {
        let out = call(&up, "read_library", args.clone());
        assert_eq!(out["error"]["code"], "INVALID_ARGUMENT", "{args}");
    }
    assert!(up.requests().is_empty());
}
