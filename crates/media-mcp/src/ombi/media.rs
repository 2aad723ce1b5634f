//! Building contract `media` records (contract `media_page` projection rules).
//!
//! Upstream view models are read as JSON values and only the documented fields are taken;
//! anything absent or null stays absent. `0001-01-01` dates are treated as absent.

use super::ids::{Identifiers, TargetKind, positive_id, target};
use crate::prelude::*;
use media_mcp_wire::artwork::HOSTS;
use serde_json::{Map, Value, json};

/// Longest overview kept in list results, in characters.
pub const MAX_OVERVIEW_CHARS: usize = 1000;

/// A `media` record under construction.
#[derive(Debug, Clone)]
pub struct MediaItem {
    fields: Map<String, Value>,
    /// Identifiers of the record.
    pub ids: Identifiers,
    /// Whether text was shortened.
    pub shortened: bool,
}

impl MediaItem {
    /// A record of `kind` (`movie`, `tv`, `artist`, `album`, `person`, `collection`, `unknown`).
    pub fn new(kind: &str) -> Self {
        let mut fields = Map::new();
        fields.insert("media".into(), json!(kind));
        Self {
            fields,
            ids: Identifiers::default(),
            shortened: false,
        }
    }

    /// Sets a string field from an upstream value if it is a non-empty string.
    pub fn text(&mut self, key: &str, v: Option<&Value>) -> &mut Self {
        if let Some(s) = v
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let (s, cut) = bounded(s, MAX_OVERVIEW_CHARS);
            self.shortened |= cut;
            self.fields.insert(key.into(), json!(s));
        }
        self
    }

    /// Sets `year` from a date string (`YYYY-...`), ignoring DateTime.MinValue.
    pub fn year_from(&mut self, v: Option<&Value>) -> &mut Self {
        if let Some(y) = v.and_then(Value::as_str).and_then(year_of) {
            self.fields.insert("year".into(), json!(y));
        }
        self
    }

    /// Sets `year` directly.
    pub fn year(&mut self, y: i64) -> &mut Self {
        self.fields.insert("year".into(), json!(y));
        self
    }

    /// Sets a boolean field when upstream gave a boolean.
    pub fn flag(&mut self, key: &str, v: Option<&Value>) -> &mut Self {
        if let Some(b) = v.and_then(Value::as_bool) {
            self.fields.insert(key.into(), json!(b));
        }
        self
    }

    /// Sets an array field unless empty.
    pub fn list(&mut self, key: &str, items: Vec<Value>) -> &mut Self {
        if !items.is_empty() {
            self.fields.insert(key.into(), Value::Array(items));
        }
        self
    }

    /// Sets `request_targets` to the request `id` of `kind`, when `id` is a known positive id.
    pub fn request_target(&mut self, kind: TargetKind, id: Option<&Value>) -> &mut Self {
        self.list(
            "request_targets",
            target(kind, positive_id(id)).into_iter().collect(),
        )
    }

    /// Adds an artwork URI if it is safe to pass on ([`safe_artwork_uri`]).
    pub fn artwork(&mut self, uri: Option<String>) -> &mut Self {
        if let Some(u) = uri {
            let list = self
                .fields
                .entry("artwork_uris")
                .or_insert_with(|| json!([]));
            if let Some(a) = list.as_array_mut()
                && !a.iter().any(|x| x == &json!(u))
            {
                a.push(json!(u));
            }
        }
        self
    }

    /// Adds a named rating when upstream gave a number.
    pub fn rating(&mut self, name: &str, v: Option<&Value>) -> &mut Self {
        if let Some(n) = v.and_then(Value::as_f64).filter(|n| n.is_finite()) {
            let list = self.fields.entry("ratings").or_insert_with(|| json!([]));
            if let Some(a) = list.as_array_mut() {
                a.push(json!({"name": name, "value": n}));
            }
        }
        self
    }

    /// Appends a credit.
    pub fn push_credit(&mut self, credit: Value) -> &mut Self {
        let list = self.fields.entry("credits").or_insert_with(|| json!([]));
        if let Some(a) = list.as_array_mut() {
            a.push(credit);
        }
        self
    }

    /// The contract JSON.
    pub fn into_json(mut self) -> Value {
        self.fields.insert("identifiers".into(), self.ids.to_json());
        Value::Object(self.fields)
    }
}

/// Most episodes kept per season wherever seasons are listed.
pub const MAX_EPISODES: usize = 100;

/// The warning naming the seasons (contract season records) whose episodes were cut at
/// [`MAX_EPISODES`], i.e. those marked `truncated`; `None` when none were.
pub fn episode_cut_warning<'a>(seasons: impl IntoIterator<Item = &'a Value>) -> Option<String> {
    let long: Vec<String> = seasons
        .into_iter()
        .filter(|s| s["truncated"] == true)
        .map(|s| s["season_number"].to_string())
        .collect();
    (!long.is_empty()).then(|| {
        format!(
            "seasons {}: {MAX_EPISODES} episodes returned each, the rest were cut",
            long.join(", ")
        )
    })
}

/// `s` cut to `max` characters, and whether it was cut.
pub fn bounded(s: &str, max: usize) -> (String, bool) {
    if s.chars().count() <= max {
        (s.to_owned(), false)
    } else {
        (
            format!("{}…", s.chars().take(max).collect::<String>()),
            true,
        )
    }
}

/// The year of an ISO date, `None` for DateTime.MinValue and nonsense.
pub fn year_of(date: &str) -> Option<i64> {
    let y: i64 = date.get(..4)?.parse().ok()?;
    (1800..=2200).contains(&y).then_some(y)
}

/// Raster image extensions and their content types.
const TYPES: &[(&str, &str)] = &[
    (".jpg", "image/jpeg"),
    (".jpeg", "image/jpeg"),
    (".png", "image/png"),
    (".webp", "image/webp"),
    (".gif", "image/gif"),
];

/// The one artwork rule, for every place an image address leaves the plugin: a TMDB file path
/// (`/abc.jpg`) becomes an `image.tmdb.org` URI; otherwise `https` on a known image host, no
/// user info, port, query or fragment, and a raster extension that fixes the content type (no
/// SVG, HTML or anything executable). The URI and its content type, or `None`.
pub fn artwork_uri(raw: &str) -> Option<(String, &'static str)> {
    let uri = if raw.starts_with('/') && !raw.starts_with("//") {
        // A TMDB file path: one segment of plain characters.
        let file = &raw[1..];
        let plain = !file.is_empty()
            && file
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
        if !plain {
            return None;
        }
        format!("https://image.tmdb.org/t/p/original{raw}")
    } else {
        raw.to_owned()
    };
    if uri.len() > 500
        || uri
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || "?#\"'<>\\`{}|^%@".contains(c))
    {
        return None;
    }
    let rest = uri.strip_prefix("https://")?;
    let (host, path) = rest.split_once('/')?;
    if !HOSTS.contains(&host.to_ascii_lowercase().as_str())
        || path.split('/').any(|s| s == ".." || s == ".")
    {
        return None;
    }
    let lower = path.to_ascii_lowercase();
    let mime = TYPES
        .iter()
        .find(|(ext, _)| lower.ends_with(ext))
        .map(|(_, m)| *m)?;
    Some((uri, mime))
}

/// [`artwork_uri`] of an upstream string field, the URI only.
pub fn safe_artwork_uri(v: Option<&Value>) -> Option<String> {
    artwork_uri(v?.as_str()?.trim()).map(|(uri, _)| uri)
}

#[cfg(test)]
mod tests;
