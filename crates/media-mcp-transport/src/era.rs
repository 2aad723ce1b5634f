//! Which protocol era a POST speaks, and the checks a modern (2026-07-28) request must pass
//! once its body is read: the version in `MCP-Protocol-Version` and in
//! `_meta["io.modelcontextprotocol/protocolVersion"]`, the required `_meta` fields, and the
//! `Mcp-Method` / `Mcp-Name` headers against the body.
//!
//! - An `MCP-Protocol-Version` this server does not speak is -32022 (HTTP 400) naming the
//!   versions it does, whatever the era.
//! - A request whose `_meta` names a modern version, whose header names one, or that is
//!   `server/discover`, is modern; everything else is legacy and served as before.
//! - Modern: `_meta` without the protocol version or the client capabilities is -32602
//!   (HTTP 400); a header missing or disagreeing with the body is -32020 (HTTP 400).

use base64::Engine as _;
use media_mcp_wire::{code, meta, method, version};
use serde_json::{Map, Value, json};

use crate::prelude::*;

/// The MCP request headers of one POST, as sent (not yet checked).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpHeaders {
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<Vec<u8>>,
    /// `Mcp-Method`.
    pub method: Option<Vec<u8>>,
    /// `Mcp-Name`.
    pub name: Option<Vec<u8>>,
}

/// The era a request is served in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// `initialize`-negotiated (2025-11-25 and earlier): answered as before.
    Legacy,
    /// Per-request `_meta` (2026-07-28).
    Modern,
}

/// A refusal: a JSON-RPC error with its HTTP status.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// HTTP status.
    pub status: u16,
    /// JSON-RPC code.
    pub code: i64,
    /// What is wrong.
    pub message: String,
    /// `error.data`.
    pub data: Option<Value>,
}

impl Refusal {
    fn new(status: u16, code: i64, message: String) -> Refusal {
        Refusal {
            status,
            code,
            message,
            data: None,
        }
    }
}

/// A header value as text without surrounding white space; `None`: absent; `Err`: not
/// visible ASCII.
fn header_text(value: Option<&[u8]>) -> Option<Result<&str, ()>> {
    let value = value?;
    let text = core::str::from_utf8(value).map_err(|_| ());
    Some(text.and_then(|t| {
        let t = t.trim_matches([' ', '\t']);
        if t.bytes().all(|b| (0x20..0x7f).contains(&b) || b == b'\t') {
            Ok(t)
        } else {
            Err(())
        }
    }))
}

/// The unsupported-version error (-32022, HTTP 400).
pub fn unsupported_version(requested: &str) -> Refusal {
    Refusal {
        data: Some(json!({"supported": version::SUPPORTED, "requested": requested})),
        ..Refusal::new(
            400,
            code::UNSUPPORTED_PROTOCOL_VERSION,
            format!(
                "Unsupported protocol version {requested:?}; supported: {}",
                version::SUPPORTED.join(", ")
            ),
        )
    }
}

fn mismatch(message: String) -> Refusal {
    Refusal::new(
        400,
        code::HEADER_MISMATCH,
        format!("Header mismatch: {message}"),
    )
}

fn invalid_meta(message: &str) -> Refusal {
    Refusal::new(400, code::INVALID_PARAMS, message.to_owned())
}

/// The `MCP-Protocol-Version` header, when present.
///
/// # Errors
///
/// It names a version this server does not speak (-32022), or is not visible ASCII (-32020).
pub fn header_version(headers: &McpHeaders) -> Result<Option<&str>, Refusal> {
    match header_text(headers.protocol_version.as_deref()) {
        None => Ok(None),
        Some(Ok(v)) if version::supported(v) => Ok(Some(v)),
        Some(Ok(v)) => Err(unsupported_version(v)),
        Some(Err(())) => Err(mismatch(
            "MCP-Protocol-Version is not a visible ASCII value".into(),
        )),
    }
}

