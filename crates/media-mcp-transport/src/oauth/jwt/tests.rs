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
