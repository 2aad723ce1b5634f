//! Handler and projection tests for `read_requests` and its request projections.

use super::super::request_items as items;
use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::{HttpResponse, Method, UpstreamError};
use serde_json::{Value, json};

fn body(v: Value) -> Result<HttpResponse, UpstreamError> {
    Ok(json_response(v.to_string().into_bytes()))
}

fn tvlite(parents: Value) -> Result<HttpResponse, UpstreamError> {
    body(json!({"collection": parents, "total": 0}))
}

#[test]
fn movie_list_pages_upstream_and_drops_the_user_graph() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/requests/movie/20/0/requestedDate/desc",
        "v2-requests-movie-paged.json",
    );
    let out = call(&up, "read_requests", json!({}));
    assert_eq!(out["ok"], true, "{out}");
    let item = &out["data"]["items"][0];
    assert_eq!(item["target"], json!({"kind": "movie", "id": 12}));
    assert_eq!(
        item["identifiers"],
        json!([{"namespace": "tmdb", "value": "603"}, {"namespace": "imdb", "value": "tt0133093"}, {"namespace": "ombi_movie", "value": "12"}])
    );
    assert!(item.get("denied").is_none(), "null denied stays absent");
    assert_eq!(out["data"]["page"]["mode"], "upstream");
    let text = out.to_string();
    for secret in [
        "9c8b7a6f5e4d",
        "FAKE-plex-token",
        "ExponentPushToken",
        "alex@example.org",
        "alex.plex",
    ] {
        assert!(!text.contains(secret), "{secret} leaked");
    }
}

#[test]
fn status_and_sort_go_into_the_route() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/requests/album/denied/5/10/title/asc",
        "v2-requests-album-denied-paged.json",
    );
    let out = call(
        &up,
        "read_requests",
        json!({"media": "album", "status": "denied", "sort": "title", "sort_order": "asc", "offset": 10, "limit": 5}),
    );
    assert_eq!(out["ok"], true, "{out}");
    assert!(out["warnings"].to_string().contains("ignores the sort"));
    let out = call(
        &up,
        "read_requests",
        json!({"media": "album", "sort": "status"}),
    );
    assert_eq!(
        out["error"]["code"], "INVALID_ARGUMENT",
        "album status sort resolves against movies upstream"
    );
}

#[test]
fn tv_list_items_are_children_with_parent_ids_and_no_total() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/requests/tv/20/0/requestedDate/desc",
        "v2-requests-tv-paged.json",
    );
    let out = call(&up, "read_requests", json!({"media": "tv"}));
    assert_eq!(out["ok"], true, "{out}");
    let item = &out["data"]["items"][0];
    assert_eq!(item["target"]["kind"], "tv_child");
    assert_eq!(item["parent_request_id"], 7);
    let ns: Vec<&str> = item["identifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["namespace"].as_str().unwrap())
        .collect();
    assert_eq!(
        ns,
        ["ombi_tv_child", "ombi_tv_parent", "tmdb", "tvdb", "imdb"]
    );
    assert!(item.get("subscribed").is_none());
    assert!(out["data"]["page"]["total"].is_null());
}

#[test]
fn four_k_state_is_separate_and_disagreement_gives_no_combined_status() {
    let mut w = Vec::new();
    let row = json!({"id": 14, "theMovieDbId": 27205, "has4KRequest": true, "approved": true, "available": true, "denied": null,
                     "approved4K": false, "available4K": false, "denied4K": null, "requestedDate": "2026-04-01T00:00:00Z",
                     "requestStatus": "Common.Available"});
    let v = items::movie(&row, &mut w).unwrap();
    assert_eq!(
        (
            v["approved"].as_bool(),
            v["approved_4k"].as_bool(),
            v["is_4k"].as_bool()
        ),
        (Some(true), Some(false), Some(true))
    );
    assert!(v.get("status_text").is_none(), "{v}");
    assert_eq!(w.len(), 1);
    let four_k_only = json!({"id": 15, "has4KRequest": true, "approved": false, "available": false, "approved4K": true,
                             "available4K": false, "requestedDate": "0001-01-01T00:00:00Z", "requestStatus": "Common.PendingApproval"});
    let v = items::movie(&four_k_only, &mut w).unwrap();
    assert!(
        v.get("approved").is_none()
            && v.get("status_text").is_none()
            && v.get("requested_date").is_none(),
        "{v}"
    );
    assert_eq!(v["approved_4k"], true);
    let agree = json!({"id": 16, "has4KRequest": false, "approved": true, "requestStatus": "Common.ProcessingRequest", "requestedDate": "2026-01-01T00:00:00Z"});
    assert_eq!(
        items::movie(&agree, &mut w).unwrap()["status_text"],
        "ProcessingRequest"
    );
}

