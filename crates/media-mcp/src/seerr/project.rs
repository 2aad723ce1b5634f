//! Seerr's answers as contract records: `media`, `request`, `issue`, `user`. Only documented
//! fields are taken; anything absent or null stays absent. Every id keeps its namespace: TMDB,
//! TVDB, IMDb, and Seerr's own media id (`seerr_media`, what `POST /issue` takes).

use super::states::{MEDIA_AVAILABLE, RequestStatus, issue_status, media_status};
use crate::prelude::*;
use serde_json::{Map, Value, json};

/// Longest text kept in a record, in characters.
pub const MAX_TEXT_CHARS: usize = 1000;

/// A record's `identifiers`, each namespace and value once.
#[derive(Debug, Default)]
pub struct Ids(Vec<Value>);

impl Ids {
    /// Adds `value` under `namespace` when it is a positive number or a non-empty string.
    pub fn add(&mut self, namespace: &str, value: Option<&Value>) -> &mut Self {
        let text = match value {
            Some(Value::Number(n)) if n.as_i64().is_some_and(|i| i > 0) => n.to_string(),
            Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_owned(),
            _ => return self,
        };
        let id = json!({"namespace": namespace, "value": text});
        if !self.0.contains(&id) {
            self.0.push(id);
        }
        self
    }

    /// Seerr's media record (`mediaInfo`, a request's `media`): its ids in every namespace.
    pub fn of_media(&mut self, media: Option<&Value>) -> &mut Self {
        if let Some(m) = media {
            self.add("tmdb", m.get("tmdbId"))
                .add("tvdb", m.get("tvdbId"))
                .add("imdb", m.get("imdbId"))
                .add("seerr_media", m.get("id"));
        }
        self
    }

    pub fn into_json(self) -> Value {
        Value::Array(self.0)
    }
}

/// A contract record under construction: fields set only from values upstream gave.
#[derive(Debug, Default)]
pub struct Record {
    fields: Map<String, Value>,
    /// Whether a text was cut to [`MAX_TEXT_CHARS`].
    pub shortened: bool,
}

impl Record {
    /// Sets `key` to a non-empty upstream string, cut to [`MAX_TEXT_CHARS`].
    pub fn text(&mut self, key: &str, v: Option<&Value>) -> &mut Self {
        if let Some(s) = v.and_then(Value::as_str).map(str::trim)
            && !s.is_empty()
        {
            let cut = s.chars().count() > MAX_TEXT_CHARS;
            self.shortened |= cut;
            let s: String = if cut {
                format!("{}…", s.chars().take(MAX_TEXT_CHARS).collect::<String>())
            } else {
                s.to_owned()
            };
            self.fields.insert(key.into(), json!(s));
        }
        self
    }

    /// Sets `key` to `v`.
    pub fn set(&mut self, key: &str, v: Value) -> &mut Self {
        self.fields.insert(key.into(), v);
        self
    }

    /// Sets `key` when `v` is `Some`.
    pub fn maybe(&mut self, key: &str, v: Option<Value>) -> &mut Self {
        if let Some(v) = v {
            self.fields.insert(key.into(), v);
        }
        self
    }

    /// Sets `seasons` from the `seasonNumber`s of `row`'s `seasons` (at most 100), and says
    /// whether there were any. Seerr deals in whole seasons, so no episodes; `truncated` says
    /// whether the episodes were left out.
    pub fn seasons(&mut self, row: &Value, truncated: bool) -> bool {
        let seasons: Vec<Value> = row
            .get("seasons")
            .and_then(Value::as_array)
            .map(|s| {
                s.iter()
                    .filter_map(|x| x.get("seasonNumber").and_then(Value::as_i64))
                    .filter(|n| *n >= 0)
                    .take(100)
                    .map(|n| json!({"season_number": n, "episodes": [], "truncated": truncated}))
                    .collect()
            })
            .unwrap_or_default();
        let any = !seasons.is_empty();
        if any {
            self.set("seasons", Value::Array(seasons));
        }
        any
    }

    pub fn into_json(self) -> Value {
        Value::Object(self.fields)
    }
}

/// The year of an ISO date.
fn year_of(v: Option<&Value>) -> Option<Value> {
    let y: i64 = v?.as_str()?.get(..4)?.parse().ok()?;
    (1800..=2200).contains(&y).then(|| json!(y))
}

