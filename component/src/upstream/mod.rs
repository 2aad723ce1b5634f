//! The plugin's view of outbound HTTP: plain request/response types, the [`Upstream`] trait the
//! wasi:http client implements in the guest (and fakes implement in native tests), and
//! [`UpstreamError`], which never holds header values or full URLs.

use crate::prelude::*;
pub(crate) mod recognise;

/// HTTP methods the plugin uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// GET
    Get,
    /// POST
    Post,
    /// PUT
    Put,
    /// DELETE
    Delete,
}

impl Method {
    /// The method name.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Delete => "DELETE",
        }
    }
}

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

/// One outbound request to an absolute URL.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    /// The method.
    pub method: Method,
    /// Absolute `http(s)://authority/path?query`.
    pub url: String,
    /// Request headers (names lower-case).
    pub headers: Vec<(String, String)>,
    /// The body, if any.
    pub body: Option<Vec<u8>>,
    /// Per-request deadline in milliseconds (capped by the whole-call deadline).
    pub timeout_ms: u64,
}

/// A response whose body was read up to the byte cap.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HttpResponse {
    /// HTTP status code.
    pub status: u16,
    /// `Content-Type`, if sent.
    pub content_type: Option<String>,
    /// `Retry-After` in seconds, if sent as a number.
    pub retry_after_seconds: Option<u64>,
    /// Other headers the plugin reads (`mcp-session-id`, `content-encoding`), names lower-case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// A header's value by lower-case name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why an exchange with an upstream failed. Holds no header values and no URLs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpstreamError {
    /// The host refused the destination (not a configured origin).
    Denied,
    /// No connection could be made; nothing was sent.
    Unreachable,
    /// No answer within the deadline. `sent`: the request may have reached upstream.
    Timeout {
        /// Whether the request may have been delivered.
        sent: bool,
    },
    /// The connection broke after the request may have been delivered.
    ConnectionLost,
    /// The response body exceeded the byte cap while being read.
    BodyTooLarge {
        /// HTTP status of the oversized response.
        status: u16,
        /// The cap in bytes.
        limit: usize,
    },
    /// The exchange failed in a way the HTTP layer reported (malformed response, TLS, ...).
    Protocol {
        /// Whether the request may have been delivered.
        sent: bool,
        /// Short, secret-free description.
        detail: String,
    },
}

/// Outbound HTTP as the plugin needs it.
pub trait Upstream {
    /// Sends `request` and reads the response body up to `max_body_bytes`.
    ///
    /// # Errors
    /// [`UpstreamError`] when no complete response within the caps could be had.
    fn send(
        &self,
        request: &HttpRequest,
        max_body_bytes: usize,
    ) -> Result<HttpResponse, UpstreamError>;
}

/// Largest upstream body read before parsing (bodies beyond it are refused while reading).
pub(crate) const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

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
