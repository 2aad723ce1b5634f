//! The plugin's view of outbound HTTP: plain request/response types, the [`Upstream`] trait the
//! wasi:http client implements in the guest (and fakes implement in native tests), and
//! [`UpstreamError`], which never holds header values or full URLs.

use crate::prelude::*;
mod exchange;
pub(crate) mod recognise;

pub(crate) use exchange::MAX_BODY_BYTES;
pub use exchange::{HttpRequest, HttpResponse, Method, Upstream, UpstreamError};

/// Whether an exchange may change upstream state (decides retryability and UNKNOWN_OUTCOME).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Reads, including POST routes that only search.
    Read,
    /// Anything that may change state.
    Write,
}

/// A validated `http(s)://authority[/prefix]` base URL without trailing slash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BaseUrl(String);

impl BaseUrl {
    /// Parses a base URL. Userinfo, query and fragment are refused (a key must never sit in a URL).
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn parse(raw: &str) -> Result<Self, String> {
        let raw = raw.trim();
        let (scheme, rest) = raw
            .split_once("://")
            .ok_or("must start with http:// or https://")?;
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return Err("must start with http:// or https://".into());
        }
        if rest.contains(['?', '#']) {
            return Err("must not carry a query or fragment".into());
        }
        let authority = rest.split('/').next().unwrap_or("");
        if authority.is_empty() {
            return Err("has no host".into());
        }
        if authority.contains('@') {
            return Err("must not carry credentials".into());
        }
        if raw.chars().any(|c| c.is_control() || c == ' ') {
            return Err("must not contain spaces or control characters".into());
        }
        Ok(Self(format!(
            "{}://{}",
            scheme.to_ascii_lowercase(),
            rest.trim_end_matches('/')
        )))
    }

    /// The URL for `path` (which starts with `/`) under this base.
    pub fn join(&self, path: &str) -> String {
        format!("{}{}", self.0, path)
    }

    /// The base URL as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A setting's value, trimmed; `None` when unset or blank.
pub(crate) fn non_empty(v: Option<String>) -> Option<String> {
    v.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty())
}

/// Percent-encodes a value for a URL query (RFC 3986 unreserved characters stay as they are).
/// Path segments go through [`path_segment`] instead.
pub(crate) fn encode_query_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xF)]));
        }
    }
    out
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// `value` as one URL path segment, percent-encoded; `None` when no encoding keeps it a segment
/// of its own that names `value`: the empty segment (`//`, which proxies merge or Ombi reads
/// as another route) and the dot segments `.` and `..`, which URL resolvers (RFC 3986 §5.2.4,
/// and WHATWG URL parsers also for `%2e`, `.%2E`, …) remove together with the segment before.
///
/// Every other value is safe: `%` itself is encoded, so the output holds a `.` only where the
/// value has one, and `/`, `\`, `?`, `#` and control characters are encoded.
pub fn path_segment(value: &str) -> Option<String> {
    if value.is_empty() || value == "." || value == ".." {
        return None;
    }
    Some(encode_query_value(value))
}

#[cfg(test)]
mod tests;
