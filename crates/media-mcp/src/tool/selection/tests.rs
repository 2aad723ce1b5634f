use super::*;
use std::collections::HashMap;

fn read(pairs: &[(&str, &str)]) -> (Selection, Vec<String>) {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut problems = Vec::new();
    let s = Selection::from_lookup(&|k| map.get(k).cloned(), &mut problems);
    (s, problems.iter().map(ToString::to_string).collect())
}

#[test]
fn globs_match_names_whole() {
    assert!(glob_matches("read_*", "read_search"));
    assert!(glob_matches("write_request_*", "write_request_create"));
    assert!(!glob_matches("write_request_*", "write_issue_create"));
    assert!(glob_matches("moviepilot_api", "moviepilot_api"));
    assert!(!glob_matches("moviepilot_api", "moviepilot_api2"));
    assert!(glob_matches("*_status", "moviepilot_status"));
    assert!(glob_matches("read_?edia", "read_media"));
    assert!(glob_matches("*a*b*", "xxaxxbxx"));
    assert!(!glob_matches("*a*b", "xxaxxbxxc"));
    assert!(glob_matches("*", ""));
    assert!(!glob_matches("?", ""));
}

#[test]
fn nothing_set_shows_everything_and_permits_writes() {
    let (s, problems) = read(&[]);
    assert!(s.shows("write_request_create") && !s.read_only);
    assert!(problems.is_empty());
}

#[test]
fn allow_then_deny() {
    let (s, _) = read(&[
        (TOOLS_VAR, "read_*, write_request_*"),
        (TOOLS_DENY_VAR, "read_logs,read_settings*"),
    ]);
    assert!(s.shows("read_search"));
    assert!(s.shows("write_request_create"));
    assert!(!s.shows("write_issue_create"));
    assert!(!s.shows("read_logs"));
    assert!(!s.shows("read_settings_general"));
}

#[test]
fn read_only_permits_only_reads_and_an_unreadable_value_is_on() {
    let (s, _) = read(&[(READ_ONLY_VAR, "1")]);
    assert!(s.read_only);
    assert!(!read(&[(READ_ONLY_VAR, "off")]).0.read_only);
    let (s, problems) = read(&[(READ_ONLY_VAR, "sure")]);
    assert!(s.read_only);
    assert!(problems[0].contains(READ_ONLY_VAR), "{problems:?}");
}

#[test]
fn bad_patterns_fail_closed_and_name_the_variable() {
    let (s, problems) = read(&[(TOOLS_VAR, "read_[ab]")]);
    assert!(!s.shows("read_search") && !s.shows("read_a"));
    assert!(problems[0].starts_with(TOOLS_VAR), "{problems:?}");
    let (s, problems) = read(&[(TOOLS_DENY_VAR, "write_*, bad name")]);
    assert!(!s.shows("read_search"));
    assert!(problems[0].starts_with(TOOLS_DENY_VAR), "{problems:?}");
    let check = media_mcp_wire::plugin_settings::check_pattern;
    assert!(check("read_*").is_ok() && check("a/b").is_err());
}
