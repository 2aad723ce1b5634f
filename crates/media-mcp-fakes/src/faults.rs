//! [`Fault`]: the ways an upstream can misbehave, as [`Reply`]s that [`FakeOmbi`] serves on a
//! route ([`FakeOmbi::set_fault`]) or on every route ([`FakeOmbi::set_override_everywhere`]).
//!
//! Each fault is something a real Ombi, a proxy in front of it or a broken network does: a late
//! answer, a reset before or after the headers, a stall mid-body, rate limiting, Ombi's own
//! failure shapes (middleware `{"error": …}`, ProblemDetails leaking a stack trace and a
//! connection string, the SPA's HTML page with 200), bodies that are empty, invalid, of the
//! wrong shape, truncated, far over the plugin's byte cap, framed with a lying
//! `Content-Length`, compressed or not UTF-8, and a redirect to another origin. The fault
//! matrix and canary tests (`tests/it/faults.rs`, `tests/it/canary.rs`) run every tool through
//! these; the fake MoviePilot sends the transport faults among them byte for byte
//! ([`CallFault::Transport`](crate::moviepilot::faults::CallFault::Transport)).
//!
//! [`FakeOmbi`]: crate::ombi::FakeOmbi
//! [`FakeOmbi::set_fault`]: crate::ombi::FakeOmbi::set_fault
//! [`FakeOmbi::set_override_everywhere`]: crate::ombi::FakeOmbi::set_override_everywhere

use std::time::Duration;

use bytes::Bytes;

use crate::fixtures::fixture;
use crate::raw::RawEnd;
use crate::reply::Reply;

/// A secret-looking value that [`Fault::ProblemDetailsLeak`] and [`Fault::OmbiError500`]
/// carry, so tests can check that it never reaches a caller.
pub const LEAKED_PASSWORD: &str = "hunter2-leaked-db-password";

/// A stack-frame marker that [`Fault::ProblemDetailsLeak`] carries.
pub const LEAKED_FRAME: &str = "Ombi.Store.Context.OmbiContext";

/// Size of the body of [`Fault::Oversized`]: 64 times the plugin's 4 MiB cap, and four times
/// the default per-call memory limit, so a reader that buffered it could not survive.
pub const OVERSIZED_BYTES: u64 = 256 << 20;

/// One way for an upstream route to misbehave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// A good answer (`[]`), but only after this long (longer than the call's deadline).
    Slow(Duration),
    /// The connection is reset before any byte of the response.
    ResetBeforeHeaders,
    /// Headers and part of the body arrive, then the connection is reset.
    ResetAfterHeaders,
    /// Headers and part of the body arrive, then nothing for this long.
    StallMidBody(Duration),
    /// 429, with `Retry-After: n` when given.
    RateLimited(Option<u64>),
    /// Ombi's middleware answer to an unhandled exception: 500 `{"error": "..."}` whose
    /// message carries a connection string and a stack trace.
    OmbiError500,
    /// 500 ProblemDetails whose `detail` and `exception` carry a stack trace and a connection
    /// string with a password.
    ProblemDetailsLeak,
    /// Ombi's single-page-app HTML with status 200.
    HtmlPage,
    /// 204 with no body where a body was expected.
    NoContent,
    /// 200 `application/json` that is not JSON.
    InvalidJson,
    /// 200 JSON of a shape no route documents (arrays of arrays of strings).
    WrongShape,
    /// A chunked body that stops mid-JSON without its last chunk; the connection closes.
    Truncated,
    /// A body of [`OVERSIZED_BYTES`] made while it is sent; `declared`: announced by
    /// `Content-Length` (otherwise chunked, so only reading finds out).
    Oversized {
        /// Whether `Content-Length` announces the size.
        declared: bool,
    },
    /// `Content-Length` announces more bytes than are sent; the connection then closes.
    LengthLongerThanBody,
    /// `Content-Length` announces fewer bytes than are sent (the JSON is cut by the framing).
    LengthShorterThanBody,
    /// 302 to this absolute URL (another origin).
    Redirect(String),
    /// 200 JSON compressed with gzip (`Content-Encoding: gzip`), which the plugin never asked
    /// for.
    Gzip,
    /// 200 `application/json; charset=utf-8` whose bytes are not UTF-8.
    NonUtf8,
}

