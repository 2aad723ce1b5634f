//! Request projections shared by `read_requests` and `read_discover` (contract `request_page`
//! rules).
//!
//! Targets come from Ombi's request ids, never from provider ids. Standard and 4K
//! state are reported separately and no combined status is given when they disagree.
//! The embedded `requestedUser` graph (tokens, e-mail, push ids) is never read.

use super::common::{Rec, real_date};
use crate::contract::ToolError;
use crate::ombi::client::Ombi;
use crate::ombi::ids::{Identifiers, Ns, TargetKind, positive_id, target};
use crate::ombi::media::{MAX_EPISODES, episode_cut_warning};
use crate::prelude::*;
use alloc::collections::BTreeMap;
use serde_json::{Value, json};

fn status_text(rec: &mut Rec, row: &Value) {
    if let Some(s) = row.get("requestStatus").and_then(Value::as_str) {
        let s = s.strip_prefix("Common.").unwrap_or(s);
        rec.text("status_text", Some(&json!(s)));
    }
}

fn standard_state(rec: &mut Rec, row: &Value) {
    rec.flag("approved", row.get("approved"))
        .flag("available", row.get("available"))
        .flag("denied", row.get("denied"))
        .text("denied_reason", row.get("deniedReason"))
        .date("requested_date", row.get("requestedDate"));
}

/// `MovieRequests` → `request`. A 4K-only request has `requestedDate` = MinValue and default
/// standard booleans, so its standard state is left out; `status_text` (which reflects the
/// standard state only) is given only when no 4K state disagrees with it.
pub fn movie(row: &Value, warnings: &mut Vec<String>) -> Option<Value> {
    let id = positive_id(row.get("id"));
    let mut r = Rec::new();
    r.set("target", target(TargetKind::Movie, id)?);
    let mut ids = Identifiers::default();
    ids.add(Ns::Tmdb, row.get("theMovieDbId"))
        .add(Ns::Imdb, row.get("imdbId"))
        .add(Ns::OmbiMovie, row.get("id"));
    r.set("identifiers", ids.to_json())
        .text("title", row.get("title"));
    let has_4k = row.get("has4KRequest").and_then(Value::as_bool);
    let standard_requested = row
        .get("requestedDate")
        .and_then(Value::as_str)
        .and_then(real_date)
        .is_some();
    let four_k_only = has_4k == Some(true) && !standard_requested;
    if !four_k_only {
        standard_state(&mut r, row);
    }
    r.flag("is_4k", row.get("has4KRequest"));
    if has_4k == Some(true) {
        r.flag("approved_4k", row.get("approved4K"))
            .flag("available_4k", row.get("available4K"))
            .flag("denied_4k", row.get("denied4K"));
    }
    let b = |k: &str| row.get(k).and_then(Value::as_bool).unwrap_or(false);
    let agree = b("approved") == b("approved4K")
        && b("available") == b("available4K")
        && b("denied") == b("denied4K");
    if !four_k_only && (has_4k != Some(true) || agree) {
        status_text(&mut r, row);
    } else if has_4k == Some(true) {
        warnings.push(format!(
            "movie request {}: standard and 4K states differ, so no combined status is given",
            id.unwrap_or(0)
        ));
    }
    common_tail(&mut r, row, true);
    Some(r.build())
}

fn common_tail(r: &mut Rec, row: &Value, subscribable: bool) {
    r.text("requested_user_id", row.get("requestedUserId"))
        .flag("can_approve", row.get("canApprove"));
    // `subscribed` means something only where Ombi offers subscribing; TV child values are
    // computed against the wrong key upstream (docs/ombi-behaviours.md#tv-subscribed-wrong-key), so TV never reports it.
    if subscribable && row.get("showSubscribe").and_then(Value::as_bool) == Some(true) {
        r.flag("subscribed", row.get("subscribed"));
    }
}

