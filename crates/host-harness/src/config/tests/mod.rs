use std::time::Duration;

use super::*;
use crate::limits::{default_call_timeout_secs, longest_tool_secs};
use media_mcp_wire::settings::MOVIEPILOT_TOOL_DEADLINES;
use media_mcp_wire::upstreams::OMBI;

fn raw(pairs: &[(&str, &str)]) -> RawSettings {
    RawSettings::from_env(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())))
}

fn validate(pairs: &[(&str, &str)]) -> Result<Settings, ConfigError> {
    Settings::validate(&raw(pairs), &Overrides::default())
}

mod sources;

#[test]
fn the_call_timeout_help_states_the_moviepilot_limits() {
    let help = VARIABLES
        .iter()
        .find(|v| v.name == "MEDIA_MCP_CALL_TIMEOUT_SECS")
        .unwrap()
        .help;
    let default = format!(
        "{} by default when MOVIEPILOT_URL is set",
        default_call_timeout_secs(&MOVIEPILOT_TOOL_DEADLINES)
    );
    let longest = format!(
        "may take {} s",
        longest_tool_secs(&MOVIEPILOT_TOOL_DEADLINES)
    );
    assert!(help.contains(&default) && help.contains(&longest), "{help}");
}

#[test]
fn moviepilot_raises_the_default_call_timeout_for_its_slow_searches() {
    let mp = [
        ("MOVIEPILOT_URL", "https://mp.example/api/v1/mcp"),
        ("MOVIEPILOT_API_KEY", "mp-key-1"),
    ];
    assert_eq!(
        validate(&mp).unwrap().call_timeout,
        Duration::from_secs(default_call_timeout_secs(&MOVIEPILOT_TOOL_DEADLINES))
    );
    let explicit = [mp[0], mp[1], ("MEDIA_MCP_CALL_TIMEOUT_SECS", "400")];
    assert_eq!(
        validate(&explicit).unwrap().call_timeout,
        Duration::from_secs(400)
    );
}

#[test]
fn a_host_limit_shorter_than_a_component_deadline_is_refused_or_raised() {
    let mp = [
        ("MOVIEPILOT_URL", "https://mp.example/api/v1/mcp"),
        ("MOVIEPILOT_API_KEY", "mp-key-1"),
    ];
    // search.torrents may take 300 s by default: 90 s would cut it.
    let e = validate(&[mp[0], mp[1], ("MEDIA_MCP_CALL_TIMEOUT_SECS", "90")]).unwrap_err();
    assert_eq!(e.variable, "MEDIA_MCP_CALL_TIMEOUT_SECS");
    assert!(
        e.message.contains("300000 ms") && e.message.contains("search.torrents"),
        "{e:?}"
    );
    // Lowering that deadline makes 90 s consistent.
    let lowered = [
        mp[0],
        mp[1],
        (
            "MEDIA_MCP_MOVIEPILOT_DEADLINES",
            "search.torrents=60000,search_torrents=60000",
        ),
        ("MEDIA_MCP_CALL_TIMEOUT_SECS", "90"),
    ];
    assert_eq!(
        validate(&lowered).unwrap().call_timeout,
        Duration::from_secs(90)
    );
    // An operator's longer tool deadline raises the default limit.
    let longer = [
        mp[0],
        mp[1],
        ("MEDIA_MCP_MOVIEPILOT_DEADLINES", "media.search=500000"),
    ];
    assert!(validate(&longer).unwrap().call_timeout >= Duration::from_secs(501));
    // The component's whole-call deadline counts without MoviePilot too.
    let e = validate(&[
        ("MEDIA_MCP_CALL_DEADLINE_MS", "120000"),
        ("MEDIA_MCP_CALL_TIMEOUT_SECS", "60"),
    ])
    .unwrap_err();
    assert!(e.message.contains("MEDIA_MCP_CALL_DEADLINE_MS"), "{e:?}");
    assert!(
        validate(&[("MEDIA_MCP_CALL_DEADLINE_MS", "120000")])
            .unwrap()
            .call_timeout
            > Duration::from_secs(120)
    );
    // A deadline no host limit can outlast is refused.
    assert!(validate(&[mp[0], mp[1], ("MEDIA_MCP_MOVIEPILOT_DEADLINES", "x=600000")]).is_err());
}

