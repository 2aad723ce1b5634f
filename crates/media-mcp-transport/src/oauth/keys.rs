//! The issuer's keys: inline (`MEDIA_MCP_OAUTH_JWKS`), or found through the issuer's metadata
//! (OpenID discovery, then RFC 8414) and fetched through [`Fetch`]. Where the host keeps a
//! [`Cache`], the metadata and the key set are kept for [`KEYS_TTL_SECS`], and a token with an
//! unknown `kid` refetches the key set at most once per [`REFETCH_INTERVAL_SECS`]; without a
//! cache every request reads the metadata and the key set (two GETs), and an unknown `kid`
//! after that read is simply refused.
//!
//! Only endpoints on the issuer's origin are followed from its metadata: a key set (or an
//! introspection endpoint) elsewhere must be configured (`MEDIA_MCP_OAUTH_JWKS_URI`,
//! `MEDIA_MCP_OAUTH_INTROSPECTION_URI`), so the host can allow exactly the origins the
//! settings name.

use serde_json::{Map, Value, json};

use super::config::{OAuthSettings, origin_of};
use super::jwk::{self, Jwk};
use super::jwt::{self, Expect, Refusal};
use crate::prelude::*;

/// How long fetched metadata and keys are kept in the host's cache.
pub const KEYS_TTL_SECS: u64 = 3600;
/// At most one key-set refetch for unknown `kid`s per this many seconds.
pub const REFETCH_INTERVAL_SECS: u64 = 60;
/// The largest metadata or key-set answer read.
pub const MAX_DOCUMENT_BYTES: usize = 256 * 1024;

/// Why a document could not be fetched; no secret in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchError(pub String);

/// `GET` of a JSON document through the host's HTTP client (`wasi:http` in the component).
pub trait Fetch {
    /// The body of a 200 answer to `GET url`, at most [`MAX_DOCUMENT_BYTES`].
    ///
    /// # Errors
    ///
    /// Not reachable, refused by the host, not 200, or too large.
    fn get(&self, url: &str) -> Result<Vec<u8>, FetchError>;

    /// The body of a 200 answer to a `POST url` of the form `body`
    /// (`application/x-www-form-urlencoded`) with the `Authorization` header `authorization`,
    /// at most [`MAX_DOCUMENT_BYTES`]. The error never contains `authorization` or `body`.
    ///
    /// # Errors
    ///
    /// Not reachable, refused by the host, not 200, or too large.
    fn post_form(&self, url: &str, authorization: &str, body: &str) -> Result<Vec<u8>, FetchError>;
}

/// Text the host keeps between requests (the harness's host cache); may forget anything.
pub trait Cache {
    /// The value under `key`.
    fn get(&self, key: &str) -> Option<String>;
    /// Stores `value` under `key`.
    fn set(&self, key: &str, value: &str);
}

/// A host that keeps nothing.
pub struct NoCache;

impl Cache for NoCache {
    fn get(&self, _key: &str) -> Option<String> {
        None
    }
    fn set(&self, _key: &str, _value: &str) {}
}

/// Why verification failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The token is refused.
    Token(Refusal),
    /// The keys could not be obtained.
    Provider(String),
}

/// The discovery documents tried for `issuer`, in order: OpenID Connect discovery, then
/// RFC 8414 (with the issuer's path after the well-known prefix).
pub fn discovery_urls(issuer: &str) -> Vec<String> {
    let trimmed = issuer.trim_end_matches('/');
    let mut urls = vec![format!("{trimmed}/.well-known/openid-configuration")];
    if let Some(origin) = origin_of(issuer) {
        let path = &trimmed[origin.len().min(trimmed.len())..];
        urls.push(format!(
            "{origin}/.well-known/oauth-authorization-server{path}"
        ));
    }
    urls
}

pub(super) fn cached(cache: &dyn Cache, key: &str, now: u64) -> Option<String> {
    let entry: Value = serde_json::from_str(&cache.get(key)?).ok()?;
    let at = entry.get("at")?.as_u64()?;
    (now.saturating_sub(at) < KEYS_TTL_SECS)
        .then(|| entry.get("value")?.as_str().map(str::to_owned))?
}

pub(super) fn keep(cache: &dyn Cache, key: &str, value: &str, now: u64) {
    cache.set(key, &json!({"at": now, "value": value}).to_string());
}

