//! One exchange with an upstream: the request, the response, the failure, and the [`Upstream`]
//! trait that carries it.

use crate::prelude::*;

/// HTTP methods the plugin uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Put,
    Delete,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Delete => "DELETE",
        }
    }
}

/// One outbound request to an absolute URL.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
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
