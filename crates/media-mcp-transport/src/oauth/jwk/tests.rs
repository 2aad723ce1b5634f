use super::*;
use p256::ecdsa::signature::Signer as _;
use serde_json::json;

fn ec_pair() -> (p256::ecdsa::SigningKey, Value) {
    let signing = p256::ecdsa::SigningKey::from_slice(&[7u8; 32]).unwrap();
    let point = signing.verifying_key().to_sec1_point(false);
    let bytes = point.as_bytes();
    let jwk = json!({"kty": "EC", "crv": "P-256", "kid": "ec1",
            "x": URL_SAFE_NO_PAD.encode(&bytes[1..33]),
            "y": URL_SAFE_NO_PAD.encode(&bytes[33..65])});
    (signing, jwk)
}

#[test]
fn algorithms_none_and_hmac_are_not_known() {
    assert_eq!(Alg::parse("ES256"), Some(Alg::Es256));
    for name in ["none", "HS256", "HS512", "es256", ""] {
        assert_eq!(Alg::parse(name), None, "{name}");
    }
}

#[test]
fn an_ec_key_verifies_es256_only() {
    let (signing, jwk) = ec_pair();
    let key = Jwk::from_json(&jwk).unwrap();
    let sig: p256::ecdsa::Signature = signing.sign(b"signed input");
    let sig = sig.to_bytes();
    assert!(key.verifies(Alg::Es256, b"signed input", &sig));
    assert!(!key.verifies(Alg::Es256, b"other input", &sig));
    assert!(!key.verifies(Alg::Rs256, b"signed input", &sig));
    assert!(!key.verifies(Alg::EdDsa, b"signed input", &sig));
}

#[test]
fn symmetric_private_and_mismatched_keys_are_not_loaded() {
    let (_, mut jwk) = ec_pair();
    assert!(Jwk::from_json(&json!({"kty": "oct", "k": "c2VjcmV0"})).is_none());
    jwk["alg"] = json!("RS256");
    assert!(Jwk::from_json(&jwk).is_none());
    jwk["alg"] = json!("HS256");
    assert!(Jwk::from_json(&jwk).is_none());
    jwk["alg"] = json!("ES256");
    jwk["use"] = json!("enc");
    assert!(Jwk::from_json(&jwk).is_none());
    // A small RSA modulus is refused.
    let small = json!({"kty": "RSA", "n": URL_SAFE_NO_PAD.encode([0xffu8; 128]), "e": "AQAB"});
    assert!(Jwk::from_json(&small).is_none());
}

#[test]
fn sets_keep_usable_keys_and_reject_non_sets() {
    let (_, jwk) = ec_pair();
    let text = json!({"keys": [jwk, {"kty": "oct", "k": "AA"}]}).to_string();
    assert_eq!(parse_set(text.as_bytes()).unwrap().len(), 1);
    assert!(parse_set(b"[]").is_err());
    assert!(parse_set(b"nope").is_err());
}