/// Decides the era of a request for `method` with `params`, checking what
/// the decision rests on.
///
/// # Errors
///
/// The refusal to answer with (see the module documentation).
pub fn classify(
    method_name: &str,
    params: Option<&Value>,
    headers: &McpHeaders,
) -> Result<Era, Refusal> {
    let header_version = header_version(headers)?;
    let meta = params
        .and_then(|p| p.get("_meta"))
        .and_then(Value::as_object);
    let meta_version = meta.and_then(|m| m.get(meta::PROTOCOL_VERSION));
    let modern = method_name == method::SERVER_DISCOVER
        || header_version.is_some_and(version::is_modern_era)
        || meta_version
            .and_then(Value::as_str)
            .is_some_and(version::is_modern_era);
    if !modern {
        return Ok(Era::Legacy);
    }
    let Some(meta) = meta else {
        return Err(invalid_meta(
            "params._meta is required: it must carry io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities",
        ));
    };
    let Some(Value::String(requested)) = meta_version else {
        return Err(invalid_meta(
            "params._meta[\"io.modelcontextprotocol/protocolVersion\"] is required (a string)",
        ));
    };
    if !matches!(meta.get(meta::CLIENT_CAPABILITIES), Some(Value::Object(_))) {
        return Err(invalid_meta(
            "params._meta[\"io.modelcontextprotocol/clientCapabilities\"] is required (an object)",
        ));
    }
    match header_version {
        None => {
            return Err(mismatch(
                "the MCP-Protocol-Version header is required".into(),
            ));
        }
        Some(h) if h != requested => {
            return Err(mismatch(format!(
                "MCP-Protocol-Version header value {h:?} does not match the body value {requested:?}"
            )));
        }
        Some(_) => {}
    }
    if !version::modern(requested) {
        return Err(unsupported_version(requested));
    }
    Ok(Era::Modern)
}

/// Checks `Mcp-Method` and, for the methods that name a target, `Mcp-Name` against the body
/// of a modern request.
///
/// # Errors
///
/// -32020 (HTTP 400) naming the header.
pub fn check_headers(
    method_name: &str,
    params: &Map<String, Value>,
    headers: &McpHeaders,
) -> Result<(), Refusal> {
    match header_text(headers.method.as_deref()) {
        None => return Err(mismatch("the Mcp-Method header is required".into())),
        Some(Err(())) => return Err(mismatch("Mcp-Method is not a visible ASCII value".into())),
        Some(Ok(m)) if m != method_name => {
            return Err(mismatch(format!(
                "Mcp-Method header value {:?} does not match the body method {:?}",
                shown(m),
                shown(method_name)
            )));
        }
        Some(Ok(_)) => {}
    }
    let source = if method::NAMED.contains(&method_name) {
        "name"
    } else if method_name == "resources/read" {
        "uri"
    } else {
        return Ok(());
    };
    let Some(Value::String(body_name)) = params.get(source) else {
        return Ok(());
    };
    let header = match header_text(headers.name.as_deref()) {
        None => return Err(mismatch("the Mcp-Name header is required".into())),
        Some(Err(())) => return Err(mismatch("Mcp-Name is not a visible ASCII value".into())),
        Some(Ok(h)) => decode_sentinel(h)
            .ok_or_else(|| mismatch("Mcp-Name is not valid =?base64?…?= text".into()))?,
    };
    if header != *body_name {
        return Err(mismatch(format!(
            "Mcp-Name header value {:?} does not match the body value {:?}",
            shown(&header),
            shown(body_name)
        )));
    }
    Ok(())
}

/// A header value with the Base64 sentinel (`=?base64?…?=`) decoded; `None` when the
/// sentinel holds no Base64 of UTF-8 text.
pub fn decode_sentinel(value: &str) -> Option<String> {
    let Some(inner) = value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    else {
        return Some(value.to_owned());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(inner)
        .ok()?;
    String::from_utf8(bytes).ok()
}

/// At most 80 characters of a client-supplied value, for a message.
fn shown(value: &str) -> String {
    value.chars().filter(|c| !c.is_control()).take(80).collect()
}

#[cfg(test)]
mod tests;
