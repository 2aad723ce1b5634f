//! Building contract `media` records (contract `media_page` projection rules).
//!
//! Upstream view models are read as JSON values and only the documented fields are taken;
//! anything absent or null stays absent. `0001-01-01` dates are treated as absent.

use super::ids::{Identifiers, TargetKind, positive_id, target};
use crate::prelude::*;
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

    /// The record's `media` kind.
    pub fn kind(&self) -> &str {
        self.fields
            .get("media")
            .and_then(Value::as_str)
            .unwrap_or("unknown")
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

/// A TMDB image path (`/abc.jpg`) as an absolute URI, or an absolute https URL without
/// credentials or query; anything else is dropped.
pub fn safe_artwork_uri(v: Option<&Value>) -> Option<String> {
    let s = v?.as_str()?.trim();
    if s.starts_with('/') && !s.starts_with("//") {
        let ok = s.len() <= 200
            && s[1..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
            && [".jpg", ".jpeg", ".png", ".webp", ".svg"]
                .iter()
                .any(|e| s.to_ascii_lowercase().ends_with(e) && !s.ends_with(".svg"));
        return ok.then(|| format!("https://image.tmdb.org/t/p/original{s}"));
    }
    let rest = s.strip_prefix("https://")?;
    let authority = rest.split('/').next()?;
    let ok = s.len() <= 500
        && !authority.contains('@')
        && !s.contains(['?', '#', '"', '<', '>', ' ', '\\'])
        && !s.chars().any(char::is_control);
    ok.then(|| s.to_owned())
}

#[cfg(test)]
mod tests;
