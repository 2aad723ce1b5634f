//! OAuth access tokens of the household's own identity provider, in plain types: the
//! settings ([`config`]), the issuer's keys ([`jwk`]) and how they are found ([`keys`]), and JWT
//! access tokens (RFC 9068, [`jwt`]); opaque tokens through introspection (RFC 7662,
//! [`introspect`]). What a request is answered with is decided above, in
//! [`crate::resource_server`].

pub mod config;
pub mod introspect;
pub mod jwk;
pub mod jwt;
pub mod keys;

pub use config::OAuthSettings;
pub use keys::{Cache, Fetch, FetchError, NoCache};