#[test]
fn recent_tv_rows_resolve_parent_by_child_id_before_provider_id() {
    // Child 1396 belongs to parent 7, while parent 9 has TMDB id 1396 (a v2 child PK can
    // equal the show's TMDB id). The child-id match must win.
    let parents = json!([
        {"id": 9, "externalProviderId": 1396, "tvDbId": 0, "childRequests": [{"id": 40}]},
        {"id": 7, "externalProviderId": 555, "tvDbId": 81189, "childRequests": [{"id": 1396}, {"id": 23}]}
    ]);
    let recent = json!([
        {"requestId": 1396, "type": 0, "mediaId": "1396", "title": "A", "approved": true, "userId": "u"},
        {"requestId": 88, "type": 0, "mediaId": "81189", "title": "B"},
        {"requestId": 99, "type": 0, "mediaId": "424242", "title": "C"},
        {"requestId": 12, "type": 1, "mediaId": "603", "title": "The Matrix"}
    ]);
    let up = FakeUpstream::new()
        .route(
            Method::Get,
            "/api/v2/requests/recentlyrequested",
            body(recent),
        )
        .route(
            Method::Get,
            "/api/v1/request/tvlite/100/0/2/0/0",
            tvlite(parents),
        );
    let out = call(&up, "read_requests", json!({"view": "recent"}));
    assert_eq!(out["ok"], true, "{out}");
    let items = out["data"]["items"].as_array().unwrap();
    assert_eq!(items[0]["target"], json!({"kind": "tv_parent", "id": 7}));
    assert_eq!(
        items[0]["identifiers"],
        json!([{"namespace": "ombi_tv_child", "value": "1396"}, {"namespace": "tmdb", "value": "1396"}, {"namespace": "ombi_tv_parent", "value": "7"}])
    );
    assert_eq!(
        items[1]["target"],
        json!({"kind": "tv_parent", "id": 7}),
        "tvdb fallback"
    );
    assert_eq!(
        items[2]["target"],
        json!({"kind": "tv_child", "id": 99}),
        "unresolved keeps the child"
    );
    assert!(out["warnings"].to_string().contains("recent TV request 99"));
    assert_eq!(items[3]["target"], json!({"kind": "movie", "id": 12}));
    assert_eq!(out["data"]["page"]["total"], 4);
}

#[test]
fn recent_without_tv_rows_does_not_scan_and_a_full_type_is_truncated() {
    let rows: Vec<Value> = (1..=7)
        .map(|i| json!({"requestId": i, "type": 1, "mediaId": "603"}))
        .collect();
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/requests/recentlyrequested",
        body(json!(rows)),
    );
    let out = call(&up, "read_requests", json!({"view": "recent"}));
    assert_eq!(out["truncated"], true);
    assert!(out["data"]["page"]["total"].is_null() && out["data"]["page"]["next_offset"].is_null());
    assert_eq!(up.requests().len(), 1, "no parent scan without TV rows");
}

#[test]
fn parent_scan_failure_degrades_to_child_targets() {
    let recent = json!([{"requestId": 23, "type": 0, "mediaId": "1396"}]);
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/requests/recentlyrequested",
        body(recent),
    );
    let out = call(&up, "read_requests", json!({"view": "recent"}));
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(
        out["data"]["items"][0]["target"],
        json!({"kind": "tv_child", "id": 23})
    );
}

#[test]
fn retry_queue_ids_are_distinct() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/requestretry",
        "v1-request-retry-queue.json",
    );
    let out = call(&up, "read_requests", json!({"view": "retry_queue"}));
    assert_eq!(out["data"]["kind"], "retry_page", "{out}");
    assert_eq!(
        out["data"]["items"][0],
        json!({"queue_id": 2, "request_id": 1396, "title": "Breaking Bad", "request_type": "tv", "request_type_code": 0, "reason": "Sonarr: Unable to add series (400 Bad Request)"})
    );
    assert_eq!(out["data"]["page"]["unit"], "queue_entries");
}