#[test]
fn nothing_configured_is_valid_and_has_no_upstreams() {
    let s = validate(&[]).unwrap();
    assert!(s.upstreams().next().is_none());
    assert_eq!(s.call_timeout, Duration::from_secs(60));
    assert_eq!(s.memory_limit_bytes, 64 << 20);
    assert!(s.cache_dir.is_none());
}

#[test]
fn ombi_url_keeps_its_path_prefix_without_trailing_slash() {
    let s = validate(&[
        ("OMBI_URL", "https://media.example/ombi/"),
        ("OMBI_API_KEY", "ombi-key-1"),
    ])
    .unwrap();
    let ombi = s.upstream(&OMBI).unwrap();
    assert_eq!(ombi.base_url(), "https://media.example/ombi");
    assert_eq!(ombi.base_path(), "/ombi");
    assert_eq!(ombi.api_key.expose(), "ombi-key-1");
}

#[test]
fn ombi_url_without_key_names_the_key_variable() {
    let e = validate(&[("OMBI_URL", "http://127.0.0.1:5000")]).unwrap_err();
    assert_eq!(e.variable, "OMBI_API_KEY");
}

#[test]
fn ombi_and_seerr_together_are_a_start_error_naming_both() {
    let e = validate(&[
        ("OMBI_URL", "http://127.0.0.1:5000"),
        ("OMBI_API_KEY", "ombi-key-1"),
        ("SEERR_URL", "http://127.0.0.1:5055"),
        ("SEERR_API_KEY", "seerr-key-1"),
    ])
    .unwrap_err();
    assert_eq!(e.variable, "SEERR_URL");
    assert!(
        e.message.contains("OMBI_URL and SEERR_URL are both set"),
        "{e}"
    );
    let seerr_with_moviepilot = validate(&[
        ("SEERR_URL", "http://127.0.0.1:5055"),
        ("SEERR_API_KEY", "seerr-key-1"),
        ("SEERR_USER", "alice"),
        ("MOVIEPILOT_URL", "http://127.0.0.1:3001/api/v1/mcp"),
        ("MOVIEPILOT_API_KEY", "moviepilot-key-1"),
    ])
    .unwrap();
    assert_eq!(seerr_with_moviepilot.upstreams().count(), 2);
}

#[test]
fn bad_urls_name_the_variable_and_never_echo_credentials() {
    for (url, needle) in [
        ("ftp://h/x", "http or https"),
        ("not a url", "not a valid URL"),
        ("http://user:hunter2@h/", "user name or password"),
        ("http://h/?apikey=hunter2", "query"),
    ] {
        let e = validate(&[("OMBI_URL", url), ("OMBI_API_KEY", "ombi-key-1")]).unwrap_err();
        assert_eq!(e.variable, "OMBI_URL", "{url}");
        assert!(e.message.contains(needle), "{url}: {}", e.message);
        assert!(!e.to_string().contains("hunter2"));
    }
}

#[test]
fn bad_key_is_refused_without_echoing_it() {
    let e = validate(&[
        ("OMBI_URL", "http://h"),
        ("OMBI_API_KEY", "bad key\nsecret"),
    ])
    .unwrap_err();
    assert_eq!(e.variable, "OMBI_API_KEY");
    assert!(!e.to_string().contains("secret"));
    assert!(!format!("{e:?}").contains("secret"));
}

#[test]
fn keys_shorter_than_the_redaction_minimum_are_refused_at_start() {
    for (url, key) in [
        ("OMBI_URL", "OMBI_API_KEY"),
        ("MOVIEPILOT_URL", "MOVIEPILOT_API_KEY"),
    ] {
        let short = "k".repeat(MIN_KEY_CHARS - 1);
        let e = validate(&[(url, "http://h"), (key, &short)]).unwrap_err();
        assert_eq!(e.variable, key);
        assert!(e.message.contains("at least 8 characters"), "{}", e.message);
        assert!(!e.message.contains(&short));
        let long_enough = "k".repeat(MIN_KEY_CHARS);
        assert!(validate(&[(url, "http://h"), (key, &long_enough)]).is_ok());
    }
}

