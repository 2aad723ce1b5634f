//! The only wasi:http code: [`WasiUpstream`] sends one request with the component's own
//! timeouts (connect, first byte, between bytes), a whole-call deadline, and a byte cap that
//! works while reading, so an oversized body is never held in memory.

use crate::guest::bindings::wasi::clocks::monotonic_clock;
use crate::guest::bindings::wasi::http::outgoing_handler;
use crate::guest::bindings::wasi::http::types::{
    ErrorCode, Fields, IncomingResponse, Method as WasiMethod, OutgoingBody, OutgoingRequest,
    RequestOptions, Scheme, http_error_code,
};
use crate::guest::bindings::wasi::io::poll;
use crate::guest::bindings::wasi::io::streams::StreamError;
use crate::prelude::*;
use crate::upstream::{HttpRequest, HttpResponse, Method, Upstream, UpstreamError};

/// Connect timeout for every request.
const CONNECT_TIMEOUT_NS: u64 = 5_000_000_000;
/// Longest silence between body chunks.
const BETWEEN_BYTES_TIMEOUT_NS: u64 = 30_000_000_000;
/// Bytes asked for per read.
const READ_CHUNK: u64 = 64 * 1024;
/// Longest TLS failure description from the host kept in an error message.
const MAX_TLS_DETAIL_CHARS: usize = 200;

/// wasi:http client bound to one call's deadline.
pub struct WasiUpstream {
    deadline_ns: u64,
}

impl WasiUpstream {
    /// A client whose requests all end by `ms` from now.
    pub fn with_deadline_ms(ms: u64) -> Self {
        Self {
            deadline_ns: monotonic_clock::now().saturating_add(ms.saturating_mul(1_000_000)),
        }
    }

    fn remaining_ns(&self, cap_ms: u64) -> u64 {
        let left = self.deadline_ns.saturating_sub(monotonic_clock::now());
        left.min(cap_ms.saturating_mul(1_000_000))
    }
}

fn protocol(sent: bool, detail: &str) -> UpstreamError {
    UpstreamError::Protocol {
        sent,
        detail: detail.to_owned(),
    }
}

fn map_error(e: &ErrorCode) -> UpstreamError {
    match e {
        ErrorCode::HttpRequestDenied => UpstreamError::Denied,
        ErrorCode::ConnectionTimeout => UpstreamError::Timeout { sent: false },
        ErrorCode::DnsTimeout
        | ErrorCode::DnsError(_)
        | ErrorCode::DestinationNotFound
        | ErrorCode::DestinationUnavailable
        | ErrorCode::DestinationIpProhibited
        | ErrorCode::DestinationIpUnroutable
        | ErrorCode::ConnectionRefused
        | ErrorCode::ConnectionLimitReached => UpstreamError::Unreachable,
        ErrorCode::TlsAlertReceived(alert) => match &alert.alert_message {
            // The host names a rejected certificate's problem here (no detail travels with
            // tls-certificate-error); kept short, as it ends up in a tool result.
            Some(message) => protocol(
                false,
                &format!(
                    "TLS handshake failed: {}",
                    message
                        .chars()
                        .take(MAX_TLS_DETAIL_CHARS)
                        .collect::<String>()
                ),
            ),
            None => protocol(false, "TLS handshake failed"),
        },
        ErrorCode::TlsProtocolError | ErrorCode::TlsCertificateError => {
            protocol(false, "TLS handshake failed")
        }
        ErrorCode::HttpRequestUriInvalid
        | ErrorCode::HttpRequestMethodInvalid
        | ErrorCode::HttpRequestUriTooLong => protocol(false, "the request could not be formed"),
        ErrorCode::ConnectionReadTimeout | ErrorCode::HttpResponseTimeout => {
            UpstreamError::Timeout { sent: true }
        }
        ErrorCode::ConnectionTerminated | ErrorCode::HttpResponseIncomplete => {
            UpstreamError::ConnectionLost
        }
        ErrorCode::HttpResponseContentCoding(_) | ErrorCode::HttpResponseTransferCoding(_) => {
            protocol(true, "the response used an unsupported encoding")
        }
        _ => protocol(true, "malformed HTTP response"),
    }
}

