//! Why the transport's configuration cannot be used: one variant per problem, each naming its
//! variable ([`ConfigError::variable`]); `Display` says it for people. No variant holds a token
//! or key.

use core::fmt;

use crate::auth::TokenError;
use crate::oauth::config::OAuthError;
use crate::prelude::*;
use media_mcp_wire::variables::{
    HTTP_ALLOWED_ORIGINS, HTTP_AUTH, HTTP_PATH, HTTP_PROXY_TOKENS, HTTP_TOKENS, HTTP_USER_HEADER,
};

/// A setting that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// `MEDIA_MCP_HTTP_PATH` is not a path, or has a query or fragment.
    Path,
    /// `MEDIA_MCP_HTTP_PATH` is this health probe's path (`/healthz`, `/readyz`).
    HealthPath(&'static str),
    /// `MEDIA_MCP_HTTP_TOKENS` cannot be read.
    Tokens(TokenError),
    /// `MEDIA_MCP_HTTP_PROXY_TOKENS` cannot be read.
    ProxyTokens(TokenError),
    /// `MEDIA_MCP_HTTP_AUTH` is none of its words.
    AuthMode,
    /// `MEDIA_MCP_HTTP_AUTH=oauth` with user or proxy tokens.
    OAuthWithTokens,
    /// `MEDIA_MCP_HTTP_AUTH=oauth` with a user header.
    OAuthWithUserHeader,
    /// `MEDIA_MCP_HTTP_AUTH=off` with tokens.
    OffWithTokens,
    /// `MEDIA_MCP_HTTP_USER_HEADER` is not a header name (or is `Authorization`).
    UserHeader,
    /// Proxy tokens without the header the proxy names the user in.
    ProxyTokensNeedUserHeader,
    /// A user header with user tokens only (which act as their own user).
    UserHeaderWithUserTokensOnly,
    /// An entry of `MEDIA_MCP_HTTP_ALLOWED_ORIGINS` is not an origin (the entry, lower-cased).
    AllowedOrigin(String),
    /// An upstream key variable holds a key shorter than `min` characters, too short to be
    /// removed from results.
    ShortKey {
        /// The key's variable.
        variable: &'static str,
        /// The fewest characters a key may have.
        min: usize,
    },
    /// An OAuth setting cannot be used.
    OAuth(OAuthError),
}

impl ConfigError {
    /// The variable the problem is about (the first of two that conflict).
    pub fn variable(&self) -> &'static str {
        match self {
            ConfigError::Path | ConfigError::HealthPath(_) => HTTP_PATH.name,
            ConfigError::Tokens(_) => HTTP_TOKENS.name,
            ConfigError::ProxyTokens(_) | ConfigError::ProxyTokensNeedUserHeader => {
                HTTP_PROXY_TOKENS.name
            }
            ConfigError::AuthMode
            | ConfigError::OAuthWithTokens
            | ConfigError::OAuthWithUserHeader
            | ConfigError::OffWithTokens => HTTP_AUTH.name,
            ConfigError::UserHeader | ConfigError::UserHeaderWithUserTokensOnly => {
                HTTP_USER_HEADER.name
            }
            ConfigError::AllowedOrigin(_) => HTTP_ALLOWED_ORIGINS.name,
            ConfigError::ShortKey { variable, .. } => variable,
            ConfigError::OAuth(e) => e.variable(),
        }
    }
}

impl From<OAuthError> for ConfigError {
    fn from(e: OAuthError) -> Self {
        ConfigError::OAuth(e)
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Path => write!(
                f,
                "{} must be a path starting with '/', without query or fragment",
                HTTP_PATH.name
            ),
            ConfigError::HealthPath(path) => write!(
                f,
                "{} must not be {path}: that path answers health probes",
                HTTP_PATH.name
            ),
            ConfigError::Tokens(e) => write!(f, "{}: {e}", HTTP_TOKENS.name),
            ConfigError::ProxyTokens(e) => write!(f, "{}: {e}", HTTP_PROXY_TOKENS.name),
            ConfigError::AuthMode => {
                write!(f, "{} must be `off`, `tokens` or `oauth`", HTTP_AUTH.name)
            }
            ConfigError::OAuthWithTokens => write!(
                f,
                "{}=oauth and {} or _PROXY_TOKENS are both set: a server answering OAuth \
                 discovery is used with OAuth only, unset one",
                HTTP_AUTH.name, HTTP_TOKENS.name
            ),
            ConfigError::OAuthWithUserHeader => write!(
                f,
                "{}=oauth and {} are both set: the token names the user, unset {}",
                HTTP_AUTH.name, HTTP_USER_HEADER.name, HTTP_USER_HEADER.name
            ),
            ConfigError::OffWithTokens => write!(
                f,
                "{}=off and {} are both set: unset one",
                HTTP_AUTH.name, HTTP_TOKENS.name
            ),
            ConfigError::UserHeader => write!(
                f,
                "{} must be a header name such as Remote-User",
                HTTP_USER_HEADER.name
            ),
            ConfigError::ProxyTokensNeedUserHeader => write!(
                f,
                "{} needs {}: the header the proxy names the user in",
                HTTP_PROXY_TOKENS.name, HTTP_USER_HEADER.name
            ),
            ConfigError::UserHeaderWithUserTokensOnly => write!(
                f,
                "{} is set with {} only: each of those tokens acts as its own user; put the \
                 authenticating proxy's token in {}",
                HTTP_USER_HEADER.name, HTTP_TOKENS.name, HTTP_PROXY_TOKENS.name
            ),
            ConfigError::AllowedOrigin(origin) => write!(
                f,
                "{}: {origin:?} is not an origin like https://chat.example.com",
                HTTP_ALLOWED_ORIGINS.name
            ),
            ConfigError::ShortKey { variable, min } => write!(
                f,
                "{variable} is shorter than {min} characters: such a key \
                 could not be removed from results without mangling ordinary text"
            ),
            ConfigError::OAuth(e) => e.fmt(f),
        }
    }
}
