//! Handler and projection tests for `read_issues`.

use super::project_issue;
use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::{HttpResponse, Method, UpstreamError};
use serde_json::{Value, json};

fn body(v: Value) -> Result<HttpResponse, UpstreamError> {
    Ok(json_response(v.to_string().into_bytes()))
}

#[test]
fn resovled_date_becomes_resolved_date_and_user_graph_is_dropped() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v2/issues/details/tt0133093",
        "v2-issues-details.json",
    );
    let out = call(
        &up,
        "read_issues",
        json!({"view": "provider_summary", "provider_id": "tt0133093"}),
    );
    assert_eq!(out["ok"], true, "{out}");
    let issue = &out["data"]["items"][0]["issues"][0];
    assert_eq!(issue["resolved_date"], "2026-04-26T17:40:00.5Z");
    assert_eq!(
        (
            issue["status"].as_str(),
            issue["request_type"].as_str(),
            issue["request_type_code"].as_i64()
        ),
        (Some("resolved"), Some("movie"), Some(1))
    );
    let text = out.to_string();
    assert!(
        !text.contains("userAccessToken")
            && !text.contains("FAKE-plex-token")
            && !text.contains("resovled"),
        "{text}"
    );
}

#[test]
fn deleted_status_keeps_code_without_label_and_unknown_codes_warn() {
    let mut w = Vec::new();
    let v = project_issue(&json!({"id": 5, "status": 3, "requestType": 0}), &mut w).unwrap();
    assert_eq!(
        v,
        json!({"id": 5, "status_code": 3, "request_type": "tv", "request_type_code": 0})
    );
    let v = project_issue(&json!({"id": 6, "status": 8, "requestType": 4}), &mut w).unwrap();
    assert_eq!(v, json!({"id": 6}));
    assert_eq!(w.len(), 3, "{w:?}");
}

#[test]
fn list_sends_take_before_skip_and_pages_upstream() {
    let up =
        FakeUpstream::new().fixture(Method::Get, "/api/v1/issues/5/10/1", "v1-issues-paged.json");
    let out = call(
        &up,
        "read_issues",
        json!({"view": "list", "status": "in_progress", "offset": 10, "limit": 5}),
    );
    assert_eq!(out["ok"], true, "{out}");
    let page = &out["data"]["page"];
    assert_eq!(
        (
            page["mode"].as_str(),
            page["total"].is_null(),
            page["has_more"].as_bool()
        ),
        (Some("upstream"), true, Some(false))
    );
    assert!(
        !out.to_string().contains("e1d2c3b4a596"),
        "reporter graph dropped"
    );
    assert!(out["warnings"].to_string().contains("snapshot"));
}

#[test]
fn a_list_route_answering_204_or_null_is_not_an_empty_list() {
    for answer in [
        Ok(HttpResponse {
            status: 204,
            ..Default::default()
        }),
        body(json!(null)),
    ] {
        let up = FakeUpstream::new().route(Method::Get, "/api/v1/issues/5/10/1", answer);
        let out = call(
            &up,
            "read_issues",
            json!({"view": "list", "status": "in_progress", "offset": 10, "limit": 5}),
        );
        assert_eq!(out["error"]["code"], "UPSTREAM_SCHEMA_MISMATCH", "{out}");
        assert!(
            out.get("data").is_none(),
            "no page claiming zero results: {out}"
        );
    }
}

#[test]
fn empty_provider_summary_bodies_are_empty_pages() {
    for answer in [
        Ok(HttpResponse {
            status: 204,
            ..Default::default()
        }),
        body(json!(null)),
        body(json!([])),
        Ok(HttpResponse {
            status: 200,
            content_type: Some("application/json".into()),
            body: Vec::new(),
            ..Default::default()
        }),
    ] {
        let up = FakeUpstream::new().route(Method::Get, "/api/v2/issues/details/1396", answer);
        let out = call(
            &up,
            "read_issues",
            json!({"view": "provider_summary", "provider_id": "1396"}),
        );
        assert_eq!(out["ok"], true, "{out}");
        assert_eq!(out["data"]["items"], json!([]));
        assert_eq!(out["data"]["page"]["total"], 0);
    }
}

#[test]
fn nested_issues_are_cut_at_100_with_a_warning() {
    let issues: Vec<Value> = (1..=120)
        .map(|i| json!({"id": i, "title": "T", "status": 0}))
        .collect();
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/issues/details/1396",
        body(json!({"title": "T", "count": 120, "providerId": "1396", "issues": issues})),
    );
    let out = call(
        &up,
        "read_issues",
        json!({"view": "provider_summary", "provider_id": "1396"}),
    );
    assert_eq!(
        out["data"]["items"][0]["issues"].as_array().unwrap().len(),
        100
    );
    assert_eq!(out["data"]["items"][0]["count"], 120);
    assert_eq!(out["truncated"], true);
    assert!(out["warnings"].to_string().contains("100 of 120"));
}

