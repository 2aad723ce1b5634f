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

#[test]
fn an_upstream_title_that_is_a_dot_segment_is_not_sent_as_a_path() {
    let mut movie: serde_json::Value =
        serde_json::from_slice(&fixture("v2-search-movie-by-tmdb.json")).unwrap();
    for title in ["..", "."] {
        movie["title"] = json!(title);
        let up = FakeUpstream::new().route(
            Method::Get,
            "/api/v2/search/movie/603",
            Ok(json_response(serde_json::to_vec(&movie).unwrap())),
        );
        let out = call(
            &up,
            "read_media",
            json!({"media": "movie", "id": "603", "include": ["ratings"]}),
        );
        assert_eq!(out["ok"], true, "{out}");
        let paths: Vec<String> = up.requests().into_iter().map(|r| r.url).collect();
        assert_eq!(paths.len(), 1, "{paths:?}");
        assert!(
            out["warnings"].to_string().contains("Rotten Tomatoes"),
            "{out}"
        );
    }
}

#[test]
fn dot_segment_ids_are_refused_unsent() {
    for (media, id) in [("movie", ".."), ("person", ".."), ("collection", ".")] {
        let up = FakeUpstream::new();
        let out = call(&up, "read_media", json!({"media": media, "id": id}));
        assert_eq!(out["error"]["code"], "INVALID_ARGUMENT", "{out}");
        assert!(up.requests().is_empty(), "{:?}", up.requests());
    }
}

#[test]
fn format_characters_are_stripped_from_ombi_text_and_other_text_kept() {
    let mut movie: serde_json::Value =
        serde_json::from_slice(&fixture("v2-search-movie-by-tmdb.json")).unwrap();
    movie["title"] = json!("The\u{200b} Matrix\u{202e}xirtam\u{202c}");
    movie["overview"] =
        json!("千と千尋 e\u{301} 😀\u{fe0f} \u{1f468}\u{200d}\u{1f469} \u{2067}hidden\u{2069}");
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/search/movie/603",
        Ok(json_response(serde_json::to_vec(&movie).unwrap())),
    );
    let out = call(&up, "read_media", json!({"media": "movie", "id": "603"}));
    assert_eq!(out["ok"], true, "{out}");
    let item = &out["data"]["items"][0];
    assert_eq!(item["title"], "The Matrixxirtam");
    assert_eq!(
        item["overview"],
        "千と千尋 e\u{301} 😀\u{fe0f} \u{1f468}\u{200d}\u{1f469} hidden"
    );
}

/// Guards against quadratic gathering of credits: 30,000 credits over 10,000 works.
#[test]
fn a_person_with_many_credits_gathers_them_per_work() {
    let cast: Vec<serde_json::Value> = (0..20_000)
        .map(|i| json!({"id": 1 + i % 10_000, "title": format!("Film {}", i % 10_000), "character": format!("Role {i}")}))
        .collect();
    let crew: Vec<serde_json::Value> = (0..10_000)
        .map(|i| json!({"id": 10_000 - i, "title": "x", "job": "Director", "department": "Directing"}))
        .collect();
    let credits = json!({"id": 6384, "cast": cast, "crew": crew});
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/search/actor/6384/movie",
        Ok(json_response(serde_json::to_vec(&credits).unwrap())),
    );
    let out = call(
        &up,
        "read_media",
        json!({"media": "person", "id": "6384", "person_name": "Keanu Reeves", "credit_media": "movie", "limit": 3}),
    );
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(
        out["data"]["page"]["total"], 10_000,
        "{}",
        out["data"]["page"]
    );
    let first = &out["data"]["items"][0];
    assert_eq!(first["title"], "Film 0");
    let roles: Vec<&str> = first["credits"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["role"].as_str())
        .collect();
    assert_eq!(roles, ["Role 0", "Role 10000", "Director"]);
}

/// Projects `body` from a whole JSON tree and from a bounded one with its spills: the two
/// must agree record for record and warning for warning.
fn same_projection_bounded_and_whole(kind: super::Kind, body: &serde_json::Value) {
    use super::{Include, KEEP, Spilled, project_movie_detail, project_tv_detail};
    let include = Include {
        credits: true,
        providers: false,
        ratings: false,
        seasons: true,
    };
    let project = |v: &serde_json::Value, spilled: &Spilled| {
        let mut warnings = Vec::new();
        let item = match kind {
            super::Kind::Movie => project_movie_detail(v, &include, spilled, &mut warnings),
            super::Kind::Tv => project_tv_detail(v, &include, spilled, &mut warnings),
        };
        (item.shortened, item.into_json(), warnings)
    };
    let whole = project(body, &Spilled::default());
    let resp = crate::upstream::HttpResponse {
        status: 200,
        body: body.to_string().into_bytes(),
        ..Default::default()
    };
    let mut spilled = Spilled::default();
    let bounded = crate::upstream::recognise::json_bounded(&resp, KEEP, &mut |place, el| {
        spilled.add(kind, place, &el);
    })
    .unwrap()
    .unwrap();
    assert_eq!(project(&bounded, &spilled), whole);
}

#[test]
fn long_credit_and_season_lists_project_the_same_bounded_as_whole() {
    // Entries without a name or season number are skipped, so the lists are longer than
    // what they project to; every fifth season has more episodes than are kept.
    let named = |i: usize, key: &str| {
        if i % 7 == 3 {
            json!({"id": i})
        } else {
            json!({key: format!("p{i}"), "id": i, "character": "c", "job": "j", "department": "d"})
        }
    };
    let season = |i: usize| {
        let episodes: Vec<_> = (0..if i.is_multiple_of(5) { 105 } else { 2 })
            .map(|e| json!({"episodeNumber": e, "title": "t"}))
            .collect();
        if i % 11 == 4 {
            json!({"episodes": episodes})
        } else {
            json!({"seasonNumber": i, "episodes": episodes})
        }
    };
    for (cast, crew, seasons) in [(250, 150, 260), (90, 30, 101), (3, 2, 1), (0, 400, 0)] {
        let movie = json!({"id": 1, "title": "M", "credits": {
            "cast": (0..cast).map(|i| named(i, "name")).collect::<Vec<_>>(),
            "crew": (0..crew).map(|i| named(i, "name")).collect::<Vec<_>>(),
        }});
        same_projection_bounded_and_whole(super::Kind::Movie, &movie);
        let tv = json!({"id": 1, "title": "T",
            "cast": (0..cast).map(|i| named(i, "person")).collect::<Vec<_>>(),
            "crew": (0..crew).map(|i| named(i, "name")).collect::<Vec<_>>(),
            "seasonRequests": (0..seasons).map(season).collect::<Vec<_>>(),
        });
        same_projection_bounded_and_whole(super::Kind::Tv, &tv);
    }
}
