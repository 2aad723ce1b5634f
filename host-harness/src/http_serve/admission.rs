//! What the harness checks before a request costs a slot or its body is read: the `Host`
//! header, then the transport component's own admission (path, Origin, CORS preflight,
//! method, token, user header, content type, protocol version, declared size), run natively:
//! `media-mcp-transport` is plain Rust, so the harness links the same code the component runs,
//! and refuses exactly what the component would, without an instance. A request it admits is
//! admitted again inside the component, by the same rules.

use bytes::Bytes;
use http_body_util::Full;
use media_mcp_transport::http::{self, Admitted, Head, Response};
use media_mcp_transport::{Settings, admit};

use crate::sandbox::GatewayResponse;

/// Admits `parts` on its headers alone, or gives the answer to send (with its CORS headers).
#[allow(
    clippy::result_large_err,
    reason = "the refusal is the response sent at once, never stored or passed along"
)]
pub(super) fn check(
    settings: &Settings,
    parts: &hyper::http::request::Parts,
) -> Result<Admitted, GatewayResponse> {
    let headers: Vec<(String, Vec<u8>)> = parts
        .headers
        .iter()
        .map(|(name, value)| (name.as_str().to_owned(), value.as_bytes().to_vec()))
        .collect();
    let path = parts
        .uri
        .path_and_query()
        .map_or("/", hyper::http::uri::PathAndQuery::as_str);
    let head = Head {
        method: parts.method.as_str(),
        path_with_query: path,
        headers: &headers,
    };
    let refusal =
        if parts.headers.get(hyper::header::HOST).is_none() && parts.uri.authority().is_none() {
            Response::error(
                400,
                http::TRANSPORT_ERROR,
                "bad request: an HTTP/1.1 request needs a Host header",
            )
        } else {
            match admit(settings, &head) {
                Ok(admitted) => return Ok(admitted),
                Err(refusal) => refusal,
            }
        };
    Err(to_hyper(http::with_cors(settings, &head, refusal)))
}

/// The transport's `response` as a hyper answer.
pub(super) fn to_hyper(response: Response) -> GatewayResponse {
    let mut answer = hyper::Response::new(Full::new(Bytes::from(response.body)));
    *answer.status_mut() = hyper::StatusCode::from_u16(response.status)
        .unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    for (name, value) in response.headers {
        if let Ok(value) = hyper::header::HeaderValue::from_str(&value) {
            answer
                .headers_mut()
                .append(hyper::header::HeaderName::from_static(name), value);
        }
    }
    answer
}

/// A refusal of the body (it did not arrive in time, or could not be read).
pub(super) fn body_refusal(status: u16, message: &str) -> GatewayResponse {
    to_hyper(Response::error(status, http::TRANSPORT_ERROR, message))
}

/// The transport's 413 answer.
pub(super) fn too_large() -> GatewayResponse {
    to_hyper(http::too_large())
}

/// The start error for an authentication mode the harness cannot serve: OAuth
/// (`MEDIA_MCP_HTTP_AUTH=oauth`, `auth` its value) needs the transport to read the identity
/// provider's keys, and the harness's outbound allowlist holds only the upstreams. Checked
/// before the transport's settings, so the OAuth variables need not be set to see it.
///
/// # Errors
///
/// OAuth mode, with a message naming the variable and the hosts that serve it.
pub fn supported(auth: Option<&str>) -> Result<(), String> {
    if auth.is_some_and(|mode| mode.trim() == "oauth") {
        return Err(
            "MEDIA_MCP_HTTP_AUTH=oauth is not served by `host-harness serve --http` \
                    yet: OAuth is served by `wasmtime serve`/wasmCloud for now (run \
                    target/media_mcp_http.wasm there), or use MEDIA_MCP_HTTP_TOKENS here"
                .to_owned(),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oauth_mode_is_refused_naming_the_variable_and_the_hosts_that_serve_it() {
        let e = supported(Some(" oauth")).unwrap_err();
        assert!(e.contains("MEDIA_MCP_HTTP_AUTH"), "{e}");
        assert!(e.contains("`wasmtime serve`/wasmCloud"), "{e}");
    }

    #[test]
    fn token_and_off_modes_start() {
        for auth in [None, Some("off"), Some("tokens")] {
            assert_eq!(supported(auth), Ok(()));
        }
    }
}