impl Fault {
    /// Every fault once: `slow` for [`Fault::Slow`] and [`Fault::StallMidBody`] (make it
    /// longer than the call's deadline), `redirect_to` for [`Fault::Redirect`].
    pub fn all(slow: Duration, redirect_to: &str) -> Vec<Fault> {
        vec![
            Fault::Slow(slow),
            Fault::ResetBeforeHeaders,
            Fault::ResetAfterHeaders,
            Fault::StallMidBody(slow),
            Fault::RateLimited(Some(7)),
            Fault::RateLimited(None),
            Fault::OmbiError500,
            Fault::ProblemDetailsLeak,
            Fault::HtmlPage,
            Fault::NoContent,
            Fault::InvalidJson,
            Fault::WrongShape,
            Fault::Truncated,
            Fault::Oversized { declared: true },
            Fault::Oversized { declared: false },
            Fault::LengthLongerThanBody,
            Fault::LengthShorterThanBody,
            Fault::Redirect(redirect_to.to_owned()),
            Fault::Gzip,
            Fault::NonUtf8,
        ]
    }

    /// A short stable name (`reset_after_headers`), for test messages.
    pub fn name(&self) -> String {
        match self {
            Fault::Slow(_) => "slow".into(),
            Fault::ResetBeforeHeaders => "reset_before_headers".into(),
            Fault::ResetAfterHeaders => "reset_after_headers".into(),
            Fault::StallMidBody(_) => "stall_mid_body".into(),
            Fault::RateLimited(Some(_)) => "rate_limited_retry_after".into(),
            Fault::RateLimited(None) => "rate_limited".into(),
            Fault::OmbiError500 => "ombi_error_500".into(),
            Fault::ProblemDetailsLeak => "problem_details_leak".into(),
            Fault::HtmlPage => "html_200".into(),
            Fault::NoContent => "no_content_204".into(),
            Fault::InvalidJson => "invalid_json".into(),
            Fault::WrongShape => "wrong_shape".into(),
            Fault::Truncated => "truncated".into(),
            Fault::Oversized { declared: true } => "oversized_declared".into(),
            Fault::Oversized { declared: false } => "oversized_chunked".into(),
            Fault::LengthLongerThanBody => "length_longer_than_body".into(),
            Fault::LengthShorterThanBody => "length_shorter_than_body".into(),
            Fault::Redirect(_) => "redirect_off_origin".into(),
            Fault::Gzip => "gzip".into(),
            Fault::NonUtf8 => "non_utf8".into(),
        }
    }

    /// Whether the fault only shows after a wait (tests run these with a short deadline).
    pub fn is_slow(&self) -> bool {
        matches!(self, Fault::Slow(_) | Fault::StallMidBody(_))
    }

