//! The table, the pass-through to the component, the config file and the layers' precedence.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use super::*;

#[test]
fn passthrough_keeps_policy_variables_and_drops_harness_and_secret_ones() {
    let s = validate(&[
        ("MEDIA_MCP_ALLOW_WRITES", "1"),
        ("MOVIEPILOT_TIMEOUT", "5"),
        ("MOVIEPILOT_API_KEY", "mp-key-1"),
        ("MEDIA_MCP_OTHER_TOKEN", "t"),
        ("MEDIA_MCP_LOG", "debug"),
        ("MEDIA_MCP_CALL_TIMEOUT_SECS", "45"),
        ("PATH", "/bin"),
    ])
    .unwrap();
    assert_eq!(
        s.passthrough,
        vec![
            ("MEDIA_MCP_ALLOW_WRITES".into(), "1".into()),
            ("MOVIEPILOT_TIMEOUT".into(), "5".into())
        ]
    );
    assert_eq!(s.call_timeout, Duration::from_secs(45));
}

#[test]
fn each_variable_is_passed_through_or_kept_by_its_scope() {
    for v in VARIABLES.iter().filter(|v| v.scope != Scope::Both) {
        let value = match v.kind {
            Kind::Number { default, .. } => default.to_string(),
            Kind::Switch => "1".to_owned(),
            Kind::Choice(words) => words[0].to_owned(),
            // The one text the harness checks by the plugin's rule: `name=ms` entries.
            _ if v.name == media_mcp_wire::variables::MOVIEPILOT_DEADLINES.name => {
                "x=1000".to_owned()
            }
            _ => "x".to_owned(),
        };
        let s = validate(&[(v.name, &value)]).unwrap_or_else(|e| panic!("{}: {e}", v.name));
        let passed = s.passthrough.iter().any(|(name, _)| name == v.name);
        assert_eq!(passed, v.scope == Scope::Guest, "{}", v.name);
    }
}

#[test]
fn the_table_names_each_variable_once_with_its_default_in_bounds() {
    let names: BTreeSet<&str> = VARIABLES.iter().map(|v| v.name).collect();
    assert_eq!(names.len(), VARIABLES.len());
    for v in VARIABLES {
        if let Kind::Number { min, max, default } = v.kind {
            assert!((min..=max).contains(&default), "{}", v.name);
            for restated in [format!("{min}-{max}"), format!("default {default}")] {
                assert!(
                    !v.help.contains(&restated),
                    "{}: the table states it",
                    v.name
                );
            }
        }
    }
}

#[test]
fn documented_component_settings_are_passed_through() {
    let pairs = [
        ("MEDIA_MCP_CALL_DEADLINE_MS", "20000"),
        ("MEDIA_MCP_HTTP_PATH", "/api/mcp"),
        ("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE", "full"),
    ];
    let s = validate(&pairs).unwrap();
    let mut expected = pairs.map(|(k, v)| (k.to_owned(), v.to_owned())).to_vec();
    expected.sort();
    assert_eq!(s.passthrough, expected);
}

#[test]
fn the_tool_selection_is_checked_and_passed_to_the_guest() {
    let s = validate(&[
        ("MEDIA_MCP_READ_ONLY", "1"),
        ("MEDIA_MCP_TOOLS", "read_*, write_request_*"),
        ("MEDIA_MCP_TOOLS_DENY", "read_logs"),
    ])
    .unwrap();
    assert!(s.read_only);
    assert_eq!(
        s.passthrough,
        vec![
            ("MEDIA_MCP_READ_ONLY".into(), "1".into()),
            ("MEDIA_MCP_TOOLS".into(), "read_*, write_request_*".into()),
            ("MEDIA_MCP_TOOLS_DENY".into(), "read_logs".into()),
        ]
    );
    for (var, value) in [
        ("MEDIA_MCP_TOOLS", "read_[ab]"),
        ("MEDIA_MCP_TOOLS_DENY", "write *"),
        ("MEDIA_MCP_READ_ONLY", "perhaps"),
    ] {
        let e = validate(&[(var, value)]).unwrap_err();
        assert_eq!(e.variable, var, "{e}");
    }
}

