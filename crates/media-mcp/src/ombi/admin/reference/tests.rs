//! Handler tests for `read_reference` against the fake Ombi.

use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::Method;
use serde_json::{Value, json};

fn body(v: Value) -> crate::testing::Answer {
    Ok(json_response(v.to_string().into_bytes()))
}

#[test]
fn genres_keep_native_integer_values_and_a_complete_total() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/Search/Genres/movie",
        "v2-search-genres.json",
    );
    let out = call(
        &up,
        "read_reference",
        json!({"kind": "genres_movie", "limit": 2}),
    );
    assert_eq!(
        out["data"]["items"][0],
        json!({"id": "28", "name": "Action", "value": 28})
    );
    let page = &out["data"]["page"];
    assert_eq!(
        (
            page["total"].as_u64(),
            page["has_more"].as_bool(),
            page["next_offset"].as_u64()
        ),
        (Some(3), Some(true), Some(2))
    );
    assert_eq!(page["mode"], "local");
    assert!(
        out["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("snapshot"))
    );
}

#[test]
fn languages_prefer_clean_labels_and_use_the_code_as_value() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/Search/Languages",
        "v2-search-languages.json",
    );
    let out = call(&up, "read_reference", json!({"kind": "languages"}));
    let items = out["data"]["items"].as_array().unwrap();
    let ab = items.iter().find(|i| i["value"] == "ab").unwrap();
    assert_eq!(
        ab["name"], "Abkhazian",
        "the mojibake native name is skipped"
    );
    assert!(!out["warnings"].to_string().contains("corrupted"));
}

#[test]
fn only_corrupted_labels_are_emitted_with_a_warning() {
    let up = FakeUpstream::new().route(Method::Get, "/api/v2/Search/Languages",
        body(json!([{"iso_639_1": "ab", "english_name": "????", "name": "\u{FFFD}\u{FFFD}"}, {"iso_639_1": "zz", "english_name": null, "name": "Zed"}])));
    let out = call(&up, "read_reference", json!({"kind": "languages"}));
    assert_eq!(out["data"]["items"][0]["name"], "????");
    assert_eq!(
        out["data"]["items"][1]["name"], "Zed",
        "a clean second candidate wins"
    );
    assert!(
        out["warnings"]
            .to_string()
            .contains("1 entries have only corrupted"),
        "{}",
        out["warnings"]
    );
}

#[test]
fn unspecified_shapes_fail_explicitly() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/Search/Genres/tv",
        body(json!([{"id": "x", "name": "Drama"}])),
    );
    let out = call(&up, "read_reference", json!({"kind": "genres_tv"}));
    assert_eq!(out["error"]["code"], "UPSTREAM_SCHEMA_MISMATCH");
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/Features",
        body(json!({"Movie4KRequests": true})),
    );
    let out = call(&up, "read_reference", json!({"kind": "features"}));
    assert_eq!(out["error"]["code"], "UPSTREAM_SCHEMA_MISMATCH");
}

#[test]
fn features_are_booleans_and_roles_are_names() {
    let up = FakeUpstream::new()
        .fixture(Method::Get, "/api/v2/Features", "v2-features.json")
        .fixture(
            Method::Get,
            "/api/v1/Identity/claims",
            "v1-identity-claims.json",
        );
    let out = call(&up, "read_reference", json!({"kind": "features"}));
    assert_eq!(
        out["data"]["items"][0],
        json!({"name": "Movie4KRequests", "value": true})
    );
    let out = call(
        &up,
        "read_reference",
        json!({"kind": "roles", "query": "power"}),
    );
    assert_eq!(
        out["data"]["items"],
        json!([{"name": "PowerUser", "value": "PowerUser"}])
    );
    assert_eq!(out["data"]["page"]["total"], 1);
}

#[test]
fn keywords_search_upstream_or_look_up_one_id() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/TheMovieDb/Keywords",
            "v1-themoviedb-keywords-search.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/TheMovieDb/Keywords/210024",
            "v1-themoviedb-keyword-by-id.json",
        );
    let out = call(
        &up,
        "read_reference",
        json!({"kind": "keywords", "query": "anime girl"}),
    );
    assert_eq!(
        out["data"]["page"]["returned"], 2,
        "the search is upstream's, not filtered again"
    );
    assert!(
        up.requests()[0]
            .url
            .ends_with("/api/v1/TheMovieDb/Keywords?searchTerm=anime%20girl")
    );
    let out = call(
        &up,
        "read_reference",
        json!({"kind": "keywords", "keyword_id": 210024}),
    );
    assert_eq!(
        out["data"]["items"],
        json!([{"id": "210024", "name": "anime", "value": 210024}])
    );
    assert_eq!(out["data"]["page"]["mode"], "none");
}

#[test]
fn keyword_arguments_are_checked_by_the_schema() {
    let up = FakeUpstream::new();
    for args in [
        json!({"kind": "keywords"}),
        json!({"kind": "genres_tv", "keyword_id": 3}),
        json!({"kind": "watch_providers_tv"}),
    ] {
        let out = call(&up, "read_reference", args);
        assert_eq!(out["error"]["code"], "INVALID_ARGUMENT", "{out}");
    }
    assert!(up.requests().is_empty());
}

#[test]
fn unknown_keyword_is_not_found() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/TheMovieDb/Keywords/9",
        Ok(crate::upstream::HttpResponse {
            status: 404,
            ..Default::default()
        }),
    );
    let out = call(
        &up,
        "read_reference",
        json!({"kind": "keywords", "keyword_id": 9}),
    );
    assert_eq!(out["error"]["code"], "NOT_FOUND");
}

#[test]
fn watch_providers_warn_they_are_a_global_catalogue() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/TheMovieDb/WatchProviders/movie",
        "v1-themoviedb-watchproviders-movie.json",
    );
    let out = call(
        &up,
        "read_reference",
        json!({"kind": "watch_providers_movie", "query": "net"}),
    );
    assert_eq!(
        out["data"]["items"][0],
        json!({"id": "8", "name": "Netflix", "value": 8})
    );
    assert!(out["warnings"].to_string().contains("global catalogue"));
}

#[test]
fn local_tables_need_no_upstream_and_map_tv_to_zero() {
    let up = FakeUpstream::new();
    let out = call(&up, "read_reference", json!({"kind": "request_types"}));
    assert_eq!(
        out["data"]["items"][0],
        json!({"id": "0", "name": "TvShow", "value": 0, "category": "request_type"})
    );
    assert!(up.requests().is_empty());
}

#[test]
fn streaming_countries_are_codes() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/Identity/streamingcountry",
        "v1-identity-streamingcountry.json",
    );
    let out = call(
        &up,
        "read_reference",
        json!({"kind": "streaming_countries", "query": "us"}),
    );
    assert_eq!(
        out["data"]["items"],
        json!([{"id": "US", "name": "US", "value": "US"}])
    );
}