    /// What the fake sends.
    pub fn reply(&self) -> Reply {
        const PARTIAL: &str = r#"[{"id":603,"title":"The Ma"#;
        match self {
            Fault::Slow(delay) => Reply::json(200, "[]").with_delay(*delay),
            Fault::ResetBeforeHeaders => raw(Vec::new(), RawEnd::Reset),
            Fault::ResetAfterHeaders => raw(head(200, "Content-Length: 4096", PARTIAL), RawEnd::Reset),
            Fault::StallMidBody(stall) => raw(
                head(200, "Content-Length: 4096", PARTIAL),
                RawEnd::Stall(*stall),
            ),
            Fault::RateLimited(after) => {
                let reply = Reply::new(429, Some("text/plain"), "Too Many Requests");
                match after {
                    Some(seconds) => reply.with_header("Retry-After", &seconds.to_string()),
                    None => reply,
                }
            }
            Fault::OmbiError500 => Reply::json(
                500,
                format!(
                    r#"{{"error":"Cannot open database. Server=db;User Id=sa;Password={LEAKED_PASSWORD};\n   at {LEAKED_FRAME}..ctor()\n   at Ombi.Controllers.V1.SearchController.Search()"}}"#
                ),
            ),
            Fault::ProblemDetailsLeak => Reply::new(
                500,
                Some("application/problem+json; charset=utf-8"),
                serde_json::json!({
                    "type": "https://tools.ietf.org/html/rfc7231#section-6.6.1",
                    "title": "An error occurred while processing your request.",
                    "status": 500,
                    "detail": format!("Microsoft.Data.Sqlite.SqliteException: SQLite Error 14: 'unable to open database file'. Data Source=/config/Ombi.db;Password={LEAKED_PASSWORD}\n   at {LEAKED_FRAME}..ctor()"),
                    "exception": format!("System.InvalidOperationException: Server=db;User Id=sa;Password={LEAKED_PASSWORD};\n   at {LEAKED_FRAME}.SaveChanges()"),
                    "traceId": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"
                })
                .to_string(),
            ),
            Fault::HtmlPage => Reply::new(
                200,
                Some("text/html"),
                Bytes::from_static(fixture("err-spa-fallback-html.txt").unwrap_or(b"<html></html>")),
            ),
            Fault::NoContent => Reply::empty(204),
            Fault::InvalidJson => Reply::json(200, r#"[{"id": 603, "title": "The Matrix",]"#),
            Fault::WrongShape => Reply::json(200, r#"[[["not", "a", "record"]], [[]]]"#),
            Fault::Truncated => raw(
                {
                    let mut bytes = head(200, "Transfer-Encoding: chunked", "");
                    bytes.extend_from_slice(format!("{:x}\r\n{PARTIAL}\r\n", PARTIAL.len()).as_bytes());
                    bytes
                },
                RawEnd::Close,
            ),
            Fault::Oversized { declared } => Reply::Streamed {
                status: 200,
                total: OVERSIZED_BYTES,
                declare_length: *declared,
            },
            Fault::LengthLongerThanBody => raw(head(200, "Content-Length: 4096", "[]"), RawEnd::Close),
            Fault::LengthShorterThanBody => raw(
                head(200, "Content-Length: 10", r#"[{"id":603,"title":"The Matrix"}]"#),
                RawEnd::Close,
            ),
            Fault::Redirect(location) => Reply::empty(302).with_header("Location", location),
            Fault::Gzip => Reply::json(200, gzip(br#"[{"id":603,"title":"The Matrix"}]"#))
                .with_header("Content-Encoding", "gzip"),
            Fault::NonUtf8 => Reply::json(200, &b"[{\"id\":603,\"title\":\"Caf\xe9 \xff\xfe\"}]"[..]),
        }
    }
}

fn raw(bytes: Vec<u8>, end: RawEnd) -> Reply {
    Reply::Raw {
        bytes: Bytes::from(bytes),
        end,
        delay: Duration::ZERO,
    }
}

/// A status line, a JSON content type, one framing header and the start of a body.
fn head(status: u16, framing: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {status} OK\r\nServer: Kestrel\r\nContent-Type: application/json; charset=utf-8\r\n{framing}\r\nConnection: close\r\n\r\n{body}"
    )
    .into_bytes()
}

/// A gzip member holding `data` in stored (uncompressed) deflate blocks: a real gzip stream
/// without a compression library.
fn gzip(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    let mut blocks = data.chunks(0xffff).peekable();
    if blocks.peek().is_none() {
        out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    while let Some(block) = blocks.next() {
        out.push(u8::from(blocks.peek().is_none()));
        let len = block.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    out.extend_from_slice(&crc32(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[cfg(test)]
mod tests;
