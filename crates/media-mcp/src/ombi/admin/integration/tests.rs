use crate::testing::{FakeUpstream, call, json_response};
use crate::upstream::{HttpResponse, Method};
use serde_json::json;

#[test]
fn quality_profiles_are_id_name_references() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/Radarr/Profiles",
        "v1-radarr-profiles.json",
    );
    let out = call(
        &up,
        "read_integration",
        json!({"service": "radarr", "resource": "quality_profiles"}),
    );
    assert_eq!(
        out["data"]["items"],
        json!([{"id": "4", "name": "HD-1080p", "value": 4}])
    );
    assert_eq!(out["data"]["page"]["total"], 1);
}

#[test]
fn root_folders_show_the_path_as_label_and_drop_free_space() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/Lidarr/RootFolders",
        "v1-lidarr-rootfolders.json",
    );
    let out = call(
        &up,
        "read_integration",
        json!({"service": "lidarr", "resource": "root_folders"}),
    );
    assert_eq!(
        out["data"]["items"],
        json!([{"id": "1", "name": "/music/", "value": 1}])
    );
    let up = FakeUpstream::new().fixture(Method::Get, "/api/v1/Sonarr/tags", "v1-sonarr-tags.json");
    let out = call(
        &up,
        "read_integration",
        json!({"service": "sonarr", "resource": "tags"}),
    );
    assert_eq!(
        out["data"]["items"][1],
        json!({"id": "2", "name": "anime", "value": 2})
    );
}

#[test]
fn disabled_integration_is_an_empty_page_with_a_warning() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/Sonarr/RootFolders",
        Ok(HttpResponse {
            status: 204,
            ..Default::default()
        }),
    );
    let out = call(
        &up,
        "read_integration",
        json!({"service": "sonarr", "resource": "root_folders"}),
    );
    assert_eq!(out["ok"], true);
    assert_eq!(out["data"]["page"]["returned"], 0);
    assert!(out["warnings"].to_string().contains("probably disabled"));
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/Sonarr/version",
        Ok(json_response(b"\"\"".to_vec())),
    );
    let out = call(
        &up,
        "read_integration",
        json!({"service": "sonarr", "resource": "version"}),
    );
    assert_eq!(out["data"]["items"], json!([]));
}

#[test]
fn invalid_pairs_are_refused_by_the_schema() {
    let up = FakeUpstream::new();
    let out = call(
        &up,
        "read_integration",
        json!({"service": "radarr_4k", "resource": "tags"}),
    );
    assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
    assert!(up.requests().is_empty());
}

#[test]
fn media_server_users_carry_only_id_and_name_and_say_whose_ids() {
    let up =
        FakeUpstream::new().fixture(Method::Get, "/api/v1/Plex/friends", "v1-plex-friends.json");
    let out = call(
        &up,
        "read_integration",
        json!({"service": "plex", "resource": "users"}),
    );
    assert_eq!(out["data"]["kind"], "user_page");
    assert_eq!(
        out["data"]["items"][0],
        json!({"id": "31415926", "user_name": "alex.plex"})
    );
    assert!(out["warnings"].to_string().contains("not Ombi user ids"));
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/Plex/WatchlistUsers",
        "v1-plex-watchlistusers.json",
    );
    let out = call(
        &up,
        "read_integration",
        json!({"service": "plex", "resource": "watchlist_users"}),
    );
    assert_eq!(
        out["data"]["items"][0],
        json!({"id": "7e1f2c44-8b9a-4c6e-b1d5-2f3a4b5c6d02", "user_name": "alex.plex"})
    );
}

#[test]
fn version_is_one_reference() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/Sonarr/version",
        "v1-sonarr-version.json",
    );
    let out = call(
        &up,
        "read_integration",
        json!({"service": "sonarr", "resource": "version"}),
    );
    assert_eq!(
        out["data"]["items"],
        json!([{"name": "version", "value": "4.0.14.2939", "category": "sonarr"}])
    );
}

#[test]
fn unexpected_shapes_fail() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v1/Sonarr/Profiles",
        Ok(json_response(br#"[{"name":"Any"}]"#.to_vec())),
    );
    let out = call(
        &up,
        "read_integration",
        json!({"service": "sonarr", "resource": "quality_profiles"}),
    );
    assert_eq!(out["error"]["code"], "UPSTREAM_SCHEMA_MISMATCH");
}
