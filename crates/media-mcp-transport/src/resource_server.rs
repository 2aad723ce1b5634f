//! The OAuth 2.1 resource server (`MEDIA_MCP_HTTP_AUTH=oauth`): access tokens issued by the
//! household's identity provider are validated here, in the transport, so every host of the
//! component enforces the same rules.
//!
//! - [`metadata`]: protected resource metadata (RFC 9728) and `WWW-Authenticate` challenges.
//! - [`scope`]: what a token's scopes allow.
//! - this module: the token of a request checked ([`authorize`]) with [`crate::oauth`], and
//!   the admitted request answered as the token's user ([`handle`]).
//!
//! The token is read from the `Authorization` header only, used for the checks here, and
//! dropped: it is never sent to an upstream, logged, or put into an answer.

pub mod metadata;
pub mod scope;

use serde_json::{Map, Value};

use metadata::Challenge;
pub use scope::{Access, Scoped};

use crate::auth::Identity;
use crate::http::{Admitted, Head, Response};
use crate::mcp::Tools;
use crate::oauth::{Cache, Fetch, OAuthSettings, introspect, jwt, keys};
use crate::prelude::*;
use media_mcp_wire::variables::{OAUTH_INTROSPECTION_CLIENT_ID, OAUTH_USER_MAP};

/// Why an opaque token is refused when nothing can introspect it.
const NOT_A_JWT: &str = const_format::concatcp!(
    "the access token is not a JWT, and introspection is not configured (",
    OAUTH_INTROSPECTION_CLIENT_ID.name,
    ")"
);

/// Why a signed-in user with no Ombi user in the map is refused.
const USER_NOT_MAPPED: &str = const_format::concatcp!(
    "forbidden: the signed-in user is not mapped to an Ombi user (",
    OAUTH_USER_MAP.name,
    ")"
);

/// What a valid token grants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// The Ombi user the request acts as.
    pub user: String,
    /// Which tools it may list and call.
    pub access: Access,
}

/// The scopes every tool needs, for challenges.
fn all_scopes(o: &OAuthSettings) -> String {
    format!("{} {}", o.read_scope, o.write_scope)
}

/// The bearer token of the request, or the refusal to send.
fn bearer<'h>(o: &OAuthSettings, head: &Head<'h>) -> Result<&'h str, Response> {
    let query = head.path_with_query.split_once('?').map_or("", |(_, q)| q);
    if query
        .split('&')
        .any(|pair| pair.split('=').next() == Some("access_token"))
    {
        return Err(metadata::refusal(
            o,
            Challenge::InvalidToken,
            &all_scopes(o),
            "an access token in the URL is never accepted: send it in the Authorization header",
        ));
    }
    let missing = || {
        metadata::refusal(
            o,
            Challenge::Missing,
            &all_scopes(o),
            "an OAuth access token is required (see the resource metadata)",
        )
    };
    let value = head.header("authorization").ok_or_else(missing)?;
    let value = core::str::from_utf8(value).map_err(|_| missing())?.trim();
    let (scheme, token) = value.split_once(' ').ok_or_else(missing)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(missing());
    }
    Ok(token)
}

fn invalid(o: &OAuthSettings, message: &str) -> Response {
    metadata::refusal(o, Challenge::InvalidToken, &all_scopes(o), message)
}

/// Validates the request's access token and decides what it grants.
///
/// # Errors
///
/// 401 (no token, or not valid), 403 (no scope of this server, or a user not mapped), or
/// 503 (the identity provider cannot be reached) to send.
pub fn authorize(
    o: &OAuthSettings,
    head: &Head<'_>,
    fetch: &dyn Fetch,
    cache: &dyn Cache,
    now: u64,
) -> Result<Grant, Response> {
    let token = bearer(o, head)?;
    let is_jwt = jwt::looks_like_jwt(token);
    let verified = match &o.introspection {
        Some(i) if i.always || !is_jwt => introspect::verify(o, i, token, fetch, cache, now),
        _ if !is_jwt => {
            return Err(invalid(o, NOT_A_JWT));
        }
        _ => keys::verify(o, token, fetch, cache, now),
    };
    let claims = verified.map_err(|e| match e {
        keys::Failure::Token(refusal) => invalid(o, &refusal.message()),
        keys::Failure::Provider(why) => Response::error(
            503,
            crate::http::TRANSPORT_ERROR,
            &format!("the identity provider cannot be asked about the token: {why}"),
        ),
    })?;
    grant(o, &claims)
}

/// The scopes of a token: `scope` (a space-separated string) or `scp` (a list or a string).
fn scopes(claims: &Map<String, Value>) -> Vec<&str> {
    let mut out = Vec::new();
    for name in ["scope", "scp"] {
        match claims.get(name) {
            Some(Value::String(s)) => out.extend(s.split_ascii_whitespace()),
            Some(Value::Array(list)) => out.extend(list.iter().filter_map(Value::as_str)),
            _ => {}
        }
    }
    out
}

/// What verified claims grant: the user named by the user claim (mapped when a map is set)
/// and the access their scopes give.
///
/// # Errors
///
/// 401 without the user claim; 403 without a scope of this server or for an unmapped user.
pub fn grant(o: &OAuthSettings, claims: &Map<String, Value>) -> Result<Grant, Response> {
    let scopes = scopes(claims);
    let access = if scopes.contains(&o.write_scope.as_str()) {
        Access::Write
    } else if scopes.contains(&o.read_scope.as_str()) {
        Access::Read
    } else {
        return Err(metadata::refusal(
            o,
            Challenge::InsufficientScope,
            &all_scopes(o),
            &format!(
                "the access token has neither the {} nor the {} scope",
                o.read_scope, o.write_scope
            ),
        ));
    };
    let name = claims
        .get(&o.user_claim)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| {
            invalid(
                o,
                &format!(
                    "the access token has no `{}` claim naming the user",
                    o.user_claim
                ),
            )
        })?;
    let user = match &o.user_map {
        None => name.to_owned(),
        Some(map) => map
            .iter()
            .find(|(from, _)| from == name)
            .map(|(_, to)| to.clone())
            .ok_or_else(|| Response::error(403, crate::http::TRANSPORT_ERROR, USER_NOT_MAPPED))?,
    };
    Ok(Grant { user, access })
}

/// Answers an admitted request whose token granted `grant`: as its user, with the tools its
/// scope allows; a call of a tool beyond that scope is 403 `insufficient_scope`.
pub fn handle(
    o: &OAuthSettings,
    grant: Grant,
    body: &[u8],
    admitted: &mut Admitted,
    tools: &dyn Tools,
    secrets: &[String],
) -> Response {
    let scoped = Scoped {
        tools,
        access: grant.access,
    };
    if let Some(name) = scoped.forbidden_call(body) {
        return insufficient_for(o, &name);
    }
    admitted.identity = Identity::User(grant.user);
    crate::mcp::handle(body, admitted, &scoped, secrets)
}

/// The 403 for a call of a tool the token's scope does not cover (`tools/call` of a tool
/// outside the read-only ones with a read-only token), with the step-up challenge.
pub fn insufficient_for(o: &OAuthSettings, tool: &str) -> Response {
    metadata::refusal(
        o,
        Challenge::InsufficientScope,
        &all_scopes(o),
        &format!(
            "{tool:?} needs the {} scope; this token has only {}",
            o.write_scope, o.read_scope
        ),
    )
}

#[cfg(test)]
mod tests;
