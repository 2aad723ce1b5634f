use super::*;

fn settings() -> OAuthSettings {
    OAuthSettings::from_lookup(|name| match name {
        "MEDIA_MCP_OAUTH_ISSUER" => Some("https://id.example.com".into()),
        "MEDIA_MCP_OAUTH_RESOURCE" => Some("https://media.example.com/api/mcp".into()),
        _ => None,
    })
    .unwrap()
}

fn get(path: &str, method: &str) -> Option<Response> {
    serve(
        &settings(),
        "/mcp",
        &Head {
            method,
            path_with_query: path,
            headers: &[],
        },
    )
}

#[test]
fn metadata_is_served_at_the_path_and_root_forms_with_cors() {
    for path in [
        "/.well-known/oauth-protected-resource/api/mcp",
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let r = get(path, "GET").unwrap();
        assert_eq!(r.status, 200, "{path}");
        let doc: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(doc["resource"], "https://media.example.com/api/mcp");
        assert_eq!(doc["authorization_servers"][0], "https://id.example.com");
        assert_eq!(
            doc["scopes_supported"],
            json!(["media:read", "media:write"])
        );
        assert_eq!(doc["bearer_methods_supported"], json!(["header"]));
        assert!(
            r.headers
                .contains(&("access-control-allow-origin", "*".into()))
        );
    }
    assert_eq!(
        get("/.well-known/oauth-protected-resource", "OPTIONS")
            .unwrap()
            .status,
        204
    );
    assert_eq!(
        get("/.well-known/oauth-protected-resource", "POST")
            .unwrap()
            .status,
        405
    );
    assert!(get("/.well-known/oauth-protected-resource/other", "GET").is_none());
    assert!(get("/mcp", "GET").is_none());
}

#[test]
fn challenges_point_to_the_metadata() {
    let o = settings();
    assert_eq!(
        challenge(&o, Challenge::Missing, "media:read"),
        "Bearer resource_metadata=\"https://media.example.com/.well-known/oauth-protected-resource/api/mcp\", scope=\"media:read\""
    );
    let r = refusal(
        &o,
        Challenge::InsufficientScope,
        "media:read media:write",
        "no",
    );
    assert_eq!(r.status, 403);
    let (_, v) = r
        .headers
        .iter()
        .find(|(n, _)| *n == "www-authenticate")
        .unwrap();
    assert!(v.ends_with("error=\"insufficient_scope\""), "{v}");
    assert_eq!(refusal(&o, Challenge::InvalidToken, "s", "no").status, 401);
}