#[test]
fn secret_debug_is_redacted() {
    assert_eq!(format!("{:?}", Secret::new("abc")), "Secret(<redacted>)");
}

#[test]
fn empty_values_count_as_unset() {
    let s = validate(&[("OMBI_URL", ""), ("MEDIA_MCP_LOG", "")]).unwrap();
    assert!(s.upstream(&OMBI).is_none() && s.user(&OMBI).is_none());
}

#[test]
fn an_empty_ombi_user_is_an_error_not_the_administrator() {
    for blank in ["", "   "] {
        let e = validate(&[("OMBI_USER", blank)]).unwrap_err();
        assert_eq!(e.variable, "OMBI_USER");
        assert!(e.message.contains("empty"), "{}", e.message);
        assert!(e.message.contains("administrator"), "{}", e.message);
    }
    // A value from a lower layer still fills an empty one above it.
    let merged = raw(&[("OMBI_USER", "")]).over(raw(&[("OMBI_USER", "alice")]));
    let s = Settings::validate(&merged, &Overrides::default()).unwrap();
    assert_eq!(s.user(&OMBI), Some("alice"));
    let merged = raw(&[]).over(raw(&[("OMBI_USER", "")]));
    assert!(Settings::validate(&merged, &Overrides::default()).is_err());
}

#[test]
fn ombi_user_is_checked_once_at_start_with_the_real_reason() {
    let user = |v: &str| validate(&[("OMBI_USER", v)]);
    assert_eq!(user("  bob smith ").unwrap().user(&OMBI), Some("bob smith"));
    let longest = "u".repeat(MAX_USER_NAME_CHARS);
    assert_eq!(user(&longest).unwrap().user(&OMBI), Some(longest.as_str()));
    for (value, reason) in [
        (format!("{longest}u"), "at most 256 characters"),
        ("u".repeat(10_000), "at most 256 characters"),
        ("jos\u{e9}".to_owned(), "header values carry ASCII only"),
        ("\u{200b}bob".to_owned(), "header values carry ASCII only"),
        ("bob\nsmith".to_owned(), "control characters"),
        ("bob\tsmith".to_owned(), "control characters"),
        ("smith, bob".to_owned(), "must not contain a comma"),
    ] {
        let e = user(&value).unwrap_err();
        assert_eq!(e.variable, "OMBI_USER");
        assert!(e.message.contains(reason), "{value:?}: {}", e.message);
        assert!(!e.message.contains(&value), "the value is not echoed");
    }
}

#[test]
fn numbers_and_booleans_are_checked_by_name() {
    assert_eq!(
        validate(&[("MEDIA_MCP_CALL_TIMEOUT_SECS", "0")])
            .unwrap_err()
            .variable,
        "MEDIA_MCP_CALL_TIMEOUT_SECS"
    );
    assert_eq!(
        validate(&[("MEDIA_MCP_MEMORY_LIMIT_MIB", "lots")])
            .unwrap_err()
            .variable,
        "MEDIA_MCP_MEMORY_LIMIT_MIB"
    );
    assert_eq!(
        validate(&[("MEDIA_MCP_PASS_KEY_TO_GUEST", "maybe")])
            .unwrap_err()
            .variable,
        "MEDIA_MCP_PASS_KEY_TO_GUEST"
    );
    assert!(
        validate(&[("MEDIA_MCP_PASS_KEY_TO_GUEST", "yes")])
            .unwrap()
            .pass_key_to_guest
    );
    assert_eq!(
        validate(&[("MEDIA_MCP_LOG", "loud")]).unwrap_err().variable,
        "MEDIA_MCP_LOG"
    );
}

/// A value no variable of `kind` takes.
fn bad_value(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Switch => Some("maybe"),
        Kind::Number { .. } => Some("lots"),
        Kind::Choice(_) => Some("neither"),
        _ => None,
    }
}