#[test]
fn tv_detail_is_the_parent_and_its_children() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/request/tv/7",
        "v1-request-tv-by-id.json",
    );
    let out = call(
        &up,
        "read_requests",
        json!({"view": "detail", "media": "tv", "request_id": 7}),
    );
    assert_eq!(out["ok"], true, "{out}");
    let items = out["data"]["items"].as_array().unwrap();
    assert_eq!(items[0]["target"], json!({"kind": "tv_parent", "id": 7}));
    assert_eq!(items[1]["target"]["kind"], "tv_child");
    assert_eq!(items[1]["parent_request_id"], 7);
    assert!(
        items[1]["identifiers"].to_string().contains("81189"),
        "child inherits parent provider ids"
    );
    assert_eq!(
        items[1]["seasons"][0]["episodes"][0],
        json!({"episode_number": 1, "title": "Pilot", "requested": true, "available": true})
    );
}

#[test]
fn movie_detail_204_is_not_found_and_album_detail_scans_boundedly() {
    let up = FakeUpstream::new()
        .route(
            Method::Get,
            "/api/v1/request/movie/info/5",
            Ok(HttpResponse {
                status: 204,
                ..Default::default()
            }),
        )
        .fixture(
            Method::Get,
            "/api/v2/requests/album/100/0/requestedDate/desc",
            "v2-requests-album-paged.json",
        );
    assert_eq!(
        call(
            &up,
            "read_requests",
            json!({"view": "detail", "request_id": 5})
        )["error"]["code"],
        "NOT_FOUND"
    );
    let out = call(
        &up,
        "read_requests",
        json!({"view": "detail", "media": "album", "request_id": 3}),
    );
    assert_eq!(
        out["data"]["items"][0]["target"],
        json!({"kind": "album", "id": 3}),
        "{out}"
    );
    // Album dates are server-local times written with a `Z`: reported as dates only.
    let date = out["data"]["items"][0]["requested_date"].as_str().unwrap();
    assert!(
        date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-',
        "{out}"
    );
    let out = call(
        &up,
        "read_requests",
        json!({"view": "detail", "media": "album", "request_id": 4}),
    );
    assert_eq!(out["error"]["code"], "NOT_FOUND");
    assert!(
        up.requests()
            .iter()
            .all(|r| !r.url.ends_with("/api/v1/request/music"))
    );
}

#[test]
fn arguments_fit_their_views() {
    let up = FakeUpstream::new();
    for bad in [
        json!({"view": "detail"}),
        json!({"view": "search"}),
        json!({"view": "recent", "media": "tv"}),
        json!({"view": "children", "request_id": 1, "media": "movie"}),
        json!({"request_id": 3}),
        json!({"view": "detail", "request_id": 1, "status": "denied"}),
    ] {
        assert_eq!(
            call(&up, "read_requests", bad.clone())["error"]["code"],
            "INVALID_ARGUMENT",
            "{bad}"
        );
    }
}

#[test]
fn movie_list_continuation_counts_upstream_rows_and_total_is_upstream() {
    let page =
        json!({"collection": [{"id": 0, "title": "no id"}, {"id": 4, "title": "ok"}], "total": 5});
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/requests/movie/2/0/requestedDate/desc",
        body(page),
    );
    let out = call(&up, "read_requests", json!({"limit": 2}));
    let page = &out["data"]["page"];
    assert_eq!(
        (
            page["returned"].as_u64(),
            page["total"].as_u64(),
            page["next_offset"].as_u64(),
            page["has_more"].as_bool()
        ),
        (Some(1), Some(5), Some(2), Some(true))
    );
    assert!(out["warnings"].to_string().contains("without a usable id"));
}

