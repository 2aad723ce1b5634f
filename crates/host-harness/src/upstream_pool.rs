//! Pooled connections to the configured upstreams, shared by every call of the process (one
//! [`UpstreamPool`] per loaded sandbox or gateway).
//!
//! Each configured origin has its own hyper-util client (HTTP/1.1 keep-alive) whose connector
//! reaches that origin and nothing else, with that origin's trust roots: the built-in web roots
//! (`webpki-roots`) plus the certificates of its `*_CA_FILE`, so a private CA configured for
//! MoviePilot is never trusted for Ombi. rustls resumes TLS sessions per server name (its
//! default in-memory cache), so a new connection to an origin seen before is an abbreviated
//! handshake.
//!
//! * **Bounds.** At most `MEDIA_MCP_UPSTREAM_MAX_IDLE` idle connections per origin (default
//!   16; 0 keeps none, so every request opens a connection), each closed after [`IDLE_TIMEOUT`]
//!   unused. Connections in use are bounded by the requests in flight.
//! * **Policy.** The pool sits behind [`crate::http_hooks`], which checks the origin and sets
//!   the credential on every request before it gets here; a request for an origin without a
//!   client is refused.
//! * **No replays.** hyper-util re-sends a request only when hyper hands it back unwritten (a
//!   pooled connection found closed before the request was written); a request that may have
//!   been written and then lost its connection fails with `connection-terminated`, which the
//!   component reports as an unknown outcome for a write.
//! * **Timeouts.** Connecting (TCP and TLS) is bounded by the capped connect timeout; the wait
//!   for the response head by the connect plus first-byte timeouts; each wait between body
//!   chunks by the between-bytes timeout.

use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::{Connected, Connection};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use wasmtime_wasi_http::{Error as HttpError, RequestOptions, WasiBody};

use crate::config::Settings;
use crate::policy::{MAX_CONNECT_TIMEOUT, Origin};

/// How long an idle pooled connection is kept before it is closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// The pooled clients of one process, one per configured origin.
#[derive(Debug, Default)]
pub struct UpstreamPool {
    origins: Vec<OriginPool>,
}

struct OriginPool {
    origin: Origin,
    extra_roots: Vec<CertificateDer<'static>>,
    ca_variable: &'static str,
    max_idle: usize,
    /// How long a connection idle since its own last exchange is kept ([`IDLE_TIMEOUT`]).
    idle_timeout: Duration,
    /// Built on first use, inside the runtime whose tasks drive its connections.
    client: OnceLock<Client<OriginConnector, WasiBody>>,
}

impl std::fmt::Debug for OriginPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OriginPool")
            .field("origin", &self.origin.to_string())
            .field("extra_roots", &self.extra_roots.len())
            .field("max_idle", &self.max_idle)
            .finish_non_exhaustive()
    }
}

impl UpstreamPool {
    /// One client per configured upstream origin. When two upstreams share an origin, the first
    /// configured one's trust roots apply.
    pub fn from_settings(settings: &Settings) -> UpstreamPool {
        let mut origins: Vec<OriginPool> = Vec::new();
        for upstream in settings.upstreams() {
            let Some(origin) = Origin::of_url(&upstream.url) else {
                continue;
            };
            if origins.iter().any(|o| o.origin == origin) {
                continue;
            }
            origins.push(OriginPool {
                origin,
                extra_roots: upstream.extra_roots.clone(),
                ca_variable: upstream.spec.ca_file.name,
                max_idle: settings.upstream_max_idle,
                idle_timeout: IDLE_TIMEOUT,
                client: OnceLock::new(),
            });
        }
        UpstreamPool { origins }
    }

    /// This pool, also reaching `origins` (the identity provider's, in OAuth mode) with the
    /// public roots only.
    #[must_use]
    pub fn allowing(mut self, origins: &[url::Url], max_idle: usize) -> UpstreamPool {
        for origin in origins.iter().filter_map(Origin::of_url) {
            if self.origins.iter().any(|o| o.origin == origin) {
                continue;
            }
            self.origins.push(OriginPool {
                origin,
                extra_roots: Vec::new(),
                ca_variable: "",
                max_idle,
                idle_timeout: IDLE_TIMEOUT,
                client: OnceLock::new(),
            });
        }
        self
    }

