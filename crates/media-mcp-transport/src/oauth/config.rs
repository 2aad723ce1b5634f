//! The OAuth settings (`MEDIA_MCP_HTTP_AUTH=oauth`), read from the environment. A missing or
//! unusable value is an error naming its variable; the introspection secret never appears in
//! an error or in `Debug` output.

use core::fmt;

use crate::prelude::*;
use media_mcp_wire::variables::{
    HTTP_AUTH, OAUTH_AUDIENCES, OAUTH_INTROSPECT, OAUTH_INTROSPECTION_CLIENT_ID,
    OAUTH_INTROSPECTION_CLIENT_SECRET, OAUTH_INTROSPECTION_URI, OAUTH_ISSUER, OAUTH_JWKS,
    OAUTH_JWKS_URI, OAUTH_READ_SCOPE, OAUTH_RESOURCE, OAUTH_USER_CLAIM, OAUTH_USER_MAP,
    OAUTH_WRITE_SCOPE,
};

/// Scope that lists and calls the read-only tools, when `MEDIA_MCP_OAUTH_READ_SCOPE` is unset.
pub const DEFAULT_READ_SCOPE: &str = "media:read";
/// Scope that adds every other tool, when `MEDIA_MCP_OAUTH_WRITE_SCOPE` is unset.
pub const DEFAULT_WRITE_SCOPE: &str = "media:write";
/// The claim naming the Ombi user, when `MEDIA_MCP_OAUTH_USER_CLAIM` is unset.
pub const DEFAULT_USER_CLAIM: &str = "preferred_username";

/// How access tokens are validated and what they grant.
#[derive(Clone, PartialEq, Eq)]
pub struct OAuthSettings {
    /// The authorization server's issuer identifier, exactly as tokens carry it in `iss`.
    pub issuer: String,
    /// The canonical URI of this MCP server (`https://media.example.com/mcp`).
    pub resource: String,
    /// Accepted `aud` values: the resource first, then `MEDIA_MCP_OAUTH_AUDIENCES`.
    pub audiences: Vec<String>,
    /// The claim whose value names the Ombi user.
    pub user_claim: String,
    /// Claim value → Ombi user; when set, an unlisted value is refused.
    pub user_map: Option<Vec<(String, String)>>,
    /// The scope of the read-only tools.
    pub read_scope: String,
    /// The scope of every tool.
    pub write_scope: String,
    /// Where the keys are, when not discovered from the issuer's metadata.
    pub jwks_uri: Option<String>,
    /// A JWKS given inline (`MEDIA_MCP_OAUTH_JWKS`): no key is ever fetched.
    pub inline_jwks: Option<String>,
    /// Token introspection (RFC 7662), when its client credentials are set.
    pub introspection: Option<Introspection>,
}

/// How opaque tokens are introspected.
#[derive(Clone, PartialEq, Eq)]
pub struct Introspection {
    /// `MEDIA_MCP_OAUTH_INTROSPECTION_URI`; else the issuer's `introspection_endpoint`.
    pub endpoint: Option<String>,
    /// This server's client id at the identity provider.
    pub client_id: String,
    /// Its client secret: never shown (`Debug` hides it).
    pub client_secret: String,
    /// Every token is introspected, JWTs too (`MEDIA_MCP_OAUTH_INTROSPECT=always`).
    pub always: bool,
}

impl fmt::Debug for Introspection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Introspection")
            .field("endpoint", &self.endpoint)
            .field("client_id", &self.client_id)
            .field("client_secret", &"[hidden]")
            .field("always", &self.always)
            .finish()
    }
}