/// A TMDB file path (`/abc.jpg`) as an `image.tmdb.org` URI, when it is one plain file name of
/// a raster type.
pub fn tmdb_image(v: Option<&Value>) -> Option<String> {
    let file = v?.as_str()?.strip_prefix('/')?;
    let plain = !file.is_empty()
        && file
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        && [".jpg", ".jpeg", ".png", ".webp"]
            .iter()
            .any(|ext| file.to_ascii_lowercase().ends_with(ext));
    plain.then(|| format!("https://image.tmdb.org/t/p/original/{file}"))
}

/// The kind of a Seerr `mediaType`.
fn kind_of(media_type: Option<&Value>) -> &'static str {
    match media_type.and_then(Value::as_str) {
        Some("movie") => "movie",
        Some("tv") => "tv",
        Some("person") => "person",
        Some("collection") => "collection",
        _ => "unknown",
    }
}

/// A search or discovery result, or a movie's or show's details (`kind` when the route says
/// what it is): TMDB id, titles, year, artwork and, from `mediaInfo`, Seerr's standard and 4K
/// state and media id. Without `mediaInfo` Seerr has no record of the title: no state is
/// reported.
pub fn media(row: &Value, kind: Option<&'static str>) -> Record {
    let kind = kind.unwrap_or_else(|| kind_of(row.get("mediaType")));
    let info = row.get("mediaInfo").filter(|v| v.is_object());
    let mut ids = Ids::default();
    ids.add("tmdb", row.get("id"))
        .add("tvdb", row.pointer("/externalIds/tvdbId"))
        .add("imdb", row.pointer("/externalIds/imdbId"))
        .add("imdb", row.get("imdbId"))
        .of_media(info);
    let mut r = Record::default();
    r.set("media", json!(kind))
        .set("identifiers", ids.into_json())
        .text("title", row.get("title").or_else(|| row.get("name")))
        .text(
            "overview",
            row.get("overview").or_else(|| row.get("biography")),
        )
        .maybe(
            "year",
            year_of(row.get("releaseDate").or_else(|| row.get("firstAirDate"))),
        );
    if let Some(info) = info {
        let status = info.get("status").and_then(Value::as_i64);
        r.maybe("available", status.map(|s| json!(s == MEDIA_AVAILABLE)))
            .maybe(
                "requested",
                status.filter(|s| matches!(s, 2 | 3)).map(|_| json!(true)),
            )
            .maybe("status", status.and_then(media_status).map(|s| json!(s)))
            .maybe(
                "status_4k",
                info.get("status4k")
                    .and_then(Value::as_i64)
                    .and_then(media_status)
                    .map(|s| json!(s)),
            );
    }
    let genres: Vec<Value> = row
        .get("genres")
        .and_then(Value::as_array)
        .map(|g| {
            g.iter()
                .filter_map(|x| x.get("name").and_then(Value::as_str))
                .map(|s| json!(s))
                .collect()
        })
        .unwrap_or_default();
    if !genres.is_empty() {
        r.set("genres", Value::Array(genres));
    }
    if let Some(v) = row
        .get("voteAverage")
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite())
    {
        r.set(
            "ratings",
            json!([{"name": "tmdb_vote_average", "value": v}]),
        );
    }
    let art: Vec<Value> = ["posterPath", "backdropPath", "profilePath"]
        .iter()
        .filter_map(|k| tmdb_image(row.get(*k)))
        .map(Value::String)
        .collect();
    if !art.is_empty() {
        r.set("artwork_uris", Value::Array(art));
    }
    r
}

/// The contract `target` of a Seerr request: a movie request, or a TV request (one season set,
/// as Ombi's TV child request).
pub fn request_target(row: &Value) -> Option<Value> {
    let id = row.get("id").and_then(Value::as_i64).filter(|i| *i > 0)?;
    let kind = match row.get("type").and_then(Value::as_str)? {
        "movie" => "movie",
        "tv" => "tv_child",
        _ => return None,
    };
    Some(json!({"kind": kind, "id": id}))
}

