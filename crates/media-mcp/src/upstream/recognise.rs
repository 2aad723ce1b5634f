//! Turns an upstream exchange into JSON or a contract error.
//!
//! Recognises Ombi's failure shapes: `401 Invalid API Key` text, empty 401/403, ProblemDetails,
//! the middleware's `500 {"error": …}`, the SPA's HTML page answered with 200 for unknown GET
//! routes, and 204 for null results. A request that may have been delivered and changed state
//! (`mutation`) never becomes a retryable error.

use super::exchange::{HttpResponse, UpstreamError};
use crate::contract::{ErrorCode, ToolError};
use crate::prelude::*;
use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// The error for a transport failure. `mutation`: the request may change upstream state.
pub fn transport_error(err: &UpstreamError, mutation: bool) -> ToolError {
    match err {
        UpstreamError::Denied => ToolError::internal(
            "the host refused the outbound request: the destination is not a configured upstream",
        ),
        UpstreamError::Unreachable => ToolError::new(
            ErrorCode::UpstreamRejected,
            "could not connect to the upstream server",
        )
        .retryable(true),
        UpstreamError::Timeout { sent: false } => ToolError::new(
            ErrorCode::Timeout,
            "the upstream server did not accept the connection in time",
        )
        .retryable(true),
        UpstreamError::Timeout { sent: true } if mutation => {
            ToolError::unknown_outcome("the change was sent but no answer came before the deadline")
        }
        UpstreamError::Timeout { sent: true } => ToolError::new(
            ErrorCode::Timeout,
            "the upstream server did not answer before the deadline",
        )
        .retryable(true),
        UpstreamError::ConnectionLost if mutation => ToolError::unknown_outcome(
            "the change was sent but the connection broke before the answer arrived",
        ),
        UpstreamError::ConnectionLost => ToolError::new(
            ErrorCode::UpstreamRejected,
            "the connection broke before the answer arrived",
        )
        .retryable(true),
        UpstreamError::BodyTooLarge { status, limit } if mutation && is_success(*status) => {
            ToolError::unknown_outcome(format!(
                "the change was sent but the answer exceeded the {limit} byte cap"
            ))
        }
        UpstreamError::BodyTooLarge { status, limit } => ToolError::new(
            ErrorCode::UpstreamSchemaMismatch,
            format!("the upstream answer exceeded the {limit} byte cap and was not read"),
        )
        .with_status(*status),
        UpstreamError::Protocol { sent, detail } if mutation && *sent => {
            ToolError::unknown_outcome(format!(
                "the change was sent but the exchange failed: {detail}"
            ))
        }
        UpstreamError::Protocol { sent, detail } => ToolError::new(
            ErrorCode::UpstreamRejected,
            format!("HTTP exchange failed: {detail}"),
        )
        .retryable(!*sent || !mutation),
    }
}

fn is_success(status: u16) -> bool {
    (200..300).contains(&status)
}

/// The error for a non-2xx (or misleading 2xx) response, or `None` when the status is a success.
pub fn status_error(resp: &HttpResponse, mutation: bool) -> Option<ToolError> {
    let status = resp.status;
    if is_success(status) {
        return None;
    }
    let detail = failure_detail(resp);
    let err = match status {
        401 => {
            let text = String::from_utf8_lossy(&resp.body);
            let msg = if text.contains("Invalid User") {
                "the upstream server does not know the user this call acts as"
            } else {
                "the upstream server refused the credentials"
            };
            ToolError::new(ErrorCode::AuthenticationFailed, msg)
        }
        403 => ToolError::new(
            ErrorCode::Forbidden,
            "the acting user lacks permission for this action",
        ),
        404 => ToolError::new(
            ErrorCode::NotFound,
            with_detail("not found upstream", &detail),
        ),
        400 | 422 => ToolError::new(
            ErrorCode::InvalidArgument,
            with_detail(
                "the upstream server rejected the request as invalid",
                &detail,
            ),
        ),
        409 => ToolError::new(
            ErrorCode::Conflict,
            with_detail("conflict upstream", &detail),
        ),
        429 => ToolError::new(
            ErrorCode::RateLimited,
            "the upstream server is rate limiting requests",
        )
        .retryable(!mutation)
        .with_retry_after(resp.retry_after_seconds),
        // The plugin never follows redirects, so a change answered with one (a proxy's login
        // page, or Post/Redirect/Get after the change was made) has an unknown outcome.
        300..=399 if mutation => ToolError::unknown_outcome(format!(
            "the change was sent but answered with an HTTP {status} redirect, which is not followed"
        )),
        300..=399 => ToolError::new(
            ErrorCode::UpstreamRejected,
            "the upstream server answered with a redirect, which the plugin does not follow",
        ),
        _ if mutation && status >= 500 => ToolError::unknown_outcome(format!(
            "the change was sent but answered with HTTP {status}"
        )),
        500..=599 => ToolError::new(
            ErrorCode::UpstreamRejected,
            with_detail("the upstream server reported an internal error", &detail),
        )
        .retryable(matches!(status, 502..=504)),
        _ => ToolError::new(
            ErrorCode::UpstreamRejected,
            format!("unexpected HTTP status {status}"),
        ),
    };
    Some(err.with_status(status))
}

