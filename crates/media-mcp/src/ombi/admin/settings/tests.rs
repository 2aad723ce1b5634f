//! Tests for `read_settings`: allowlist, pointer escaping, omitted fields, revision.

use super::escape;
use crate::ombi::settings_revision;
use crate::testing::{FakeUpstream, call, fixture, json_response};
use crate::upstream::Method;
use serde_json::{Value, json};

fn names(out: &Value, key: &str) -> Vec<String> {
    out["data"][key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.get("name").unwrap_or(v).as_str().unwrap().to_owned())
        .collect()
}

fn value<'a>(out: &'a Value, name: &str) -> Option<&'a Value> {
    out["data"]["values"]
        .as_array()?
        .iter()
        .find(|v| v["name"] == name)
        .map(|v| &v["value"])
}

#[test]
fn ombi_section_never_shows_the_key_or_base_url_and_names_what_it_held_back() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/Settings/ombi",
        "v1-settings-ombi.json",
    );
    let out = call(&up, "read_settings", json!({"section": "ombi"}));
    let text = out["data"].to_string();
    assert!(!text.contains("0123456789abcdef"), "{text}");
    assert!(!text.contains("\"/ombi\""), "{text}");
    assert_eq!(
        names(&out, "omitted_fields"),
        [
            "/apiKey",
            "/baseUrl",
            "/hasMigratedOldTvDbData",
            "/id",
            "/set",
            "/wizard"
        ]
    );
    assert_eq!(value(&out, "/hideRequestsUsers"), Some(&json!(true)));
    assert_eq!(
        value(&out, "/autoDeleteAfterDays"),
        Some(&json!(0)),
        "a real upstream 0 is kept"
    );
    let upstream: Value = serde_json::from_slice(&fixture("v1-settings-ombi.json")).unwrap();
    assert_eq!(
        out["data"]["revision"].as_str(),
        settings_revision::revision("ombi", &upstream).as_deref()
    );
}

#[test]
fn arr_sections_hide_credentials_and_destinations_and_offer_no_revision() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/Settings/sonarr",
            "v1-settings-sonarr.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/Settings/radarr",
            "v1-settings-radarr.json",
        );
    let out = call(&up, "read_settings", json!({"section": "sonarr"}));
    let text = out["data"]["values"].to_string();
    assert!(
        !text.contains("FAKEsonarrKEY") && !text.contains("8989") && !text.contains("\"sonarr\""),
        "{text}"
    );
    assert_eq!(
        names(&out, "omitted_fields"),
        ["/apiKey", "/id", "/ip", "/port", "/ssl", "/subDir"]
    );
    assert!(out["data"].get("revision").is_none());
    assert_eq!(
        value(&out, "/animeTag"),
        Some(&json!(null)),
        "an upstream null is a value, not absent"
    );
    let out = call(&up, "read_settings", json!({"section": "radarr_4k"}));
    assert_eq!(
        value(&out, "/enabled"),
        Some(&json!(false)),
        "the 4K sub-object is read"
    );
    assert!(!out["data"].to_string().contains("FAKEradarrKEY"));
}

#[test]
fn customization_drops_destination_urls() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/Settings/customization",
        "v1-settings-customization.json",
    );
    let out = call(&up, "read_settings", json!({"section": "customization"}));
    assert!(!out["data"].to_string().contains("requests.example.org"));
    assert!(names(&out, "omitted_fields").contains(&"/applicationUrl".to_owned()));
    assert!(out["data"]["revision"].is_string());
}

#[test]
fn arrays_become_display_paths_and_unset_dates_stay_absent() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v1/Settings/themoviedb",
            "v1-settings-themoviedb.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/Settings/landingpage",
            "v1-settings-landingpage.json",
        );
    let out = call(&up, "read_settings", json!({"section": "themoviedb"}));
    assert_eq!(value(&out, "/excludedKeywordIds/0"), Some(&json!(210024)));
    assert_eq!(value(&out, "/originalLanguages/0"), Some(&json!("en")));
    assert!(out["warnings"].to_string().contains("display paths"));
    let out = call(&up, "read_settings", json!({"section": "landing_page"}));
    assert!(value(&out, "/startDateTime").is_none());
    assert!(value(&out, "/expired").is_none(), "upstream inverts it");
    assert!(names(&out, "omitted_fields").contains(&"/expired".to_owned()));
}

#[test]
fn features_are_name_keyed_and_escaped() {
    let up = FakeUpstream::new().route(
        Method::Get,
        "/api/v2/Features",
        Ok(json_response(
            br#"[{"name":"Movie4KRequests","enabled":true},{"name":"a/b~c","enabled":true}]"#
                .to_vec(),
        )),
    );
    let out = call(&up, "read_settings", json!({"section": "features"}));
    assert_eq!(value(&out, "/Movie4KRequests"), Some(&json!(true)));
    assert_eq!(names(&out, "omitted_fields"), ["/a~1b~0c"]);
    assert_eq!(escape("~/"), "~0~1");
}

#[test]
fn every_leaf_is_a_scalar() {
    let up = FakeUpstream::new().fixture(
        Method::Get,
        "/api/v1/Settings/UserManagement",
        "v1-settings-usermanagement.json",
    );
    let out = call(&up, "read_settings", json!({"section": "user_management"}));
    assert!(
        out["data"]["values"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| !v["value"].is_array() && !v["value"].is_object())
    );
    assert_eq!(value(&out, "/defaultRoles/1"), Some(&json!("RequestTv")));
    assert!(names(&out, "omitted_fields").contains(&"/bannedPlexUserIds".to_owned()));
}

#[test]
fn wrong_shapes_fail() {
    let up = FakeUpstream::new()
        .route(
            Method::Get,
            "/api/v1/Settings/vote",
            Ok(json_response(b"[1]".to_vec())),
        )
        .route(
            Method::Get,
            "/api/v1/Settings/radarr",
            Ok(json_response(br#"{"radarr":null}"#.to_vec())),
        );
    let out = call(&up, "read_settings", json!({"section": "vote"}));
    assert_eq!(out["error"]["code"], "UPSTREAM_SCHEMA_MISMATCH");
    let out = call(&up, "read_settings", json!({"section": "radarr"}));
    assert_eq!(out["error"]["code"], "UPSTREAM_SCHEMA_MISMATCH");
}
