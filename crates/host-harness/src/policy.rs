//! What the sandbox may do, as pure functions over [`Settings`]:
//!
//! * outbound HTTP is allowed only to the origins (scheme, host, port) of the configured
//!   upstreams: another port on the same loopback host is another origin and is refused;
//! * by default the host holds the credentials: it adds each upstream's key, in that upstream's
//!   key header (`media_mcp_wire::upstreams`), to every request to its origin, replacing
//!   whatever the guest set, so the key never enters the sandbox (`MEDIA_MCP_PASS_KEY_TO_GUEST`
//!   turns this off and hands the keys to the guest instead); the upstream's keyless routes are
//!   sent without it;
//! * outgoing timeouts are capped ([`cap_request_options`]);
//! * the guest's environment holds only the variables it needs ([`guest_env`]).
//!
//! Nothing here logs; [`crate::http_hooks`] applies these decisions to live requests.

use std::fmt;
use std::time::Duration;

use http::{HeaderMap, HeaderName, HeaderValue, Uri};
use wasmtime_wasi_http::RequestOptions;

use crate::config::Settings;

use media_mcp_safe_text::{Needles, rewrite_strings};
pub use media_mcp_safe_text::{is_invisible, splits_keys};
use media_mcp_wire::upstreams::UPSTREAMS;

/// Upper bound on the time to establish a connection.
pub(crate) const MAX_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Upper bound on the wait for the first response byte.
pub(crate) const MAX_FIRST_BYTE_TIMEOUT: Duration = Duration::from_secs(30);
/// Upper bound on the wait between two response body chunks.
pub(crate) const MAX_BETWEEN_BYTES_TIMEOUT: Duration = Duration::from_secs(30);

/// Scheme, lower-case host and port (explicit or the scheme's default) of a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    /// `http` or `https`.
    pub(crate) fn scheme(&self) -> &str {
        &self.scheme
    }

    /// The host as written in URLs (an IPv6 address in brackets), lower case.
    pub(crate) fn host(&self) -> &str {
        &self.host
    }

    /// The port, explicit or the scheme's default.
    pub(crate) fn port(&self) -> u16 {
        self.port
    }

    /// The origin of a configured upstream URL.
    pub(crate) fn of_url(url: &url::Url) -> Option<Origin> {
        Some(Origin {
            scheme: url.scheme().to_ascii_lowercase(),
            host: url.host_str()?.to_ascii_lowercase(),
            port: url.port_or_known_default()?,
        })
    }

    /// The origin of an outgoing request URI (absolute form, as wasi:http builds it).
    pub(crate) fn of_uri(uri: &Uri) -> Option<Origin> {
        let scheme = uri.scheme_str()?.to_ascii_lowercase();
        let default_port = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return None,
        };
        Some(Origin {
            host: uri.host()?.to_ascii_lowercase(),
            port: uri.port_u16().unwrap_or(default_port),
            scheme,
        })
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}:{}", self.scheme, self.host, self.port)
    }
}

/// A header the host adds to requests for one upstream. `Debug` hides the value.
#[derive(Clone)]
pub struct Credential {
    name: HeaderName,
    value: HeaderValue,
}

impl Credential {
    fn new(name: &str, secret: &str) -> Option<Credential> {
        let mut value = HeaderValue::from_str(secret).ok()?;
        // Marks the value sensitive for hyper (never indexed/compressed, hidden from Debug).
        value.set_sensitive(true);
        Some(Credential {
            name: HeaderName::from_bytes(name.as_bytes()).ok()?,
            value,
        })
    }
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Credential({}: <redacted>)", self.name)
    }
}

/// Why a request was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyError {
    /// The request's origin is not a configured upstream.
    OriginNotAllowed {
        /// `scheme://host:port` of the refused request.
        origin: String,
    },
    /// The request URI has no usable scheme or host.
    NoOrigin,
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::OriginNotAllowed { origin } => {
                write!(f, "{origin} is not a configured upstream origin")
            }
            PolicyError::NoOrigin => f.write_str("the request has no http(s) origin"),
        }
    }
}