/// A failure while reading a response body: the request was delivered, so nothing is "not
/// sent" here; a timeout stays a timeout, anything else lost the answer.
fn body_error(e: &ErrorCode) -> UpstreamError {
    match map_error(e) {
        UpstreamError::Timeout { .. } => UpstreamError::Timeout { sent: true },
        UpstreamError::Protocol { detail, .. } => UpstreamError::Protocol { sent: true, detail },
        _ => UpstreamError::ConnectionLost,
    }
}

fn split_url(url: &str) -> Option<(Scheme, &str, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = match scheme {
        "https" => Scheme::Https,
        "http" => Scheme::Http,
        _ => return None,
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    Some((scheme, authority, path))
}

impl Upstream for WasiUpstream {
    fn send(
        &self,
        request: &HttpRequest,
        max_body_bytes: usize,
    ) -> Result<HttpResponse, UpstreamError> {
        let budget = self.remaining_ns(request.timeout_ms);
        if budget == 0 {
            return Err(UpstreamError::Timeout { sent: false });
        }
        let (scheme, authority, path) =
            split_url(&request.url).ok_or_else(|| protocol(false, "bad URL"))?;
        let headers = Fields::new();
        for (name, value) in &request.headers {
            headers
                .append(name, value.as_bytes())
                .map_err(|_| protocol(false, "a request header was refused"))?;
        }
        // The body is held in full: declare its length rather than sending it chunked, which
        // some servers and proxies refuse.
        if let Some(body) = &request.body {
            headers
                .append("content-length", body.len().to_string().as_bytes())
                .map_err(|_| protocol(false, "a request header was refused"))?;
        }
        let req = OutgoingRequest::new(headers);
        let method = match request.method {
            Method::Get => WasiMethod::Get,
            Method::Post => WasiMethod::Post,
            Method::Put => WasiMethod::Put,
            Method::Delete => WasiMethod::Delete,
        };
        let formed = req.set_method(&method).is_ok()
            && req.set_scheme(Some(&scheme)).is_ok()
            && req.set_authority(Some(authority)).is_ok()
            && req.set_path_with_query(Some(path)).is_ok();
        if !formed {
            return Err(protocol(false, "the request could not be formed"));
        }
        let options = RequestOptions::new();
        let _ = options.set_connect_timeout(Some(CONNECT_TIMEOUT_NS.min(budget)));
        let _ = options.set_first_byte_timeout(Some(budget));
        let between_bytes = BETWEEN_BYTES_TIMEOUT_NS.min(budget);
        let _ = options.set_between_bytes_timeout(Some(between_bytes));
        let body = match &request.body {
            Some(_) => Some(req.body().map_err(|_| protocol(false, "no request body"))?),
            None => None,
        };
        let future = outgoing_handler::handle(req, Some(options)).map_err(|e| map_error(&e))?;
        if let (Some(body), Some(bytes)) = (body, &request.body) {
            write_body(body, bytes)?;
        }
        let timer = monotonic_clock::subscribe_duration(budget);
        let ready = future.subscribe();
        let fired = poll::poll(&[&ready, &timer]);
        if !fired.contains(&0) {
            return Err(UpstreamError::Timeout { sent: true });
        }
        let response = match future.get() {
            Some(Ok(Ok(r))) => r,
            Some(Ok(Err(e))) => return Err(map_error(&e)),
            _ => return Err(protocol(true, "the response was lost")),
        };
        drop(ready);
        read_response(response, max_body_bytes, &timer, between_bytes)
    }
}

fn write_body(body: OutgoingBody, bytes: &[u8]) -> Result<(), UpstreamError> {
    {
        let stream = body
            .write()
            .map_err(|_| protocol(true, "request body unavailable"))?;
        for chunk in bytes.chunks(4096) {
            stream
                .blocking_write_and_flush(chunk)
                .map_err(|_| UpstreamError::ConnectionLost)?;
        }
    }
    OutgoingBody::finish(body, None).map_err(|e| map_error(&e))
}

/// Body size up to which the buffer grows by doubling; past it, room for the whole cap is
/// reserved at once.
const DOUBLING_LIMIT: usize = 256 * 1024;

/// Makes room for `more` bytes in `body` without letting a large body's footprint exceed the
/// cap by much: doubling up to the cap would hold the old and the new buffer at once (2 + 4 MiB)
/// on top of the freed smaller ones, and linear memory never shrinks during the call (measured
/// in BENCHMARKS.md: 12 MiB of peak RSS for a 50 MiB chunked body). The caller has checked that
/// `body.len() + more <= cap`.
fn reserve_for(body: &mut Vec<u8>, more: usize, cap: usize) {
    let needed = body.len() + more;
    if needed > body.capacity() && needed > DOUBLING_LIMIT {
        body.reserve_exact(cap - body.len());
    }
}

/// Slack when deciding that a body error was the host's between-bytes timeout: the host's
/// timer starts when it received the last chunk, a little before the guest read it.
const TIMER_SLACK_NS: u64 = 250_000_000;

fn read_response(
    response: IncomingResponse,
    cap: usize,
    timer: &poll::Pollable,
    between_bytes_ns: u64,
) -> Result<HttpResponse, UpstreamError> {
    let status = response.status();
    let mut out = HttpResponse {
        status,
        ..Default::default()
    };
    let headers = response.headers();
    for (name, value) in headers.entries() {
        let name = name.to_ascii_lowercase();
        let value = String::from_utf8_lossy(&value).into_owned();
        match name.as_str() {
            "content-type" => out.content_type = Some(value),
            "retry-after" => out.retry_after_seconds = value.trim().parse().ok(),
            "content-length" if value.trim().parse::<usize>().is_ok_and(|n| n > cap) => {
                return Err(UpstreamError::BodyTooLarge { status, limit: cap });
            }
            "content-encoding" | "mcp-session-id" | "location" => out.headers.push((name, value)),
            _ => {}
        }
    }
    drop(headers);
    let body = response
        .consume()
        .map_err(|_| protocol(true, "response body unavailable"))?;
    {
        let stream = body
            .stream()
            .map_err(|_| protocol(true, "response body unavailable"))?;
        let readable = stream.subscribe();
        let mut last_progress = monotonic_clock::now();
        loop {
            let fired = poll::poll(&[&readable, timer]);
            if !fired.contains(&0) {
                return Err(UpstreamError::Timeout { sent: true });
            }
            match stream.read(READ_CHUNK) {
                Ok(chunk) => {
                    if out.body.len() + chunk.len() > cap {
                        return Err(UpstreamError::BodyTooLarge { status, limit: cap });
                    }
                    if !chunk.is_empty() {
                        last_progress = monotonic_clock::now();
                    }
                    reserve_for(&mut out.body, chunk.len(), cap);
                    out.body.extend_from_slice(&chunk);
                }
                Err(StreamError::Closed) => break,
                // Why the body stopped: the host's between-bytes timeout (a stall) is a
                // timeout, like our own deadline, not a broken connection. wasmtime 48 does not
                // attach an error code to body errors, so a silence as long as that timeout
                // tells it apart from a reset.
                Err(StreamError::LastOperationFailed(e)) => {
                    let silent = monotonic_clock::now().saturating_sub(last_progress);
                    return Err(match http_error_code(&e) {
                        Some(code) => body_error(&code),
                        None if silent + TIMER_SLACK_NS >= between_bytes_ns => {
                            UpstreamError::Timeout { sent: true }
                        }
                        None => UpstreamError::ConnectionLost,
                    });
                }
            }
        }
    }
    Ok(out)
}
