//! The artwork view of `read_library` → `artwork_page` (Ombi behaviours it works around: docs/ombi-behaviours.md#banner-artwork).
//!
//! Every image route answers one string (or `{image}` for albums). Only validated URIs leave:
//! `https` on an allowlisted image host, no user info, port, query or fragment, and a raster
//! image extension that fixes the content type (no SVG, HTML or anything executable). TMDB
//! routes answer a relative file path, which becomes an `image.tmdb.org` URI. The `kind` says
//! what the route really returns: Ombi's movie banner route returns the background, and its
//! TV banner route returns the first season poster.

use crate::contract::ToolError;
use crate::ombi::client::Ombi;
use crate::ombi::media::artwork_uri as validate;
use crate::prelude::*;
use serde_json::{Value, json};

/// What to fetch: the route, the kind really returned, and a caveat.
pub struct Plan {
    path: String,
    kind: &'static str,
    caveat: Option<&'static str>,
}

/// The route for `media`/`artwork_kind` by `id` in `namespace` (the schema has checked the
/// combination and the id's form; `id` is already a path segment, see `Args::segment`).
pub fn plan(media: &str, kind: &str, namespace: &str, id: &str) -> Option<Plan> {
    let p = |path: String, kind, caveat| Some(Plan { path, kind, caveat });
    match (media, namespace, kind) {
        ("movie", "tmdb", "poster") => {
            p(format!("/api/v1/Images/poster/movie/{id}"), "poster", None)
        }
        ("movie", "tmdb", "background") => p(
            format!("/api/v1/Images/background/movie/{id}"),
            "background",
            None,
        ),
        ("movie", "tmdb", "banner") => p(
            format!("/api/v1/Images/background/movie/{id}"),
            "background",
            Some(
                "Ombi has no movie banners (its banner route returns the background), so the background is returned",
            ),
        ),
        ("tv", "tvdb", "poster") => p(format!("/api/v1/Images/poster/tv/{id}"), "poster", None),
        ("tv", "tvdb", "background") => p(
            format!("/api/v1/Images/background/tv/{id}"),
            "background",
            None,
        ),
        ("tv", "tvdb", "banner") => p(
            format!("/api/v1/Images/tv/{id}"),
            "season_poster",
            Some(
                "Ombi's TV banner route never returns the banner; it returns the first season poster, labelled as such",
            ),
        ),
        ("tv", "tmdb", "poster") => p(
            format!("/api/v1/Images/poster/tv/tmdb/{id}"),
            "poster",
            None,
        ),
        ("tv", "tmdb", "background") => p(
            format!("/api/v1/Images/background/tv/tmdb/{id}"),
            "background",
            Some("when TMDB has no backdrop, Ombi returns the poster here"),
        ),
        ("album", "musicbrainz", "poster") => p(
            format!("/api/v2/Search/releasegroupart/{id}"),
            "cover",
            None,
        ),
        _ => None,
    }
}

/// Fetches the planned image address and returns the artwork records (zero or one) and
/// warnings.
///
/// # Errors
/// Transport and status errors; `UPSTREAM_SCHEMA_MISMATCH` for a body of another shape.
pub fn fetch(ombi: &Ombi<'_>, plan: &Plan) -> Result<(Vec<Value>, Vec<String>), ToolError> {
    let body = ombi.get::<Value>(&plan.path)?;
    let raw = match body {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(Value::Object(o)) if plan.kind == "cover" => match o.get("image") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                return Err(ToolError::schema_mismatch(
                    "Ombi's album art `image` is not a string",
                ));
            }
        },
        Some(_) => {
            return Err(ToolError::schema_mismatch(
                "expected an image address (JSON string) from Ombi",
            ));
        }
    };
    let mut warnings: Vec<String> = plan.caveat.iter().map(|c| (*c).to_owned()).collect();
    let raw = raw.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
    let Some(raw) = raw else {
        warnings.push("Ombi found no such artwork for this title".to_owned());
        return Ok((Vec::new(), warnings));
    };
    match validate(&raw) {
        Some((uri, mime)) => {
            let name = uri.rsplit('/').next().unwrap_or_default().to_owned();
            Ok((
                vec![json!({"uri": uri, "mime_type": mime, "name": name, "kind": plan.kind})],
                warnings,
            ))
        }
        None => {
            warnings.push("Ombi returned an image address that failed validation (host, scheme, credentials or file type); it was left out".to_owned());
            Ok((Vec::new(), warnings))
        }
    }
}

#[cfg(test)]
mod tests;