impl std::error::Error for PolicyError {}

#[derive(Debug, Clone)]
struct Rule {
    origin: Origin,
    base_path: String,
    credential: Option<Credential>,
    keyless_paths: &'static [&'static str],
    first_byte_cap: Duration,
}

impl Rule {
    /// The credential to add to a request for `path`: none on a keyless route.
    fn credential_for(&self, path: &str) -> Option<&Credential> {
        let below_base = path.get(self.base_path.len()..).unwrap_or_default();
        let keyless = path_has_prefix(path, &self.base_path)
            && self
                .keyless_paths
                .iter()
                .any(|p| below_base.eq_ignore_ascii_case(p));
        self.credential.as_ref().filter(|_| !keyless)
    }
}

/// The configured API keys, for [`Policy::redact_secrets`]. `Debug` hides them.
#[derive(Clone, Default)]
struct KeyList(Needles);

impl fmt::Debug for KeyList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyList({} hidden)", self.0.len())
    }
}

/// What a configured key is replaced with in a result.
pub const REDACTED: &str = "[redacted]";

/// The outbound policy for one configuration.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    rules: Vec<Rule>,
    keys: KeyList,
}

impl Policy {
    /// Builds the policy: one rule per configured upstream, with a credential to inject unless
    /// the keys go to the guest.
    pub fn from_settings(settings: &Settings) -> Policy {
        let mut rules = Vec::new();
        let mut secrets = Vec::new();
        for upstream in settings.upstreams() {
            secrets.push(upstream.api_key.expose());
            let Some(origin) = Origin::of_url(&upstream.url) else {
                continue;
            };
            let credential = if settings.pass_key_to_guest {
                None
            } else {
                Credential::new(upstream.spec.key_header, upstream.api_key.expose())
            };
            rules.push(Rule {
                origin,
                base_path: upstream.base_path().to_owned(),
                credential,
                keyless_paths: upstream.spec.keyless_paths,
                first_byte_cap: upstream.first_byte_cap.unwrap_or(MAX_FIRST_BYTE_TIMEOUT),
            });
        }
        Policy {
            rules,
            keys: KeyList(Needles::new(secrets)),
        }
    }

    /// This policy, also allowing `origins` without any credential: the identity provider's
    /// origins the HTTP transport fetches its OAuth metadata and keys from (`serve --http`).
    /// The caller makes sure none of them is an upstream's origin.
    #[must_use]
    pub fn allowing(mut self, origins: &[url::Url]) -> Policy {
        for origin in origins.iter().filter_map(Origin::of_url) {
            self.rules.push(Rule {
                origin,
                base_path: String::new(),
                credential: None,
                keyless_paths: &[],
                first_byte_cap: MAX_FIRST_BYTE_TIMEOUT,
            });
        }
        self
    }

    /// Replaces every configured API key inside `value` (in strings and object keys) with
    /// [`REDACTED`]; `true` when something was replaced. The guest never sees an injected key,
    /// but an upstream can echo it back (an error quoting the header, a record field), and in
    /// pass-key mode the guest holds it: results are cleaned here, on the host, either way.
    /// Keys are found in any letter case and when split by characters that show nothing
    /// (controls, line breaks, format characters such as U+200B or U+202E); see
    /// `media_mcp_safe_text::Needles`. Keys are at least [`crate::config::MIN_KEY_CHARS`] long.
    pub fn redact_secrets(&self, value: &mut serde_json::Value) -> bool {
        if self.keys.0.is_empty() {
            return false;
        }
        rewrite_strings(value, &mut |text| self.keys.0.redact(text, REDACTED))
    }

    /// The origins requests may go to.
    pub(crate) fn allowed_origins(&self) -> Vec<String> {
        self.rules.iter().map(|r| r.origin.to_string()).collect()
    }

