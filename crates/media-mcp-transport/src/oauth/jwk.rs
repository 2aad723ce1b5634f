//! JSON Web Keys (RFC 7517) of the issuer, as verifiers of JWS signatures (RFC 7515/7518/8037).
//!
//! The algorithm a signature is checked with comes from the key: an RSA key verifies `RS*`
//! and `PS*`, a P-256 key `ES256`, an Ed25519 key `EdDSA`; when the key names an `alg`, only
//! that one. Symmetric (`oct`) keys are never loaded, so `HS*` tokens and `none` have no key
//! to verify with.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rsa::signature::Verifier as _;
use serde_json::Value;

use crate::prelude::*;

/// Keys kept from one JWKS at most; more are ignored.
pub const MAX_KEYS: usize = 32;

/// The smallest RSA modulus accepted, in bits.
pub const MIN_RSA_BITS: usize = 2048;

/// A JWS algorithm this server verifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alg {
    Rs256,
    Rs384,
    Rs512,
    Ps256,
    Ps384,
    Ps512,
    Es256,
    EdDsa,
}

impl Alg {
    /// The algorithm of a JWS `alg` header value; `none`, `HS*` and others are `None`.
    pub fn parse(name: &str) -> Option<Alg> {
        Some(match name {
            "RS256" => Alg::Rs256,
            "RS384" => Alg::Rs384,
            "RS512" => Alg::Rs512,
            "PS256" => Alg::Ps256,
            "PS384" => Alg::Ps384,
            "PS512" => Alg::Ps512,
            "ES256" => Alg::Es256,
            // RFC 8037 `EdDSA`, and the fully specified name of RFC 9864.
            "EdDSA" | "Ed25519" => Alg::EdDsa,
            _ => return None,
        })
    }
}

/// The public part of one key.
#[derive(Clone)]
enum Public {
    Rsa(rsa::PublicKey),
    P256(p256::ecdsa::VerifyingKey),
    Ed25519(ed25519_dalek::VerifyingKey),
}

/// One verification key of the issuer.
#[derive(Clone)]
pub struct Jwk {
    /// `kid`, when the key has one.
    pub kid: Option<String>,
    /// `alg`, when the key pins one.
    alg: Option<Alg>,
    public: Public,
}

impl core::fmt::Debug for Jwk {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let kty = match self.public {
            Public::Rsa(_) => "RSA",
            Public::P256(_) => "EC P-256",
            Public::Ed25519(_) => "OKP Ed25519",
        };
        write!(f, "Jwk({kty}, kid {:?})", self.kid)
    }
}

fn b64(value: &Value, field: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD
        .decode(value.get(field)?.as_str()?.trim_end_matches('='))
        .ok()
}

impl Jwk {
    /// A key from its JWK object; `None` for a key this server cannot or will not use
    /// (symmetric, private-only, unknown curve, RSA under [`MIN_RSA_BITS`], `use` other than
    /// `sig`).
    pub fn from_json(value: &Value) -> Option<Jwk> {
        if value.get("use").is_some_and(|u| u != "sig") {
            return None;
        }
        let alg = match value.get("alg").and_then(Value::as_str) {
            None => None,
            Some(name) => Some(Alg::parse(name)?),
        };
        let public = match value.get("kty")?.as_str()? {
            "RSA" => {
                let n = b64(value, "n")?;
                let e = b64(value, "e")?;
                let key = rsa::PublicKey::new_with_size_limits(
                    rsa::BoxedUint::from_be_slice_vartime(&n),
                    rsa::BoxedUint::from_be_slice_vartime(&e),
                    MIN_RSA_BITS..=rsa::PublicKey::MAX_SIZE,
                )
                .ok()?;
                Public::Rsa(key)
            }
            "EC" if value.get("crv")? == "P-256" => {
                let (x, y) = (b64(value, "x")?, b64(value, "y")?);
                if x.len() != 32 || y.len() != 32 {
                    return None;
                }
                let mut sec1 = vec![4u8];
                sec1.extend_from_slice(&x);
                sec1.extend_from_slice(&y);
                Public::P256(p256::ecdsa::VerifyingKey::from_sec1_bytes(&sec1).ok()?)
            }
            "OKP" if value.get("crv")? == "Ed25519" => {
                let x: [u8; 32] = b64(value, "x")?.try_into().ok()?;
                Public::Ed25519(ed25519_dalek::VerifyingKey::from_bytes(&x).ok()?)
            }
            _ => return None,
        };
        let kid = value.get("kid").and_then(Value::as_str).map(str::to_owned);
        let key = Jwk { kid, alg, public };
        // A pinned `alg` must fit the key type.
        if let Some(alg) = alg
            && !key.fits(alg)
        {
            return None;
        }
        Some(key)
    }

