//! Browser access (CORS) for the origins that may call: loopback ones and
//! `MEDIA_MCP_HTTP_ALLOWED_ORIGINS`. A preflight is answered with what an MCP client sends and
//! reads; every answer to an allowed `Origin` names it in `Access-Control-Allow-Origin`.

use crate::prelude::*;

/// Request headers an MCP client sends: the bearer token, the body's type, the protocol
/// version, the session and resumption headers of the 2025 era, and the `Mcp-Method` /
/// `Mcp-Name` routing headers of the 2026-07-28 era.
pub const ALLOW_HEADERS: &str = "Authorization, Content-Type, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Mcp-Method, Mcp-Name";

/// Response headers a browser client may read.
pub const EXPOSE_HEADERS: &str = "WWW-Authenticate, Mcp-Session-Id, MCP-Protocol-Version";

/// How long a browser may cache a preflight answer, in seconds.
pub const MAX_AGE_SECS: u32 = 600;

/// Whether a browser `Origin` may call: loopback origins and the configured list.
pub fn origin_allowed(origin: &[u8], allowed: &[String]) -> bool {
    let Ok(origin) = core::str::from_utf8(origin) else {
        return false;
    };
    let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    if allowed.contains(&origin) {
        return true;
    }
    let Some(("http" | "https", authority)) = origin.split_once("://") else {
        return false;
    };
    let host = if let Some(rest) = authority.strip_prefix('[') {
        rest.split_once(']').map(|(h, _)| h)
    } else {
        authority.split(':').next()
    };
    matches!(host, Some("localhost" | "127.0.0.1" | "::1"))
}

/// The headers every answer to `origin` (an allowed one, as sent) carries.
pub fn answer_headers(origin: &str) -> Vec<(&'static str, String)> {
    vec![
        ("access-control-allow-origin", origin.to_owned()),
        ("access-control-expose-headers", EXPOSE_HEADERS.to_owned()),
        ("vary", "Origin".to_owned()),
    ]
}

/// The headers of the answer to a preflight from `origin` (an allowed one, as sent).
pub fn preflight_headers(origin: &str) -> Vec<(&'static str, String)> {
    vec![
        ("access-control-allow-origin", origin.to_owned()),
        ("access-control-allow-methods", "POST".to_owned()),
        ("access-control-allow-headers", ALLOW_HEADERS.to_owned()),
        ("access-control-max-age", MAX_AGE_SECS.to_string()),
        ("vary", "Origin".to_owned()),
    ]
}