/// `ChildRequests` → `request` with target `tv_child` and `parent_request_id`. Provider ids
/// live on the parent: the embedded `parentRequest` (v2 lists) or `parent` when the child was
/// nested in a v1 parent record. Episodes cut from its seasons add a warning and set `cut`.
pub fn tv_child(
    row: &Value,
    parent: Option<&Value>,
    warnings: &mut Vec<String>,
    cut: &mut bool,
) -> Option<Value> {
    let mut r = Rec::new();
    r.set(
        "target",
        target(TargetKind::TvChild, positive_id(row.get("id")))?,
    );
    r.id("parent_request_id", row.get("parentRequestId"));
    if !r.has("parent_request_id") {
        r.id("parent_request_id", parent.and_then(|p| p.get("id")));
    }
    let parent = row
        .get("parentRequest")
        .filter(|p| p.is_object())
        .or(parent);
    let mut ids = Identifiers::default();
    ids.add(Ns::OmbiTvChild, row.get("id"))
        .add(Ns::OmbiTvParent, row.get("parentRequestId"));
    if let Some(p) = parent {
        ids.add(Ns::OmbiTvParent, p.get("id"))
            .add(Ns::Tmdb, p.get("externalProviderId"))
            .add(Ns::Tvdb, p.get("tvDbId"))
            .add(Ns::Imdb, p.get("imdbId"));
    }
    r.set("identifiers", ids.to_json())
        .text("title", row.get("title"));
    if !r.has("title") {
        r.text("title", parent.and_then(|p| p.get("title")));
    }
    standard_state(&mut r, row);
    status_text(&mut r, row);
    common_tail(&mut r, row, false);
    let seasons = seasons(row.get("seasonRequests"));
    if let Some(warning) = episode_cut_warning(&seasons) {
        *cut = true;
        let id = positive_id(row.get("id")).unwrap_or(0);
        warnings.push(format!("TV child request {id}: {warning}"));
    }
    if !seasons.is_empty() {
        r.set("seasons", Value::Array(seasons));
    }
    Some(r.build())
}

/// `TvRequests` (v1) → `request` with target `tv_parent`; its children are separate records.
pub fn tv_parent(row: &Value) -> Option<Value> {
    let mut r = Rec::new();
    r.set(
        "target",
        target(TargetKind::TvParent, positive_id(row.get("id")))?,
    );
    let mut ids = Identifiers::default();
    ids.add(Ns::OmbiTvParent, row.get("id"))
        .add(Ns::Tmdb, row.get("externalProviderId"))
        .add(Ns::Tvdb, row.get("tvDbId"))
        .add(Ns::Imdb, row.get("imdbId"));
    r.set("identifiers", ids.to_json())
        .text("title", row.get("title"));
    Some(r.build())
}

/// `AlbumRequest` → `request` with target `album`.
pub fn album(row: &Value) -> Option<Value> {
    let mut r = Rec::new();
    r.set(
        "target",
        target(TargetKind::Album, positive_id(row.get("id")))?,
    );
    let mut ids = Identifiers::default();
    ids.add(Ns::Musicbrainz, row.get("foreignAlbumId"))
        .add(Ns::OmbiAlbum, row.get("id"));
    r.set("identifiers", ids.to_json())
        .text("title", row.get("title"));
    standard_state(&mut r, row);
    // Album requests store server-local times that Ombi serialises with a `Z`.
    r.day("requested_date", row.get("requestedDate"));
    status_text(&mut r, row);
    common_tail(&mut r, row, true);
    Some(r.build())
}

/// `seasonRequests` → contract seasons, episodes cut at [`MAX_EPISODES`] with `truncated`.
pub fn seasons(v: Option<&Value>) -> Vec<Value> {
    let Some(list) = v.and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|s| {
            let number = s.get("seasonNumber").and_then(Value::as_i64).filter(|n| *n >= 0)?;
            let episodes = s.get("episodes").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            let kept: Vec<Value> = episodes
                .iter()
                .take(MAX_EPISODES)
                .filter_map(|e| {
                    let n = e.get("episodeNumber").and_then(Value::as_i64).filter(|n| *n >= 0)?;
                    let mut r = Rec::new();
                    r.set("episode_number", json!(n))
                        .text("title", e.get("title"))
                        .flag("requested", e.get("requested"))
                        .flag("available", e.get("available"));
                    Some(r.build())
                })
                .collect();
            Some(json!({"season_number": number, "episodes": kept, "truncated": episodes.len() > MAX_EPISODES}))
        })
        .collect()
}

/// TV parents seen by the bounded v1 parent scan, indexed so that resolving a child costs
/// log n however many parents and children upstream lists.
#[derive(Debug, Default)]
pub struct ParentIndex {
    /// The first parent (in scan order) listing each child id.
    by_child: BTreeMap<i64, i64>,
    /// The first parent (in scan order) whose TMDB (`externalProviderId`) or TVDB id is each
    /// value.
    by_media_id: BTreeMap<String, i64>,
    /// Whether every parent visible to the principal was seen.
    pub complete: bool,
}

