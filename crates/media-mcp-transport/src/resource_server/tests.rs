use core::cell::RefCell;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::Signer as _;
use serde_json::json;

use super::*;
use crate::oauth::{FetchError, NoCache};

const ISSUER: &str = "https://id.example.com/oidc";
const RESOURCE: &str = "https://media.example.com/mcp";
const NOW: u64 = 1_800_000_000;
const INTROSPECTION: &str = "https://id.example.com/oidc/token/introspection";

fn settings(extra: &[(&str, &str)]) -> OAuthSettings {
    OAuthSettings::from_lookup(|name| {
        extra
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| (*v).to_owned())
            .or_else(|| match name {
                "MEDIA_MCP_OAUTH_ISSUER" => Some(ISSUER.into()),
                "MEDIA_MCP_OAUTH_RESOURCE" => Some(RESOURCE.into()),
                _ => None,
            })
    })
    .unwrap()
}

fn signing(seed: u8) -> p256::ecdsa::SigningKey {
    p256::ecdsa::SigningKey::from_slice(&[seed; 32]).unwrap()
}

fn jwk(seed: u8, kid: &str) -> Value {
    let point = signing(seed).verifying_key().to_sec1_point(false);
    let b = point.as_bytes();
    json!({"kty": "EC", "crv": "P-256", "kid": kid, "alg": "ES256",
        "x": URL_SAFE_NO_PAD.encode(&b[1..33]), "y": URL_SAFE_NO_PAD.encode(&b[33..65])})
}

