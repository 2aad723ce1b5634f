//! The `wasi:http` hooks of every store: each outgoing request is checked by
//! [`Policy`](crate::policy::Policy) before any connection is made.
//!
//! * an origin that is not a configured upstream gets `HttpRequestDenied` (the guest sees
//!   `error-code::HTTP-request-denied`), without network access;
//! * the upstream's credential header is added on the way out (see [`crate::policy`]);
//! * timeouts are capped ([`cap_request_options`]);
//! * the request goes out over the process's pooled connection to its origin
//!   ([`UpstreamPool`]);
//! * redirects are never followed: the pool's client makes a single HTTP/1 exchange, so a 3xx
//!   goes back to the guest as is, and any request it makes to the `Location` passes through
//!   this hook again.
//!
//! Logging names the method, origin and path only: never headers, never the query string.

use std::sync::Arc;

use wasmtime_wasi_http::{Error as HttpError, RequestOptions, WasiBody, WasiHttpHooks};

use crate::policy::{Origin, Policy, cap_request_options};
use crate::upstream_pool::{Failure, UpstreamPool};

type IoFuture = Box<dyn Future<Output = Result<(), HttpError>> + Send>;
type SendFuture =
    Box<dyn Future<Output = Result<(http::Response<WasiBody>, IoFuture), HttpError>> + Send>;

/// [`WasiHttpHooks`] that enforce a [`Policy`].
#[derive(Debug, Clone)]
pub struct PolicyHooks {
    policy: Arc<Policy>,
    upstreams: Arc<UpstreamPool>,
    attempted: usize,
}

impl PolicyHooks {
    /// Hooks for one store, sharing the process-wide policy and connection pool.
    pub fn new(policy: Arc<Policy>, upstreams: Arc<UpstreamPool>) -> Self {
        PolicyHooks {
            policy,
            upstreams,
            attempted: 0,
        }
    }

    /// How many outgoing requests the guest attempted through these hooks, refused ones
    /// included. A `list-tools` that attempted none depends only on the component and its
    /// environment, so its answer may be cached (see [`crate::artifact_cache`]).
    pub(crate) fn requests_attempted(&self) -> usize {
        self.attempted
    }
}

impl WasiHttpHooks for PolicyHooks {
    fn send_request(
        &mut self,
        mut request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
        fut: IoFuture,
    ) -> SendFuture {
        _ = fut;
        self.attempted += 1;
        let method = request.method().clone();
        let origin = Origin::of_uri(request.uri())
            .map_or_else(|| "<no origin>".to_owned(), |o| o.to_string());
        let path = request.uri().path().to_owned();
        let uri = request.uri().clone();
        if let Err(refusal) = self.policy.apply(&uri, request.headers_mut()) {
            crate::log_warn!("refused outgoing {method} {origin}{path}: {refusal}");
            return Box::new(async { Err(HttpError::HttpRequestDenied) });
        }
        crate::log_debug!("outgoing {method} {origin}{path}");
        let options = cap_request_options(options, self.policy.first_byte_cap(&uri));
        let upstreams = self.upstreams.clone();
        Box::new(async move {
            let response = upstreams.send(request, options).await?;
            // The pool's own tasks drive the connection: nothing is left for the caller to poll.
            Ok((response, Box::new(async { Ok(()) }) as IoFuture))
        })
    }

    fn p2_error_from_connect(
        &mut self,
        err: &std::io::Error,
    ) -> wasmtime_wasi_http::p2::bindings::http::types::ErrorCode {
        crate::log_debug!("outgoing connection failed: {}", err.kind());
        wasmtime_wasi_http::p2::bindings::http::types::ErrorCode::ConnectionRefused
    }

    fn p2_error_from_hyper(
        &mut self,
        err: &hyper::Error,
    ) -> wasmtime_wasi_http::p2::bindings::http::types::ErrorCode {
        crate::log_debug!("outgoing HTTP exchange failed: {err}");
        error_code_of_hyper(err)
    }
}

/// What the guest is told about a failed exchange: a connection closed or reset before the
/// whole response arrived is `connection-terminated` (the answer was lost, which makes a
/// write's outcome unknown), a hyper timeout a response timeout, and only what hyper could
/// not parse a protocol error.
fn error_code_of_hyper(
    err: &hyper::Error,
) -> wasmtime_wasi_http::p2::bindings::http::types::ErrorCode {
    use wasmtime_wasi_http::p2::bindings::http::types::ErrorCode;
    match Failure::of_hyper(err) {
        Failure::Timeout => ErrorCode::HttpResponseTimeout,
        Failure::Terminated => ErrorCode::ConnectionTerminated,
        Failure::Protocol => ErrorCode::HttpProtocolError,
    }
}