#[test]
fn config_file_toml_and_json_use_variable_names() {
    let toml = RawSettings::from_file_text(
        "OMBI_URL = \"http://h:1\"\nOMBI_API_KEY = \"ombi-key-1\"\nMEDIA_MCP_CALL_TIMEOUT_SECS = 45\n",
        false,
        "f",
    )
    .unwrap();
    let s = Settings::validate(&toml, &Overrides::default()).unwrap();
    assert_eq!(s.upstream(&OMBI).unwrap().base_url(), "http://h:1");
    assert_eq!(s.call_timeout, Duration::from_secs(45));
    let json =
        RawSettings::from_file_text(r#"{"MEDIA_MCP_PASS_KEY_TO_GUEST": true}"#, true, "f").unwrap();
    assert!(
        Settings::validate(&json, &Overrides::default())
            .unwrap()
            .pass_key_to_guest
    );
}

#[test]
fn config_file_rejects_unknown_keys_and_nested_values() {
    let e = RawSettings::from_file_text("OMBI_URLL = \"x\"", false, "--config f").unwrap_err();
    assert_eq!(e.variable, "--config f");
    assert!(e.message.contains("OMBI_URLL"));
    assert!(RawSettings::from_file_text("[OMBI_URL]\na = 1", false, "f").is_err());
}

#[test]
fn environment_overrides_file_and_flags_override_both() {
    let file = raw(&[
        ("OMBI_URL", "http://file"),
        ("OMBI_API_KEY", "ombi-key-1"),
        ("MEDIA_MCP_COMPONENT", "/file.wasm"),
    ]);
    let env = raw(&[("OMBI_URL", "http://env")]);
    let merged = env.over(file);
    let flags = Overrides {
        component: Some("/flag.wasm".into()),
        ..Overrides::default()
    };
    let s = Settings::validate(&merged, &flags).unwrap();
    assert_eq!(s.upstream(&OMBI).unwrap().base_url(), "http://env");
    assert_eq!(s.component.unwrap(), PathBuf::from("/flag.wasm"));
}

#[test]
fn cache_dir_defaults_to_xdg_then_home_and_can_be_disabled() {
    let s = validate(&[("HOME", "/home/u")]).unwrap();
    assert_eq!(
        s.cache_dir.unwrap(),
        PathBuf::from("/home/u/.cache/media-mcp")
    );
    let s = validate(&[("HOME", "/home/u"), ("XDG_CACHE_HOME", "/x")]).unwrap();
    assert_eq!(s.cache_dir.unwrap(), PathBuf::from("/x/media-mcp"));
    let flags = Overrides {
        no_cache: true,
        ..Overrides::default()
    };
    assert!(
        Settings::validate(&raw(&[("HOME", "/h")]), &flags)
            .unwrap()
            .cache_dir
            .is_none()
    );
}

#[test]
fn ca_files_and_the_pool_size_are_harness_settings_not_passed_to_the_guest() {
    let s = validate(&[
        ("OMBI_URL", "https://ombi.example"),
        ("OMBI_API_KEY", "ombi-key-1"),
        ("OMBI_CA_FILE", ""),
        ("MEDIA_MCP_UPSTREAM_MAX_IDLE", "0"),
    ])
    .unwrap();
    assert_eq!(s.upstream_max_idle, 0);
    assert!(
        s.upstream(&OMBI).unwrap().extra_roots.is_empty(),
        "empty counts as unset"
    );
    assert!(s.passthrough.is_empty(), "{:?}", s.passthrough);
    let e = validate(&[("MEDIA_MCP_UPSTREAM_MAX_IDLE", "257")]).unwrap_err();
    assert!(e.to_string().contains("MEDIA_MCP_UPSTREAM_MAX_IDLE"));
    assert_eq!(validate(&[]).unwrap().upstream_max_idle, 16);
}

#[test]
fn worker_threads_are_unset_until_given_and_bounded() {
    assert_eq!(validate(&[]).unwrap().worker_threads, None);
    let given = |v: &str| validate(&[("MEDIA_MCP_WORKER_THREADS", v)]);
    assert_eq!(given("0").unwrap().worker_threads, Some(0));
    assert_eq!(given("4").unwrap().worker_threads, Some(4));
    assert!(given("4").unwrap().passthrough.is_empty());
    for bad in ["257", "-1", "two"] {
        let e = given(bad).unwrap_err().to_string();
        assert!(e.contains("MEDIA_MCP_WORKER_THREADS"), "{bad}: {e}");
    }
}