fn token(seed: u8, kid: &str, claims: &Value) -> String {
    let input = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(json!({"alg": "ES256", "kid": kid, "typ": "at+jwt"}).to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    let sig: p256::ecdsa::Signature = signing(seed).sign(input.as_bytes());
    format!("{input}.{}", URL_SAFE_NO_PAD.encode(sig.to_bytes()))
}

fn claims(scope: &str) -> Value {
    json!({"iss": ISSUER, "aud": RESOURCE, "exp": NOW + 300, "iat": NOW,
           "preferred_username": "alice", "scope": scope})
}

/// An identity provider: its metadata and current key set, and the URLs asked for; its
/// introspection endpoint answers from `active` (opaque token -> claims) for the client
/// `media-mcp` / `s3cret`, and keeps every `Authorization` it was sent.
struct Provider {
    jwks: RefCell<Value>,
    active: RefCell<Vec<(String, Value)>>,
    authorizations: RefCell<Vec<String>>,
    jwks_uri: String,
    asked: RefCell<Vec<String>>,
}

impl Provider {
    fn new(keys: Value) -> Provider {
        Provider {
            jwks: RefCell::new(json!({"keys": keys})),
            jwks_uri: "https://id.example.com/oidc/jwks".into(),
            asked: RefCell::default(),
            active: RefCell::default(),
            authorizations: RefCell::default(),
        }
    }
    fn asked(&self) -> Vec<String> {
        self.asked.borrow().clone()
    }
}

impl Fetch for Provider {
    fn get(&self, url: &str) -> Result<Vec<u8>, FetchError> {
        self.asked.borrow_mut().push(url.to_owned());
        match url {
            "https://id.example.com/oidc/.well-known/openid-configuration" => {
                Ok(json!({"issuer": ISSUER, "jwks_uri": self.jwks_uri,
                           "introspection_endpoint": INTROSPECTION})
                .to_string()
                .into())
            }
            u if u == self.jwks_uri => Ok(self.jwks.borrow().to_string().into()),
            _ => Err(FetchError("404".into())),
        }
    }

    fn post_form(&self, url: &str, authorization: &str, body: &str) -> Result<Vec<u8>, FetchError> {
        self.asked.borrow_mut().push(format!("POST {url}"));
        self.authorizations
            .borrow_mut()
            .push(authorization.to_owned());
        // "media-mcp:s3cret"
        if url != INTROSPECTION || authorization != "Basic bWVkaWEtbWNwOnMzY3JldA==" {
            return Err(FetchError("HTTP 401".into()));
        }
        let token = body
            .strip_prefix("token=")
            .and_then(|rest| rest.strip_suffix("&token_type_hint=access_token"))
            .unwrap_or_default();
        let answer = self
            .active
            .borrow()
            .iter()
            .find(|(t, _)| t == token)
            .map_or_else(|| json!({"active": false}), |(_, claims)| claims.clone());
        Ok(answer.to_string().into())
    }
}

#[derive(Default)]
struct MemoryCache(RefCell<Vec<(String, String)>>);

impl Cache for MemoryCache {
    fn get(&self, key: &str) -> Option<String> {
        self.0
            .borrow()
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }
    fn set(&self, key: &str, value: &str) {
        let mut e = self.0.borrow_mut();
        e.retain(|(k, _)| k != key);
        e.push((key.to_owned(), value.to_owned()));
    }
}

fn head_with<'a>(path: &'a str, headers: &'a [(String, Vec<u8>)]) -> Head<'a> {
    Head {
        method: "POST",
        path_with_query: path,
        headers,
    }
}

fn auth_header(token: &str) -> Vec<(String, Vec<u8>)> {
    vec![(
        "authorization".into(),
        format!("Bearer {token}").into_bytes(),
    )]
}

fn run(
    o: &OAuthSettings,
    token: &str,
    provider: &Provider,
    cache: &dyn Cache,
    now: u64,
) -> Result<Grant, Response> {
    let h = auth_header(token);
    authorize(o, &head_with("/mcp", &h), provider, cache, now)
}

fn www(r: &Response) -> &str {
    r.headers
        .iter()
        .find(|(n, _)| *n == "www-authenticate")
        .map_or("", |(_, v)| v.as_str())
}

#[test]
fn a_valid_token_grants_its_user_and_scope() {
    let o = settings(&[]);
    let p = Provider::new(json!([jwk(1, "k1")]));
    let g = run(
        &o,
        &token(1, "k1", &claims("openid media:read")),
        &p,
        &NoCache,
        NOW,
    )
    .unwrap();
    assert_eq!(
        g,
        Grant {
            user: "alice".into(),
            access: Access::Read
        }
    );
    let g = run(
        &o,
        &token(1, "k1", &claims("media:write")),
        &p,
        &NoCache,
        NOW,
    )
    .unwrap();
    assert_eq!(g.access, Access::Write);
    // Without a cache, each request reads the metadata and the keys.
    assert_eq!(p.asked().len(), 4);
}

#[test]
fn missing_token_gets_the_metadata_challenge() {
    let o = settings(&[]);
    let p = Provider::new(json!([]));
    let r = authorize(&o, &head_with("/mcp", &[]), &p, &NoCache, NOW).unwrap_err();
    assert_eq!(r.status, 401);
    assert_eq!(
        www(&r),
        "Bearer resource_metadata=\"https://media.example.com/.well-known/oauth-protected-resource/mcp\", scope=\"media:read media:write\""
    );
    assert!(p.asked().is_empty());
}

#[test]
fn token_in_the_query_string_is_refused() {
    let o = settings(&[]);
    let p = Provider::new(json!([jwk(1, "k1")]));
    let t = token(1, "k1", &claims("media:read"));
    let path = format!("/mcp?access_token={t}");
    let h = auth_header(&t);
    let r = authorize(&o, &head_with(&path, &h), &p, &NoCache, NOW).unwrap_err();
    assert_eq!(r.status, 401);
    assert!(www(&r).contains("invalid_token"));
    assert!(!String::from_utf8_lossy(&r.body).contains(&t));
}

#[test]
fn invalid_tokens_are_401_invalid_token_and_never_echoed() {
    let o = settings(&[]);
    let p = Provider::new(json!([jwk(1, "k1")]));
    let mut expired = claims("media:read");
    expired["exp"] = json!(NOW - 120);
    let mut wrong_aud = claims("media:read");
    wrong_aud["aud"] = json!("https://other.example.com/mcp");
    for t in [
        token(1, "k1", &expired),
        token(1, "k1", &wrong_aud),
        token(2, "k1", &claims("media:read")),
        "opaque-access-token-value".to_owned(),
    ] {
        let r = run(&o, &t, &p, &NoCache, NOW).unwrap_err();
        assert_eq!(r.status, 401, "{}", String::from_utf8_lossy(&r.body));
        assert!(www(&r).ends_with("error=\"invalid_token\""));
        assert!(!String::from_utf8_lossy(&r.body).contains(&t));
    }
}

#[test]
fn no_scope_of_ours_is_403_and_unmapped_users_are_refused() {
    let o = settings(&[]);
    let p = Provider::new(json!([jwk(1, "k1")]));
    let r = run(
        &o,
        &token(1, "k1", &claims("openid profile")),
        &p,
        &NoCache,
        NOW,
    )
    .unwrap_err();
    assert_eq!(r.status, 403);
    assert!(www(&r).ends_with("error=\"insufficient_scope\""));
    let o = settings(&[
        ("MEDIA_MCP_OAUTH_USER_MAP", "alice=Alice Ombi"),
        ("MEDIA_MCP_OAUTH_READ_SCOPE", "mcp.read"),
    ]);
    let g = run(&o, &token(1, "k1", &claims("mcp.read")), &p, &NoCache, NOW).unwrap();
    assert_eq!(g.user, "Alice Ombi");
    let mut bob = claims("mcp.read");
    bob["preferred_username"] = json!("bob");
    assert_eq!(
        run(&o, &token(1, "k1", &bob), &p, &NoCache, NOW)
            .unwrap_err()
            .status,
        403
    );
    let mut nameless = claims("mcp.read");
    nameless
        .as_object_mut()
        .unwrap()
        .remove("preferred_username");
    assert_eq!(
        run(&o, &token(1, "k1", &nameless), &p, &NoCache, NOW)
            .unwrap_err()
            .status,
        401
    );
}

#[test]
fn keys_are_cached_and_an_unknown_kid_refetches_once_per_interval() {
    let o = settings(&[]);
    let p = Provider::new(json!([jwk(1, "k1")]));
    let cache = MemoryCache::default();
    let t1 = token(1, "k1", &claims("media:read"));
    run(&o, &t1, &p, &cache, NOW).unwrap();
    run(&o, &t1, &p, &cache, NOW + 1).unwrap();
    assert_eq!(
        p.asked().len(),
        2,
        "metadata and keys once: {:?}",
        p.asked()
    );
    // The provider rotates to k2: the first k2 token refetches and is accepted.
    *p.jwks.borrow_mut() = json!({"keys": [jwk(1, "k1"), jwk(2, "k2")]});
    run(
        &o,
        &token(2, "k2", &claims("media:read")),
        &p,
        &cache,
        NOW + 2,
    )
    .unwrap();
    assert_eq!(p.asked().len(), 3);
    // Garbage kids: at most one refetch per interval.
    for i in 0..5 {
        let r = run(
            &o,
            &token(3, &format!("junk{i}"), &claims("media:read")),
            &p,
            &cache,
            NOW + 3,
        );
        assert_eq!(r.unwrap_err().status, 401);
    }
    assert_eq!(p.asked().len(), 3, "{:?}", p.asked());
    let later = NOW + 3 + keys::REFETCH_INTERVAL_SECS;
    let _ = run(
        &o,
        &token(3, "junk", &claims("media:read")),
        &p,
        &cache,
        later,
    );
    let _ = run(
        &o,
        &token(3, "junk", &claims("media:read")),
        &p,
        &cache,
        later,
    );
    assert_eq!(p.asked().len(), 4, "{:?}", p.asked());
}

#[test]
fn inline_keys_fetch_nothing_and_foreign_jwks_uris_are_not_followed() {
    let inline = json!({"keys": [jwk(1, "k1")]}).to_string();
    let o = settings(&[("MEDIA_MCP_OAUTH_JWKS", &inline)]);
    let p = Provider::new(json!([]));
    run(
        &o,
        &token(1, "k1", &claims("media:read")),
        &p,
        &NoCache,
        NOW,
    )
    .unwrap();
    assert!(p.asked().is_empty());
    let mut p = Provider::new(json!([jwk(1, "k1")]));
    p.jwks_uri = "https://keys.example.net/jwks".into();
    let o = settings(&[]);
    let r = run(
        &o,
        &token(1, "k1", &claims("media:read")),
        &p,
        &NoCache,
        NOW,
    )
    .unwrap_err();
    assert_eq!(r.status, 503);
    assert!(String::from_utf8_lossy(&r.body).contains("MEDIA_MCP_OAUTH_JWKS_URI"));
    assert_eq!(p.asked().len(), 1);
    let o = settings(&[("MEDIA_MCP_OAUTH_JWKS_URI", "https://keys.example.net/jwks")]);
    run(
        &o,
        &token(1, "k1", &claims("media:read")),
        &p,
        &NoCache,
        NOW,
    )
    .unwrap();
}

#[test]
fn discovery_tries_openid_then_rfc8414() {
    assert_eq!(
        keys::discovery_urls("https://id.example.com/realms/home"),
        [
            "https://id.example.com/realms/home/.well-known/openid-configuration",
            "https://id.example.com/.well-known/oauth-authorization-server/realms/home"
        ]
    );
}

/// A plugin with one read-only and one write tool, recording the principal of each call.
#[derive(Default)]
struct TwoTools(RefCell<Vec<(String, Option<String>)>>);

impl Tools for TwoTools {
    fn list(&self) -> Vec<crate::mcp::ToolRecord> {
        let tool = |name: &str, read_only: bool| crate::mcp::ToolRecord {
            name: name.into(),
            title: String::new(),
            description: String::new(),
            input_schema: r#"{"type":"object"}"#.into(),
            output_schema: r#"{"type":"object"}"#.into(),
            annotations: json!({"readOnlyHint": read_only}).to_string(),
        };
        vec![tool("read_search", true), tool("write_request", false)]
    }
    fn correlation_id(&self) -> String {
        "00000000-0000-4000-8000-000000000000".into()
    }
    fn call(
        &self,
        name: &str,
        _arguments: &str,
        _correlation_id: &str,
        principal: Option<String>,
    ) -> Result<crate::mcp::ToolOutcome, String> {
        self.0.borrow_mut().push((name.to_owned(), principal));
        Ok(crate::mcp::ToolOutcome {
            structured: r#"{"ok":true}"#.into(),
            text: r#"{"ok":true}"#.into(),
            is_error: false,
        })
    }
}

fn answer(access: Access, body: &Value, tools: &TwoTools) -> Response {
    let o = settings(&[]);
    let mut admitted = Admitted {
        identity: Identity::Default,
        format: crate::http::ReplyFormat::Json,
        body_cap: 1 << 20,
        event_stream: false,
        mcp: crate::era::McpHeaders::default(),
    };
    let grant = Grant {
        user: "alice".into(),
        access,
    };
    handle(
        &o,
        grant,
        body.to_string().as_bytes(),
        &mut admitted,
        tools,
        &[],
    )
}

fn listed(access: Access) -> Vec<String> {
    let r = answer(
        access,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        &TwoTools::default(),
    );
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    v["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_read_scope_lists_and_calls_read_only_tools_only() {
    assert_eq!(listed(Access::Read), ["read_search"]);
    assert_eq!(listed(Access::Write), ["read_search", "write_request"]);
    let call = |name: &str| {
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": name, "arguments": {}}})
    };
    let tools = TwoTools::default();
    let r = answer(Access::Read, &call("write_request"), &tools);
    assert_eq!(r.status, 403);
    assert!(www(&r).contains("insufficient_scope") && www(&r).contains("media:write"));
    assert!(tools.0.borrow().is_empty(), "nothing reached the plugin");
    let r = answer(Access::Read, &call("read_search"), &tools);
    assert_eq!(r.status, 200);
    let r = answer(Access::Write, &call("write_request"), &tools);
    assert_eq!(r.status, 200);
    assert_eq!(
        *tools.0.borrow(),
        [
            ("read_search".to_owned(), Some("alice".to_owned())),
            ("write_request".to_owned(), Some("alice".to_owned()))
        ]
    );
}

#[test]
fn token_refusals_of_modern_requests_use_the_modern_code() {
    let o = settings(&[]);
    let p = Provider::new(json!([]));
    let code = |version: &str| {
        let h = vec![(
            "mcp-protocol-version".to_owned(),
            version.as_bytes().to_vec(),
        )];
        let head = head_with("/mcp", &h);
        let r = crate::http::in_era(&head, authorize(&o, &head, &p, &NoCache, NOW).unwrap_err());
        assert_eq!(r.status, 401);
        assert!(r.headers.iter().any(|(n, _)| *n == "www-authenticate"));
        serde_json::from_slice::<Value>(&r.body).unwrap()["error"]["code"].clone()
    };
    assert_eq!(code("2025-11-25"), json!(crate::http::TRANSPORT_ERROR));
    assert_eq!(
        code("2026-07-28"),
        json!(media_mcp_wire::code::INVALID_REQUEST)
    );
}

const INTROSPECTING: [(&str, &str); 2] = [
    ("MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID", "media-mcp"),
    ("MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET", "s3cret"),
];

fn active(scope: &str, exp: u64) -> Value {
    json!({"active": true, "iss": ISSUER, "aud": [RESOURCE], "exp": exp,
           "preferred_username": "bob", "scope": scope, "client_id": "app"})
}

#[test]
fn opaque_tokens_are_introspected_with_the_client_credentials() {
    let o = settings(&INTROSPECTING);
    let p = Provider::new(json!([jwk(1, "k1")]));
    p.active
        .borrow_mut()
        .push(("opaque-read".into(), active("media:read", NOW + 300)));
    let g = run(&o, "opaque-read", &p, &NoCache, NOW).unwrap();
    assert_eq!(
        g,
        Grant {
            user: "bob".into(),
            access: Access::Read
        }
    );
    assert_eq!(
        p.asked(),
        [
            "https://id.example.com/oidc/.well-known/openid-configuration".to_owned(),
            format!("POST {INTROSPECTION}")
        ]
    );
    // A JWT is still verified with the keys, unless every token is introspected.
    let jwt = token(1, "k1", &claims("media:read"));
    assert_eq!(run(&o, &jwt, &p, &NoCache, NOW).unwrap().user, "alice");
    assert!(!p.asked().iter().skip(2).any(|u| u.starts_with("POST")));
    let always = settings(&[
        INTROSPECTING[0],
        INTROSPECTING[1],
        ("MEDIA_MCP_OAUTH_INTROSPECT", "always"),
    ]);
    let e = run(&always, &jwt, &p, &NoCache, NOW).unwrap_err();
    assert!(www(&e).ends_with("error=\"invalid_token\""), "{}", www(&e));
    assert!(p.asked().last().unwrap().starts_with("POST"));
}

#[test]
fn inactive_or_foreign_introspected_tokens_are_401_and_never_echoed() {
    let o = settings(&INTROSPECTING);
    let p = Provider::new(json!([]));
    let mut foreign = active("media:read", NOW + 300);
    foreign["aud"] = json!(["https://other.example.com/mcp"]);
    let mut expired = active("media:read", NOW - 61);
    expired["exp"] = json!(NOW - 61);
    let mut other_issuer = active("media:read", NOW + 300);
    other_issuer["iss"] = json!("https://evil.example.com");
    for (t, c) in [
        ("opaque-foreign", foreign),
        ("opaque-expired", expired),
        ("opaque-other-iss", other_issuer),
    ] {
        p.active.borrow_mut().push((t.into(), c));
    }
    for t in [
        "opaque-unknown",
        "opaque-foreign",
        "opaque-expired",
        "opaque-other-iss",
    ] {
        let e = run(&o, t, &p, &NoCache, NOW).unwrap_err();
        assert_eq!(e.status, 401, "{t}");
        assert!(www(&e).ends_with("error=\"invalid_token\""), "{t}");
        let body = String::from_utf8(e.body.clone()).unwrap();
        assert!(!body.contains(t) && !body.contains("s3cret"), "{body}");
    }
    let e = run(&o, "opaque-unknown", &p, &NoCache, NOW).unwrap_err();
    assert!(
        String::from_utf8_lossy(&e.body).contains("not active"),
        "{e:?}"
    );
}

#[test]
fn introspection_failures_are_503_without_the_secret() {
    let o = settings(&[
        ("MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID", "media-mcp"),
        (
            "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET",
            "wrong-secret",
        ),
    ]);
    let p = Provider::new(json!([]));
    let e = run(&o, "opaque-read", &p, &NoCache, NOW).unwrap_err();
    assert_eq!(e.status, 503);
    let body = String::from_utf8(e.body.clone()).unwrap();
    assert!(
        body.contains("HTTP 401") && !body.contains("wrong-secret"),
        "{body}"
    );
    assert!(!body.contains("opaque-read"));
}

#[test]
fn active_answers_are_cached_until_exp_and_at_most_a_minute() {
    let o = settings(&INTROSPECTING);
    let p = Provider::new(json!([]));
    p.active
        .borrow_mut()
        .push(("opaque-long".into(), active("media:write", NOW + 3600)));
    p.active
        .borrow_mut()
        .push(("opaque-short".into(), active("media:write", NOW + 10)));
    let cache = MemoryCache::default();
    let posts = || p.asked().iter().filter(|u| u.starts_with("POST")).count();
    run(&o, "opaque-long", &p, &cache, NOW).unwrap();
    run(&o, "opaque-long", &p, &cache, NOW + 59).unwrap();
    assert_eq!(posts(), 1, "kept for a minute");
    run(&o, "opaque-long", &p, &cache, NOW + 60).unwrap();
    assert_eq!(posts(), 2, "asked again after a minute");
    run(&o, "opaque-short", &p, &cache, NOW).unwrap();
    run(&o, "opaque-short", &p, &cache, NOW + 9).unwrap();
    assert_eq!(posts(), 3);
    // Past its exp (and the skew) the cached answer is not used: asked again, refused.
    assert!(run(&o, "opaque-short", &p, &cache, NOW + 71).is_err());
    assert_eq!(posts(), 4);
    // A revoked token stays accepted for at most the cached minute, never longer.
    p.active.borrow_mut().retain(|(t, _)| t != "opaque-long");
    assert!(run(&o, "opaque-long", &p, &cache, NOW + 100).is_ok());
    assert!(run(&o, "opaque-long", &p, &cache, NOW + 121).is_err());
    // Inactive answers are not kept, and no key holds a token.
    assert!(
        cache
            .0
            .borrow()
            .iter()
            .all(|(k, v)| !k.contains("opaque") && !v.contains("opaque"))
    );
}
