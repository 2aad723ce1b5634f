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
mod tests {
    use super::*;
    use p256::ecdsa::signature::Signer as _;
    use serde_json::json;

    const ISS: &str = "https://id.example.com/application/o/media/";
    const NOW: u64 = 1_800_000_000;

    fn audiences() -> Vec<String> {
        vec!["https://media.example.com/mcp".into()]
    }

    fn key() -> (p256::ecdsa::SigningKey, Jwk) {
        let signing = p256::ecdsa::SigningKey::from_slice(&[9u8; 32]).unwrap();
        let point = signing.verifying_key().to_sec1_point(false);
        let b = point.as_bytes();
        let jwk = json!({"kty": "EC", "crv": "P-256", "kid": "k1",
            "x": URL_SAFE_NO_PAD.encode(&b[1..33]), "y": URL_SAFE_NO_PAD.encode(&b[33..65])});
        (signing, Jwk::from_json(&jwk).unwrap())
    }

    fn sign(signing: &p256::ecdsa::SigningKey, header: &Value, claims: &Value) -> String {
        let input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let sig: p256::ecdsa::Signature = signing.sign(input.as_bytes());
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(sig.to_bytes()))
    }

    fn claims() -> Value {
        json!({"iss": ISS, "aud": "https://media.example.com/mcp", "exp": NOW + 300,
               "nbf": NOW - 10, "sub": "u1", "preferred_username": "alice", "scope": "media:read"})
    }

    fn check(token: &str, keys: &[Jwk]) -> Result<Map<String, Value>, Refusal> {
        let aud = audiences();
        verify(
            token,
            keys,
            &Expect {
                issuer: ISS,
                audiences: &aud,
                now: NOW,
            },
        )
    }

    #[test]
    fn a_good_token_verifies() {
        let (s, k) = key();
        let token = sign(
            &s,
            &json!({"alg": "ES256", "kid": "k1", "typ": "at+jwt"}),
            &claims(),
        );
        assert!(looks_like_jwt(&token));
        assert_eq!(check(&token, &[k]).unwrap()["preferred_username"], "alice");
    }

    #[test]
    fn claims_are_checked() {
        let (s, k) = key();
        let h = json!({"alg": "ES256", "kid": "k1"});
        let cases = [
            ("iss", json!("https://id.example.com/application/o/media")),
            ("aud", json!("media-client")),
            ("aud", json!(["a", "b"])),
            ("exp", json!(NOW - MAX_SKEW_SECS)),
            ("nbf", json!(NOW + MAX_SKEW_SECS + 1)),
        ];
        for (name, value) in cases {
            let mut c = claims();
            c[name] = value.clone();
            let r = check(&sign(&s, &h, &c), core::slice::from_ref(&k));
            assert!(matches!(r, Err(Refusal::Claim(_))), "{name}={value}: {r:?}");
        }
        let mut c = claims();
        c.as_object_mut().unwrap().remove("exp");
        assert!(check(&sign(&s, &h, &c), core::slice::from_ref(&k)).is_err());
        // Within the skew, and an audience list containing ours.
        let mut c = claims();
        c["exp"] = json!(NOW - MAX_SKEW_SECS + 1);
        c["nbf"] = json!(NOW + MAX_SKEW_SECS);
        c["aud"] = json!(["other", "https://media.example.com/mcp"]);
        assert!(check(&sign(&s, &h, &c), &[k]).is_ok());
    }

    #[test]
    fn signature_kid_and_alg_are_checked() {
        let (s, k) = key();
        let good = sign(&s, &json!({"alg": "ES256", "kid": "k1"}), &claims());
        let mut tampered = good.clone();
        let last = tampered.pop().unwrap();
        tampered.push(if last == 'A' { 'B' } else { 'A' });
        assert_eq!(
            check(&tampered, core::slice::from_ref(&k)),
            Err(Refusal::BadSignature)
        );
        let other = sign(&s, &json!({"alg": "ES256", "kid": "k2"}), &claims());
        assert_eq!(
            check(&other, core::slice::from_ref(&k)),
            Err(Refusal::UnknownKey)
        );
        let none = format!(
            "{}.{}.",
            URL_SAFE_NO_PAD.encode(json!({"alg": "none"}).to_string()),
            URL_SAFE_NO_PAD.encode(claims().to_string())
        );
        assert!(matches!(
            check(&none, core::slice::from_ref(&k)),
            Err(Refusal::Malformed(_))
        ));
        let hs = sign(&s, &json!({"alg": "HS256", "kid": "k1"}), &claims());
        assert!(matches!(
            check(&hs, core::slice::from_ref(&k)),
            Err(Refusal::Malformed(_))
        ));
        let rs = sign(&s, &json!({"alg": "RS256", "kid": "k1"}), &claims());
        assert_eq!(
            check(&rs, core::slice::from_ref(&k)),
            Err(Refusal::UnknownKey)
        );
        let crit = sign(&s, &json!({"alg": "ES256", "crit": ["x"]}), &claims());
        assert!(check(&crit, core::slice::from_ref(&k)).is_err());
        let id_token = sign(&s, &json!({"alg": "ES256", "typ": "dpop+jwt"}), &claims());
        assert!(check(&id_token, core::slice::from_ref(&k)).is_err());
        assert!(!looks_like_jwt("opaque-token-value"));
        assert!(check("a.b", &[k]).is_err());
    }
}
