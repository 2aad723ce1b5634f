//! The HTTP side of MCP Streamable HTTP, before any body is read: path, Origin, method,
//! authentication, `Content-Type`, `Accept` and `Content-Length`. Every refusal is a
//! [`Response`] whose body is a JSON-RPC error without an id. The protocol version is checked
//! once the body is read ([`crate::era`]), so that its error carries the request's id.

use media_mcp_wire::variables::HTTP_ALLOWED_ORIGINS;
use media_mcp_wire::{code, version};
use serde_json::json;

use crate::auth::{self, Identity};
use crate::config::{MAX_BODY_BYTES, Settings};
use crate::cors::{self, origin_allowed};
use crate::era::McpHeaders;
use crate::prelude::*;

/// The refusal of a request whose `Origin` is not allowed.
const FORBIDDEN_ORIGIN: &str = const_format::concatcp!(
    "forbidden: this Origin is not allowed (see ",
    HTTP_ALLOWED_ORIGINS.name,
    ")"
);

/// The protocol versions spoken over Streamable HTTP (the same as over stdio), newest first.
pub const SUPPORTED_PROTOCOL_VERSIONS: &[&str] = version::SUPPORTED;

/// JSON-RPC code of refusals by the HTTP layer to legacy requests (the range the spec leaves
/// to implementations); a request declaring a modern `MCP-Protocol-Version` gets
/// [`code::INVALID_REQUEST`] instead, since modern requests never see -32000..-32019.
pub const TRANSPORT_ERROR: i64 = code::TRANSPORT_ERROR;

/// One HTTP answer, in plain types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Header names (lower-case) and values.
    pub headers: Vec<(&'static str, String)>,
    /// The body (possibly empty).
    pub body: Vec<u8>,
}

impl Response {
    /// A JSON body.
    pub fn json(status: u16, body: &serde_json::Value) -> Response {
        Response {
            status,
            headers: vec![("content-type", "application/json".to_owned())],
            body: body.to_string().into_bytes(),
        }
    }

    /// A JSON-RPC error answer with a null id.
    pub fn error(status: u16, code: i64, message: &str) -> Response {
        Response::json(
            status,
            &json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}}),
        )
    }

    /// 202 Accepted, no body (notifications and client responses).
    pub fn accepted() -> Response {
        Response {
            status: 202,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    fn with_header(mut self, name: &'static str, value: &str) -> Response {
        self.headers.push((name, value.to_owned()));
        self
    }

    /// The same refusal with JSON-RPC code `code`.
    fn with_code(mut self, code: i64) -> Response {
        if let Ok(mut body) = serde_json::from_slice::<serde_json::Value>(&self.body)
            && body["error"].is_object()
        {
            body["error"]["code"] = json!(code);
            self.body = body.to_string().into_bytes();
        }
        self
    }
}

/// How a JSON-RPC answer is sent: as a JSON body, or as one SSE event when the client accepts
/// only `text/event-stream`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplyFormat {
    /// `application/json`.
    Json,
    /// `text/event-stream`, one `message` event.
    EventStream,
}

/// A request that may proceed to its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admitted {
    /// Who the request acts as.
    pub identity: Identity,
    /// How to answer.
    pub format: ReplyFormat,
    /// Read at most this many body bytes; more is 413.
    pub body_cap: usize,
    /// Whether the client accepts `text/event-stream` (a `subscriptions/listen` answer).
    pub event_stream: bool,
    /// The MCP request headers, checked against the body once it is read.
    pub mcp: McpHeaders,
}

/// The request line and headers, in plain types.
#[derive(Debug, Clone, Copy)]
pub struct Head<'a> {
    /// `GET`, `POST`, ...
    pub method: &'a str,
    /// The path, possibly with a query.
    pub path_with_query: &'a str,
    /// Headers with lower-case names, in order; repeated names are separate entries.
    pub headers: &'a [(String, Vec<u8>)],
}

impl<'a> Head<'a> {
    /// The first value of a header (`name` lower-case).
    pub fn header(&self, name: &str) -> Option<&'a [u8]> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }

    /// Every value of a header (`name` lower-case), in order.
    pub fn header_values(&self, name: &str) -> Vec<&'a [u8]> {
        self.headers
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
            .collect()
    }

    fn header_str(&self, name: &str) -> Option<&'a str> {
        self.header(name)
            .and_then(|v| core::str::from_utf8(v).ok())
            .map(str::trim)
    }
}

/// Decides whether a request may proceed, in this order: path (404), Origin (403), a CORS
/// preflight from an allowed `Origin` (204), method (405 with `Allow: POST`), authentication
/// (401 with `WWW-Authenticate: Bearer`; 400 for two `Authorization` or user headers, 403 for
/// a user token naming another user), `Content-Type` (415), `Accept` (406),
/// `Content-Length` (413). Whatever is answered goes through
/// [`with_cors`].
///
/// # Errors
///
/// The refusal to send.
pub fn admit(settings: &Settings, head: &Head<'_>) -> Result<Admitted, Response> {
    admit_any_era(settings, head).map_err(|refusal| in_era(head, refusal))
}