fn with_detail(base: &str, detail: &Option<String>) -> String {
    match detail {
        Some(d) if !d.is_empty() => format!("{base}: {d}"),
        _ => base.to_owned(),
    }
}

/// A short description from Ombi's `{"error": …}` or ProblemDetails `title`; never HTML.
fn failure_detail(resp: &HttpResponse) -> Option<String> {
    if looks_like_html(resp) {
        return None;
    }
    let v: Value = serde_json::from_slice(&resp.body).ok()?;
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Some(e.to_owned());
    }
    let title = v.get("title").and_then(Value::as_str)?;
    let fields: Vec<&str> = v
        .get("errors")
        .and_then(Value::as_object)
        .map(|o| o.keys().map(String::as_str).take(5).collect())
        .unwrap_or_default();
    Some(if fields.is_empty() {
        title.to_owned()
    } else {
        format!("{title} ({})", fields.join(", "))
    })
}

fn looks_like_html(resp: &HttpResponse) -> bool {
    let ct = resp
        .content_type
        .as_deref()
        .unwrap_or("")
        .to_ascii_lowercase();
    if ct.contains("html") {
        return true;
    }
    let start = resp
        .body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(0);
    resp.body[start..].starts_with(b"<")
}

/// Decodes a successful JSON response. `Ok(None)` for 204 or an empty body.
///
/// # Errors
/// `UPSTREAM_SCHEMA_MISMATCH` for HTML (Ombi's page for unknown routes), compressed or
/// non-JSON bodies, and JSON of the wrong shape.
pub fn json_body<T: DeserializeOwned>(resp: &HttpResponse) -> Result<Option<T>, ToolError> {
    if !has_json(resp)? {
        return Ok(None);
    }
    serde_json::from_slice::<T>(&resp.body)
        .map(Some)
        .map_err(|e| decode_error(&e, resp.status))
}

/// Decodes a successful JSON response that should be an array one element at a time: each is
/// handed to `each` and dropped before the next is parsed, so besides the body only one element
/// (and what `each` keeps) is in memory, however many the array holds. `Ok(None)` for 204, an
/// empty body or `null`; `Ok(Some(n))` for an array of `n` elements.
///
/// # Errors
/// As [`json_body`] (any JSON other than an array or `null` does not have the documented
/// shape); the first error of `each`, which ends the decoding.
pub fn json_elements(
    resp: &HttpResponse,
    each: &mut dyn FnMut(Value) -> Result<(), ToolError>,
) -> Result<Option<usize>, ToolError> {
    if !has_json(resp)? {
        return Ok(None);
    }
    let mut stopped = None;
    let mut de = serde_json::Deserializer::from_slice(&resp.body);
    let decoded = Elements {
        each,
        stopped: &mut stopped,
    }
    .deserialize(&mut de)
    .and_then(|n| de.end().map(|()| n));
    match (stopped, decoded) {
        (Some(error), _) => Err(error),
        (None, Ok(n)) => Ok(n),
        (None, Err(e)) => Err(decode_error(&e, resp.status)),
    }
}