/// A Seerr `MediaRequest`: its target, ids, state by Seerr's request and media enums (the
/// standard and 4K sides apart), requester and seasons.
pub fn request(row: &Value) -> Option<Record> {
    let target = request_target(row)?;
    let media = row.get("media").filter(|v| v.is_object());
    let mut ids = Ids::default();
    ids.of_media(media);
    let is_4k = row.get("is4k").and_then(Value::as_bool);
    let status = row
        .get("status")
        .and_then(Value::as_i64)
        .and_then(RequestStatus::from_code);
    let media_state = media.and_then(|m| {
        m.get(if is_4k == Some(true) {
            "status4k"
        } else {
            "status"
        })
        .and_then(Value::as_i64)
    });
    let side = |key: &str| {
        if is_4k == Some(true) {
            format!("{key}_4k")
        } else {
            key.to_owned()
        }
    };
    let mut r = Record::default();
    r.set("target", target)
        .set("identifiers", ids.into_json())
        .maybe("is_4k", is_4k.map(|b| json!(b)));
    if is_4k.is_some() {
        r.maybe(&side("approved"), status.map(|s| json!(s.approved())))
            .maybe(
                &side("denied"),
                status.map(|s| json!(s == RequestStatus::Declined)),
            )
            .maybe(
                &side("available"),
                media_state.map(|s| json!(s == MEDIA_AVAILABLE)),
            );
    }
    let text = match (status, media_state.and_then(media_status)) {
        (Some(s), Some(m)) => Some(format!("{}; media {m}", s.word())),
        (Some(s), None) => Some(s.word().to_owned()),
        (None, _) => None,
    };
    r.maybe("status_text", text.map(Value::String))
        .text("requested_date", row.get("createdAt"))
        .maybe(
            "requested_user_id",
            row.pointer("/requestedBy/id")
                .and_then(Value::as_i64)
                .map(|i| json!(i.to_string())),
        );
    r.seasons(row, false);
    Some(r)
}

/// A Seerr `Issue`: its type as `category_id`, open/resolved, the media it is about (TMDB id
/// as `provider_id`), the first comment as its description.
pub fn issue(row: &Value) -> Option<Record> {
    let id = row.get("id").and_then(Value::as_i64).filter(|i| *i > 0)?;
    let mut r = Record::default();
    r.set("id", json!(id))
        .maybe(
            "category_id",
            row.get("issueType")
                .and_then(Value::as_i64)
                .filter(|t| (1..=4).contains(t))
                .map(|t| json!(t)),
        )
        .maybe(
            "status",
            row.get("status")
                .and_then(Value::as_i64)
                .and_then(issue_status)
                .map(|s| json!(s)),
        )
        .maybe(
            "request_type",
            match row.pointer("/media/mediaType").and_then(Value::as_str) {
                Some("movie") => Some(json!("movie")),
                Some("tv") => Some(json!("tv")),
                _ => None,
            },
        )
        .maybe(
            "provider_id",
            row.pointer("/media/tmdbId")
                .and_then(Value::as_i64)
                .map(|i| json!(i.to_string())),
        )
        .text("description", row.pointer("/comments/0/message"))
        .text("created_date", row.get("createdAt"))
        .maybe(
            "reported_by_user_id",
            row.pointer("/createdBy/id")
                .and_then(Value::as_i64)
                .map(|i| json!(i.to_string())),
        );
    Some(r)
}

/// An issue's comments as contract `comment` records.
pub fn comments(issue: &Value) -> Vec<Value> {
    let issue_id = issue.get("id").and_then(Value::as_i64);
    issue
        .get("comments")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|c| {
                    let mut r = Record::default();
                    r.text("comment", c.get("message"));
                    if !r.fields.contains_key("comment") {
                        return None;
                    }
                    r.maybe(
                        "id",
                        c.get("id")
                            .and_then(Value::as_i64)
                            .filter(|i| *i > 0)
                            .map(|i| json!(i)),
                    )
                    .maybe("issue_id", issue_id.filter(|i| *i > 0).map(|i| json!(i)))
                    .maybe(
                        "author_id",
                        c.pointer("/user/id")
                            .and_then(Value::as_i64)
                            .map(|i| json!(i.to_string())),
                    )
                    .text("created_date", c.get("createdAt"));
                    Some(r.into_json())
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A Seerr `User`: id, user name and display name (never the e-mail address).
pub fn user(row: &Value) -> Option<Value> {
    let id = row.get("id").and_then(Value::as_i64).filter(|i| *i > 0)?;
    let mut r = Record::default();
    r.set("id", json!(id.to_string()))
        .text(
            "user_name",
            row.get("username")
                .filter(|v| v.is_string())
                .or_else(|| row.get("plexUsername").filter(|v| v.is_string()))
                .or_else(|| row.get("jellyfinUsername")),
        )
        .text("alias", row.get("displayName"));
    Some(r.into_json())
}
