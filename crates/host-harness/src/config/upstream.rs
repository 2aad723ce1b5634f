//! The configured upstream services (each an entry of `media_mcp_wire::upstreams`): base URL,
//! key and extra CA certificates, checked at start; and the user name rule the component applies
//! on every call.

use std::path::Path;
use std::time::Duration;

use media_mcp_wire::user::{UserNameError, check_user_name};
use media_mcp_wire::variables::OMBI_USER;
use rustls::pki_types::CertificateDer;
use url::Url;

use super::raw::{ConfigError, RawSettings, Secret};

/// A configured upstream service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    /// Which upstream: its variables, key header and keyless routes.
    pub spec: &'static media_mcp_wire::upstreams::Upstream,
    /// Normalised base URL: http(s), a host, no credentials, query or fragment.
    pub url: Url,
    /// The credential the harness injects (or passes to the guest).
    pub api_key: Secret,
    /// Extra CA certificates trusted for this upstream's origin only (its `ca_file`
    /// variable), checked at start: each is a usable trust anchor.
    pub extra_roots: Vec<CertificateDer<'static>>,
    /// The host's cap on the wait for this upstream's first response byte, when longer than
    /// the policy's default.
    pub(crate) first_byte_cap: Option<Duration>,
}

impl Upstream {
    /// The base URL as the component receives it: no trailing slash.
    pub(crate) fn base_url(&self) -> String {
        self.url.as_str().trim_end_matches('/').to_owned()
    }

    /// The base path without trailing slash (`""` or `/ombi`).
    pub fn base_path(&self) -> &str {
        self.url.path().trim_end_matches('/')
    }
}

/// Reads `spec`'s variables: `None` when its URL is unset.
pub(super) fn upstream(
    raw: &RawSettings,
    spec: &'static media_mcp_wire::upstreams::Upstream,
) -> Result<Option<Upstream>, ConfigError> {
    let [url_var, key_var, ca_var] = [spec.url.name, spec.api_key.name, spec.ca_file.name];
    let Some(text) = raw.get(url_var) else {
        for unused in [key_var, ca_var] {
            if raw.get(unused).is_some() {
                // Not an error: a key without a URL is harmless, but say so in the log.
                crate::log_warn!("{unused} is set but {url_var} is not; ignoring it");
            }
        }
        return Ok(None);
    };
    let url = parse_base_url(url_var, text)?;
    let api_key = match raw.get(key_var) {
        None => {
            return Err(ConfigError::new(
                key_var,
                format!("required when {url_var} is set"),
            ));
        }
        Some(key) if !is_header_safe(key) || key.contains(' ') => {
            return Err(ConfigError::new(
                key_var,
                "must be printable text without spaces or control characters",
            ));
        }
        Some(key) if key.trim().len() < MIN_KEY_CHARS => {
            return Err(ConfigError::new(
                key_var,
                "must be at least 8 characters: the harness removes the key from every result, and a shorter one could not be told apart from ordinary text (Ombi's keys are 32 characters)",
            ));
        }
        Some(key) => Secret::new(key.trim()),
    };
    let extra_roots = match raw.get(ca_var) {
        None => Vec::new(),
        Some(path) => read_ca_file(ca_var, Path::new(path))?,
    };
    Ok(Some(Upstream {
        spec,
        url,
        api_key,
        extra_roots,
        first_byte_cap: None,
    }))
}

/// Reads a PEM file of CA certificates and checks that each one can be a trust anchor.
///
/// # Errors
///
/// The file cannot be read, holds no `CERTIFICATE` block, or a block is not a usable
/// certificate. Messages name `var`; they quote neither the file's content nor its path.
fn read_ca_file(var: &str, path: &Path) -> Result<Vec<CertificateDer<'static>>, ConfigError> {
    use rustls::pki_types::pem::PemObject as _;
    let bytes = std::fs::read(path)
        .map_err(|e| ConfigError::new(var, format!("cannot be read ({})", e.kind())))?;
    let certs = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ConfigError::new(var, format!("is not a readable PEM file ({e})")))?;
    if certs.is_empty() {
        return Err(ConfigError::new(
            var,
            "holds no certificate: expected one or more PEM blocks `-----BEGIN CERTIFICATE-----`",
        ));
    }
    for (n, cert) in certs.iter().enumerate() {
        let mut store = rustls::RootCertStore::empty();
        store.add(cert.clone()).map_err(|e| {
            ConfigError::new(
                var,
                format!("certificate {} is not a usable CA certificate ({e})", n + 1),
            )
        })?;
    }
    Ok(certs)
}

/// Parses and checks an upstream base URL. Messages describe the problem without echoing the
/// URL, which could carry credentials.
///
/// # Errors
///
/// Not a URL, not http(s), no host, user info, a query or a fragment.
fn parse_base_url(var: &str, text: &str) -> Result<Url, ConfigError> {
    let err = |m: &str| ConfigError::new(var, m);
    let url = Url::parse(text.trim())
        .map_err(|e| ConfigError::new(var, format!("not a valid URL ({e})")))?;
    if url.scheme() != "http" && url.scheme() != "https" {
        return Err(ConfigError::new(
            var,
            format!("must be an http or https URL, not {}:", url.scheme()),
        ));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(err("must name a host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(err(
            "must not contain a user name or password; set the API key variable instead",
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(err(
            "must not contain a query string or fragment (never put the key in the URL)",
        ));
    }
    Ok(url)
}

pub use media_mcp_wire::upstreams::MIN_KEY_CHARS;

/// Longest user name to act as: the component refuses longer `UserName` values on every call,
/// so a longer `OMBI_USER` is refused here, at start.
pub use media_mcp_wire::user::MAX_USER_NAME_CHARS;

pub(super) const EMPTY_USER_MESSAGE: &str = const_format::concatcp!(
    "is set but empty: name the Ombi user to act as, or leave ",
    OMBI_USER.name,
    " unset to act as the API key's administrator user (which bypasses permissions and quotas, and whose requests Ombi approves automatically)"
);

/// Checks a user name to act as (sent upstream as the `UserName` header) by the rule the
/// component applies on every call ([`check_user_name`]), so a name accepted here never fails a
/// call later, and returns it without surrounding spaces.
///
/// # Errors
///
/// Why the name cannot be used, without echoing it.
pub fn checked_user_name(user: &str) -> Result<&str, &'static str> {
    let user = user.trim();
    check_user_name(user).map(|()| user).map_err(|e| match e {
        UserNameError::Empty => EMPTY_USER_MESSAGE,
        UserNameError::NotAscii => {
            "must be ASCII: it is sent as the UserName header, and header values carry ASCII only"
        }
        UserNameError::Control => {
            "must not contain control characters such as line breaks or tabs: it is sent as the UserName header"
        }
        UserNameError::TooLong => {
            "must be at most 256 characters: it is sent as the UserName header, and the plugin refuses longer names on every call"
        }
        UserNameError::Comma => e.why(),
    })
}

/// Whether `value` can travel in an HTTP header: visible ASCII or spaces, not blank.
fn is_header_safe(value: &str) -> bool {
    !value.trim().is_empty() && value.bytes().all(|b| b == b' ' || b.is_ascii_graphic())
}
