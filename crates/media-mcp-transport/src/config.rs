//! The transport's configuration, read from the environment (the variables are listed on
//! [`Settings::from_lookup`]). Invalid values are errors naming the variable; token values never
//! appear in an error or in `Debug` output.

use core::fmt;

use crate::auth::{AuthMode, Role, TokenTable};
use crate::oauth::OAuthSettings;
use crate::prelude::*;
use media_mcp_wire::variables::{
    HTTP_ALLOWED_ORIGINS, HTTP_AUTH, HTTP_PATH, HTTP_PROXY_TOKENS, HTTP_TOKENS, HTTP_USER_HEADER,
    MOVIEPILOT_API_KEY, OMBI_API_KEY, SEERR_API_KEY,
};

mod error;

pub use error::ConfigError;

/// Path MCP is served on when `MEDIA_MCP_HTTP_PATH` is unset.
pub const DEFAULT_PATH: &str = "/mcp";

/// The health probes' paths ([`crate::health`]), which the MCP path may not take: liveness,
/// then readiness.
pub const HEALTH_PATHS: [&str; 2] = ["/healthz", "/readyz"];

/// Request bodies larger than this are refused with 413 before they are read in full.
pub const MAX_BODY_BYTES: usize = 4 << 20;

pub use media_mcp_wire::upstreams::MIN_KEY_CHARS;

/// The variables holding upstream API keys, redacted from every result when the plugin holds
/// them (a host that cannot inject headers passes them through the environment).
pub const SECRET_VARIABLES: &[&str] = &[
    OMBI_API_KEY.name,
    SEERR_API_KEY.name,
    MOVIEPILOT_API_KEY.name,
];

/// Everything the transport reads from its environment.
#[derive(Clone, PartialEq, Eq)]
pub struct Settings {
    /// The path MCP answers on (`/mcp`); other paths are 404.
    pub path: String,
    /// How requests are authenticated.
    pub auth: AuthMode,
    /// A header an authenticating proxy sets to the user's name (`Remote-User`), lower-case;
    /// `None` (the default) ignores such headers.
    pub user_header: Option<String>,
    /// Browser origins allowed besides loopback ones, as `scheme://host[:port]`, lower-case.
    pub allowed_origins: Vec<String>,
    /// Upstream API keys found in the environment, replaced in results.
    pub secrets: Vec<String>,
}

impl fmt::Debug for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settings")
            .field("path", &self.path)
            .field("auth", &self.auth)
            .field("user_header", &self.user_header)
            .field("allowed_origins", &self.allowed_origins)
            .field("secrets", &format_args!("{} hidden", self.secrets.len()))
            .finish()
    }
}

impl Settings {
    /// Reads the configuration through `lookup` (the environment):
    ///
    /// | variable | meaning |
    /// |---|---|
    /// | `MEDIA_MCP_HTTP_PATH` | the MCP path (default `/mcp`) |
    /// | `MEDIA_MCP_HTTP_TOKENS` | `user=token,...`: each bearer token acts as that upstream user |
    /// | `MEDIA_MCP_HTTP_PROXY_TOKENS` | `label=token,...`: tokens of authenticating proxies, which name the user in the user header |
    /// | `MEDIA_MCP_HTTP_AUTH` | `off` accepts requests without a token, `oauth` takes access tokens of an identity provider ([`OAuthSettings::from_lookup`]) (default: tokens) |
    /// | `MEDIA_MCP_HTTP_USER_HEADER` | a header set by a trusted proxy naming the user (off) |
    /// | `MEDIA_MCP_HTTP_ALLOWED_ORIGINS` | `scheme://host[:port],...` browser origins allowed besides loopback |
    ///
    /// # Errors
    ///
    /// A value that cannot be used, naming its variable.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Settings, ConfigError> {
        let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        let path = get(HTTP_PATH.name).unwrap_or_else(|| DEFAULT_PATH.to_owned());
        if !path.starts_with('/') || path.contains(['?', '#', ' ']) {
            return Err(ConfigError::Path);
        }
        if let Some(probe) = HEALTH_PATHS.iter().find(|p| **p == path) {
            return Err(ConfigError::HealthPath(probe));
        }
        let users = get(HTTP_TOKENS.name);
        let proxies = get(HTTP_PROXY_TOKENS.name);
        let tokens = match (&users, &proxies) {
            (None, None) => None,
            _ => {
                let table = match &users {
                    Some(text) => TokenTable::parse(text).map_err(ConfigError::Tokens)?,
                    None => TokenTable::empty(),
                };
                Some(match &proxies {
                    Some(text) => table
                        .with(text, Role::Proxy)
                        .map_err(ConfigError::ProxyTokens)?,
                    None => table,
                })
            }
        };
        let mut oauth = None;
        let off = match get(HTTP_AUTH.name).as_deref().map(str::trim) {
            None | Some("token" | "tokens") => false,
            Some("off") => true,
            Some("oauth") => {
                if tokens.is_some() {
                    return Err(ConfigError::OAuthWithTokens);
                }
                if get(HTTP_USER_HEADER.name).is_some() {
                    return Err(ConfigError::OAuthWithUserHeader);
                }
                oauth = Some(OAuthSettings::from_lookup(get)?);
                false
            }
            Some(_) => {
                return Err(ConfigError::AuthMode);
            }
        };
        let auth = match (tokens, off) {
            (None, false) if let Some(o) = oauth => AuthMode::OAuth(alloc::boxed::Box::new(o)),
            (Some(_), true) => {
                return Err(ConfigError::OffWithTokens);
            }
            (Some(table), false) => AuthMode::Tokens(table),
            (None, true) => AuthMode::Off,
            (None, false) => AuthMode::Unconfigured,
        };
        let user_header = match get(HTTP_USER_HEADER.name) {
            None => None,
            Some(name) => {
                let name = name.trim().to_ascii_lowercase();
                if !name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                    || name == "authorization"
                {
                    return Err(ConfigError::UserHeader);
                }
                Some(name)
            }
        };
        match (&user_header, users.is_some(), proxies.is_some()) {
            (None, _, true) => {
                return Err(ConfigError::ProxyTokensNeedUserHeader);
            }
            (Some(_), true, false) => {
                return Err(ConfigError::UserHeaderWithUserTokensOnly);
            }
            _ => {}
        }
        let mut allowed_origins = Vec::new();
        for origin in get(HTTP_ALLOWED_ORIGINS.name)
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|o| !o.is_empty())
        {
            let origin = origin.trim_end_matches('/').to_ascii_lowercase();
            let valid = origin.split_once("://").is_some_and(|(scheme, rest)| {
                matches!(scheme, "http" | "https") && !rest.is_empty() && !rest.contains('/')
            });
            if !valid {
                return Err(ConfigError::AllowedOrigin(origin));
            }
            allowed_origins.push(origin);
        }
        let mut secrets = Vec::new();
        for name in SECRET_VARIABLES {
            let Some(key) = lookup(name).map(|v| v.trim().to_owned()) else {
                continue;
            };
            if key.is_empty() {
                continue;
            }
            if key.chars().count() < MIN_KEY_CHARS {
                return Err(ConfigError::ShortKey {
                    variable: name,
                    min: MIN_KEY_CHARS,
                });
            }
            secrets.push(key);
        }
        Ok(Settings {
            path,
            auth,
            user_header,
            allowed_origins,
            secrets,
        })
    }
}

#[cfg(test)]
mod tests;
