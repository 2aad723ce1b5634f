use crate::testing::{FakeUpstream, call};
use crate::upstream::Method;
use serde_json::json;

#[test]
fn person_credits_carry_the_given_name_and_tv_titles_are_enriched() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v2/search/actor/17419/movie",
            "v2-search-actor-movie.json",
        )
        .fixture(
            Method::Get,
            "/api/v2/search/actor/17419/tv",
            "v2-search-actor-tv.json",
        )
        .fixture(
            Method::Get,
            "/api/v2/search/tv/moviedb/1396",
            "v2-search-tv-moviedb.json",
        );
    let out = call(
        &up,
        "read_media",
        json!({"media": "person", "id": "17419", "person_name": "Bryan Cranston"}),
    );
    let items = out["data"]["items"].as_array().unwrap();
    let tv = items.iter().find(|i| i["media"] == "tv").unwrap();
    assert_eq!(tv["title"], "Breaking Bad");
    assert_eq!(tv["credits"][0]["name"], "Bryan Cranston");
    assert_eq!(out["data"]["page"]["total"], items.len());
}

#[test]
fn collection_members_have_no_request_state_and_keep_the_input_id() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/search/movie/collection/2344",
        "v2-search-movie-collection.json",
    );
    let out = call(
        &up,
        "read_media",
        json!({"media": "collection", "id": "2344"}),
    );
    let items = out["data"]["items"].as_array().unwrap();
    assert_eq!(
        items[0]["identifiers"],
        json!([{"namespace": "tmdb", "value": "2344"}])
    );
    assert!(
        items[1..]
            .iter()
            .all(|m| m.get("available").is_none() && m.get("requested").is_none())
    );
}

#[test]
fn artist_lists_release_groups_as_albums() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/search/artist/a74b1b7f-71a5-4011-9441-d0b5e4122711",
        "v2-search-artist.json",
    );
    let out = call(
        &up,
        "read_media",
        json!({"media": "artist", "id": "a74b1b7f-71a5-4011-9441-d0b5e4122711"}),
    );
    let items = out["data"]["items"].as_array().unwrap();
    assert_eq!(items[0]["media"], "artist");
    assert_eq!(
        items[1]["request_targets"],
        json!([{"kind": "album", "id": 3}])
    );
}