/// The URL of the issuer's `field` endpoint (`jwks_uri`, `introspection_endpoint`):
/// `configured`, or from the issuer's metadata, where it must be on the issuer's origin
/// (`variable` names the setting that points elsewhere).
pub(super) fn endpoint(
    o: &OAuthSettings,
    field: &str,
    configured: Option<&String>,
    variable: &str,
    fetch: &dyn Fetch,
    cache: &dyn Cache,
    now: u64,
) -> Result<String, String> {
    if let Some(uri) = configured {
        return Ok(uri.clone());
    }
    let key = format!("oauth:{field}:{}", o.issuer);
    if let Some(uri) = cached(cache, &key, now) {
        return Ok(uri);
    }
    let mut last = String::new();
    for url in discovery_urls(&o.issuer) {
        let body = match fetch.get(&url) {
            Ok(body) => body,
            Err(FetchError(why)) => {
                last = why;
                continue;
            }
        };
        let doc: Map<String, Value> =
            serde_json::from_slice(&body).map_err(|_| "the issuer's metadata is not JSON")?;
        if doc.get("issuer").and_then(Value::as_str) != Some(o.issuer.as_str()) {
            return Err(format!(
                "the issuer's metadata names another issuer than {}",
                media_mcp_wire::variables::OAUTH_ISSUER.name
            ));
        }
        let uri = doc
            .get(field)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("the issuer's metadata has no {field}: set {variable}"))?;
        if origin_of(uri) != origin_of(&o.issuer) {
            return Err(format!(
                "the issuer's {field} is on another origin: set {variable} to it"
            ));
        }
        keep(cache, &key, uri, now);
        return Ok(uri.to_owned());
    }
    Err(format!("the issuer's metadata cannot be read ({last})"))
}

/// The keys and whether they were just fetched.
fn load(
    o: &OAuthSettings,
    fetch: &dyn Fetch,
    cache: &dyn Cache,
    now: u64,
    refresh: bool,
) -> Result<(Vec<Jwk>, bool), String> {
    if let Some(text) = &o.inline_jwks {
        return Ok((jwk::parse_set(text.as_bytes())?, false));
    }
    let uri = endpoint(
        o,
        "jwks_uri",
        o.jwks_uri.as_ref(),
        media_mcp_wire::variables::OAUTH_JWKS_URI.name,
        fetch,
        cache,
        now,
    )?;
    let key = format!("oauth:jwks:{uri}");
    if !refresh && let Some(text) = cached(cache, &key, now) {
        return Ok((jwk::parse_set(text.as_bytes())?, false));
    }
    let body = fetch
        .get(&uri)
        .map_err(|FetchError(why)| format!("the key set cannot be read ({why})"))?;
    let keys = jwk::parse_set(&body)?;
    if let Ok(text) = core::str::from_utf8(&body) {
        keep(cache, &key, text, now);
    }
    Ok((keys, true))
}

/// Whether a refetch for an unknown `kid` may happen now; records it when so.
fn may_refetch(o: &OAuthSettings, cache: &dyn Cache, now: u64) -> bool {
    let key = format!("oauth:refetched:{}", o.issuer);
    let last = cache.get(&key).and_then(|v| v.parse::<u64>().ok());
    if last.is_some_and(|at| now.saturating_sub(at) < REFETCH_INTERVAL_SECS) {
        return false;
    }
    cache.set(&key, &now.to_string());
    true
}

/// Verifies `token` with the issuer's keys, refetching them once (rate-limited) for an
/// unknown `kid`.
///
/// # Errors
///
/// The token is refused, or the keys cannot be obtained.
pub fn verify(
    o: &OAuthSettings,
    token: &str,
    fetch: &dyn Fetch,
    cache: &dyn Cache,
    now: u64,
) -> Result<Map<String, Value>, Failure> {
    let expect = Expect {
        issuer: &o.issuer,
        audiences: &o.audiences,
        now,
    };
    let (keys, fresh) = load(o, fetch, cache, now, false).map_err(Failure::Provider)?;
    match jwt::verify(token, &keys, &expect) {
        Err(Refusal::UnknownKey)
            if !fresh && o.inline_jwks.is_none() && may_refetch(o, cache, now) =>
        {
            let (keys, _) = load(o, fetch, cache, now, true).map_err(Failure::Provider)?;
            jwt::verify(token, &keys, &expect).map_err(Failure::Token)
        }
        other => other.map_err(Failure::Token),
    }
}