/// Hands the elements of a JSON array to a closure one at a time ([`json_elements`]).
struct Elements<'a> {
    each: &'a mut dyn FnMut(Value) -> Result<(), ToolError>,
    stopped: &'a mut Option<ToolError>,
}

impl<'de> DeserializeSeed<'de> for Elements<'_> {
    type Value = Option<usize>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Elements<'_> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a JSON array or null")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<usize>, A::Error> {
        let mut n = 0;
        while let Some(element) = seq.next_element::<Value>()? {
            n += 1;
            if let Err(error) = (self.each)(element) {
                *self.stopped = Some(error);
                return Err(de::Error::custom("stopped by the projection"));
            }
        }
        Ok(Some(n))
    }
}

/// Decodes a successful JSON response as [`json_body`] does into a [`Value`], except that every
/// array keeps at most `keep` elements: each later element is decoded (bounded the same way),
/// handed to `spill` with the array's place (its object keys joined by `/`, `*` for each
/// enclosing array, e.g. `credits/cast` or `seasonRequests/*/episodes`) and dropped. However many
/// small records an array holds, only `keep` of them are held as a JSON tree.
///
/// # Errors
/// As [`json_body`].
pub fn json_bounded(
    resp: &HttpResponse,
    keep: usize,
    spill: &mut dyn FnMut(&str, Value),
) -> Result<Option<Value>, ToolError> {
    if !has_json(resp)? {
        return Ok(None);
    }
    let mut ctx = BoundedCtx {
        keep,
        path: Vec::new(),
        spill,
    };
    let mut de = serde_json::Deserializer::from_slice(&resp.body);
    Bounded(&mut ctx)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map(Some)
        .map_err(|e| decode_error(&e, resp.status))
}

struct BoundedCtx<'a> {
    keep: usize,
    /// Object keys (and `*` for array elements) from the root to the value being decoded.
    path: Vec<String>,
    spill: &'a mut dyn FnMut(&str, Value),
}

/// Decodes one value for [`json_bounded`].
struct Bounded<'a, 'b>(&'a mut BoundedCtx<'b>);

impl<'de> DeserializeSeed<'de> for Bounded<'_, '_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Bounded<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let ctx = self.0;
        let mut out = Vec::new();
        ctx.path.push("*".to_owned());
        while let Some(v) = seq.next_element_seed(Bounded(&mut *ctx))? {
            if out.len() < ctx.keep {
                out.push(v);
            } else {
                let place = ctx.path[..ctx.path.len() - 1].join("/");
                (ctx.spill)(&place, v);
            }
        }
        ctx.path.pop();
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let ctx = self.0;
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            ctx.path.push(key.clone());
            let v = map.next_value_seed(Bounded(&mut *ctx))?;
            ctx.path.pop();
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

/// Whether `resp` carries JSON to decode: `false` for 204 or an empty body.
///
/// # Errors
/// `UPSTREAM_SCHEMA_MISMATCH` for compressed bodies and HTML.
fn has_json(resp: &HttpResponse) -> Result<bool, ToolError> {
    if resp.status == 204 || resp.body.iter().all(u8::is_ascii_whitespace) {
        return Ok(false);
    }
    if let Some(enc) = resp.header("content-encoding")
        && !enc.eq_ignore_ascii_case("identity")
    {
        return Err(ToolError::schema_mismatch(
            "the upstream answer was compressed, which the plugin does not accept",
        )
        .with_status(resp.status));
    }
    if looks_like_html(resp) {
        return Err(ToolError::schema_mismatch(
            "the upstream server answered with an HTML page instead of JSON (the route is unknown to this server version, or a proxy answered)",
        )
        .with_status(resp.status));
    }
    Ok(true)
}

fn decode_error(e: &serde_json::Error, status: u16) -> ToolError {
    let what = if e.is_syntax() || e.is_eof() {
        "was not valid JSON"
    } else {
        "did not have the documented shape"
    };
    ToolError::schema_mismatch(format!(
        "the upstream answer {what} (line {}, column {})",
        e.line(),
        e.column()
    ))
    .with_status(status)
}

#[cfg(test)]
mod tests;