#[test]
fn a_tv_request_with_more_than_99_children_is_truncated() {
    let children: Vec<serde_json::Value> = (1..=120)
        .map(|i| json!({"id": i, "parentRequestId": 7}))
        .collect();
    let parent =
        json!({"id": 7, "title": "Show", "externalProviderId": 1396, "childRequests": children});
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/request/tv/7",
        Ok(crate::testing::json_response(
            parent.to_string().into_bytes(),
        )),
    );
    let out = call(
        &up,
        "read_requests",
        json!({"view": "detail", "media": "tv", "request_id": 7}),
    );
    assert_eq!(out["data"]["items"].as_array().unwrap().len(), 100, "{out}");
    assert_eq!(out["truncated"], true, "{out}");
    assert!(
        out["warnings"]
            .to_string()
            .contains("99 of 120 child requests")
    );
}

#[test]
fn episodes_cut_from_a_tv_child_mark_the_result_truncated_in_every_view() {
    let episodes: Vec<Value> = (1..=120).map(|n| json!({"episodeNumber": n})).collect();
    let child = json!({"id": 3, "parentRequestId": 7, "seasonRequests": [
        {"seasonNumber": 1, "episodes": episodes},
        {"seasonNumber": 2, "episodes": [{"episodeNumber": 1}]}
    ]});
    let parent = json!({"id": 7, "title": "Show", "childRequests": [child]});
    let up = FakeUpstream::new()
        .route(Method::Get, "/api/v1/request/tv/7", body(parent))
        .route(
            Method::Get,
            "/api/v1/request/tv/7/child",
            body(json!([child])),
        )
        .route(
            Method::Get,
            "/api/v2/requests/tv/20/0/requestedDate/desc",
            tvlite(json!([child])),
        );
    for args in [
        json!({"view": "detail", "media": "tv", "request_id": 7}),
        json!({"view": "children", "media": "tv", "request_id": 7}),
        json!({"media": "tv"}),
    ] {
        let out = call(&up, "read_requests", args.clone());
        assert_eq!(out["ok"], true, "{args}: {out}");
        assert_eq!(out["truncated"], true, "{args}: {out}");
        let warnings = out["warnings"].to_string();
        assert!(
            warnings.contains("TV child request 3: seasons 1: 100 episodes returned each"),
            "{args}: {warnings}"
        );
        let child = out["data"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["target"]["kind"] == "tv_child")
            .unwrap();
        assert_eq!(
            child["seasons"][0]["episodes"].as_array().unwrap().len(),
            100
        );
        assert_eq!(child["seasons"][1]["truncated"], false);
    }
    // Cut episodes are not missing children: the detail's count stays known.
    let out = call(
        &up,
        "read_requests",
        json!({"view": "detail", "media": "tv", "request_id": 7}),
    );
    assert_eq!(out["data"]["page"]["total"], 2, "{out}");
}

/// Guards the parent index against quadratic resolution: many parents with many children,
/// and many recent TV rows to resolve through them.
#[test]
fn recent_rows_resolve_through_a_large_parent_scan() {
    let parents: Vec<Value> = (1..=2_000)
        .map(|p| {
            let children: Vec<Value> = (0..50).map(|c| json!({"id": p * 100 + c})).collect();
            json!({"id": p, "externalProviderId": format!("{}", 900_000 + p), "childRequests": children})
        })
        .collect();
    let recent: Vec<Value> = (1..=20_000)
        .map(|i| json!({"requestId": (i % 2_000 + 1) * 100 + 49, "type": 0, "mediaId": "1"}))
        .collect();
    let up = FakeUpstream::new()
        .route(
            Method::Get,
            "/api/v2/requests/recentlyrequested",
            body(Value::Array(recent)),
        )
        .route(
            Method::Get,
            "/api/v1/request/tvlite/100/0/2/0/0",
            tvlite(Value::Array(parents)),
        )
        .route(
            Method::Get,
            "/api/v1/request/tvlite/100/100/2/0/0",
            tvlite(json!([])),
        );
    let out = call(&up, "read_requests", json!({"view": "recent"}));
    assert_eq!(out["ok"], true, "{out}");
    let items = out["data"]["items"].as_array().unwrap();
    assert!(!items.is_empty());
    for (i, item) in items.iter().enumerate() {
        let parent = (i as i64 + 1) % 2_000 + 1;
        assert_eq!(
            item["target"],
            json!({"kind": "tv_parent", "id": parent}),
            "{item}"
        );
    }
}
