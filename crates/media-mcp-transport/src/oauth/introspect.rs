//! Opaque access tokens through token introspection (RFC 7662): the token is `POST`ed to the
//! issuer's `introspection_endpoint` (from its metadata, or `MEDIA_MCP_OAUTH_INTROSPECTION_URI`)
//! with this server's client credentials (HTTP Basic, RFC 6749 §2.3.1). An answer with
//! `active: true` is checked like a JWT's claims (`aud` naming an accepted audience, `exp`
//! and `nbf` when present, `iss` when present), and kept in the host's [`Cache`] (under the
//! token's SHA-256, never the token) until the token's `exp` and at most
//! [`MAX_CACHE_SECS`].

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value, json};
use sha2::{Digest as _, Sha256};

use super::config::{Introspection, OAuthSettings};
use super::jwt::{self, Expect, Refusal};
use super::keys::{self, Cache, Failure, Fetch, FetchError};
use crate::prelude::*;

/// The longest an active answer is kept, in seconds.
pub const MAX_CACHE_SECS: u64 = 60;

/// `application/x-www-form-urlencoded` of `text` (RFC 6749 appendix B).
fn form_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(char::from(b));
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The `Authorization` header of the introspection request.
fn basic(i: &Introspection) -> String {
    let pair = format!(
        "{}:{}",
        form_encode(&i.client_id),
        form_encode(&i.client_secret)
    );
    format!("Basic {}", STANDARD.encode(pair))
}

fn cache_key(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    let mut key = String::from("oauth:introspected:");
    for b in digest {
        key.push_str(&format!("{b:02x}"));
    }
    key
}

/// The claims of an active answer still in the cache at `now`.
fn cached(cache: &dyn Cache, key: &str, now: u64) -> Option<Map<String, Value>> {
    let entry: Value = serde_json::from_str(&cache.get(key)?).ok()?;
    let until = entry.get("until")?.as_u64()?;
    if now >= until {
        return None;
    }
    entry.get("claims")?.as_object().cloned()
}

/// Checks an active answer's claims: `aud` always, `exp`/`nbf` and `iss` when present.
fn check(claims: &Map<String, Value>, expect: &Expect<'_>) -> Result<(), Refusal> {
    let mut claims = claims.clone();
    claims
        .entry("iss")
        .or_insert_with(|| Value::String(expect.issuer.to_owned()));
    if !claims.contains_key("exp") {
        // Without `exp` the answer itself is the only evidence; it is kept briefly.
        claims.insert("exp".to_owned(), json!(expect.now + MAX_CACHE_SECS));
    }
    jwt::check_claims(&claims, expect)
}

/// Introspects `token` (or finds the answer in `cache`) and returns its claims.
///
/// # Errors
///
/// The token is not active or its claims do not hold (`Failure::Token`), or the endpoint
/// cannot be asked (`Failure::Provider`, without the token or the secret).
pub fn verify(
    o: &OAuthSettings,
    i: &Introspection,
    token: &str,
    fetch: &dyn Fetch,
    cache: &dyn Cache,
    now: u64,
) -> Result<Map<String, Value>, Failure> {
    if token.len() > jwt::MAX_TOKEN_BYTES {
        return Err(Failure::Token(Refusal::Malformed("the token is too long")));
    }
    let key = cache_key(token);
    if let Some(claims) = cached(cache, &key, now) {
        return Ok(claims);
    }
    let url = keys::endpoint(
        o,
        "introspection_endpoint",
        i.endpoint.as_ref(),
        media_mcp_wire::variables::OAUTH_INTROSPECTION_URI.name,
        fetch,
        cache,
        now,
    )
    .map_err(Failure::Provider)?;
    let form = format!("token={}&token_type_hint=access_token", form_encode(token));
    let body = fetch
        .post_form(&url, &basic(i), &form)
        .map_err(|FetchError(why)| {
            Failure::Provider(format!("the introspection endpoint answered: {why}"))
        })?;
    let answer: Map<String, Value> = serde_json::from_slice(&body).map_err(|_| {
        Failure::Provider("the introspection answer is not a JSON object".to_owned())
    })?;
    if answer.get("active") != Some(&Value::Bool(true)) {
        return Err(Failure::Token(Refusal::Claim(
            "the identity provider says the token is not active",
        )));
    }
    let expect = Expect {
        issuer: &o.issuer,
        audiences: &o.audiences,
        now,
    };
    check(&answer, &expect).map_err(Failure::Token)?;
    let exp = answer.get("exp").and_then(Value::as_u64);
    let until = exp.map_or(now + MAX_CACHE_SECS, |exp| exp.min(now + MAX_CACHE_SECS));
    cache.set(
        &key,
        &json!({"until": until, "claims": Value::Object(answer.clone())}).to_string(),
    );
    Ok(answer)
}

#[cfg(test)]
mod tests;