    /// Sends `request` (already authorized by the policy) over a pooled connection to its
    /// origin, within `options`' timeouts.
    pub(crate) async fn send(
        &self,
        request: http::Request<WasiBody>,
        options: RequestOptions,
    ) -> Result<http::Response<WasiBody>, HttpError> {
        use http_body_util::BodyExt as _;
        let origin = Origin::of_uri(request.uri()).ok_or(HttpError::HttpRequestUriInvalid)?;
        let pool = self
            .origins
            .iter()
            .find(|o| o.origin == origin)
            .ok_or(HttpError::HttpRequestDenied)?;
        let connect = options.connect_timeout.unwrap_or(MAX_CONNECT_TIMEOUT);
        let head_wait = connect + options.first_byte_timeout.unwrap_or(connect);
        let between_bytes = options
            .between_bytes_timeout
            .unwrap_or(crate::policy::MAX_BETWEEN_BYTES_TIMEOUT)
            .max(Duration::from_millis(1));
        let response = match tokio::time::timeout(head_wait, pool.client().request(request)).await {
            Err(_elapsed) => return Err(HttpError::ConnectionReadTimeout),
            Ok(Err(error)) => return Err(pool.error_of(&error)),
            Ok(Ok(response)) => response,
        };
        Ok(response.map(|incoming| {
            let mut timeout = tokio::time::interval(between_bytes);
            timeout.reset();
            TimedBody { incoming, timeout }.boxed_unsync()
        }))
    }
}

impl OriginPool {
    fn client(&self) -> &Client<OriginConnector, WasiBody> {
        self.client.get_or_init(|| {
            let tls = (self.origin.scheme() == "https").then(|| {
                let mut roots = rustls::RootCertStore {
                    roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
                };
                // Checked at start (the configuration's CA file check): every certificate is accepted.
                let (_added, _ignored) = roots.add_parsable_certificates(self.extra_roots.clone());
                let provider = Arc::new(rustls::crypto::ring::default_provider());
                let mut config = rustls::ClientConfig::builder_with_provider(provider)
                    .with_safe_default_protocol_versions()
                    .expect("the ring provider supports the default TLS versions")
                    .with_root_certificates(roots)
                    .with_no_client_auth();
                config.alpn_protocols = vec![b"http/1.1".to_vec()];
                tokio_rustls::TlsConnector::from(Arc::new(config))
            });
            let connector = OriginConnector {
                origin: Arc::new(self.origin.clone()),
                tls,
            };
            Client::builder(TokioExecutor::new())
                .pool_timer(TokioTimer::new())
                .pool_idle_timeout(self.idle_timeout)
                .pool_max_idle_per_host(self.max_idle)
                .build(connector)
        })
    }

    /// What the guest is told about a failed exchange.
    fn error_of(&self, error: &hyper_util::client::legacy::Error) -> HttpError {
        let source = std::error::Error::source(error);
        if let Some(failure) = source.and_then(|s| s.downcast_ref::<ConnectError>()) {
            crate::log_debug!("connecting to {} failed: {failure}", self.origin);
            return match failure {
                ConnectError::Timeout => HttpError::ConnectionTimeout,
                ConnectError::Tls(tls) => tls_error(tls, self.ca_variable),
                ConnectError::Io(_) | ConnectError::WrongOrigin => HttpError::ConnectionRefused,
            };
        }
        match source.and_then(|s| s.downcast_ref::<hyper::Error>()) {
            Some(hyper) => {
                crate::log_debug!(
                    "outgoing HTTP exchange with {} failed: {hyper}",
                    self.origin
                );
                match Failure::of_hyper(hyper) {
                    Failure::Timeout => HttpError::HttpResponseTimeout,
                    Failure::Terminated => HttpError::ConnectionTerminated,
                    Failure::Protocol => HttpError::HttpProtocolError,
                }
            }
            // hyper-util's own failures before a connection was used (a request it could not
            // route): nothing was sent.
            None => {
                crate::log_debug!("outgoing request to {} failed: {error}", self.origin);
                HttpError::ConnectionRefused
            }
        }
    }
}

/// How an HTTP exchange hyper reported as failed ended.
pub(crate) enum Failure {
    /// A hyper timeout.
    Timeout,
    /// The connection closed or broke before the whole response arrived: the answer was lost,
    /// which makes a write's outcome unknown.
    Terminated,
    /// Something hyper could not parse.
    Protocol,
}

impl Failure {
    pub(crate) fn of_hyper(err: &hyper::Error) -> Failure {
        let io_failure = std::error::Error::source(err)
            .and_then(|s| s.downcast_ref::<std::io::Error>())
            .is_some();
        if err.is_timeout() {
            Failure::Timeout
        } else if err.is_incomplete_message() || err.is_closed() || err.is_canceled() || io_failure
        {
            Failure::Terminated
        } else {
            Failure::Protocol
        }
    }
}

/// A TLS failure as the guest sees it. wasi:http's `tls-certificate-error` carries no detail,
/// so a rejected certificate travels as `tls-alert-received` without an alert id (the alert
/// the harness sent) and a message naming the problem and the setting that adds trust.
fn tls_error(error: &rustls::Error, ca_variable: &str) -> HttpError {
    use rustls::CertificateError as C;
    let message = match error {
        rustls::Error::InvalidCertificate(problem) => {
            let (what, name) = match problem {
                C::UnknownIssuer => ("not trusted", "UnknownIssuer"),
                C::BadSignature => ("not trusted", "BadSignature"),
                C::Expired | C::ExpiredContext { .. } => ("expired", "Expired"),
                C::NotValidYet | C::NotValidYetContext { .. } => ("not valid yet", "NotValidYet"),
                C::NotValidForName | C::NotValidForNameContext { .. } => {
                    ("not valid for this host", "NotValidForName")
                }
                C::Revoked => ("revoked", "Revoked"),
                C::BadEncoding => ("unreadable", "BadEncoding"),
                _ => ("rejected", "other"),
            };
            if ca_variable.is_empty() {
                format!("certificate {what}: {name} (only public roots are trusted here)")
            } else {
                format!(
                    "certificate {what}: {name} (a private CA can be trusted with {ca_variable})"
                )
            }
        }
        rustls::Error::AlertReceived(alert) => format!("the server sent alert {alert:?}"),
        other => {
            crate::log_debug!("TLS handshake failed: {other}");
            return HttpError::TlsProtocolError;
        }
    };
    HttpError::TlsAlertReceived {
        alert_id: None,
        alert_message: Some(message),
    }
}

