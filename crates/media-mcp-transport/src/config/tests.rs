use super::*;
use crate::auth::TokenError;
use crate::oauth::config::OAuthError;

fn settings(vars: &[(&str, &str)]) -> Result<Settings, ConfigError> {
    Settings::from_lookup(|name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| (*v).to_owned())
    })
}

#[test]
fn every_variable_read_is_one_a_host_hands_the_component() {
    let asked = core::cell::RefCell::new(Vec::new());
    let _ = Settings::from_lookup(|name| {
        asked.borrow_mut().push(name.to_owned());
        None
    });
    let asked = asked.into_inner();
    assert!(!asked.is_empty());
    for name in asked {
        assert!(
            media_mcp_wire::variables::is_guest(&name),
            "{name} is read but not a guest variable of media_mcp_wire::variables"
        );
    }
}

#[test]
fn defaults_serve_mcp_and_leave_auth_unconfigured() {
    let s = settings(&[]).unwrap();
    assert_eq!(s.path, "/mcp");
    assert_eq!(s.auth, AuthMode::Unconfigured);
    assert_eq!(s.user_header, None);
    assert!(s.allowed_origins.is_empty());
    assert!(s.secrets.is_empty());
}

#[test]
fn tokens_off_and_both() {
    let s = settings(&[("MEDIA_MCP_HTTP_TOKENS", "alice=0123456789abcdef")]).unwrap();
    assert!(matches!(s.auth, AuthMode::Tokens(_)));
    let s = settings(&[("MEDIA_MCP_HTTP_AUTH", "off")]).unwrap();
    assert_eq!(s.auth, AuthMode::Off);
    let e = settings(&[
        ("MEDIA_MCP_HTTP_AUTH", "off"),
        ("MEDIA_MCP_HTTP_TOKENS", "alice=0123456789abcdef"),
    ])
    .unwrap_err();
    assert_eq!(e, ConfigError::OffWithTokens);
    assert_eq!(e.variable(), "MEDIA_MCP_HTTP_AUTH");
    assert_eq!(
        e.to_string(),
        "MEDIA_MCP_HTTP_AUTH=off and MEDIA_MCP_HTTP_TOKENS are both set: unset one"
    );
    let e = settings(&[("MEDIA_MCP_HTTP_AUTH", "no")]).unwrap_err();
    assert_eq!(e, ConfigError::AuthMode);
    assert_eq!(
        e.to_string(),
        "MEDIA_MCP_HTTP_AUTH must be `off`, `tokens` or `oauth`"
    );
}

#[test]
fn oauth_needs_its_settings_and_excludes_tokens_and_the_user_header() {
    let oauth = [
        ("MEDIA_MCP_HTTP_AUTH", "oauth"),
        ("MEDIA_MCP_OAUTH_ISSUER", "https://id.example.com"),
        ("MEDIA_MCP_OAUTH_RESOURCE", "https://media.example.com/mcp"),
    ];
    assert!(matches!(settings(&oauth).unwrap().auth, AuthMode::OAuth(_)));
    let e = settings(&oauth[..2]).unwrap_err();
    assert_eq!(
        e,
        ConfigError::OAuth(OAuthError::Missing("MEDIA_MCP_OAUTH_RESOURCE"))
    );
    assert_eq!(e.variable(), "MEDIA_MCP_OAUTH_RESOURCE");
    for (extra, error) in [
        (
            ("MEDIA_MCP_HTTP_TOKENS", "alice=0123456789abcdef"),
            ConfigError::OAuthWithTokens,
        ),
        (
            ("MEDIA_MCP_HTTP_USER_HEADER", "Remote-User"),
            ConfigError::OAuthWithUserHeader,
        ),
    ] {
        let mut vars = oauth.to_vec();
        vars.push(extra);
        let e = settings(&vars).unwrap_err();
        assert_eq!(e, error);
        let said = e.to_string();
        assert!(
            said.contains(extra.0) && !said.contains("0123456789abcdef"),
            "{said}"
        );
    }
}

#[test]
fn token_errors_name_the_variable_but_not_the_token() {
    let e = settings(&[("MEDIA_MCP_HTTP_TOKENS", "alice=short-secret")]).unwrap_err();
    assert_eq!(e, ConfigError::Tokens(TokenError::Weak("alice".into())));
    assert_eq!(e.variable(), "MEDIA_MCP_HTTP_TOKENS");
    assert!(e.to_string().starts_with("MEDIA_MCP_HTTP_TOKENS: "), "{e}");
    assert!(!e.to_string().contains("short-secret"), "{e}");
}