/// Parents per scan page.
const SCAN_PAGE: usize = 100;
/// Most scan pages.
const SCAN_PAGES: usize = 5;

impl ParentIndex {
    /// Reads `GET /api/v1/Request/tvlite/{count}/{position}/2/0/0` pages (newest first; the
    /// v1 TV list ignores its filter segments, see
    /// docs/ombi-behaviours.md#v1-tv-list-ignores-filters) until a short page or [`SCAN_PAGES`].
    ///
    /// # Errors
    /// The first failing page's error.
    pub fn scan(ombi: &Ombi<'_>) -> Result<Self, ToolError> {
        let mut index = Self::default();
        for page in 0..SCAN_PAGES {
            let body: Option<Value> = ombi.get(&format!(
                "/api/v1/Request/tvlite/{SCAN_PAGE}/{}/2/0/0",
                page * SCAN_PAGE
            ))?;
            // `collection` is null when there are no TV requests; `total` is never set.
            let rows = body
                .as_ref()
                .and_then(|b| b.get("collection"))
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice);
            for p in rows {
                let Some(id) = positive_id(p.get("id")) else {
                    continue;
                };
                for child in p
                    .get("childRequests")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|c| positive_id(c.get("id")))
                {
                    index.by_child.entry(child).or_insert(id);
                }
                for key in ["externalProviderId", "tvDbId"] {
                    if let Some(m) = p.get(key).and_then(crate::ombi::ids::id_text) {
                        index.by_media_id.entry(m).or_insert(id);
                    }
                }
            }
            if rows.len() < SCAN_PAGE {
                index.complete = true;
                break;
            }
        }
        Ok(index)
    }

    /// The parent of child `child`: a parent listing that child id first, else the parent whose
    /// TMDB (`externalProviderId`) or TVDB id equals `media_id`.
    pub fn resolve(&self, child: i64, media_id: Option<&str>) -> Option<i64> {
        if let Some(&parent) = self.by_child.get(&child) {
            return Some(parent);
        }
        self.by_media_id.get(media_id?.trim()).copied()
    }
}

/// A `RecentlyRequestedModel` row → `request`. On TV rows `requestId` is a *child* id and
/// `mediaId` the show's TMDB id: the target is the parent found through `index`, or, when
/// none is found, the child itself with a warning. `mediaId` is never used as a target.
pub fn recent(
    row: &Value,
    index: Option<&ParentIndex>,
    warnings: &mut Vec<String>,
) -> Option<Value> {
    let request_id = positive_id(row.get("requestId"));
    let media_id = row.get("mediaId").and_then(crate::ombi::ids::id_text);
    let mut ids = Identifiers::default();
    let target = match row.get("type").and_then(Value::as_i64) {
        Some(1) => {
            ids.add(Ns::Tmdb, row.get("mediaId"))
                .add(Ns::OmbiMovie, row.get("requestId"));
            target(TargetKind::Movie, request_id)
        }
        Some(2) => {
            ids.add(Ns::Musicbrainz, row.get("mediaId"))
                .add(Ns::OmbiAlbum, row.get("requestId"));
            target(TargetKind::Album, request_id)
        }
        Some(0) => {
            let child = request_id?;
            ids.add(Ns::OmbiTvChild, row.get("requestId"))
                .add(Ns::Tmdb, row.get("mediaId"));
            match index.and_then(|i| i.resolve(child, media_id.as_deref())) {
                Some(parent) => {
                    ids.add_text(Ns::OmbiTvParent, &parent.to_string());
                    target(TargetKind::TvParent, Some(parent))
                }
                None => {
                    warnings.push(format!("recent TV request {child}: its parent request could not be resolved, so the child request is the target"));
                    target(TargetKind::TvChild, Some(child))
                }
            }
        }
        other => {
            warnings.push(format!(
                "a recent request of unknown type {other:?} was left out"
            ));
            return None;
        }
    };
    let mut r = Rec::new();
    r.set("target", target?)
        .set("identifiers", ids.to_json())
        .text("title", row.get("title"));
    r.flag("approved", row.get("approved"))
        .flag("available", row.get("available"))
        .flag("denied", row.get("denied"))
        .date("requested_date", row.get("requestDate"))
        .text("requested_user_id", row.get("userId"));
    Some(r.build())
}
