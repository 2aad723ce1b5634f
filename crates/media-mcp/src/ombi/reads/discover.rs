//! `read_discover` → `media_page`.
//!
//! Browse lists from Ombi's v2 discovery routes. Upstream arrays are decoded row by row with
//! `seasonRequests` skipped while parsing (Ombi may hydrate whole episode trees into browse
//! items), so those trees are never built. v2 TV browse ids are TMDB (`seriesId` is not a
//! TVMaze id). The `requested` category falls back to the bounded recently-requested feed:
//! its pages are marked truncated, with no total or continuation.

use super::request_items::ParentIndex;
use crate::contract::{Reply, ToolError};
use crate::ombi::call::{Call, OmbiTool};
use crate::ombi::client::Ombi;
use crate::ombi::codes::{DEFAULT_LANGUAGE_CODE, RequestKind};
use crate::ombi::ids::{Ns, TargetKind, positive_id, target};
use crate::ombi::media::{MediaItem, safe_artwork_uri};
use crate::ombi::project;
use crate::paging::Window;
use crate::paging::{self, Beyond};
use crate::paging::{limit_schema, offset_schema};
use crate::prelude::*;
use crate::tool::{Args, Prose, View, Views};
use crate::upstream::Effect;
use crate::upstream::Method;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_discover",
    "Discover media",
    "Browse movies and TV shows through Ombi: popular, top rated, upcoming, trending, seasonal, recently requested, anticipated, titles similar to a movie, or movies matching filters (year, decade, genres, keywords, watch providers, companies). Returns media records with their ids and request state.",
    &["media_page"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A browse list, paged by `Window`; the `bool` says TV (else movies).
type ViewFn = fn(&Ombi<'_>, &Args, Window, bool) -> Result<Reply, ToolError>;

const fn view(name: &'static str, handler: ViewFn) -> View<ViewFn> {
    View::undescribed(name, &["media_page"], handler)
}

/// The categories: movie ones first, then those only TV has.
static VIEWS: Views<ViewFn> = Views {
    field: "category",
    default: None,
    prose: Prose::Whole(
        "Which list. Movies: popular, top_rated, upcoming, now_playing, seasonal, requested, similar (needs tmdb_id), advanced (needs filters). TV: popular, anticipated, trending, most_watched, requested.",
    ),
    views: &[
        view("popular", popular),
        view("top_rated", top_rated),
        view("upcoming", upcoming),
        view("now_playing", now_playing),
        view("seasonal", seasonal),
        view("requested", requested),
        view("similar", similar),
        view("advanced", advanced),
        view("anticipated", anticipated),
        view("trending", trending),
        view("most_watched", most_watched),
    ],
};

const MOVIE_CATEGORIES: [&str; 8] = [
    "popular",
    "top_rated",
    "upcoming",
    "now_playing",
    "seasonal",
    "requested",
    "similar",
    "advanced",
];
const TV_CATEGORIES: [&str; 5] = [
    "popular",
    "anticipated",
    "trending",
    "most_watched",
    "requested",
];

fn input_schema() -> Value {
    let id_list = |what: &str| json!({"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 50, "uniqueItems": true, "description": what});
    json!({
        "type": "object",
        "properties": {
            "media": {"enum": ["movie", "tv"], "description": "Movies or TV shows."},
            "category": VIEWS.property(),
            "tmdb_id": {"type": "integer", "minimum": 1, "description": "TMDB id of the movie to find similar titles for (similar only)."},
            "language_code": {"type": "string", "pattern": "^[a-z]{2}$", "description": "ISO 639-1 language for titles (similar only)."},
            "filters": {"type": "object", "minProperties": 1, "additionalProperties": false, "description": "Movie filters (advanced only).",
                        "properties": {
                            "release_year": {"type": "integer", "minimum": 1870, "maximum": 2100, "description": "Release year."},
                            "decade": {"type": "integer", "minimum": 1870, "maximum": 2100, "description": "First year of a decade, e.g. 1990."},
                            "genre_ids": id_list("TMDB genre ids (see read_reference)."),
                            "keyword_ids": id_list("TMDB keyword ids (see read_reference)."),
                            "watch_provider_ids": id_list("TMDB watch provider ids (see read_reference)."),
                            "company_ids": id_list("TMDB company ids.")}},
            "offset": offset_schema(),
            "limit": limit_schema()
        },
        "required": ["media", "category"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"media": {"const": "movie"}}}, "then": {"properties": {"category": {"enum": MOVIE_CATEGORIES}}},
             "else": {"properties": {"category": {"enum": TV_CATEGORIES}}}},
            {"if": {"properties": {"category": {"const": "similar"}}}, "then": {"required": ["tmdb_id"]},
             "else": {"properties": {"tmdb_id": {"not": {}}, "language_code": {"not": {}}}}},
            {"if": {"properties": {"category": {"const": "advanced"}}}, "then": {"required": ["filters"]},
             "else": {"properties": {"filters": {"not": {}}}}}
        ]
    })
}

/// A browse row decoded without its `seasonRequests` tree (skipped while parsing).
#[derive(Debug)]
struct BrowseRow(Map<String, Value>);

impl<'de> Deserialize<'de> for BrowseRow {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct RowVisitor;
        impl<'de> Visitor<'de> for RowVisitor {
            type Value = BrowseRow;
            fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                f.write_str("a media object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<BrowseRow, A::Error> {
                let mut m = Map::new();
                while let Some(k) = a.next_key::<String>()? {
                    if k == "seasonRequests" {
                        a.next_value::<IgnoredAny>()?;
                    } else {
                        let v: Value = a.next_value()?;
                        m.insert(k, v);
                    }
                }
                Ok(BrowseRow(m))
            }
        }
        d.deserialize_map(RowVisitor)
    }
}