fn introspection(
    get: &impl Fn(&str) -> Option<String>,
) -> Result<Option<Introspection>, OAuthError> {
    let endpoint = get(OAUTH_INTROSPECTION_URI.name)
        .map(|u| url_setting(OAUTH_INTROSPECTION_URI.name, &u))
        .transpose()?;
    let always = match get(OAUTH_INTROSPECT.name).as_deref().map(str::trim) {
        None | Some("opaque") => false,
        Some("always") => true,
        Some(_) => return Err(OAuthError::IntrospectMode),
    };
    let id = get(INTROSPECTION_ID)
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty());
    let secret = get(INTROSPECTION_SECRET).filter(|v| !v.trim().is_empty());
    match (id, secret) {
        (Some(client_id), Some(client_secret)) => Ok(Some(Introspection {
            endpoint,
            client_id,
            client_secret,
            always,
        })),
        (None, None) if endpoint.is_none() && !always => Ok(None),
        (Some(_), None) => Err(OAuthError::IntrospectionSecretMissing),
        _ => Err(OAuthError::IntrospectionClientMissing),
    }
}

impl fmt::Debug for OAuthSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthSettings")
            .field("issuer", &self.issuer)
            .field("resource", &self.resource)
            .field("audiences", &self.audiences)
            .field("user_claim", &self.user_claim)
            .field("user_map", &self.user_map)
            .field("read_scope", &self.read_scope)
            .field("write_scope", &self.write_scope)
            .field("jwks_uri", &self.jwks_uri)
            .field("inline_jwks", &self.inline_jwks.is_some())
            .field("introspection", &self.introspection)
            .finish()
    }
}

/// An OAuth setting that cannot be used: each variant names its variable ([`OAuthError::variable`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OAuthError {
    /// A required variable is unset.
    Missing(&'static str),
    /// Not an https:// URL (http:// only on a loopback host), or one with a fragment.
    NotUrl(&'static str),
    /// `MEDIA_MCP_OAUTH_RESOURCE` has a query.
    ResourceQuery,
    /// Entry `n` (from 1) of `MEDIA_MCP_OAUTH_USER_MAP` is not `claim-value=ombi-user`.
    UserMapEntry(usize),
    /// Not one scope name.
    NotScope(&'static str),
    /// The read and the write scope are the same.
    SameScopes,
    /// `MEDIA_MCP_OAUTH_JWKS` is not a key set with a usable signing key.
    Jwks,
    /// `MEDIA_MCP_OAUTH_INTROSPECT` is neither `opaque` nor `always`.
    IntrospectMode,
    /// The introspection client id is set without its secret.
    IntrospectionSecretMissing,
    /// Introspection is asked for without its client id and secret.
    IntrospectionClientMissing,
}

const INTROSPECTION_ID: &str = OAUTH_INTROSPECTION_CLIENT_ID.name;
const INTROSPECTION_SECRET: &str = OAUTH_INTROSPECTION_CLIENT_SECRET.name;

impl OAuthError {
    /// The variable the problem is about (the first of two).
    pub fn variable(&self) -> &'static str {
        match self {
            OAuthError::Missing(name) | OAuthError::NotUrl(name) | OAuthError::NotScope(name) => {
                name
            }
            OAuthError::ResourceQuery => OAUTH_RESOURCE.name,
            OAuthError::UserMapEntry(_) => OAUTH_USER_MAP.name,
            OAuthError::SameScopes => OAUTH_READ_SCOPE.name,
            OAuthError::Jwks => OAUTH_JWKS.name,
            OAuthError::IntrospectMode => OAUTH_INTROSPECT.name,
            OAuthError::IntrospectionSecretMissing => INTROSPECTION_SECRET,
            OAuthError::IntrospectionClientMissing => INTROSPECTION_ID,
        }
    }
}

impl fmt::Display for OAuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OAuthError::Missing(name) => write!(
                f,
                "{}=oauth needs {name} (setup: see docs/guide/oauth.md)",
                HTTP_AUTH.name
            ),
            OAuthError::NotUrl(name) => write!(
                f,
                "{name} must be an https:// URL (http:// only on a loopback host), without fragment"
            ),
            OAuthError::ResourceQuery => {
                write!(f, "{} must not have a query", OAUTH_RESOURCE.name)
            }
            OAuthError::UserMapEntry(n) => write!(
                f,
                "{}: entry {n} is not `claim-value=ombi-user`",
                OAUTH_USER_MAP.name
            ),
            OAuthError::NotScope(name) => {
                write!(f, "{name} must be one scope name, without spaces or quotes")
            }
            OAuthError::SameScopes => write!(
                f,
                "{} and {} must differ",
                OAUTH_READ_SCOPE.name, OAUTH_WRITE_SCOPE.name
            ),
            OAuthError::Jwks => write!(
                f,
                "{} must be a JWKS ({{\"keys\": [...]}}) with at least one RSA, P-256 or \
                 Ed25519 signing key",
                OAUTH_JWKS.name
            ),
            OAuthError::IntrospectMode => write!(
                f,
                "{} must be `opaque` (the default: JWTs are verified with the keys) or `always`",
                OAUTH_INTROSPECT.name
            ),
            OAuthError::IntrospectionSecretMissing => write!(
                f,
                "{INTROSPECTION_ID} is set: {INTROSPECTION_SECRET} is needed too"
            ),
            OAuthError::IntrospectionClientMissing => write!(
                f,
                "token introspection needs {INTROSPECTION_ID} and {INTROSPECTION_SECRET} (this \
                 server's client at the identity provider)"
            ),
        }
    }
}

