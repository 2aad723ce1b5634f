//! Bearer tokens mapped to upstream users, and who a request acts as.
//!
//! Only SHA-256 digests of the tokens are kept. A presented token is hashed and compared with
//! every configured digest in constant time, with no early exit, so neither the position of a
//! matching token nor the length of any token shows in the time taken.

use core::fmt;

use sha2::{Digest, Sha256};

use crate::prelude::*;

/// Tokens shorter than this are refused at start-up: a guessable token is no authentication.
pub const MIN_TOKEN_CHARS: usize = 16;

/// The configured tokens, as `(user, sha256(token))`. `Debug` shows only the users.
#[derive(Clone, PartialEq, Eq)]
pub struct TokenTable {
    entries: Vec<(String, [u8; 32])>,
}

impl fmt::Debug for TokenTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|(user, _)| user))
            .finish()
    }
}

/// Why `MEDIA_MCP_HTTP_TOKENS` cannot be used; never contains a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenError {
    /// An entry without `=`, or with an empty user (entries are numbered from 1).
    Malformed(usize),
    /// The token of this user is shorter than [`MIN_TOKEN_CHARS`] or contains white space.
    Weak(String),
    /// Two entries share one token.
    Duplicate(String),
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenError::Malformed(n) => write!(
                f,
                "entry {n} is not `user=token` (entries are separated by commas)"
            ),
            TokenError::Weak(user) => write!(
                f,
                "the token of {user:?} must be at least {MIN_TOKEN_CHARS} characters without spaces"
            ),
            TokenError::Duplicate(user) => {
                write!(f, "the token of {user:?} is also given to another user")
            }
        }
    }
}

fn digest(token: &[u8]) -> [u8; 32] {
    Sha256::digest(token).into()
}

/// Compares two digests in constant time.
fn same_digest(a: &[u8; 32], b: &[u8; 32]) -> bool {
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    core::hint::black_box(diff) == 0
}

impl TokenTable {
    /// Parses `user=token,user=token`. A user may hold several tokens; a token may contain `=`.
    ///
    /// # Errors
    ///
    /// A malformed entry, a weak token or a token given twice.
    pub fn parse(text: &str) -> Result<TokenTable, TokenError> {
        let mut entries: Vec<(String, [u8; 32])> = Vec::new();
        for (i, entry) in text.split(',').enumerate() {
            let Some((user, token)) = entry.split_once('=') else {
                return Err(TokenError::Malformed(i + 1));
            };
            let (user, token) = (user.trim(), token.trim());
            if user.is_empty() {
                return Err(TokenError::Malformed(i + 1));
            }
            if token.chars().count() < MIN_TOKEN_CHARS || token.contains(char::is_whitespace) {
                return Err(TokenError::Weak(user.to_owned()));
            }
            let hash = digest(token.as_bytes());
            if entries.iter().any(|(_, h)| *h == hash) {
                return Err(TokenError::Duplicate(user.to_owned()));
            }
            entries.push((user.to_owned(), hash));
        }
        Ok(TokenTable { entries })
    }

    /// The user `token` acts as, if it is a configured token.
    pub fn user_of(&self, token: &[u8]) -> Option<&str> {
        let presented = digest(token);
        let mut found = None;
        for (user, hash) in &self.entries {
            if same_digest(&presented, hash) {
                found = Some(user.as_str());
            }
        }
        found
    }
}

/// How requests are authenticated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthMode {
    /// Bearer tokens, each acting as one upstream user.
    Tokens(TokenTable),
    /// No bearer token is checked: `MEDIA_MCP_HTTP_AUTH=off` (loopback only, or behind an
    /// authenticating proxy that sets the user header).
    Off,
    /// Neither tokens nor `off`: every request is refused with a message saying how to
    /// configure authentication.
    Unconfigured,
    /// OAuth access tokens (`MEDIA_MCP_HTTP_AUTH=oauth`), checked by [`crate::oauth::authorize`]
    /// after the request is admitted: [`authenticate`] lets it through as [`Identity::Default`]
    /// and the glue replaces that with the token's user.
    OAuth(alloc::boxed::Box<crate::oauth::OAuthSettings>),
}

/// The outcome of authenticating one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    /// Acts as this upstream user.
    User(String),
    /// Acts as the plugin's configured default user (authentication is off).
    Default,
}

/// Why a request is not authenticated; the message is safe to send to the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unauthorized(pub &'static str);

/// Authenticates a request from its `Authorization` header and, when `user_header` (a
/// trusted proxy's header, lower-case) is configured, that header (`header` looks a header up
/// by lower-case name).
///
/// # Errors
///
/// No valid token, no user header where one is required, or no authentication configured.
pub fn authenticate<'h>(
    mode: &AuthMode,
    user_header: Option<&str>,
    header: impl Fn(&str) -> Option<&'h [u8]>,
) -> Result<Identity, Unauthorized> {
    let from_token = match mode {
        AuthMode::Unconfigured if user_header.is_none() => {
            return Err(Unauthorized(
                "no access token is configured: set MEDIA_MCP_HTTP_TOKENS=user=token,... \
                 (each token acts as that Ombi user), or MEDIA_MCP_HTTP_AUTH=off for loopback \
                 or behind an authenticating proxy",
            ));
        }
        AuthMode::Unconfigured | AuthMode::Off | AuthMode::OAuth(_) => None,
        AuthMode::Tokens(table) => {
            let token = header("authorization")
                .and_then(bearer_token)
                .ok_or(Unauthorized("a bearer token is required"))?;
            let user = table
                .user_of(token)
                .ok_or(Unauthorized("the bearer token is not valid"))?;
            Some(user.to_owned())
        }
    };
    if let Some(name) = user_header {
        let user = header(name)
            .and_then(|v| core::str::from_utf8(v).ok())
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .ok_or(Unauthorized(
                "the request did not come through the authenticating proxy",
            ))?;
        return Ok(Identity::User(user.to_owned()));
    }
    Ok(from_token.map_or(Identity::Default, Identity::User))
}

/// The token of an `Authorization: Bearer <token>` value (scheme case-insensitive).
fn bearer_token(value: &[u8]) -> Option<&[u8]> {
    let value = value.trim_ascii();
    let (scheme, rest) = value.split_at_checked(6)?;
    if !scheme.eq_ignore_ascii_case(b"bearer") || !rest.first()?.is_ascii_whitespace() {
        return None;
    }
    let token = rest.trim_ascii();
    (!token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
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

    fn auth(s: &Setup, headers: &[(&str, &str)]) -> Result<Identity, Unauthorized> {
        authenticate(&s.0, s.1, |name| {
            headers
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.as_bytes())
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
        assert!(e.0.contains("MEDIA_MCP_HTTP_TOKENS"), "{e:?}");
        assert!(e.0.contains("MEDIA_MCP_HTTP_AUTH=off"), "{e:?}");
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
        // With tokens too, the token authenticates the proxy and the header names the user.
        let s = settings(AuthMode::Tokens(table()), Some("remote-user"));
        let bearer = format!("Bearer {ALICE}");
        assert_eq!(
            auth(&s, &[("authorization", &bearer), ("remote-user", "carol")]),
            Ok(Identity::User("carol".into()))
        );
        assert!(auth(&s, &[("remote-user", "carol")]).is_err());
    }
}