#[test]
fn path_header_and_origins_are_validated() {
    for path in ["mcp", "/mcp?x=1"] {
        let e = settings(&[("MEDIA_MCP_HTTP_PATH", path)]).unwrap_err();
        assert_eq!(e, ConfigError::Path, "{path}");
        assert_eq!(
            e.to_string(),
            "MEDIA_MCP_HTTP_PATH must be a path starting with '/', without query or fragment"
        );
    }
    for path in ["/healthz", "/readyz"] {
        let e = settings(&[("MEDIA_MCP_HTTP_PATH", path)]).unwrap_err();
        assert_eq!(e, ConfigError::HealthPath(path), "{path}");
        assert_eq!(e.variable(), "MEDIA_MCP_HTTP_PATH");
        assert!(e.to_string().contains("health probes"), "{e}");
    }
    assert_eq!(
        settings(&[("MEDIA_MCP_HTTP_PATH", "/api/mcp")])
            .unwrap()
            .path,
        "/api/mcp"
    );
    let s = settings(&[("MEDIA_MCP_HTTP_USER_HEADER", "Remote-User")]).unwrap();
    assert_eq!(s.user_header.as_deref(), Some("remote-user"));
    for header in ["Authorization", "a b"] {
        let e = settings(&[("MEDIA_MCP_HTTP_USER_HEADER", header)]).unwrap_err();
        assert_eq!(e, ConfigError::UserHeader, "{header}");
    }
    let s = settings(&[(
        "MEDIA_MCP_HTTP_ALLOWED_ORIGINS",
        "https://Chat.Example.com/, http://10.0.0.2:3000",
    )])
    .unwrap();
    assert_eq!(
        s.allowed_origins,
        ["https://chat.example.com", "http://10.0.0.2:3000"]
    );
    let e = settings(&[("MEDIA_MCP_HTTP_ALLOWED_ORIGINS", "chat.example.com")]).unwrap_err();
    assert_eq!(e, ConfigError::AllowedOrigin("chat.example.com".into()));
    assert_eq!(e.variable(), "MEDIA_MCP_HTTP_ALLOWED_ORIGINS");
    assert_eq!(
        e.to_string(),
        "MEDIA_MCP_HTTP_ALLOWED_ORIGINS: \"chat.example.com\" is not an origin like https://chat.example.com"
    );
}

#[test]
fn secrets_are_read_from_the_key_variables_and_hidden_from_debug() {
    let s = settings(&[
        ("OMBI_API_KEY", "0123456789abcdef0123456789abcdef"),
        ("MOVIEPILOT_API_KEY", " "),
    ])
    .unwrap();
    assert_eq!(s.secrets, ["0123456789abcdef0123456789abcdef"]);
    assert!(!format!("{s:?}").contains("0123456789abcdef"));
}

#[test]
fn every_upstreams_key_is_a_secret_the_transport_redacts() {
    for upstream in media_mcp_wire::upstreams::UPSTREAMS {
        assert!(
            SECRET_VARIABLES.contains(&upstream.api_key.name),
            "{}",
            upstream.name
        );
    }
    let s = settings(&[("SEERR_API_KEY", "seerr-key-0123456789")]).unwrap();
    assert_eq!(s.secrets, ["seerr-key-0123456789"]);
}

#[test]
fn keys_too_short_to_redact_are_refused_without_echoing_them() {
    let e = settings(&[("MOVIEPILOT_API_KEY", "short")]).unwrap_err();
    assert_eq!(
        e,
        ConfigError::ShortKey {
            variable: "MOVIEPILOT_API_KEY",
            min: MIN_KEY_CHARS
        }
    );
    let said = e.to_string();
    assert!(
        said.starts_with("MOVIEPILOT_API_KEY is shorter than 8"),
        "{said}"
    );
    assert!(
        !said.contains("short:") && !said.contains("\"short"),
        "{said}"
    );
}

#[test]
fn proxy_tokens_need_the_user_header_and_user_tokens_do_not_take_it() {
    let user = ("MEDIA_MCP_HTTP_TOKENS", "alice=0123456789abcdef");
    let proxy = ("MEDIA_MCP_HTTP_PROXY_TOKENS", "authelia=fedcba9876543210");
    let header = ("MEDIA_MCP_HTTP_USER_HEADER", "Remote-User");
    let e = settings(&[proxy]).unwrap_err();
    assert_eq!(e, ConfigError::ProxyTokensNeedUserHeader);
    assert!(e.to_string().contains("MEDIA_MCP_HTTP_USER_HEADER"), "{e}");
    let e = settings(&[user, header]).unwrap_err();
    assert_eq!(e, ConfigError::UserHeaderWithUserTokensOnly);
    assert!(e.to_string().contains("MEDIA_MCP_HTTP_PROXY_TOKENS"), "{e}");
    let s = settings(&[user, proxy, header]).unwrap();
    let AuthMode::Tokens(table) = &s.auth else {
        panic!("{s:?}")
    };
    assert!(table.has_proxies());
    assert!(settings(&[proxy, header]).is_ok());
    let e = settings(&[("MEDIA_MCP_HTTP_PROXY_TOKENS", "authelia=short"), header]).unwrap_err();
    assert!(
        matches!(e, ConfigError::ProxyTokens(TokenError::Weak(_))),
        "{e}"
    );
    assert!(
        e.to_string().starts_with("MEDIA_MCP_HTTP_PROXY_TOKENS: "),
        "{e}"
    );
    let e = settings(&[("MEDIA_MCP_HTTP_TOKENS", "caf\u{e9}=0123456789abcdef")]).unwrap_err();
    assert!(
        matches!(e, ConfigError::Tokens(TokenError::BadUser(1, _))),
        "{e}"
    );
    assert!(
        e.to_string().contains("entry 1") && e.to_string().contains("ASCII"),
        "{e}"
    );
}