#[test]
fn every_plugin_variable_of_a_checkable_kind_is_refused_at_start_by_the_plugins_rule() {
    let plugin = [Scope::Guest, Scope::Both];
    let checked: Vec<&Variable> = VARIABLES
        .iter()
        .filter(|v| plugin.contains(&v.scope) && !v.name.starts_with("MEDIA_MCP_HTTP_"))
        .filter(|v| !v.name.starts_with("MEDIA_MCP_OAUTH_") && bad_value(v.kind).is_some())
        .collect();
    assert!(checked.len() >= 5, "{checked:?}");
    for var in checked {
        let value = bad_value(var.kind).unwrap();
        let lookup = |name: &str| (name == var.name).then(|| value.to_owned());
        let plugin = media_mcp_wire::plugin_settings::problems(&lookup);
        assert_eq!(plugin.len(), 1, "the plugin reads {}: {plugin:?}", var.name);
        let e = validate(&[(var.name, value)]).unwrap_err();
        assert_eq!(e.variable, var.name);
        assert_eq!(e.message, plugin[0].message, "{}", var.name);
        assert!(!e.message.contains(value), "{e}");
    }
}

#[test]
fn bad_plugin_values_of_each_kind_are_refused_naming_the_variable() {
    let cases = [
        ("MEDIA_MCP_CALL_DEADLINE_MS", "99", "must be 100..=600000"),
        (
            "MEDIA_MCP_READ_ONLY",
            "sure",
            "must be 1/true/yes/on or 0/false/no/off",
        ),
        (
            "MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES",
            "2",
            "must be 1/true/yes/on",
        ),
        (
            "MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS",
            "enabled",
            "must be 1/true/yes/on",
        ),
        (
            "MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE",
            "tiny",
            "must be compact or full",
        ),
        (
            "MEDIA_MCP_MOVIEPILOT_DEADLINES",
            "a=1000,b=5",
            "entry `b=5` must be name=milliseconds",
        ),
        (
            "MEDIA_MCP_TOOLS",
            "read_*,read_[ab]",
            "entry `read_[ab]` must be a tool name or a glob",
        ),
        (
            "MEDIA_MCP_TOOLS_DENY",
            "bad name",
            "entry `bad name` must be a tool name or a glob",
        ),
    ];
    for (variable, value, says) in cases {
        let e = validate(&[(variable, value)]).unwrap_err();
        assert_eq!(e.variable, variable, "{e}");
        assert!(e.message.starts_with(says), "{variable}: {e}");
        assert!(
            !e.message.contains("treated as") && !e.message.contains("is used"),
            "{e}"
        );
    }
    let good = [
        ("MEDIA_MCP_CALL_DEADLINE_MS", "5000"),
        ("MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE", "Full"),
        ("MEDIA_MCP_MOVIEPILOT_DEADLINES", "media.search=1000"),
        ("MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES", "yes"),
        ("MEDIA_MCP_TOOLS", "read_*"),
    ];
    assert!(validate(&good).is_ok());
}

