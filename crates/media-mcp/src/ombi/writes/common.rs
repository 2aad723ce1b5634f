//! Argument schemas, route pieces and the read-args → body → send → mutation path shared by
//! the request-addressing writes.

use super::outcome::{EngineResult, Mutation, Outcome, engine_result, write};
use crate::contract::ToolError;
use crate::ombi::client::Ombi;
use crate::ombi::codes::RequestKind;
use crate::ombi::ids::TargetKind;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

/// The `media` property for `kinds`.
pub fn media_property(kinds: &[&str]) -> Value {
    json!({"enum": kinds, "description": "Which kind of request: movie, tv (a TV child request, i.e. one season set) or album."})
}

/// The `request_id` property (TV ids are child request ids).
pub fn request_id_property() -> Value {
    json!({"type": "integer", "minimum": 1, "description": "Ombi request id from read_requests (for TV the child request id)."})
}

/// The `is_4k` property.
fn is_4k_property() -> Value {
    json!({"type": "boolean", "description": "Act on the 4K side of a movie request (movie only; default false)."})
}

/// `is_4k` only with `media: movie`.
fn is_4k_movie_only() -> Value {
    json!({"if": {"required": ["is_4k"]}, "then": {"properties": {"media": {"const": "movie"}}}})
}

/// The input schema of a write that acts on one request ([`RequestRef`]): `media` (one of
/// `kinds`), `request_id` and `is_4k` (movies only), plus the tool's own required `extra`
/// properties.
pub fn request_schema(kinds: &[&str], extra: &[(&str, Value)]) -> Value {
    let mut properties = json!({
        "media": media_property(kinds), "request_id": request_id_property(), "is_4k": is_4k_property()
    });
    let mut required = vec![json!("media"), json!("request_id")];
    for (name, schema) in extra {
        properties[*name] = schema.clone();
        required.push(json!(name));
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
        "allOf": [is_4k_movie_only()]
    })
}

/// The target kind of a request of `kind` (`tv` requests are addressed by child id).
pub fn target_kind(kind: RequestKind) -> TargetKind {
    match kind {
        RequestKind::Tv => TargetKind::TvChild,
        RequestKind::Album => TargetKind::Album,
        RequestKind::Movie => TargetKind::Movie,
    }
}

/// The request a request-addressing write acts on, from its `media`, `request_id` and `is_4k`
/// arguments (their schemas require `media` and `request_id`).
pub struct RequestRef {
    /// The kind of request (`media`).
    pub kind: RequestKind,
    /// The request id (for TV the child request id).
    pub id: i64,
    /// The 4K side, for movies only (`None` for TV and albums).
    pub is_4k: Option<bool>,
}

impl RequestRef {
    /// Reads the arguments. `is_4k` absent is the standard (not 4K) side.
    ///
    /// # Errors
    /// `INTERNAL_ERROR` when a required argument is missing (the schema requires them).
    pub fn from_args(args: &Args) -> Result<Self, ToolError> {
        let kind = args.choice::<RequestKind>("media")?;
        let is_4k = (kind == RequestKind::Movie).then(|| args.opt_bool("is_4k").unwrap_or(false));
        Ok(Self {
            kind,
            id: args.int("request_id")?,
            is_4k,
        })
    }

    /// Ombi's `{id[, is4K]}` body: `is4K` goes only with movies.
    pub fn body(&self) -> Value {
        let mut body = json!({"id": self.id});
        if let Some(is_4k) = self.is_4k {
            body["is4K"] = json!(is_4k);
        }
        body
    }

    /// The v1 route of `action` for this kind of request, e.g. `/api/v1/Request/tv/deny`.
    pub fn v1_route(&self, action: &str) -> String {
        format!("{}/{action}", self.kind.route_base())
    }

    /// Sends `body` to `path` and reads Ombi's `RequestEngineResult`.
    ///
    /// # Errors
    /// Transport and status errors as [`write`] maps them; an unreadable answer.
    pub fn send(
        &self,
        ombi: &Ombi<'_>,
        method: Method,
        path: &str,
        body: Option<&Value>,
    ) -> Result<EngineResult, ToolError> {
        engine_result(write(ombi, method, path, body)?)
    }

    /// The mutation reporting `outcome` on this request.
    pub fn mutation(&self, outcome: Outcome) -> Mutation {
        Mutation::new(outcome).target(target_kind(self.kind), Some(self.id))
    }
}

/// Whether a string holds only what a comparison needs (case-insensitive containment).
pub fn mentions(text: Option<&str>, needle: &str) -> bool {
    text.is_some_and(|t| t.to_ascii_lowercase().contains(needle))
}
