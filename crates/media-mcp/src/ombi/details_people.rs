//! `read_media` for persons, collections, artists and albums.
//!
//! Persons: Ombi returns only the person id, so the caller supplies the name; TV credit titles
//! are null upstream and are enriched from the TV detail route, only for the returned window.
//! Collections: the collection's id is not echoed (the input id is its identity) and member
//! request/availability fields are always defaults upstream, so they are never projected.

use super::ids::{Ns, TargetKind, positive_id};
use super::media::{MediaItem, safe_artwork_uri};
use crate::contract::{Reply, ToolError};
use crate::ombi::client::Ombi;
use crate::paging;
use crate::paging::Window;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::path_segment;
use alloc::collections::BTreeMap;
use serde_json::{Value, json};

fn page(items: Vec<MediaItem>, window: Window, warnings: Vec<String>) -> Reply {
    let total = items.len();
    let shortened = items.iter().any(|i| i.shortened);
    let items: Vec<Value> = paging::slice(items, window)
        .into_iter()
        .map(MediaItem::into_json)
        .collect();
    let page = paging::local(window, items.len(), total, "media");
    Reply::ok(json!({"kind": "media_page", "items": items, "page": page}))
        .warn_all(warnings)
        .truncated(shortened)
}

/// A collection and its returned members.
pub(super) fn collection(ombi: &Ombi<'_>, id: &str, window: Window) -> Result<Reply, ToolError> {
    let v = match ombi.get_by_id(&format!("/api/v2/Search/movie/collection/{id}")) {
        Ok(v) => v,
        Err(reply) => return Ok(*reply),
    };
    let mut head = MediaItem::new("collection");
    head.ids.add_text(Ns::Tmdb, id);
    head.text("title", v.get("name"))
        .text("overview", v.get("overview"));
    let mut items = vec![head];
    for m in v
        .get("collection")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let mut item = MediaItem::new("movie");
        item.ids.add(Ns::Tmdb, m.get("id"));
        item.text("title", m.get("title"))
            .text("overview", m.get("overview"))
            .year_from(m.get("releaseDate"))
            .artwork(safe_artwork_uri(m.get("posterPath")));
        items.push(item);
    }
    let warnings = vec!["Ombi does not report request or availability state for collection members: read each movie for it".to_owned()];
    Ok(page(items, window, warnings))
}

/// One media record per work of a person, with the person as a credit.
pub(super) fn person(ombi: &Ombi<'_>, args: &Args) -> Result<Reply, ToolError> {
    let id = args.segment("id")?;
    let name = args.str("person_name")?;
    let which = args.str("credit_media")?;
    let window = args.window()?;
    let mut works = Works::default();
    for (segment, kind) in [("movie", "movie"), ("tv", "tv")] {
        if which != "both" && which != kind {
            continue;
        }
        let Some(credits) = ombi.get::<Value>(&format!("/api/v2/Search/actor/{id}/{segment}"))?
        else {
            continue;
        };
        let person_id = positive_id(credits.get("id"));
        for (list, role_key) in [("cast", "character"), ("crew", "job")] {
            for c in credits
                .get(list)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                works.add(kind, c, name, person_id, role_key);
            }
        }
    }
    let total = works.list.len();
    let mut warnings = Vec::new();
    let mut window_items: Vec<(MediaItem, bool)> = paging::slice(works.list, window);
    for (item, needs_title) in window_items.iter_mut().filter(|(_, n)| *n) {
        // Upstream data: an id that cannot be a path segment is not looked up.
        let Some(tmdb) = item.ids.get(Ns::Tmdb).and_then(path_segment) else {
            continue;
        };
        match ombi.get::<Value>(&format!("/api/v2/Search/tv/moviedb/{tmdb}")) {
            Ok(Some(tv)) => {
                item.text("title", tv.get("title"))
                    .year_from(tv.get("firstAired"));
                *needs_title = false;
            }
            _ => warnings.push(format!("the title of TV credit {tmdb} could not be read")),
        }
    }
    let shortened = window_items.iter().any(|(i, _)| i.shortened);
    let items: Vec<Value> = window_items
        .into_iter()
        .map(|(i, _)| i.into_json())
        .collect();
    let page = paging::local(window, items.len(), total, "media");
    Ok(
        Reply::ok(json!({"kind": "media_page", "items": items, "page": page}))
            .warn_all(warnings)
            .truncated(shortened),
    )
}

