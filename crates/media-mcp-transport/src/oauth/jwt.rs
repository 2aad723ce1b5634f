//! JWT access tokens (RFC 9068): the compact JWS is split, its signature checked with a key
//! of the issuer ([`super::jwk`]), then its claims: `iss` exactly the issuer, `aud` naming an
//! accepted audience, `exp` in the future and `nbf` (when present) in the past, both with at
//! most [`MAX_SKEW_SECS`] of clock skew.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value};

use super::jwk::{Alg, Jwk};
use crate::prelude::*;

/// Clock skew tolerated on `exp` and `nbf`, in seconds.
pub const MAX_SKEW_SECS: u64 = 60;

/// Tokens longer than this are refused unread.
pub const MAX_TOKEN_BYTES: usize = 16 * 1024;

/// Why a token is refused. Never contains the token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not a JWS this server verifies (shape, `alg` none/HMAC/unknown, `crit`).
    Malformed(&'static str),
    /// No key of the issuer has this `kid` (or none fits the algorithm): the key set may have
    /// rotated.
    UnknownKey,
    /// The signature does not verify.
    BadSignature,
    /// A claim does not hold; names the claim.
    Claim(&'static str),
}

impl Refusal {
    /// The reason, for the client.
    pub fn message(&self) -> String {
        match self {
            Refusal::Malformed(why) => format!("the access token is not accepted: {why}"),
            Refusal::UnknownKey => "the access token is signed by an unknown key".to_owned(),
            Refusal::BadSignature => "the access token's signature is not valid".to_owned(),
            Refusal::Claim(why) => format!("the access token is not accepted: {why}"),
        }
    }
}

/// What a token must satisfy.
#[derive(Debug, Clone, Copy)]
pub struct Expect<'a> {
    /// The exact `iss`.
    pub issuer: &'a str,
    /// `aud` must contain one of these.
    pub audiences: &'a [String],
    /// Seconds since the Unix epoch.
    pub now: u64,
}

fn part(text: &str) -> Result<Vec<u8>, Refusal> {
    URL_SAFE_NO_PAD
        .decode(text)
        .map_err(|_| Refusal::Malformed("not base64url"))
}

fn object(bytes: &[u8]) -> Result<Map<String, Value>, Refusal> {
    match serde_json::from_slice(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(Refusal::Malformed("a part is not a JSON object")),
    }
}

/// Whether `token` has the shape of a JWS (three base64url parts), so it is checked as a JWT
/// rather than introspected.
pub fn looks_like_jwt(token: &str) -> bool {
    let mut parts = token.split('.');
    let header = parts.next().unwrap_or_default();
    parts.count() == 2
        && URL_SAFE_NO_PAD
            .decode(header)
            .ok()
            .and_then(|h| serde_json::from_slice::<Value>(&h).ok())
            .is_some_and(|h| h.get("alg").is_some())
}

/// Verifies `token` with `keys` and checks its claims; returns the claims.
///
/// # Errors
///
/// Why the token is refused.
pub fn verify(
    token: &str,
    keys: &[Jwk],
    expect: &Expect<'_>,
) -> Result<Map<String, Value>, Refusal> {
    if token.len() > MAX_TOKEN_BYTES {
        return Err(Refusal::Malformed("too long"));
    }
    let mut parts = token.split('.');
    let (Some(h), Some(p), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(Refusal::Malformed("not a signed JWT"));
    };
    let header = object(&part(h)?)?;
    let alg = header
        .get("alg")
        .and_then(Value::as_str)
        .and_then(Alg::parse)
        .ok_or(Refusal::Malformed(
            "unsupported `alg` (none and HMAC are never accepted)",
        ))?;
    if header.contains_key("crit") {
        return Err(Refusal::Malformed("`crit` header parameters"));
    }
    if let Some(typ) = header.get("typ").and_then(Value::as_str)
        && !["at+jwt", "application/at+jwt", "jwt"].contains(&typ.to_ascii_lowercase().as_str())
    {
        return Err(Refusal::Malformed("`typ` is not an access token type"));
    }
    let kid = header.get("kid").and_then(Value::as_str);
    let candidates: Vec<&Jwk> = keys
        .iter()
        .filter(|k| k.fits(alg) && (kid.is_none() || k.kid.as_deref() == kid))
        .collect();
    if candidates.is_empty() {
        return Err(Refusal::UnknownKey);
    }
    let signature = part(s)?;
    let signed = &token.as_bytes()[..h.len() + 1 + p.len()];
    if !candidates
        .iter()
        .any(|k| k.verifies(alg, signed, &signature))
    {
        return Err(Refusal::BadSignature);
    }
    let claims = object(&part(p)?)?;
    check_claims(&claims, expect)?;
    Ok(claims)
}

fn seconds(claims: &Map<String, Value>, name: &str) -> Option<u64> {
    let v = claims.get(name)?;
    v.as_u64()
        .or_else(|| v.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
}

/// The time, audience and issuer checks, shared with introspection answers.
///
/// # Errors
///
/// The first claim that does not hold.
pub fn check_claims(claims: &Map<String, Value>, expect: &Expect<'_>) -> Result<(), Refusal> {
    if claims.get("iss").and_then(Value::as_str) != Some(expect.issuer) {
        return Err(Refusal::Claim("`iss` is not the configured issuer"));
    }
    let accepted = |a: &Value| {
        a.as_str()
            .is_some_and(|a| expect.audiences.iter().any(|x| x == a))
    };
    let aud_ok = match claims.get("aud") {
        Some(Value::Array(list)) => list.iter().any(accepted),
        Some(one) => accepted(one),
        None => false,
    };
    if !aud_ok {
        return Err(Refusal::Claim(
            "`aud` names no accepted audience of this server",
        ));
    }
    let exp = seconds(claims, "exp").ok_or(Refusal::Claim("`exp` is missing"))?;
    if exp.saturating_add(MAX_SKEW_SECS) <= expect.now {
        return Err(Refusal::Claim("the token has expired"));
    }
    if let Some(nbf) = seconds(claims, "nbf")
        && nbf > expect.now.saturating_add(MAX_SKEW_SECS)
    {
        return Err(Refusal::Claim("the token is not valid yet (`nbf`)"));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