fn rows(body: Option<Option<Vec<BrowseRow>>>) -> Vec<Value> {
    body.flatten()
        .unwrap_or_default()
        .into_iter()
        .map(|r| Value::Object(r.0))
        .collect()
}

fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let window = args.window()?;
    let tv = args.choice::<RequestKind>("media")? == RequestKind::Tv;
    (VIEWS.select(args)?.handler)(&ombi, args, window, tv)
}

fn popular(ombi: &Ombi<'_>, _: &Args, window: Window, tv: bool) -> Result<Reply, ToolError> {
    browse(ombi, window, tv, "popular", None)
}

fn top_rated(ombi: &Ombi<'_>, _: &Args, window: Window, tv: bool) -> Result<Reply, ToolError> {
    browse(ombi, window, tv, "toprated", None)
}

fn upcoming(ombi: &Ombi<'_>, _: &Args, window: Window, tv: bool) -> Result<Reply, ToolError> {
    browse(ombi, window, tv, "upcoming", None)
}

fn now_playing(ombi: &Ombi<'_>, _: &Args, window: Window, tv: bool) -> Result<Reply, ToolError> {
    let note = "Ombi's paged now_playing list is TMDB's trending movies";
    browse(ombi, window, tv, "nowplaying", Some(note))
}

fn seasonal(ombi: &Ombi<'_>, _: &Args, window: Window, tv: bool) -> Result<Reply, ToolError> {
    browse(ombi, window, tv, "seasonal", None)
}

fn anticipated(ombi: &Ombi<'_>, _: &Args, window: Window, tv: bool) -> Result<Reply, ToolError> {
    browse(ombi, window, tv, "anticipated", None)
}

fn trending(ombi: &Ombi<'_>, _: &Args, window: Window, tv: bool) -> Result<Reply, ToolError> {
    browse(ombi, window, tv, "trending", None)
}

fn most_watched(ombi: &Ombi<'_>, _: &Args, window: Window, tv: bool) -> Result<Reply, ToolError> {
    let note = "Ombi's most_watched TV list is the same as popular";
    browse(ombi, window, tv, "mostwatched", Some(note))
}

/// The paged browse route `segment` of movies or TV; `note` is a warning of the category.
fn browse(
    ombi: &Ombi<'_>,
    window: Window,
    tv: bool,
    segment: &str,
    note: Option<&str>,
) -> Result<Reply, ToolError> {
    let (pos, amt) = (window.offset, window.limit);
    let media = if tv { "tv" } else { "movie" };
    let found = rows(ombi.get(&format!("/api/v2/Search/{media}/{segment}/{pos}/{amt}"))?);
    Ok(discovered(&found, tv, window, note))
}

fn advanced(ombi: &Ombi<'_>, args: &Args, window: Window, tv: bool) -> Result<Reply, ToolError> {
    let (pos, amt) = (window.offset, window.limit);
    let body = discover_model(args.value("filters")?);
    let found = rows(ombi.send(
        Method::Post,
        &format!("/api/v2/Search/advancedSearch/movie/{pos}/{amt}"),
        Some(&body),
        Effect::Read,
    )?);
    Ok(discovered(&found, tv, window, None))
}