/// A person's works in first-credit order (with whether a TV title is still to be read), one
/// per (media, TMDB id): a work credited several times gathers its credits. The index keeps
/// adding a credit logarithmic, so a person with many thousand credits costs n·log n.
#[derive(Default)]
struct Works {
    list: Vec<(MediaItem, bool)>,
    index: BTreeMap<(&'static str, i64), usize>,
}

impl Works {
    fn add(
        &mut self,
        kind: &'static str,
        c: &Value,
        name: &str,
        person_id: Option<i64>,
        role_key: &str,
    ) {
        let Some(work_id) = positive_id(c.get("id")) else {
            return;
        };
        let mut credit = json!({"name": name});
        if let Some(p) = person_id {
            credit["person_id"] = json!(p);
        }
        if let Some(r) = c
            .get(role_key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        {
            credit["role"] = json!(r);
        }
        match c.get("department").and_then(Value::as_str) {
            Some(d) => credit["department"] = json!(d),
            None if role_key == "character" => credit["department"] = json!("Acting"),
            None => {}
        }
        if let Some(&at) = self.index.get(&(kind, work_id)) {
            self.list[at].0.push_credit(credit);
            return;
        }
        let mut item = MediaItem::new(kind);
        item.ids.add_text(Ns::Tmdb, &work_id.to_string());
        item.text("title", c.get("title"))
            .text("overview", c.get("overview"))
            .year_from(c.get("release_date"))
            .artwork(safe_artwork_uri(c.get("poster_path")));
        item.push_credit(credit);
        let needs_title = kind == "tv" && c.get("title").and_then(Value::as_str).is_none();
        self.index.insert((kind, work_id), self.list.len());
        self.list.push((item, needs_title));
    }
}

/// An artist, followed by its release groups as album records.
pub(super) fn artist(ombi: &Ombi<'_>, path: &str, window: Window) -> Result<Reply, ToolError> {
    let v = match ombi.get_by_id(path) {
        Ok(v) => v,
        Err(reply) => return Ok(*reply),
    };
    let mut head = MediaItem::new("artist");
    head.ids.add(Ns::Musicbrainz, v.get("id"));
    head.text("title", v.get("name"))
        .text("overview", v.get("overview"))
        .year_from(v.get("startYear"))
        .artwork(safe_artwork_uri(v.get("poster")));
    let mut items = vec![head];
    for rg in v
        .get("releaseGroups")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        items.push(release_group(rg));
    }
    Ok(page(items, window, Vec::new()))
}

/// One album (MusicBrainz release group).
pub(super) fn album(ombi: &Ombi<'_>, path: &str) -> Result<Reply, ToolError> {
    let v = match ombi.get_by_id(path) {
        Ok(v) => v,
        Err(reply) => return Ok(*reply),
    };
    let item = release_group(&v);
    let shortened = item.shortened;
    let data = json!({"kind": "media_page", "items": [item.into_json()], "page": paging::single(1, "media")});
    Ok(Reply::ok(data).truncated(shortened))
}

/// `ReleaseGroup`: `id` is the MusicBrainz release-group id (a string).
fn release_group(rg: &Value) -> MediaItem {
    let mut m = MediaItem::new("album");
    m.ids
        .add(Ns::Musicbrainz, rg.get("id").filter(|v| v.is_string()));
    m.text("title", rg.get("title"))
        .year_from(rg.get("releaseDate"))
        .flag("available", rg.get("available"))
        .flag("requested", rg.get("requested"))
        .request_target(TargetKind::Album, rg.get("requestId"));
    m
}

#[cfg(test)]
mod tests;