/// The well-known prefix of protected resource metadata (RFC 9728 §3).
pub const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// `scheme://authority` of an `https` URL, or of an `http` one on a loopback host; `None`
/// otherwise (or with a fragment or user info).
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?']).next()?;
    if authority.is_empty() || authority.contains('@') || url.contains('#') {
        return None;
    }
    let host = if let Some(rest) = authority.strip_prefix('[') {
        rest.split_once(']')?.0
    } else {
        authority.split(':').next()?
    };
    let loopback = host == "localhost" || host == "::1" || host.starts_with("127.");
    match scheme.to_ascii_lowercase().as_str() {
        "https" => {}
        "http" if loopback => {}
        _ => return None,
    }
    Some(format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        authority.to_ascii_lowercase()
    ))
}

fn url_setting(name: &'static str, value: &str) -> Result<String, OAuthError> {
    let value = value.trim();
    if origin_of(value).is_none() || value.contains(char::is_whitespace) {
        return Err(OAuthError::NotUrl(name));
    }
    Ok(value.to_owned())
}

fn list(text: Option<String>) -> Vec<String> {
    text.unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn scope_setting(
    name: &'static str,
    value: Option<String>,
    default: &str,
) -> Result<String, OAuthError> {
    let scope = value.map_or_else(|| default.to_owned(), |v| v.trim().to_owned());
    if scope.is_empty() || scope.contains(|c: char| c.is_whitespace() || c == '"' || c == '\\') {
        return Err(OAuthError::NotScope(name));
    }
    Ok(scope)
}

impl OAuthSettings {
    /// Reads the OAuth variables through `get` (which yields only non-empty values):
    ///
    /// | variable | meaning |
    /// |---|---|
    /// | `MEDIA_MCP_OAUTH_ISSUER` | the issuer (required) |
    /// | `MEDIA_MCP_OAUTH_RESOURCE` | this server's public MCP URL (required) |
    /// | `MEDIA_MCP_OAUTH_AUDIENCES` | more accepted `aud` values, comma-separated |
    /// | `MEDIA_MCP_OAUTH_USER_CLAIM` | the claim naming the Ombi user (`preferred_username`) |
    /// | `MEDIA_MCP_OAUTH_USER_MAP` | `claim-value=ombi-user,...`; others are refused |
    /// | `MEDIA_MCP_OAUTH_READ_SCOPE` | scope of the read-only tools (`media:read`) |
    /// | `MEDIA_MCP_OAUTH_WRITE_SCOPE` | scope of every tool (`media:write`) |
    /// | `MEDIA_MCP_OAUTH_JWKS_URI` | the key set's URL (default: from the issuer's metadata) |
    /// | `MEDIA_MCP_OAUTH_JWKS` | the key set itself, as JSON: nothing is fetched |
    /// | `MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID` | introspection: this server's client id |
    /// | `MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET` | introspection: its secret |
    /// | `MEDIA_MCP_OAUTH_INTROSPECTION_URI` | the endpoint (default: from the metadata) |
    /// | `MEDIA_MCP_OAUTH_INTROSPECT` | `opaque` (default) or `always` (JWTs too) |
    ///
    /// # Errors
    ///
    /// A missing or unusable value, naming its variable.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<OAuthSettings, OAuthError> {
        let required = |name: &'static str| get(name).ok_or(OAuthError::Missing(name));
        let issuer = url_setting(OAUTH_ISSUER.name, &required(OAUTH_ISSUER.name)?)?;
        let resource = url_setting(OAUTH_RESOURCE.name, &required(OAUTH_RESOURCE.name)?)?;
        if resource.contains('?') {
            return Err(OAuthError::ResourceQuery);
        }
        let mut audiences = vec![resource.clone()];
        for aud in list(get(OAUTH_AUDIENCES.name)) {
            if !audiences.contains(&aud) {
                audiences.push(aud);
            }
        }
        let user_claim = get(OAUTH_USER_CLAIM.name)
            .map_or_else(|| DEFAULT_USER_CLAIM.to_owned(), |c| c.trim().to_owned());
        let user_map = match get(OAUTH_USER_MAP.name) {
            None => None,
            Some(text) => {
                let mut map = Vec::new();
                for (i, entry) in list(Some(text)).iter().enumerate() {
                    let Some((from, to)) = entry
                        .split_once('=')
                        .map(|(a, b)| (a.trim(), b.trim()))
                        .filter(|(a, b)| !a.is_empty() && !b.is_empty())
                    else {
                        return Err(OAuthError::UserMapEntry(i + 1));
                    };
                    map.push((from.to_owned(), to.to_owned()));
                }
                Some(map)
            }
        };
        let read_scope = scope_setting(
            OAUTH_READ_SCOPE.name,
            get(OAUTH_READ_SCOPE.name),
            DEFAULT_READ_SCOPE,
        )?;
        let write_scope = scope_setting(
            OAUTH_WRITE_SCOPE.name,
            get(OAUTH_WRITE_SCOPE.name),
            DEFAULT_WRITE_SCOPE,
        )?;
        if read_scope == write_scope {
            return Err(OAuthError::SameScopes);
        }
        let jwks_uri = get(OAUTH_JWKS_URI.name)
            .map(|u| url_setting(OAUTH_JWKS_URI.name, &u))
            .transpose()?;
        let inline_jwks = match get(OAUTH_JWKS.name) {
            None => None,
            Some(text) => match super::jwk::parse_set(text.as_bytes()) {
                Ok(keys) if !keys.is_empty() => Some(text),
                _ => return Err(OAuthError::Jwks),
            },
        };
        let introspection = introspection(&get)?;
        Ok(OAuthSettings {
            issuer,
            resource,
            audiences,
            user_claim,
            user_map,
            read_scope,
            write_scope,
            jwks_uri,
            inline_jwks,
            introspection,
        })
    }

    /// The path of this resource's metadata document (RFC 9728 §3.1): the well-known prefix
    /// followed by the resource URI's path.
    pub fn metadata_path(&self) -> String {
        let after_scheme = self.resource.split_once("://").map_or("", |(_, r)| r);
        let path = after_scheme.find('/').map_or("", |i| &after_scheme[i..]);
        format!("{}{}", WELL_KNOWN, path.trim_end_matches('/'))
    }

    /// The absolute URL of the metadata document.
    pub fn metadata_url(&self) -> String {
        let origin = origin_of(&self.resource).unwrap_or_default();
        format!("{origin}{}", self.metadata_path())
    }

    /// The origins the transport fetches from: the issuer's, and the configured JWKS and
    /// introspection URIs'.
    pub fn fetch_origins(&self) -> Vec<String> {
        let mut origins: Vec<String> = Vec::new();
        let introspection = self
            .introspection
            .as_ref()
            .and_then(|i| i.endpoint.as_ref());
        let urls = [Some(&self.issuer), self.jwks_uri.as_ref(), introspection];
        for origin in urls.into_iter().flatten().filter_map(|u| origin_of(u)) {
            if !origins.contains(&origin) {
                origins.push(origin);
            }
        }
        origins
    }
}

#[cfg(test)]
mod tests;