#[test]
fn a_ca_file_that_cannot_be_used_is_refused_at_start_naming_the_variable() {
    let dir = std::env::temp_dir().join(format!("h3-ca-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let no_cert = dir.join("no-cert.pem");
    std::fs::write(
        &no_cert,
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    )
    .unwrap();
    let not_der = dir.join("not-der.pem");
    std::fs::write(
        &not_der,
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    let missing = dir.join("missing.pem");
    let cases = [
        (&no_cert, "holds no certificate"),
        (&not_der, "certificate 1 is not a usable CA certificate"),
        (&missing, "cannot be read"),
    ];
    for (path, says) in cases {
        let path = path.to_str().unwrap();
        let e = validate(&[
            ("MOVIEPILOT_URL", "https://mp.example/api/v1/mcp"),
            ("MOVIEPILOT_API_KEY", "mp-key-1"),
            ("MOVIEPILOT_CA_FILE", path),
        ])
        .unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("MOVIEPILOT_CA_FILE") && text.contains(says),
            "{text}"
        );
        assert!(!text.contains(path), "the path is not echoed: {text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file holding `content` in a fresh directory of its own.
fn secret_file(name: &str, content: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "media-mcp-secret-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

#[test]
fn each_secret_is_read_from_its_file_without_the_line_end_echo_adds() {
    let ombi = secret_file("ombi", b"ombi-key-from-file\n");
    let tokens = secret_file("tokens", b"alice=alice-token-0123456789ab\r\n");
    let client = secret_file("client", b" two lines\nkept \n\n");
    let settings = validate(&[
        ("OMBI_URL", "http://127.0.0.1:5000"),
        ("OMBI_API_KEY_FILE", ombi.to_str().unwrap()),
        ("MEDIA_MCP_HTTP_TOKENS_FILE", tokens.to_str().unwrap()),
        (
            "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET_FILE",
            client.to_str().unwrap(),
        ),
    ])
    .unwrap();
    assert_eq!(
        settings.upstream(&OMBI).unwrap().api_key.expose(),
        "ombi-key-from-file"
    );
    let passed: std::collections::BTreeMap<_, _> = settings.passthrough.iter().cloned().collect();
    assert_eq!(
        passed["MEDIA_MCP_HTTP_TOKENS"],
        "alice=alice-token-0123456789ab"
    );
    // Only one line end goes; anything else in the file is the secret.
    assert_eq!(
        passed["MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET"],
        " two lines\nkept \n"
    );
    // The file variables themselves reach neither the component nor the pass-through.
    assert!(
        passed.keys().all(|name| !name.ends_with("_FILE")),
        "{passed:?}"
    );
}

#[test]
fn a_secret_and_its_file_both_set_is_an_error_naming_both() {
    let path = secret_file("mp", b"mp-key-from-file\n");
    let e = validate(&[
        ("MOVIEPILOT_URL", "http://127.0.0.1:3001/api/v1/mcp"),
        ("MOVIEPILOT_API_KEY", "mp-key-in-env"),
        ("MOVIEPILOT_API_KEY_FILE", path.to_str().unwrap()),
    ])
    .unwrap_err();
    assert_eq!(e.variable, "MOVIEPILOT_API_KEY and MOVIEPILOT_API_KEY_FILE");
    assert!(!e.to_string().contains("mp-key"), "{e}");
}

#[test]
fn an_unreadable_secret_file_names_the_variable_and_path_never_the_content() {
    let missing = std::env::temp_dir().join("media-mcp-no-such-secret-file");
    let e = validate(&[
        ("OMBI_URL", "http://127.0.0.1:5000"),
        ("OMBI_API_KEY_FILE", missing.to_str().unwrap()),
    ])
    .unwrap_err();
    assert_eq!(e.variable, "OMBI_API_KEY_FILE");
    assert!(e.message.contains(missing.to_str().unwrap()), "{e}");
    let binary = secret_file("binary", b"hidden-\xff-bytes");
    let e =
        validate(&[("MEDIA_MCP_HTTP_PROXY_TOKENS_FILE", binary.to_str().unwrap())]).unwrap_err();
    assert_eq!(e.variable, "MEDIA_MCP_HTTP_PROXY_TOKENS_FILE");
    assert!(!e.to_string().contains("hidden-"), "{e}");
}

#[test]
fn an_empty_secret_file_is_an_empty_value() {
    let empty = secret_file("empty", b"\n");
    let from_file = validate(&[
        ("OMBI_URL", "http://127.0.0.1:5000"),
        ("OMBI_API_KEY_FILE", empty.to_str().unwrap()),
    ])
    .unwrap_err();
    let from_env =
        validate(&[("OMBI_URL", "http://127.0.0.1:5000"), ("OMBI_API_KEY", "")]).unwrap_err();
    assert_eq!(from_file, from_env);
}

#[test]
fn a_config_file_may_name_a_secret_file() {
    let path = secret_file("ombi", b"ombi-key-from-file");
    let text = format!(
        "OMBI_URL = \"http://127.0.0.1:5000\"\nOMBI_API_KEY_FILE = {:?}\n",
        path.to_str().unwrap()
    );
    let raw = RawSettings::from_file_text(&text, false, "test").unwrap();
    let settings = Settings::validate(&raw, &Overrides::default()).unwrap();
    assert_eq!(
        settings.upstream(&OMBI).unwrap().api_key.expose(),
        "ombi-key-from-file"
    );
    assert!(RawSettings::from_file_text("OMBI_URL_FILE = \"x\"\n", false, "test").is_err());
}
