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

/// User names longer than this are refused (the plugin refuses them on every call: they
/// travel as the `UserName` header).
pub use media_mcp_wire::user::MAX_USER_NAME_CHARS;
use media_mcp_wire::user::check_user_name;
use media_mcp_wire::variables::{HTTP_AUTH, HTTP_PROXY_TOKENS, HTTP_TOKENS};

/// What a configured token is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `MEDIA_MCP_HTTP_TOKENS`: the token acts as its own user, whatever the request says.
    User,
    /// `MEDIA_MCP_HTTP_PROXY_TOKENS`: the token is an authenticating proxy's, and the user is
    /// the one its user header names.
    Proxy,
}

/// The holder of a presented token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bearer<'t> {
    /// A user token, acting as this user.
    User(&'t str),
    /// A proxy token, labelled so.
    Proxy(&'t str),
}

/// The configured tokens, as `(name, sha256(token), role)`: the name is the user a user token
/// acts as, or a proxy token's label. `Debug` shows only the names.
#[derive(Clone, PartialEq, Eq)]
pub struct TokenTable {
    entries: Vec<(String, [u8; 32], Role)>,
}

impl fmt::Debug for TokenTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|(name, _, role)| match role {
                Role::User => name.clone(),
                Role::Proxy => format!("proxy {name}"),
            }))
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
    /// This user name cannot be sent upstream (the reason says why).
    BadUser(usize, &'static str),
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
            TokenError::BadUser(n, why) => write!(f, "the user of entry {n} {why}"),
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
    /// User names are checked by the rule every call applies to the user it acts as.
    ///
    /// # Errors
    ///
    /// A malformed entry, a user name that cannot be sent, a weak token or a token given twice.
    pub fn parse(text: &str) -> Result<TokenTable, TokenError> {
        TokenTable::empty().with(text, Role::User)
    }

    /// A table without tokens.
    pub fn empty() -> TokenTable {
        TokenTable {
            entries: Vec::new(),
        }
    }

    /// This table plus the `label=token,...` entries of `text` in `role`.
    ///
    /// # Errors
    ///
    /// As [`TokenTable::parse`]; a token may not be both a user's and a proxy's.
    pub fn with(mut self, text: &str, role: Role) -> Result<TokenTable, TokenError> {
        let entries = &mut self.entries;
        for (i, entry) in text.split(',').enumerate() {
            let Some((user, token)) = entry.split_once('=') else {
                return Err(TokenError::Malformed(i + 1));
            };
            let (user, token) = (user.trim(), token.trim());
            if user.is_empty() {
                return Err(TokenError::Malformed(i + 1));
            }
            check_user_name(user).map_err(|e| TokenError::BadUser(i + 1, e.why()))?;
            if token.chars().count() < MIN_TOKEN_CHARS || token.contains(char::is_whitespace) {
                return Err(TokenError::Weak(user.to_owned()));
            }
            let hash = digest(token.as_bytes());
            if entries.iter().any(|(_, h, _)| *h == hash) {
                return Err(TokenError::Duplicate(user.to_owned()));
            }
            entries.push((user.to_owned(), hash, role));
        }
        Ok(self)
    }

    /// Who holds `token`, if it is a configured token.
    pub fn bearer(&self, token: &[u8]) -> Option<Bearer<'_>> {
        let presented = digest(token);
        let mut found = None;
        for (name, hash, role) in &self.entries {
            if same_digest(&presented, hash) {
                found = Some(match role {
                    Role::User => Bearer::User(name.as_str()),
                    Role::Proxy => Bearer::Proxy(name.as_str()),
                });
            }
        }
        found
    }

    /// The user `token` acts as, if it is a configured user token.
    pub fn user_of(&self, token: &[u8]) -> Option<&str> {
        match self.bearer(token)? {
            Bearer::User(user) => Some(user),
            Bearer::Proxy(_) => None,
        }
    }

    /// Whether some token is a proxy's.
    pub fn has_proxies(&self) -> bool {
        self.entries.iter().any(|(_, _, role)| *role == Role::Proxy)
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

/// Why a request is refused before it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// 401: no valid credential.
    Unauthorized(Unauthorized),
    /// 403: a valid credential asking for what it may not (a user token naming another user).
    Forbidden(&'static str),
    /// 400: headers that cannot be read one way only (two `Authorization` headers, two user
    /// headers, a list in one).
    BadRequest(&'static str),
}

impl Refused {
    /// The HTTP status of the refusal.
    pub fn status(&self) -> u16 {
        match self {
            Refused::Unauthorized(_) => 401,
            Refused::Forbidden(_) => 403,
            Refused::BadRequest(_) => 400,
        }
    }

    /// The message, safe to send to the client.
    pub fn message(&self) -> &'static str {
        match self {
            Refused::Unauthorized(Unauthorized(m))
            | Refused::Forbidden(m)
            | Refused::BadRequest(m) => m,
        }
    }
}

/// Why a request is refused when no token is configured and no proxy names the user.
const NO_TOKEN_CONFIGURED: &str = const_format::concatcp!(
    "no access token is configured: set ",
    HTTP_TOKENS.name,
    "=user=token,... (each token acts as that Ombi user), or ",
    HTTP_AUTH.name,
    "=off for loopback or behind an authenticating proxy"
);

/// Why a user's own token may not name another user.
const USER_TOKEN_NAMES_ANOTHER: &str = const_format::concatcp!(
    "this token acts as its own user and cannot name another; only a proxy token (",
    HTTP_PROXY_TOKENS.name,
    ") may pass the user header"
);

/// Authenticates a request from its `Authorization` header and, when `user_header` (a
/// trusted proxy's header, lower-case) is configured, that header. `headers` gives every value
/// of a header by lower-case name, in order.
///
/// A user token acts as its own user: a user header naming someone else is 403. A proxy token
/// (and, with authentication off, any request) acts as the user its user header names, which
/// is required. A header given twice, or a user header holding a list, is 400: a proxy that
/// appends rather than replaces would otherwise let the client choose.
///
/// # Errors
///
/// No valid token, no user header where one is required, ambiguous headers, or no
/// authentication configured.
pub fn authenticate<'h>(
    mode: &AuthMode,
    user_header: Option<&str>,
    headers: impl Fn(&str) -> Vec<&'h [u8]>,
) -> Result<Identity, Refused> {
    let unauthorized = |m| Refused::Unauthorized(Unauthorized(m));
    let bearer = match mode {
        AuthMode::Unconfigured if user_header.is_none() => {
            return Err(unauthorized(NO_TOKEN_CONFIGURED));
        }
        AuthMode::Unconfigured | AuthMode::Off | AuthMode::OAuth(_) => None,
        AuthMode::Tokens(table) => {
            let token = match headers("authorization").as_slice() {
                [] => None,
                [one] => bearer_token(one),
                _ => {
                    return Err(Refused::BadRequest("two Authorization headers: send one"));
                }
            }
            .ok_or(unauthorized("a bearer token is required"))?;
            Some(
                table
                    .bearer(token)
                    .ok_or(unauthorized("the bearer token is not valid"))?,
            )
        }
    };
    let named = match user_header {
        None => None,
        Some(name) => match headers(name).as_slice() {
            [] => None,
            [one] => {
                let user = core::str::from_utf8(one)
                    .map(str::trim)
                    .map_err(|_| Refused::BadRequest("the user header is not ASCII"))?;
                if user.contains(',') {
                    return Err(Refused::BadRequest(
                        "the user header holds a list: it must name one user",
                    ));
                }
                if check_user_name(user).is_err() {
                    return Err(Refused::BadRequest(
                        "the user header does not name a user that can be sent upstream",
                    ));
                }
                Some(user)
            }
            _ => {
                return Err(Refused::BadRequest(
                    "the user header is given more than once: it must name one user",
                ));
            }
        },
    };
    match (bearer, named) {
        (Some(Bearer::User(user)), None) => Ok(Identity::User(user.to_owned())),
        (Some(Bearer::User(user)), Some(named)) if named == user => {
            Ok(Identity::User(user.to_owned()))
        }
        (Some(Bearer::User(_)), Some(_)) => Err(Refused::Forbidden(USER_TOKEN_NAMES_ANOTHER)),
        (Some(Bearer::Proxy(_)) | None, Some(named)) => Ok(Identity::User(named.to_owned())),
        (Some(Bearer::Proxy(_)), None) => Err(unauthorized(
            "the request did not come through the authenticating proxy",
        )),
        (None, None) if user_header.is_some() => Err(unauthorized(
            "the request did not come through the authenticating proxy",
        )),
        (None, None) => Ok(Identity::Default),
    }
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
mod tests;
