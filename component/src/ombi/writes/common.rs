//! Argument schemas and route pieces shared by the request-addressing writes.

use crate::ombi::ids::TargetKind;
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
pub fn is_4k_property() -> Value {
    json!({"type": "boolean", "description": "Act on the 4K side of a movie request (movie only; default false)."})
}

/// `is_4k` only with `media: movie`.
pub fn is_4k_movie_only() -> Value {
    json!({"if": {"required": ["is_4k"]}, "then": {"properties": {"media": {"const": "movie"}}}})
}

/// The target kind of `media` (`tv` requests are addressed by child id).
pub fn target_kind(media: &str) -> TargetKind {
    match media {
        "tv" => TargetKind::TvChild,
        "album" => TargetKind::Album,
        _ => TargetKind::Movie,
    }
}

/// The v1 controller path for `media`: music lives at lower-case `/api/v1/request/music`.
pub fn v1_base(media: &str) -> &'static str {
    match media {
        "tv" => "/api/v1/Request/tv",
        "album" => "/api/v1/request/music",
        _ => "/api/v1/Request/movie",
    }
}

/// Whether a string holds only what a comparison needs (case-insensitive containment).
pub fn mentions(text: Option<&str>, needle: &str) -> bool {
    text.is_some_and(|t| t.to_ascii_lowercase().contains(needle))
}
