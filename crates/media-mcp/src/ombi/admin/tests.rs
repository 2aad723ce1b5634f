use crate::testing::{FakeUpstream, call};
use crate::upstream::Method;
use serde_json::json;

/// The arguments the conformance checker samples from each schema (required properties,
/// first enum value), against the fixture routes they reach.
#[test]
fn sampled_calls_succeed_and_unknown_arguments_are_refused() {
    let up = FakeUpstream::new()
        .fixture(
            Method::Get,
            "/api/v2/Search/Genres/movie",
            "v2-search-genres.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/RecentlyAdded/movies",
            "v1-recentlyadded-movies.json",
        )
        .fixture(Method::Get, "/api/v1/Status", "v1-status.json")
        .fixture(Method::Get, "/api/v1/Status/info", "v1-status-info.json")
        .fixture(
            Method::Get,
            "/api/v1/Status/Wizard",
            "v1-status-wizard.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/Sonarr/Profiles",
            "v1-sonarr-profiles.json",
        )
        .fixture(
            Method::Get,
            "/api/v1/Settings/ombi",
            "v1-settings-ombi.json",
        )
        .fixture(Method::Get, "/api/v2/System/logs", "v2-system-logs.json");
    let sampled = [
        ("read_reference", json!({"kind": "genres_movie"})),
        ("read_library", json!({"view": "recently_added_movies"})),
        ("read_server", json!({"view": "status"})),
        (
            "read_integration",
            json!({"service": "sonarr", "resource": "quality_profiles"}),
        ),
        ("read_settings", json!({"section": "ombi"})),
        ("read_logs", json!({"view": "files"})),
    ];
    for (tool, args) in sampled {
        let out = call(&up, tool, args.clone());
        assert_eq!(out["ok"], true, "{tool}: {out}");
        let mut bad = args;
        bad["conformance_unknown_field"] = json!(1);
        let out = call(&up, tool, bad);
        assert_eq!(out["error"]["code"], "INVALID_ARGUMENT", "{tool}");
    }
    let names: Vec<&str> = super::TOOLS.iter().map(|t| t.name).collect();
    assert_eq!(
        names,
        [
            "read_reference",
            "read_library",
            "read_server",
            "read_integration",
            "read_settings",
            "read_logs"
        ]
    );
}
