//! The OAuth requests over `wasi:http` ([`crate::oauth::Fetch`]): a `GET` of metadata or
//! keys, or the `POST` of an introspection; no redirect followed, with a deadline for the whole exchange and a byte cap while reading.

use super::bindings::wasi::clocks::monotonic_clock;
use super::bindings::wasi::http::outgoing_handler;
use super::bindings::wasi::http::types::{
    Fields, Method, OutgoingBody, OutgoingRequest, RequestOptions, Scheme,
};
use super::bindings::wasi::io::poll;
use super::bindings::wasi::io::streams::StreamError;
use crate::oauth::keys::MAX_DOCUMENT_BYTES;
use crate::oauth::{Fetch, FetchError};
use crate::prelude::*;

/// The whole exchange, connect to last byte.
const DEADLINE_NS: u64 = 10_000_000_000;

/// Fetches through the host's `wasi:http/outgoing-handler`.
pub struct WasiFetch;

fn fail(why: &str) -> FetchError {
    FetchError(why.to_owned())
}

impl Fetch for WasiFetch {
    fn get(&self, url: &str) -> Result<Vec<u8>, FetchError> {
        exchange(&Method::Get, url, &[], None)
    }

    fn post_form(&self, url: &str, authorization: &str, body: &str) -> Result<Vec<u8>, FetchError> {
        // A declared length, not chunked: some token endpoints read the form by its length.
        let length = body.len().to_string();
        let headers = [
            ("authorization", authorization.as_bytes()),
            (
                "content-type",
                b"application/x-www-form-urlencoded".as_slice(),
            ),
            ("content-length", length.as_bytes()),
        ];
        exchange(&Method::Post, url, &headers, Some(body.as_bytes()))
    }
}

/// One request and its 200 answer's body. Errors name no header or body content.
fn exchange(
    method: &Method,
    url: &str,
    extra_headers: &[(&str, &[u8])],
    body: Option<&[u8]>,
) -> Result<Vec<u8>, FetchError> {
    let (scheme, rest) = url.split_once("://").ok_or_else(|| fail("bad URL"))?;
    let scheme = match scheme {
        "https" => Scheme::Https,
        "http" => Scheme::Http,
        _ => return Err(fail("bad URL")),
    };
    let (authority, path) = rest.find('/').map_or((rest, "/"), |i| rest.split_at(i));
    let headers = Fields::new();
    headers
        .append("accept", b"application/json")
        .map_err(|_| fail("bad header"))?;
    for (name, value) in extra_headers {
        headers
            .append(name, value)
            .map_err(|_| fail("bad header"))?;
    }
    let request = OutgoingRequest::new(headers);
    let formed = request.set_method(method).is_ok()
        && request.set_scheme(Some(&scheme)).is_ok()
        && request.set_authority(Some(authority)).is_ok()
        && request.set_path_with_query(Some(path)).is_ok();
    if !formed {
        return Err(fail("bad URL"));
    }
    let outgoing = match body {
        Some(bytes) => {
            let outgoing = request.body().map_err(|()| fail("no request body"))?;
            {
                let stream = outgoing.write().map_err(|()| fail("no request body"))?;
                for chunk in bytes.chunks(4096) {
                    stream
                        .blocking_write_and_flush(chunk)
                        .map_err(|_| fail("the request body could not be written"))?;
                }
            }
            Some(outgoing)
        }
        None => None,
    };
    let options = RequestOptions::new();
    let _ = options.set_connect_timeout(Some(DEADLINE_NS));
    let _ = options.set_first_byte_timeout(Some(DEADLINE_NS));
    let _ = options.set_between_bytes_timeout(Some(DEADLINE_NS));
    let future = outgoing_handler::handle(request, Some(options))
        .map_err(|e| FetchError(format!("refused: {e:?}")))?;
    if let Some(outgoing) = outgoing {
        OutgoingBody::finish(outgoing, None)
            .map_err(|_| fail("the request body could not be finished"))?;
    }
    let timer = monotonic_clock::subscribe_duration(DEADLINE_NS);
    let ready = future.subscribe();
    if !poll::poll(&[&ready, &timer]).contains(&0) {
        return Err(fail("timed out"));
    }
    let response = match future.get() {
        Some(Ok(Ok(r))) => r,
        Some(Ok(Err(e))) => return Err(FetchError(format!("{e:?}"))),
        _ => return Err(fail("no response")),
    };
    drop(ready);
    let status = response.status();
    if status != 200 {
        return Err(FetchError(format!("HTTP {status}")));
    }
    let body = response.consume().map_err(|()| fail("no body"))?;
    let mut out = Vec::new();
    {
        let stream = body.stream().map_err(|()| fail("no body"))?;
        let readable = stream.subscribe();
        loop {
            if !poll::poll(&[&readable, &timer]).contains(&0) {
                return Err(fail("timed out"));
            }
            match stream.read(64 * 1024) {
                Ok(chunk) => {
                    if out.len() + chunk.len() > MAX_DOCUMENT_BYTES {
                        return Err(fail("the document is too large"));
                    }
                    out.extend_from_slice(&chunk);
                }
                Err(StreamError::Closed) => break,
                Err(StreamError::LastOperationFailed(_)) => return Err(fail("read failed")),
            }
        }
    }
    Ok(out)
}