/// One upstream page of discovery rows as the reply; `note` is a warning of the category.
fn discovered(found: &[Value], tv: bool, window: Window, note: Option<&str>) -> Reply {
    let mut w: Vec<String> = note.map(str::to_owned).into_iter().collect();
    w.push(paging::NO_SNAPSHOT_WARNING.to_owned());
    w.push("Ombi may hide available titles from discovery, so a page can hold fewer items than asked without being the last".to_owned());
    let items: Vec<Value> = found
        .iter()
        .take(window.limit)
        .map(|r| project(r, tv))
        .collect();
    let n = items.len();
    // TV discovery pages in steps of 10 over TMDB pages of 20 (docs/ombi-behaviours.md#tv-discover-pages-by-ten): beyond the first page items
    // may repeat or be skipped, so a continuation is offered only from offset 0.
    let next = if n == window.limit && (!tv || window.offset == 0) {
        Some(window.offset + n)
    } else {
        None
    };
    if tv {
        w.push("Ombi's TV discovery paging skips or repeats items beyond the first page: later pages are unreliable".to_owned());
    }
    let page = paging::upstream(window, n, Beyond::Unknown { next }, "media");
    Reply::ok(json!({"kind": "media_page", "items": items, "page": page})).warn_all(w)
}

fn similar(ombi: &Ombi<'_>, args: &Args, window: Window, _: bool) -> Result<Reply, ToolError> {
    let body = json!({"theMovieDbId": args.int("tmdb_id")?, "languageCode": args.opt_str("language_code").unwrap_or(DEFAULT_LANGUAGE_CODE)});
    let found = rows(ombi.send(
        Method::Post,
        "/api/v2/Search/movie/similar",
        Some(&body),
        Effect::Read,
    )?);
    let total = found.len();
    let items: Vec<Value> = paging::slice(found, window)
        .iter()
        .map(|r| project(r, false))
        .collect();
    let page = paging::local(window, items.len(), total, "media");
    Ok(Reply::ok(
        json!({"kind": "media_page", "items": items, "page": page}),
    ))
}

/// The `filters` argument → Ombi's `DiscoverModel` (only given fields are sent).
fn discover_model(filters: &Value) -> Value {
    let mut body = json!({"type": "movie"});
    for (arg, field) in [
        ("release_year", "releaseYear"),
        ("decade", "decade"),
        ("genre_ids", "genreIds"),
        ("keyword_ids", "keywordIds"),
        ("watch_provider_ids", "watchProviders"),
        ("company_ids", "companies"),
    ] {
        if let Some(v) = filters.get(arg) {
            body[field] = v.clone();
        }
    }
    body
}

fn project(row: &Value, tv: bool) -> Value {
    if tv {
        project::tv::list_item(row).into_json()
    } else {
        project::movie::list_item(row).into_json()
    }
}

/// The `requested` category: Ombi's own paged route ignores the offset in its cache key,
/// so the bounded recently-requested feed is used instead.
fn requested(ombi: &Ombi<'_>, _: &Args, window: Window, tv: bool) -> Result<Reply, ToolError> {
    let feed = super::common::array(
        ombi.get("/api/v2/Requests/recentlyRequested")?,
        "recent requests",
    )?;
    let code = if tv { 0 } else { 1 };
    let mine: Vec<&Value> = feed
        .iter()
        .filter(|r| r.get("type").and_then(Value::as_i64) == Some(code))
        .collect();
    let mut w = vec!["only Ombi's most recent requests are listed (at most 7 per media type): older requested titles are left out".to_owned()];
    let index = if tv && !mine.is_empty() {
        ParentIndex::scan(ombi)
            .map_err(|e| {
                w.push(format!(
                    "TV parent requests could not be read ({})",
                    e.message
                ))
            })
            .ok()
    } else {
        None
    };
    let all: Vec<Value> = mine
        .iter()
        .map(|r| {
            let mut m = MediaItem::new(if tv { "tv" } else { "movie" });
            m.ids.add(Ns::Tmdb, r.get("mediaId"));
            m.text("title", r.get("title")).text("overview", r.get("overview")).year_from(r.get("releaseDate")).flag("available", r.get("available"));
            let id = positive_id(r.get("requestId"));
            let t = if tv {
                // TV rows carry a child request id; the parent comes from the scan.
                let media_id = r.get("mediaId").and_then(crate::ombi::ids::id_text);
                match (id, index.as_ref().and_then(|i| id.and_then(|c| i.resolve(c, media_id.as_deref())))) {
                    (_, Some(parent)) => target(TargetKind::TvParent, Some(parent)),
                    (Some(child), None) => {
                        w.push(format!("recent TV request {child}: its parent request could not be resolved, so the child request is the target"));
                        target(TargetKind::TvChild, Some(child))
                    }
                    (None, None) => None,
                }
            } else {
                target(TargetKind::Movie, id)
            };
            m.list("request_targets", t.into_iter().collect()).artwork(safe_artwork_uri(r.get("posterPath")));
            m.into_json()
        })
        .collect();
    let items = paging::slice(all, window);
    // The feed is cut upstream: total, has_more and next_offset stay unknown (contract).
    let page = paging::local_partial(window, items.len(), false, "media");
    Ok(
        Reply::ok(json!({"kind": "media_page", "items": items, "page": page}))
            .warn_all(w)
            .truncated(true),
    )
}

#[cfg(test)]
mod tests;