/// A refusal sent before the body is read, with the JSON-RPC code of the request's era:
/// `INVALID_REQUEST` for a modern-era request, unchanged otherwise.
pub fn in_era(head: &Head<'_>, refusal: Response) -> Response {
    if head
        .header_str("mcp-protocol-version")
        .is_some_and(version::is_modern_era)
    {
        refusal.with_code(code::INVALID_REQUEST)
    } else {
        refusal
    }
}

fn admit_any_era(settings: &Settings, head: &Head<'_>) -> Result<Admitted, Response> {
    let path = head
        .path_with_query
        .split_once('?')
        .map_or(head.path_with_query, |(p, _)| p);
    if path != settings.path {
        return Err(Response::error(
            404,
            TRANSPORT_ERROR,
            &format!("not found: MCP is served on {}", settings.path),
        ));
    }
    if let Some(origin) = head.header("origin")
        && !origin_allowed(origin, &settings.allowed_origins)
    {
        return Err(Response::error(403, TRANSPORT_ERROR, FORBIDDEN_ORIGIN));
    }
    if head.method == "OPTIONS"
        && let Some(origin) = head.header_str("origin")
    {
        return Err(Response {
            status: 204,
            headers: cors::preflight_headers(origin),
            body: Vec::new(),
        });
    }
    if head.method != "POST" {
        return Err(Response::error(
            405,
            TRANSPORT_ERROR,
            "method not allowed: this stateless server answers POST only",
        )
        .with_header("allow", "POST"));
    }
    let identity = auth::authenticate(&settings.auth, settings.user_header.as_deref(), |name| {
        head.header_values(name)
    })
    .map_err(|e| match e {
        auth::Refused::Unauthorized(e) => {
            Response::error(401, TRANSPORT_ERROR, &format!("unauthorized: {}", e.0))
                .with_header("www-authenticate", r#"Bearer realm="media-mcp""#)
        }
        other => Response::error(other.status(), TRANSPORT_ERROR, other.message()),
    })?;
    let content_type = head.header_str("content-type").unwrap_or("");
    if !media_type(content_type).eq_ignore_ascii_case("application/json") {
        return Err(Response::error(
            415,
            TRANSPORT_ERROR,
            "unsupported media type: send Content-Type: application/json",
        ));
    }
    let format = reply_format(head.header_str("accept")).ok_or_else(|| {
        Response::error(
            406,
            TRANSPORT_ERROR,
            "not acceptable: accept application/json or text/event-stream",
        )
    })?;
    if let Some(length) = head.header_str("content-length")
        && length
            .parse::<u64>()
            .map_or(true, |n| n > MAX_BODY_BYTES as u64)
    {
        return Err(too_large());
    }
    Ok(Admitted {
        identity,
        format,
        body_cap: MAX_BODY_BYTES,
        event_stream: accepts(head.header_str("accept"), "text/event-stream"),
        mcp: McpHeaders {
            protocol_version: head.header("mcp-protocol-version").map(<[u8]>::to_vec),
            method: head.header("mcp-method").map(<[u8]>::to_vec),
            name: head.header("mcp-name").map(<[u8]>::to_vec),
        },
    })
}

/// The CORS headers of any answer to `head`: its `Origin` when that is allowed, else none.
pub fn cors_headers(settings: &Settings, head: &Head<'_>) -> Vec<(&'static str, String)> {
    match head.header_str("origin") {
        Some(origin) if origin_allowed(origin.as_bytes(), &settings.allowed_origins) => {
            cors::answer_headers(origin)
        }
        _ => Vec::new(),
    }
}

/// `response` with the CORS headers of `head` added, unless it has them already (a preflight
/// answer does).
pub fn with_cors(settings: &Settings, head: &Head<'_>, mut response: Response) -> Response {
    if !response
        .headers
        .iter()
        .any(|(name, _)| *name == "access-control-allow-origin")
    {
        response.headers.extend(cors_headers(settings, head));
    }
    response
}

/// The 413 answer (also sent when a body without `Content-Length` grows past the cap).
pub fn too_large() -> Response {
    Response::error(
        413,
        TRANSPORT_ERROR,
        &format!("payload too large: the limit is {MAX_BODY_BYTES} bytes"),
    )
}

/// `type/subtype` of a media type, without parameters.
fn media_type(value: &str) -> &str {
    value.split(';').next().unwrap_or("").trim()
}

/// The answer format an `Accept` header allows: JSON when it can, else an event stream.
/// A missing header accepts anything; a range with `q=0` is refused.
fn reply_format(accept: Option<&str>) -> Option<ReplyFormat> {
    if accepts(accept, "application/json") {
        Some(ReplyFormat::Json)
    } else if accepts(accept, "text/event-stream") {
        Some(ReplyFormat::EventStream)
    } else {
        None
    }
}

/// Whether an `Accept` header allows media type `kind` (a missing header allows anything; a
/// range with `q=0` allows nothing).
fn accepts(accept: Option<&str>, kind: &str) -> bool {
    let Some(accept) = accept else {
        return true;
    };
    let (major, _) = kind.split_once('/').unwrap_or((kind, ""));
    accept
        .split(',')
        .filter(|range| {
            !range.split(';').skip(1).any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            })
        })
        .map(media_type)
        .any(|r| {
            r.eq_ignore_ascii_case(kind)
                || r == "*/*"
                || r.strip_suffix("/*")
                    .is_some_and(|m| m.eq_ignore_ascii_case(major))
        })
}

#[cfg(test)]
mod tests;
