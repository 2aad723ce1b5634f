//! OAuth 2.0 Protected Resource Metadata (RFC 9728) and the `WWW-Authenticate` challenges
//! (RFC 6750 §3) that point clients to it.

use serde_json::json;

use crate::http::{Head, Response, TRANSPORT_ERROR};
use crate::oauth::config::OAuthSettings;
pub use crate::oauth::config::WELL_KNOWN;
use crate::prelude::*;

/// The metadata document.
pub fn document(o: &OAuthSettings) -> serde_json::Value {
    json!({
        "resource": o.resource,
        "authorization_servers": [o.issuer],
        "scopes_supported": [o.read_scope, o.write_scope],
        "bearer_methods_supported": ["header"],
        "resource_name": "media-mcp",
    })
}

fn cors(mut response: Response) -> Response {
    response
        .headers
        .push(("access-control-allow-origin", "*".to_owned()));
    response
        .headers
        .push(("access-control-allow-methods", "GET, OPTIONS".to_owned()));
    response
        .headers
        .push(("access-control-allow-headers", "*".to_owned()));
    response
        .headers
        .push(("cache-control", "max-age=3600".to_owned()));
    response
}

/// The answer to a request for the metadata document (the path form of the resource URI, the
/// path form of the local MCP path, and the root form), or `None` when `head` asks for
/// something else. Browsers may read it from any origin.
pub fn serve(o: &OAuthSettings, mcp_path: &str, head: &Head<'_>) -> Option<Response> {
    let path = head
        .path_with_query
        .split_once('?')
        .map_or(head.path_with_query, |(p, _)| p);
    let rest = path.strip_prefix(WELL_KNOWN)?;
    let ours = rest.is_empty() || rest == "/" || rest == mcp_path || path == o.metadata_path();
    if !ours {
        return None;
    }
    Some(cors(match head.method {
        "GET" | "HEAD" => Response::json(200, &document(o)),
        "OPTIONS" => Response {
            status: 204,
            headers: Vec::new(),
            body: Vec::new(),
        },
        _ => {
            let mut r = Response::error(405, TRANSPORT_ERROR, "method not allowed: use GET");
            r.headers.push(("allow", "GET, OPTIONS".to_owned()));
            r
        }
    }))
}

/// What a refusal tells the client in `WWW-Authenticate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Challenge {
    /// No token: where the metadata is, and the scope to ask for.
    Missing,
    /// The token is not valid (RFC 6750 `invalid_token`).
    InvalidToken,
    /// The token lacks this scope (RFC 6750 `insufficient_scope`): 403.
    InsufficientScope,
}

fn quoted(text: &str) -> String {
    text.replace(['"', '\\'], "")
}

/// The `WWW-Authenticate` value of a refusal.
pub fn challenge(o: &OAuthSettings, kind: Challenge, scope: &str) -> String {
    let mut value = format!(
        "Bearer resource_metadata=\"{}\", scope=\"{}\"",
        quoted(&o.metadata_url()),
        quoted(scope)
    );
    match kind {
        Challenge::Missing => {}
        Challenge::InvalidToken => value.push_str(", error=\"invalid_token\""),
        Challenge::InsufficientScope => value.push_str(", error=\"insufficient_scope\""),
    }
    value
}

/// A 401 or 403 refusal with its challenge; `message` never holds the token.
pub fn refusal(o: &OAuthSettings, kind: Challenge, scope: &str, message: &str) -> Response {
    let status = if kind == Challenge::InsufficientScope {
        403
    } else {
        401
    };
    let prefix = if status == 403 {
        "forbidden"
    } else {
        "unauthorized"
    };
    let mut r = Response::error(status, TRANSPORT_ERROR, &format!("{prefix}: {message}"));
    r.headers
        .push(("www-authenticate", challenge(o, kind, scope)));
    r
}

#[cfg(test)]
mod tests;
