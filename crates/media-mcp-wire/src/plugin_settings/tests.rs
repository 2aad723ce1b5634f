use super::*;
use crate::variables;
use alloc::string::ToString;

const READ_ONLY: &str = variables::READ_ONLY.name;
const TOOLS: &str = variables::TOOLS.name;
const TOOLS_DENY: &str = variables::TOOLS_DENY.name;
const MOVIEPILOT_ALLOW_DB_WRITES: &str = variables::MOVIEPILOT_ALLOW_DB_WRITES.name;
const MOVIEPILOT_ALLOW_SECRETS: &str = variables::MOVIEPILOT_ALLOW_SECRETS.name;
const MOVIEPILOT_API_ALLOW: &str = variables::MOVIEPILOT_API_ALLOW.name;
const MOVIEPILOT_API_DENY: &str = variables::MOVIEPILOT_API_DENY.name;
const MOVIEPILOT_DEADLINES: &str = variables::MOVIEPILOT_DEADLINES.name;
const MOVIEPILOT_SCHEMA_MODE: &str = variables::MOVIEPILOT_SCHEMA_MODE.name;

fn lookup(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let vars: Vec<(String, String)> = vars
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    move |name: &str| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
}

fn problems_of(vars: &[(&str, &str)]) -> Vec<Problem> {
    problems(&lookup(vars))
}

#[test]
fn good_and_unset_values_have_no_problem() {
    assert!(problems_of(&[]).is_empty());
    let good = problems_of(&[
        (CALL_DEADLINE.name, " 5000 "),
        (MOVIEPILOT_ALLOW_DB_WRITES, "yes"),
        (MOVIEPILOT_ALLOW_SECRETS, "0"),
        (MOVIEPILOT_SCHEMA_MODE, "FULL"),
        (
            MOVIEPILOT_DEADLINES,
            "search.torrents=60000, media.search=1000",
        ),
        (READ_ONLY, "on"),
        (TOOLS, "read_*,write_request_?"),
        (TOOLS_DENY, "moviepilot_api"),
        (MOVIEPILOT_API_ALLOW, "anything goes, here"),
        (READ_ONLY, "   "),
    ]);
    assert!(good.is_empty(), "{good:?}");
}

#[test]
fn a_bad_value_of_each_kind_is_one_problem_naming_its_variable() {
    let cases: &[(&str, &str, &str)] = &[
        (CALL_DEADLINE.name, "99", "must be 100..=600000"),
        (CALL_DEADLINE.name, "30s", "must be 100..=600000"),
        (MOVIEPILOT_ALLOW_DB_WRITES, "sure", SWITCH_WORDS),
        (MOVIEPILOT_ALLOW_SECRETS, "2", SWITCH_WORDS),
        (READ_ONLY, "enabled", SWITCH_WORDS),
        (MOVIEPILOT_SCHEMA_MODE, "tiny", "must be compact or full"),
        (
            MOVIEPILOT_DEADLINES,
            "a=1000,b=5",
            "entry `b=5` must be name=milliseconds (100..=600000)",
        ),
        (
            TOOLS,
            "read_*,read_[ab]",
            "entry `read_[ab]` must be a tool name or a glob (letters, digits, _ - . and the wildcards * ?)",
        ),
        (
            TOOLS_DENY,
            "bad name",
            "entry `bad name` must be a tool name or a glob (letters, digits, _ - . and the wildcards * ?)",
        ),
    ];
    for (variable, value, message) in cases {
        let found = problems_of(&[(variable, value)]);
        assert_eq!(found.len(), 1, "{variable}={value}: {found:?}");
        assert_eq!(found[0].variable, *variable);
        assert_eq!(found[0].message, *message, "{variable}={value}");
        assert!(found[0].to_string().starts_with(variable));
    }
}

#[test]
fn bad_values_have_their_safe_reading() {
    let mut problems = Vec::new();
    let var = lookup(&[
        (READ_ONLY, "maybe"),
        (MOVIEPILOT_ALLOW_DB_WRITES, "maybe"),
        (MOVIEPILOT_SCHEMA_MODE, "tiny"),
        (CALL_DEADLINE.name, "1"),
    ]);
    assert!(read_only(&var, &mut problems));
    assert!(!moviepilot_switch(
        &var,
        MOVIEPILOT_ALLOW_DB_WRITES,
        &mut problems
    ));
    assert_eq!(schema_mode(&var, &mut problems), SchemaMode::Compact);
    assert_eq!(call_deadline_ms(&var, &mut problems), CALL_DEADLINE.default);
    let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        said,
        [
            "MEDIA_MCP_READ_ONLY must be 1/true/yes/on or 0/false/no/off; treated as on",
            "MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES must be 1/true/yes/on or 0/false/no/off; treated as off",
            "MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE must be compact or full; compact is used",
            "MEDIA_MCP_CALL_DEADLINE_MS must be 100..=600000",
        ]
    );
}

#[test]
fn patterns_keep_the_good_entries_and_mark_the_bad() {
    let mut problems = Vec::new();
    let var = lookup(&[(TOOLS, " read_*, ,x y,write_?")]);
    assert_eq!(
        tool_patterns(&var, TOOLS, &mut problems),
        Some(vec![
            Some("read_*".to_owned()),
            None,
            Some("write_?".to_owned())
        ])
    );
    assert_eq!(tool_patterns(&var, TOOLS_DENY, &mut problems), None);
    assert_eq!(problems.len(), 1);
}

#[test]
fn moviepilot_deadlines_follow_the_built_ins() {
    let mut problems = Vec::new();
    let var = lookup(&[(MOVIEPILOT_DEADLINES, "search.torrents=1000,x")]);
    assert_eq!(
        moviepilot_deadlines(&var, &mut problems),
        [
            ("search.torrents".to_owned(), 300_000),
            ("search_torrents".to_owned(), 300_000),
            ("search.torrents".to_owned(), 1000)
        ]
    );
    assert_eq!(problems[0].variable, MOVIEPILOT_DEADLINES);
}

#[test]
fn every_variable_read_here_is_handed_to_the_components() {
    let read = [
        CALL_DEADLINE.name,
        READ_ONLY,
        TOOLS,
        TOOLS_DENY,
        MOVIEPILOT_ALLOW_DB_WRITES,
        MOVIEPILOT_ALLOW_SECRETS,
        MOVIEPILOT_API_ALLOW,
        MOVIEPILOT_API_DENY,
        MOVIEPILOT_DEADLINES,
        MOVIEPILOT_SCHEMA_MODE,
    ];
    for name in read {
        assert!(variables::is_guest(name), "{name}");
    }
}
