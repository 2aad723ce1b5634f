//! [`Reply`]: what a fake upstream answers instead of its normal answer, and how the fakes send
//! one: a complete response (after a delay), raw bytes that take the socket over from hyper
//! ([`crate::raw`]), a huge body made while it streams, or one of several replies picked per
//! request. Both fakes send replies through [`send`], so a fault means the same bytes on the wire
//! whichever fake serves it.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};

use crate::lock::lock;
use crate::raw::{RawEnd, RawPlan, RawSender};

/// `Content-Type` of JSON replies.
pub(crate) const JSON: &str = "application/json; charset=utf-8";

/// The response body type both fakes answer with.
pub(crate) type Body = BoxBody<Bytes, Infallible>;

/// What a route answers instead of its fixture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// A complete response, sent after `delay`.
    Canned {
        /// HTTP status.
        status: u16,
        /// `Content-Type`, if any.
        content_type: Option<String>,
        /// Body bytes.
        body: Bytes,
        /// Extra response headers.
        headers: Vec<(String, String)>,
        /// Wait before answering (the upstream is slow).
        delay: Duration,
    },
    /// Bytes written straight to the socket after `delay` (no HTTP framing by the server, so
    /// they may lie about lengths or stop half-way), then the connection ends as `end` says.
    /// Built by [`Fault`](crate::Fault) for replies no well-behaved server sends.
    Raw {
        /// What is written, headers included.
        bytes: Bytes,
        /// How the connection ends afterwards.
        end: RawEnd,
        /// Wait before writing.
        delay: Duration,
    },
    /// A body of `total` filler bytes made chunk by chunk while it is sent (never held in
    /// memory), with a `Content-Length` when `declare_length`, chunked otherwise.
    Streamed {
        /// HTTP status.
        status: u16,
        /// Body length in bytes.
        total: u64,
        /// Whether `Content-Length` announces `total`.
        declare_length: bool,
    },
    /// One of several replies, picked by a hash of the request (method, path, query, body):
    /// the same request always gets the same reply, different requests spread over all.
    PerRequest(Vec<Reply>),
}

impl Reply {
    /// A response with this status, content type and body.
    pub fn new(status: u16, content_type: Option<&str>, body: impl Into<Bytes>) -> Reply {
        Reply::Canned {
            status,
            content_type: content_type.map(str::to_owned),
            body: body.into(),
            headers: Vec::new(),
            delay: Duration::ZERO,
        }
    }

    /// A JSON response (`application/json; charset=utf-8`).
    pub fn json(status: u16, body: impl Into<Bytes>) -> Reply {
        Reply::new(status, Some(JSON), body)
    }

    /// A status with an empty body and no content type.
    pub fn empty(status: u16) -> Reply {
        Reply::new(status, None, Bytes::new())
    }

    /// The same reply after `delay`.
    pub fn with_delay(self, delay: Duration) -> Reply {
        match self {
            Reply::Canned {
                status,
                content_type,
                body,
                headers,
                ..
            } => Reply::Canned {
                status,
                content_type,
                body,
                headers,
                delay,
            },
            Reply::Raw { bytes, end, .. } => Reply::Raw { bytes, end, delay },
            other => other,
        }
    }

    /// The same reply with one more response header.
    pub fn with_header(self, name: &str, value: &str) -> Reply {
        match self {
            Reply::Canned {
                status,
                content_type,
                body,
                mut headers,
                delay,
            } => {
                headers.push((name.to_owned(), value.to_owned()));
                Reply::Canned {
                    status,
                    content_type,
                    body,
                    headers,
                    delay,
                }
            }
            other => other,
        }
    }
}