/// Why a connection to an origin could not be made.
#[derive(Debug)]
enum ConnectError {
    /// The pool asked for another origin (never happens: each client serves one origin).
    WrongOrigin,
    /// TCP connect and TLS handshake took longer than [`MAX_CONNECT_TIMEOUT`].
    Timeout,
    /// The TCP connection failed.
    Io(std::io::Error),
    /// The TLS handshake failed.
    Tls(rustls::Error),
}

impl std::fmt::Display for ConnectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConnectError::WrongOrigin => f.write_str("not this connector's origin"),
            ConnectError::Timeout => f.write_str("timed out"),
            ConnectError::Io(e) => write!(f, "{}", e.kind()),
            ConnectError::Tls(e) => write!(f, "TLS: {e}"),
        }
    }
}

impl std::error::Error for ConnectError {}

/// Opens connections to one origin only: TCP, then TLS with the origin's roots for https.
#[derive(Clone)]
struct OriginConnector {
    origin: Arc<Origin>,
    tls: Option<tokio_rustls::TlsConnector>,
}

impl tower_service::Service<http::Uri> for OriginConnector {
    type Response = TokioIo<Stream>;
    type Error = ConnectError;
    type Future = Pin<Box<dyn Future<Output = Result<TokioIo<Stream>, ConnectError>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), ConnectError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, uri: http::Uri) -> Self::Future {
        let origin = self.origin.clone();
        let tls = self.tls.clone();
        Box::pin(async move {
            if Origin::of_uri(&uri).as_ref() != Some(&*origin) {
                return Err(ConnectError::WrongOrigin);
            }
            let host = origin.host().trim_start_matches('[').trim_end_matches(']');
            let connect = async {
                let tcp = TcpStream::connect((host, origin.port()))
                    .await
                    .map_err(ConnectError::Io)?;
                let _ = tcp.set_nodelay(true);
                let Some(tls) = tls else {
                    return Ok(Stream::Plain(tcp));
                };
                let name = match host.parse::<std::net::IpAddr>() {
                    Ok(ip) => ServerName::from(ip),
                    Err(_) => ServerName::try_from(host.to_owned())
                        .map_err(|_| ConnectError::Io(std::io::ErrorKind::InvalidInput.into()))?,
                };
                let stream = tls.connect(name, tcp).await.map_err(|e| {
                    match e
                        .get_ref()
                        .and_then(|inner| inner.downcast_ref::<rustls::Error>())
                    {
                        Some(tls_error) => ConnectError::Tls(tls_error.clone()),
                        None => ConnectError::Io(e),
                    }
                })?;
                Ok(Stream::Tls(Box::new(stream)))
            };
            match tokio::time::timeout(MAX_CONNECT_TIMEOUT, connect).await {
                Ok(stream) => stream.map(TokioIo::new),
                Err(_elapsed) => Err(ConnectError::Timeout),
            }
        })
    }
}

/// A connection to an upstream, plain or TLS.
enum Stream {
    Plain(TcpStream),
    Tls(Box<tokio_rustls::client::TlsStream<TcpStream>>),
}

impl Connection for Stream {
    fn connected(&self) -> Connected {
        Connected::new()
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// A response body whose every wait for the next chunk is bounded.
struct TimedBody {
    incoming: hyper::body::Incoming,
    timeout: tokio::time::Interval,
}

impl http_body::Body for TimedBody {
    type Data = bytes::Bytes;
    type Error = HttpError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<bytes::Bytes>, HttpError>>> {
        match Pin::new(&mut self.incoming).poll_frame(cx) {
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Ready(Some(Err(err))) if err.is_timeout() => {
                Poll::Ready(Some(Err(HttpError::HttpResponseTimeout)))
            }
            Poll::Ready(Some(Err(err))) => Poll::Ready(Some(Err(HttpError::Hyper(err)))),
            Poll::Ready(Some(Ok(frame))) => {
                self.timeout.reset();
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Pending => {
                ready!(self.timeout.poll_tick(cx));
                Poll::Ready(Some(Err(HttpError::ConnectionReadTimeout)))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.incoming.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.incoming.size_hint()
    }
}

#[cfg(test)]
mod tests;
