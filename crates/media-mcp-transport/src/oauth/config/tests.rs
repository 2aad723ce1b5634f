use super::*;

fn parse(vars: &[(&str, &str)]) -> Result<OAuthSettings, OAuthError> {
    OAuthSettings::from_lookup(|name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| (*v).to_owned())
    })
}

const BASE: [(&str, &str); 2] = [
    (
        "MEDIA_MCP_OAUTH_ISSUER",
        "https://id.example.com/realms/home",
    ),
    ("MEDIA_MCP_OAUTH_RESOURCE", "https://media.example.com/mcp"),
];

#[test]
fn defaults() {
    let s = parse(&BASE).unwrap();
    assert_eq!(s.audiences, ["https://media.example.com/mcp"]);
    assert_eq!(s.user_claim, "preferred_username");
    assert_eq!(
        (s.read_scope.as_str(), s.write_scope.as_str()),
        ("media:read", "media:write")
    );
    assert_eq!(
        s.metadata_url(),
        "https://media.example.com/.well-known/oauth-protected-resource/mcp"
    );
    assert_eq!(s.fetch_origins(), ["https://id.example.com"]);
}

#[test]
fn required_and_invalid_values_name_the_variable() {
    let e = parse(&BASE[..1]).unwrap_err();
    assert_eq!(e, OAuthError::Missing("MEDIA_MCP_OAUTH_RESOURCE"));
    assert_eq!(
        e.to_string(),
        "MEDIA_MCP_HTTP_AUTH=oauth needs MEDIA_MCP_OAUTH_RESOURCE (setup: see docs/guide/oauth.md)"
    );
    let e = parse(&BASE[1..]).unwrap_err();
    assert_eq!(e, OAuthError::Missing("MEDIA_MCP_OAUTH_ISSUER"));
    for (name, value, error) in [
        (
            "MEDIA_MCP_OAUTH_ISSUER",
            "http://id.example.com",
            OAuthError::NotUrl("MEDIA_MCP_OAUTH_ISSUER"),
        ),
        (
            "MEDIA_MCP_OAUTH_RESOURCE",
            "media.example.com/mcp",
            OAuthError::NotUrl("MEDIA_MCP_OAUTH_RESOURCE"),
        ),
        (
            "MEDIA_MCP_OAUTH_RESOURCE",
            "https://media.example.com/mcp?x=1",
            OAuthError::ResourceQuery,
        ),
        (
            "MEDIA_MCP_OAUTH_JWKS_URI",
            "ftp://id.example.com/jwks",
            OAuthError::NotUrl("MEDIA_MCP_OAUTH_JWKS_URI"),
        ),
        (
            "MEDIA_MCP_OAUTH_READ_SCOPE",
            "two scopes",
            OAuthError::NotScope("MEDIA_MCP_OAUTH_READ_SCOPE"),
        ),
        (
            "MEDIA_MCP_OAUTH_WRITE_SCOPE",
            "media:read",
            OAuthError::SameScopes,
        ),
        (
            "MEDIA_MCP_OAUTH_USER_MAP",
            "a=b,alice",
            OAuthError::UserMapEntry(2),
        ),
        ("MEDIA_MCP_OAUTH_JWKS", "{\"keys\": []}", OAuthError::Jwks),
    ] {
        let mut vars = BASE.to_vec();
        vars.retain(|(k, _)| *k != name);
        vars.push((name, value));
        let e = parse(&vars).unwrap_err();
        assert_eq!(e, error, "{name}");
        assert!(e.to_string().contains(e.variable()), "{name}: {e}");
        if name != "MEDIA_MCP_OAUTH_WRITE_SCOPE" {
            assert_eq!(e.variable(), name);
        }
    }
}

#[test]
fn introspection_needs_both_credentials_and_hides_the_secret() {
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut vars = BASE.to_vec();
        vars.extend_from_slice(extra);
        parse(&vars)
    };
    assert_eq!(with(&[]).unwrap().introspection, None);
    let id = ("MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID", "media-mcp");
    let secret = (
        "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET",
        "very-secret-value-42",
    );
    let e = with(&[id]).unwrap_err();
    assert_eq!(e, OAuthError::IntrospectionSecretMissing);
    assert_eq!(
        e.to_string(),
        "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID is set: MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET is needed too"
    );
    let e = with(&[secret]).unwrap_err();
    assert_eq!(e, OAuthError::IntrospectionClientMissing);
    assert_eq!(e.variable(), "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID");
    assert!(!e.to_string().contains("very-secret-value-42"));
    let e = with(&[("MEDIA_MCP_OAUTH_INTROSPECT", "always")]).unwrap_err();
    assert_eq!(e, OAuthError::IntrospectionClientMissing);
    let e = with(&[id, secret, ("MEDIA_MCP_OAUTH_INTROSPECT", "sometimes")]).unwrap_err();
    assert_eq!(e, OAuthError::IntrospectMode);
    assert!(
        e.to_string()
            .starts_with("MEDIA_MCP_OAUTH_INTROSPECT must be"),
        "{e}"
    );
    let s = with(&[
        id,
        secret,
        (
            "MEDIA_MCP_OAUTH_INTROSPECTION_URI",
            "https://auth.example.org/introspect",
        ),
    ])
    .unwrap();
    let i = s.introspection.clone().unwrap();
    assert_eq!((i.client_id.as_str(), i.always), ("media-mcp", false));
    assert!(!format!("{s:?}").contains("very-secret-value-42"));
    assert_eq!(
        s.fetch_origins(),
        ["https://id.example.com", "https://auth.example.org"]
    );
}

#[test]
fn audiences_map_and_loopback_http() {
    let mut vars = BASE.to_vec();
    vars[0].1 = "http://127.0.0.1:9000/oidc";
    vars.push((
        "MEDIA_MCP_OAUTH_AUDIENCES",
        "media-client, https://media.example.com/mcp",
    ));
    vars.push((
        "MEDIA_MCP_OAUTH_USER_MAP",
        "a@example.com=alice, bob=robert",
    ));
    vars.push(("MEDIA_MCP_OAUTH_JWKS_URI", "https://keys.example.net/jwks"));
    let s = parse(&vars).unwrap();
    assert_eq!(
        s.audiences,
        ["https://media.example.com/mcp", "media-client"]
    );
    assert_eq!(
        s.user_map.clone().unwrap(),
        [
            ("a@example.com".into(), "alice".into()),
            ("bob".into(), "robert".into())
        ]
    );
    assert_eq!(
        s.fetch_origins(),
        ["http://127.0.0.1:9000", "https://keys.example.net"]
    );
}
