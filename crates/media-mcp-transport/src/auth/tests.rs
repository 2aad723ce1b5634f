use super::*;

const ALICE: &str = "alice-token-0123456789";
const BOB: &str = "bob-token-0123456789==";

/// What authentication is configured: a mode and, optionally, a proxy header.
struct Setup(AuthMode, Option<&'static str>);

fn settings(auth: AuthMode, user_header: Option<&'static str>) -> Setup {
    Setup(auth, user_header)
}

fn table() -> TokenTable {
    TokenTable::parse(&format!("alice={ALICE}, bob = {BOB}")).unwrap()
}

fn auth(s: &Setup, headers: &[(&str, &str)]) -> Result<Identity, Refused> {
    authenticate(&s.0, s.1, |name| {
        headers
            .iter()
            .filter(|(k, _)| *k == name)
            .map(|(_, v)| v.as_bytes())
            .collect()
    })
}

#[test]
fn tokens_map_to_their_users() {
    let t = table();
    assert_eq!(t.user_of(ALICE.as_bytes()), Some("alice"));
    assert_eq!(t.user_of(BOB.as_bytes()), Some("bob"));
    assert_eq!(t.user_of(b"alice-token-012345678"), None);
    assert_eq!(t.user_of(b""), None);
    assert_eq!(format!("{t:?}"), r#"["alice", "bob"]"#);
}

#[test]
fn table_errors() {
    assert_eq!(TokenTable::parse("alice"), Err(TokenError::Malformed(1)));
    assert_eq!(
        TokenTable::parse(&format!("alice={ALICE},=x")),
        Err(TokenError::Malformed(2))
    );
    assert_eq!(
        TokenTable::parse("alice=short"),
        Err(TokenError::Weak("alice".into()))
    );
    assert_eq!(
        TokenTable::parse("alice=has a space in the token"),
        Err(TokenError::Weak("alice".into()))
    );
    assert_eq!(
        TokenTable::parse(&format!("alice={ALICE},bob={ALICE}")),
        Err(TokenError::Duplicate("bob".into()))
    );
}

#[test]
fn bearer_header_parsing() {
    assert_eq!(bearer_token(b"Bearer abc"), Some(&b"abc"[..]));
    assert_eq!(bearer_token(b"bearer   abc  "), Some(&b"abc"[..]));
    assert_eq!(bearer_token(b"Bearerabc"), None);
    assert_eq!(bearer_token(b"Basic abc"), None);
    assert_eq!(bearer_token(b"Bearer "), None);
    assert_eq!(bearer_token(b"Bear"), None);
}

#[test]
fn token_mode_requires_a_valid_token() {
    let s = settings(AuthMode::Tokens(table()), None);
    let bearer = format!("Bearer {BOB}");
    assert_eq!(
        auth(&s, &[("authorization", &bearer)]),
        Ok(Identity::User("bob".into()))
    );
    assert!(auth(&s, &[]).is_err());
    assert!(auth(&s, &[("authorization", "Bearer wrong-token-0123456789")]).is_err());
    assert!(auth(&s, &[("authorization", ALICE)]).is_err());
}

#[test]
fn unconfigured_refuses_everything_with_how_to_configure() {
    let s = settings(AuthMode::Unconfigured, None);
    let e = auth(&s, &[("authorization", "Bearer anything-at-all-123")]).unwrap_err();
    assert!(e.message().contains("MEDIA_MCP_HTTP_TOKENS"), "{e:?}");
    assert!(e.message().contains("MEDIA_MCP_HTTP_AUTH=off"), "{e:?}");
}

#[test]
fn off_acts_as_the_default_user() {
    let s = settings(AuthMode::Off, None);
    assert_eq!(auth(&s, &[]), Ok(Identity::Default));
}

#[test]
fn proxy_header_names_the_user_and_is_required() {
    for mode in [AuthMode::Off, AuthMode::Unconfigured] {
        let s = settings(mode, Some("remote-user"));
        assert_eq!(
            auth(&s, &[("remote-user", " carol ")]),
            Ok(Identity::User("carol".into()))
        );
        assert!(auth(&s, &[]).is_err());
        assert!(auth(&s, &[("remote-user", "  ")]).is_err());
    }
    // A user token acts as its user; it cannot pick another with the header.
    let s = settings(AuthMode::Tokens(table()), Some("remote-user"));
    let bearer = format!("Bearer {ALICE}");
    assert_eq!(
        auth(&s, &[("authorization", &bearer)]),
        Ok(Identity::User("alice".into()))
    );
    assert_eq!(
        auth(&s, &[("authorization", &bearer), ("remote-user", "alice")]),
        Ok(Identity::User("alice".into()))
    );
    let e = auth(&s, &[("authorization", &bearer), ("remote-user", "carol")]).unwrap_err();
    assert_eq!(e.status(), 403, "{e:?}");
    assert!(e.message().contains("MEDIA_MCP_HTTP_PROXY_TOKENS"), "{e:?}");
    assert!(auth(&s, &[("remote-user", "carol")]).is_err());
}

const PROXY: &str = "proxy-token-0123456789";

fn with_proxy() -> Setup {
    let table = table()
        .with(&format!("authelia={PROXY}"), Role::Proxy)
        .unwrap();
    settings(AuthMode::Tokens(table), Some("remote-user"))
}

#[test]
fn a_proxy_token_passes_the_user_header_and_requires_it() {
    let s = with_proxy();
    let bearer = format!("Bearer {PROXY}");
    assert_eq!(
        auth(
            &s,
            &[("authorization", &bearer), ("remote-user", " carol ")]
        ),
        Ok(Identity::User("carol".into()))
    );
    let e = auth(&s, &[("authorization", &bearer)]).unwrap_err();
    assert_eq!(e.status(), 401, "{e:?}");
    assert_eq!(
        format!("{:?}", table_of(&s)),
        r#"["alice", "bob", "proxy authelia"]"#
    );
    assert_eq!(table_of(&s).user_of(PROXY.as_bytes()), None);
}

fn table_of(s: &Setup) -> &TokenTable {
    match &s.0 {
        AuthMode::Tokens(t) => t,
        _ => unreachable!(),
    }
}

#[test]
fn two_user_headers_or_a_list_in_one_are_400() {
    let bearer = format!("Bearer {PROXY}");
    for s in [with_proxy(), settings(AuthMode::Off, Some("remote-user"))] {
        for headers in [
            vec![("remote-user", "carol"), ("remote-user", "bob")],
            vec![("remote-user", "carol, bob")],
            vec![("remote-user", "caf\u{e9}")],
        ] {
            let mut headers = headers;
            headers.push(("authorization", &bearer));
            let e = auth(&s, &headers).unwrap_err();
            assert_eq!(e.status(), 400, "{headers:?}: {e:?}");
        }
    }
}

#[test]
fn two_authorization_headers_are_400() {
    let s = settings(AuthMode::Tokens(table()), None);
    let alice = format!("Bearer {ALICE}");
    let bob = format!("Bearer {BOB}");
    let e = auth(&s, &[("authorization", &alice), ("authorization", &bob)]).unwrap_err();
    assert_eq!(e.status(), 400, "{e:?}");
    assert!(!e.message().contains(ALICE) && !e.message().contains(BOB));
}

#[test]
fn token_users_are_checked_like_every_calls_user() {
    for (text, entry) in [
        (format!("caf\u{e9}={ALICE}"), 1),
        (format!("alice={ALICE},a\tb={BOB}"), 2),
        (
            format!("{}={ALICE}", "u".repeat(MAX_USER_NAME_CHARS + 1)),
            1,
        ),
    ] {
        match TokenTable::parse(&text) {
            Err(e @ TokenError::BadUser(n, _)) => {
                assert_eq!(n, entry, "{e}");
                assert!(!e.to_string().contains(ALICE), "{e}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    assert!(TokenTable::parse(&format!("Alice Smith={ALICE}")).is_ok());
}

#[test]
fn a_token_cannot_be_a_users_and_a_proxys() {
    assert_eq!(
        table().with(&format!("authelia={ALICE}"), Role::Proxy),
        Err(TokenError::Duplicate("authelia".into()))
    );
}
