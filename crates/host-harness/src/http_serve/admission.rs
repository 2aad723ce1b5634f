//! What the harness checks before a request costs a slot or its body is read: the `Host`
//! header, then the transport component's own admission (path, Origin, CORS preflight,
//! method, token, user header, content type, protocol version, declared size), run natively:
//! in OAuth mode the protected resource metadata is answered here too, while the access token
//! is checked inside the component (its keys come from the identity provider over wasi:http).
//! `media-mcp-transport` is plain Rust, so the harness links the same code the component runs,
//! and refuses exactly what the component would, without an instance. A request it admits is
//! admitted again inside the component, by the same rules.

use bytes::Bytes;
use http_body_util::Full;
use media_mcp_transport::auth::AuthMode;
use media_mcp_transport::http::{self, Admitted, Head, Response};
use media_mcp_transport::{Settings, admit, resource_server};

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
        } else if let AuthMode::OAuth(o) = &settings.auth
            && let Some(metadata) = resource_server::metadata::serve(o, &settings.path, &head)
        {
            metadata
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