    /// Whether this key may verify a signature made with `alg`.
    pub fn fits(&self, alg: Alg) -> bool {
        if self.alg.is_some_and(|pinned| pinned != alg) {
            return false;
        }
        match self.public {
            Public::Rsa(_) => matches!(
                alg,
                Alg::Rs256 | Alg::Rs384 | Alg::Rs512 | Alg::Ps256 | Alg::Ps384 | Alg::Ps512
            ),
            Public::P256(_) => alg == Alg::Es256,
            Public::Ed25519(_) => alg == Alg::EdDsa,
        }
    }

    /// Whether `signature` over `signed` (the JWS signing input) is valid for `alg`; `false`
    /// when the key does not fit `alg`.
    pub fn verifies(&self, alg: Alg, signed: &[u8], signature: &[u8]) -> bool {
        use rsa::pkcs1v15::{Signature as Pkcs1, VerifyingKey as Pkcs1Key};
        use rsa::pss::{Signature as Pss, VerifyingKey as PssKey};
        use rsa::sha2::{Sha256, Sha384, Sha512};
        if !self.fits(alg) {
            return false;
        }
        match &self.public {
            Public::Rsa(key) => {
                let key = key.clone();
                let pkcs1 = || Pkcs1::try_from(signature).ok();
                let pss = || Pss::try_from(signature).ok();
                match alg {
                    Alg::Rs256 => pkcs1()
                        .is_some_and(|s| Pkcs1Key::<Sha256>::new(key).verify(signed, &s).is_ok()),
                    Alg::Rs384 => pkcs1()
                        .is_some_and(|s| Pkcs1Key::<Sha384>::new(key).verify(signed, &s).is_ok()),
                    Alg::Rs512 => pkcs1()
                        .is_some_and(|s| Pkcs1Key::<Sha512>::new(key).verify(signed, &s).is_ok()),
                    Alg::Ps256 => {
                        pss().is_some_and(|s| PssKey::<Sha256>::new(key).verify(signed, &s).is_ok())
                    }
                    Alg::Ps384 => {
                        pss().is_some_and(|s| PssKey::<Sha384>::new(key).verify(signed, &s).is_ok())
                    }
                    Alg::Ps512 => {
                        pss().is_some_and(|s| PssKey::<Sha512>::new(key).verify(signed, &s).is_ok())
                    }
                    Alg::Es256 | Alg::EdDsa => false,
                }
            }
            Public::P256(key) => p256::ecdsa::Signature::from_slice(signature)
                .is_ok_and(|s| key.verify(signed, &s).is_ok()),
            Public::Ed25519(key) => ed25519_dalek::Signature::from_slice(signature)
                .is_ok_and(|s| key.verify_strict(signed, &s).is_ok()),
        }
    }
}

/// The usable keys of a JWKS document (`{"keys": [...]}`), at most [`MAX_KEYS`].
///
/// # Errors
///
/// The text is not a JWKS object.
pub fn parse_set(text: &[u8]) -> Result<Vec<Jwk>, &'static str> {
    let doc: Value = serde_json::from_slice(text).map_err(|_| "the JWKS is not JSON")?;
    let keys = doc
        .get("keys")
        .and_then(Value::as_array)
        .ok_or("the JWKS has no `keys` array")?;
    Ok(keys
        .iter()
        .take(MAX_KEYS)
        .filter_map(Jwk::from_json)
        .collect())
}

#[cfg(test)]
mod tests;
