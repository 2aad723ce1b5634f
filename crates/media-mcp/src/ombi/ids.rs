//! Identifiers and request targets (contract `identifier`, `target`).
//!
//! The namespace of an id is decided by the route it came from, never by the upstream field
//! name: TVMaze-backed v1 TV routes put the TVDB id in `theMovieDbId`.
//! Zero, empty and repeated values are dropped: absent stays absent.

use crate::prelude::*;
use crate::tool::Choice;
use serde_json::{Value, json};

/// Contract identifier namespaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ns {
    /// The Movie Database.
    Tmdb,
    /// TheTVDB.
    Tvdb,
    /// IMDb.
    Imdb,
    /// MusicBrainz.
    Musicbrainz,
    /// TVMaze.
    Tvmaze,
    /// Ombi movie request id.
    OmbiMovie,
    /// Ombi TV parent request id.
    OmbiTvParent,
    /// Ombi TV child request id.
    OmbiTvChild,
    /// Ombi album request id.
    OmbiAlbum,
    /// A provider id whose namespace is not known.
    ProviderUnknown,
}

impl Ns {
    /// Wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Ns::Tmdb => "tmdb",
            Ns::Tvdb => "tvdb",
            Ns::Imdb => "imdb",
            Ns::Musicbrainz => "musicbrainz",
            Ns::Tvmaze => "tvmaze",
            Ns::OmbiMovie => "ombi_movie",
            Ns::OmbiTvParent => "ombi_tv_parent",
            Ns::OmbiTvChild => "ombi_tv_child",
            Ns::OmbiAlbum => "ombi_album",
            Ns::ProviderUnknown => "provider_unknown",
        }
    }
}

/// An ordered set of identifiers with no namespace+value pair twice.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Identifiers(Vec<(Ns, String)>);

impl Identifiers {
    /// Adds `value` under `ns` unless it is absent, empty, zero or already present.
    pub fn add(&mut self, ns: Ns, value: Option<&Value>) -> &mut Self {
        if let Some(v) = value.and_then(id_text) {
            self.add_text(ns, &v);
        }
        self
    }

    /// Adds a textual id (same rules as [`Identifiers::add`]).
    pub fn add_text(&mut self, ns: Ns, value: &str) -> &mut Self {
        let v = value.trim();
        let zero = v.chars().all(|c| c == '0');
        if !v.is_empty()
            && !zero
            && v.len() <= 128
            && !self.0.iter().any(|(n, x)| *n == ns && x == v)
        {
            self.0.push((ns, v.to_owned()));
        }
        self
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value under `ns`, if any.
    pub fn get(&self, ns: Ns) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| *n == ns)
            .map(|(_, v)| v.as_str())
    }

    /// Contract JSON.
    pub fn to_json(&self) -> Value {
        Value::Array(
            self.0
                .iter()
                .map(|(n, v)| json!({"namespace": n.as_str(), "value": v}))
                .collect(),
        )
    }
}

/// The text of an id given as a JSON string or number; `None` for null, empty, zero or negative.
pub fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Value::Number(n) => n.as_i64().filter(|i| *i > 0).map(|i| i.to_string()),
        _ => None,
    }
}

/// A positive integer id from a JSON number or numeric string.
pub fn positive_id(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Number(n) => n.as_i64().filter(|i| *i > 0),
        Value::String(s) => s.trim().parse::<i64>().ok().filter(|i| *i > 0),
        _ => None,
    }
}

/// Request target kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    /// Movie request.
    Movie,
    /// TV parent request.
    TvParent,
    /// TV child request.
    TvChild,
    /// Album request.
    Album,
}

impl TargetKind {
    /// Every kind.
    const ALL: [TargetKind; 4] = [Self::Movie, Self::TvParent, Self::TvChild, Self::Album];

    /// The contract's label.
    pub const fn label(self) -> &'static str {
        match self {
            TargetKind::Movie => "movie",
            TargetKind::TvParent => "tv_parent",
            TargetKind::TvChild => "tv_child",
            TargetKind::Album => "album",
        }
    }
}

impl Choice for TargetKind {
    fn from_label(label: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.label() == label)
    }
}

/// A contract `target`, or `None` when the id is not a known positive id.
pub fn target(kind: TargetKind, id: Option<i64>) -> Option<Value> {
    id.filter(|i| *i > 0)
        .map(|id| json!({"kind": kind.label(), "id": id}))
}

#[cfg(test)]
mod tests;