#[test]
fn summary_units_are_groups_and_split_groups_merge() {
    let rows = json!([
        {"title": "Breaking Bad", "count": 2, "providerId": "1396", "issues": null},
        {"title": "Alien", "count": 1, "providerId": "348", "issues": null},
        {"title": "Breaking Bad", "count": 1, "providerId": "1396", "issues": null}
    ]);
    let up = FakeUpstream::new().route(Method::Get, "/api/v2/issues/0/1000/0", body(rows));
    let out = call(&up, "read_issues", json!({"view": "summary", "limit": 1}));
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(
        out["data"]["items"],
        json!([{"provider_id": "348", "title": "Alien", "count": 1}])
    );
    let page = &out["data"]["page"];
    assert_eq!(
        (
            page["unit"].as_str(),
            page["total"].as_u64(),
            page["next_offset"].as_u64()
        ),
        (Some("provider_groups"), Some(2), Some(1))
    );
}

#[test]
fn a_missing_group_count_stays_absent() {
    let rows = json!([
        {"title": "Alien", "providerId": "348", "issues": null},
        {"title": "Heat", "count": 2, "providerId": "949", "issues": null}
    ]);
    let up = FakeUpstream::new().route(Method::Get, "/api/v2/issues/0/1000/0", body(rows));
    let out = call(&up, "read_issues", json!({"view": "summary"}));
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(
        out["data"]["items"],
        json!([
            {"provider_id": "348", "title": "Alien"},
            {"provider_id": "949", "title": "Heat", "count": 2}
        ])
    );
    // Without every count the scan cannot tell whether it reached Ombi's cap.
    assert!(out["data"]["page"]["total"].is_null(), "{out}");
    assert!(out["warnings"].to_string().contains("no count"), "{out}");
}

#[test]
fn summary_of_a_full_scan_has_no_total() {
    let rows = json!([{"title": "A", "count": 1000, "providerId": "1", "issues": null}]);
    let up = FakeUpstream::new().route(Method::Get, "/api/v2/issues/0/1000/0", body(rows));
    let out = call(&up, "read_issues", json!({"view": "summary"}));
    assert!(out["data"]["page"]["total"].is_null());
    assert_eq!(out["truncated"], true);
}

#[test]
fn comments_keep_text_and_no_invented_author() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/issues/4/comments",
        "v1-issue-comments.json",
    );
    let out = call(
        &up,
        "read_issues",
        json!({"view": "comments", "issue_id": 4}),
    );
    assert_eq!(
        out["data"]["items"][0],
        json!({"comment": "Happens on the 4K file too.", "id": 9, "issue_id": 4, "created_date": "2026-04-25T13:05:44.1Z"})
    );
    assert!(out["warnings"].to_string().contains("display name"));
    let with_id = json!([{"id": 1, "comment": "x", "userId": "u-9"}]);
    let up = FakeUpstream::new().route(Method::Get, "/api/v1/issues/4/comments", body(with_id));
    let out = call(
        &up,
        "read_issues",
        json!({"view": "comments", "issue_id": 4}),
    );
    assert_eq!(out["data"]["items"][0]["author_id"], "u-9");
}

#[test]
fn detail_204_is_not_found_and_counts_are_metrics() {
    let up = FakeUpstream::new()
        .route(
            Method::Get,
            "/api/v1/issues/9",
            Ok(HttpResponse {
                status: 204,
                ..Default::default()
            }),
        )
        .fixture(Method::Get, "/api/v1/issues/count", "v1-issues-count.json");
    let out = call(&up, "read_issues", json!({"view": "detail", "issue_id": 9}));
    assert_eq!(out["error"]["code"], "NOT_FOUND");
    let out = call(&up, "read_issues", json!({"view": "counts"}));
    assert_eq!(
        out["data"]["values"][1],
        json!({"name": "in_progress", "value": 1, "scope": "instance", "unit": "issues"})
    );
}

#[test]
fn view_arguments_are_checked() {
    let out = call(
        &FakeUpstream::new(),
        "read_issues",
        json!({"view": "comments"}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    let out = call(
        &FakeUpstream::new(),
        "read_issues",
        json!({"view": "counts", "status": "resolved"}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
}
