use super::*;
use std::collections::HashMap;

fn read(pairs: &[(&str, &str)]) -> (Option<MoviePilotConfig>, Vec<String>) {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut problems = Vec::new();
    let cfg = from_lookup(&|k| map.get(k).cloned(), &mut problems);
    (cfg, problems.iter().map(ToString::to_string).collect())
}

#[test]
fn the_endpoint_url_keeps_its_path_and_refuses_keys() {
    let (c, _) = read(&[("MOVIEPILOT_URL", "https://mp.example/api/v1/mcp/")]);
    assert_eq!(c.unwrap().url.as_str(), "https://mp.example/api/v1/mcp");
    let mut problems = Vec::new();
    let lookup = |k: &str| {
        (k == "MOVIEPILOT_URL").then(|| "https://mp.example/api/v1/mcp?apikey=secret".to_owned())
    };
    assert!(from_lookup(&lookup, &mut problems).is_none());
    assert_eq!(problems[0].variable, "MOVIEPILOT_URL", "{problems:?}");
    assert!(!problems[0].message.contains("secret"), "{problems:?}");
    assert!(read(&[]).0.is_none());
}

#[test]
fn policy_is_safe_by_default_and_typos_stay_off() {
    let (c, _) = read(&[("MOVIEPILOT_URL", "http://mp:3001/api/v1/mcp")]);
    let c = c.unwrap();
    assert_eq!(c.policy, Policy::default());
    assert_eq!(c.api_key, None);
    let (c, p) = read(&[
        ("MOVIEPILOT_URL", "http://mp:3001/api/v1/mcp"),
        ("MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES", "yes"),
        ("MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS", "maybe"),
        (
            "MEDIA_MCP_MOVIEPILOT_API_ALLOW",
            " media.search, ,subscription.list",
        ),
        ("MEDIA_MCP_MOVIEPILOT_API_DENY", "system.restart"),
    ]);
    let c = c.unwrap();
    assert!(c.policy.allow_db_writes && !c.policy.allow_secrets);
    assert!(p[0].contains("MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS"));
    assert_eq!(
        c.policy.api_allow.unwrap(),
        ["media.search", "subscription.list"]
    );
    assert_eq!(c.policy.api_deny, ["system.restart"]);
}

#[test]
fn deadlines_default_to_300_s_for_torrent_searches_and_can_be_overridden() {
    let (c, _) = read(&[("MOVIEPILOT_URL", "http://mp/api/v1/mcp")]);
    let c = c.unwrap();
    assert_eq!(
        c.deadline_for("moviepilot_api", Some("search.torrents")),
        Some(300_000)
    );
    assert_eq!(c.deadline_for("moviepilot_api", Some("media.search")), None);
    let (c, p) = read(&[
        ("MOVIEPILOT_URL", "http://mp/api/v1/mcp"),
        (
            "MEDIA_MCP_MOVIEPILOT_DEADLINES",
            "search.torrents=120000,search_media=45000,bad=1",
        ),
    ]);
    let c = c.unwrap();
    assert_eq!(
        c.deadline_for("moviepilot_api", Some("search.torrents")),
        Some(120_000)
    );
    assert_eq!(c.deadline_for("search_media", None), Some(45_000));
    assert!(p[0].contains("bad"), "{p:?}");
}