    /// Checks the request's origin and returns the credential to add, if any (none on one of the
    /// upstream's keyless routes). When two upstreams share an origin, the one whose base
    /// path is the longest prefix of the request path wins (else the first configured).
    ///
    /// # Errors
    ///
    /// [`PolicyError`] when the origin is not a configured upstream.
    pub(crate) fn authorize(&self, uri: &Uri) -> Result<Option<&Credential>, PolicyError> {
        let origin = Origin::of_uri(uri).ok_or(PolicyError::NoOrigin)?;
        let candidates: Vec<&Rule> = self.rules.iter().filter(|r| r.origin == origin).collect();
        let first = *candidates
            .first()
            .ok_or_else(|| PolicyError::OriginNotAllowed {
                origin: origin.to_string(),
            })?;
        let path = uri.path();
        let best = candidates
            .iter()
            .filter(|r| path_has_prefix(path, &r.base_path))
            .max_by_key(|r| r.base_path.len())
            .copied()
            .unwrap_or(first);
        Ok(best.credential_for(path))
    }

    /// The longest first-byte wait allowed towards `uri`'s upstream ([`MAX_FIRST_BYTE_TIMEOUT`]
    /// unless the upstream needs longer).
    pub(crate) fn first_byte_cap(&self, uri: &Uri) -> Duration {
        let origin = Origin::of_uri(uri);
        self.rules
            .iter()
            .filter(|r| Some(&r.origin) == origin.as_ref())
            .map(|r| r.first_byte_cap)
            .max()
            .unwrap_or(MAX_FIRST_BYTE_TIMEOUT)
    }

    /// [`Policy::authorize`], then sets the credential header, replacing any guest value.
    ///
    /// # Errors
    ///
    /// [`PolicyError`] when the origin is not a configured upstream.
    pub fn apply(&self, uri: &Uri, headers: &mut HeaderMap) -> Result<(), PolicyError> {
        if let Some(credential) = self.authorize(uri)? {
            headers.remove(&credential.name);
            headers.insert(credential.name.clone(), credential.value.clone());
        }
        Ok(())
    }
}

fn path_has_prefix(path: &str, prefix: &str) -> bool {
    prefix.is_empty()
        || path.len() >= prefix.len()
            && path[..prefix.len()].eq_ignore_ascii_case(prefix)
            && matches!(path.as_bytes().get(prefix.len()), None | Some(b'/'))
}

/// Caps the guest's timeouts at [`MAX_CONNECT_TIMEOUT`], [`MAX_FIRST_BYTE_TIMEOUT`] and
/// [`MAX_BETWEEN_BYTES_TIMEOUT`] (smaller guest values are kept). wasmtime-wasi-http would
/// otherwise wait 600 s for each.
pub(crate) fn cap_request_options(
    requested: Option<RequestOptions>,
    first_byte_cap: Duration,
) -> RequestOptions {
    let cap = |asked: Option<Duration>, max: Duration| Some(asked.map_or(max, |d| d.min(max)));
    let asked = requested.unwrap_or_default();
    RequestOptions {
        connect_timeout: cap(asked.connect_timeout, MAX_CONNECT_TIMEOUT),
        first_byte_timeout: cap(asked.first_byte_timeout, first_byte_cap),
        between_bytes_timeout: cap(asked.between_bytes_timeout, MAX_BETWEEN_BYTES_TIMEOUT),
    }
}

/// The guest's whole environment: each configured upstream's URL (and its key only in
/// pass-key mode), the user to act as, and the pass-through `MEDIA_MCP_*` / `MOVIEPILOT_*`
/// variables. Nothing is inherited from the host process.
pub(crate) fn guest_env(settings: &Settings) -> Vec<(String, String)> {
    let mut env = Vec::new();
    for spec in UPSTREAMS {
        if let Some(upstream) = settings.upstream(spec) {
            env.push((spec.url.name.to_owned(), upstream.base_url()));
            if settings.pass_key_to_guest {
                env.push((
                    spec.api_key.name.to_owned(),
                    upstream.api_key.expose().to_owned(),
                ));
            }
        }
        if let (Some(variable), Some(user)) = (spec.user, settings.user(spec)) {
            env.push((variable.name.to_owned(), user.to_owned()));
        }
    }
    env.extend(settings.passthrough.iter().cloned());
    env
}

#[cfg(test)]
mod tests;