/// A hash of a request (method, path, query, body) that picks a [`Reply::PerRequest`] option.
pub(crate) fn fingerprint(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part.iter().chain(&[0xff]) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// How one fake answers: the `Server` header it sends and the count of filler bytes its
/// [`Reply::Streamed`] bodies have handed to sockets.
#[derive(Debug)]
pub(crate) struct Responder {
    server: &'static str,
    streamed: Arc<AtomicU64>,
}

impl Responder {
    /// A responder that names itself `server`.
    pub(crate) fn new(server: &'static str) -> Responder {
        Responder {
            server,
            streamed: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Filler bytes handed to sockets so far.
    pub(crate) fn streamed_bytes(&self) -> u64 {
        self.streamed.load(Ordering::Relaxed)
    }

    /// Sends `reply`; `fingerprint` picks among [`Reply::PerRequest`] options.
    pub(crate) async fn send(
        &self,
        mut reply: Reply,
        fingerprint: u64,
        raw: &RawSender,
    ) -> Response<Body> {
        // Bounded: each step removes one level of nesting.
        while let Reply::PerRequest(options) = reply {
            if options.is_empty() {
                return self.respond(500, None, Bytes::new(), &[]);
            }
            let at = (fingerprint % options.len() as u64) as usize;
            reply = options
                .into_iter()
                .nth(at)
                .unwrap_or_else(|| Reply::empty(500));
        }
        match reply {
            Reply::Raw { bytes, end, delay } => {
                let sender = lock(raw).take();
                if let Some(sender) = sender
                    && sender.send(RawPlan { bytes, end, delay }).is_ok()
                {
                    // The connection task now owns the socket; hyper must never answer.
                    std::future::pending::<()>().await;
                }
                self.respond(500, None, Bytes::new(), &[])
            }
            Reply::Streamed {
                status,
                total,
                declare_length,
            } => {
                let body = Filler {
                    left: total,
                    started: false,
                    declared: declare_length.then_some(total),
                    counter: self.streamed.clone(),
                };
                let mut response = self.respond(status, Some(JSON), Bytes::new(), &[]);
                *response.body_mut() = BodyExt::boxed(body);
                response
            }
            Reply::PerRequest(_) => self.respond(500, None, Bytes::new(), &[]),
            Reply::Canned {
                status,
                content_type,
                body,
                headers,
                delay,
            } => {
                if !delay.is_zero() {
                    tokio::time::sleep(delay).await;
                }
                self.respond(status, content_type.as_deref(), body, &headers)
            }
        }
    }

    /// A complete response.
    pub(crate) fn respond(
        &self,
        status: u16,
        content_type: Option<&str>,
        body: Bytes,
        headers: &[(String, String)],
    ) -> Response<Body> {
        let mut builder = Response::builder()
            .status(StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
            .header("server", self.server);
        if let Some(content_type) = content_type {
            builder = builder.header("content-type", content_type);
        }
        for (name, value) in headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        builder.body(Full::new(body).boxed()).unwrap_or_else(|_| {
            Response::new(Full::new(Bytes::from_static(b"bad override header")).boxed())
        })
    }
}

/// A streamed body of filler (`[0,0,0,...`): each frame is made when hyper asks for it, so
/// a reader that stops early leaves the rest unmade.
struct Filler {
    left: u64,
    started: bool,
    declared: Option<u64>,
    counter: Arc<AtomicU64>,
}

/// Bytes per frame of a [`Filler`] body.
const FILLER_CHUNK: u64 = 64 * 1024;

impl http_body::Body for Filler {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        if self.left == 0 {
            return Poll::Ready(None);
        }
        let first = !self.started;
        self.started = true;
        let n = self.left.min(FILLER_CHUNK);
        self.left -= n;
        self.counter.fetch_add(n, Ordering::Relaxed);
        let mut chunk = b"0,".repeat((n / 2) as usize);
        chunk.resize(n as usize, b' ');
        if first {
            chunk[0] = b'[';
        }
        Poll::Ready(Some(Ok(http_body::Frame::data(Bytes::from(chunk)))))
    }

    fn is_end_stream(&self) -> bool {
        self.left == 0
    }

    fn size_hint(&self) -> http_body::SizeHint {
        match self.declared {
            Some(_) => http_body::SizeHint::with_exact(self.left),
            None => http_body::SizeHint::default(),
        }
    }
}
