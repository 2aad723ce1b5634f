//! `read_search` → `media_page`, over Seerr's one search route (`GET /search`: TMDB's multi
//! search, 20 results a page, each with Seerr's `mediaInfo` when it knows the title). Ombi's
//! input schema; what Seerr cannot search (music, a person's movies, a year) is refused.

use super::client::Seerr;
use super::project;
use super::tool::{SeerrTool, no_music, unsupported};
use crate::contract::{Reply, ToolError};
use crate::paging::{self, Window};
use crate::prelude::*;
use crate::tool::{Args, Gloss, Prose, View, Views};
use crate::upstream::encode_query_value;
use serde_json::{Value, json};

pub(super) static TOOL: SeerrTool = SeerrTool::read(
    "read_search",
    "Search media",
    "Search Seerr (TMDB) for movies, TV shows and people by name. Returns media records with their ids (TMDB, TVDB, IMDb, Seerr's media id) and, where Seerr knows the title, its standard and 4K state. Use the ids with read_media or write_request_create.",
    &["media_page"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// Which results a view keeps (`None`: every kind); an unsupported view has no filter.
type ViewFn = fn() -> Result<Option<&'static [&'static str]>, ToolError>;

const MEDIA: &[&str] = &["media_page"];

static VIEWS: Views<ViewFn> = Views {
    field: "media",
    default: Some("multi"),
    prose: Prose::Joined {
        intro: "What to search: ",
        gloss: Gloss::Paren,
        sep: ", ",
        last: ", or ",
        end: ".",
    },
    views: &[
        View {
            name: "multi",
            description: "movies, TV and people at once",
            families: MEDIA,
            handler: || Ok(None),
        },
        View {
            name: "movie",
            description: "",
            families: MEDIA,
            handler: || Ok(Some(&["movie"])),
        },
        View {
            name: "tv",
            description: "",
            families: MEDIA,
            handler: || Ok(Some(&["tv"])),
        },
        View {
            name: "artist",
            description: "not in Seerr",
            families: MEDIA,
            handler: || Err(no_music("media")),
        },
        View {
            name: "album",
            description: "not in Seerr",
            families: MEDIA,
            handler: || Err(no_music("media")),
        },
        View {
            name: "movie_by_person",
            description: "not in Seerr: search the person, then read_media with media=person",
            families: MEDIA,
            handler: || {
                Err(unsupported(
                    "media",
                    "Seerr cannot search movies by person: search the person, then read_media with media=person",
                ))
            },
        },
    ],
};

/// Pages of 20 read at most for one call.
const MAX_PAGES: i64 = 5;
/// Results in a Seerr search page.
const PAGE_SIZE: usize = 20;

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^/?#\\x00-\\x1f]+$",
                      "description": "What to search for (a title or a person's name). No '/', '?' or '#'."},
            "media": VIEWS.property(),
            "year": {"type": "integer", "minimum": 1870, "maximum": 2100, "description": "Release year: not supported by Seerr's search (refused)."},
            "language_code": {"type": "string", "pattern": "^[a-z]{2}$", "description": "ISO 639-1 language for titles (media=movie; Seerr's default otherwise)."},
            "include": {"type": "array", "items": {"enum": ["movies", "tv_shows", "music", "people"]}, "minItems": 1, "uniqueItems": true,
                        "description": "What multi search keeps (default movies, TV shows and people; Seerr has no music)."},
            "offset": paging::offset_schema_described("Results to skip."),
            "limit": paging::limit_schema_described("Most results to return.")
        },
        "required": ["query"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"required": ["year"]}, "then": {"required": ["media"], "properties": {"media": {"const": "movie"}}}},
            {"if": {"required": ["language_code"]}, "then": {"required": ["media"], "properties": {"media": {"enum": ["movie", "movie_by_person"]}}}},
            {"if": {"required": ["include"]}, "then": {"properties": {"media": {"const": "multi"}}}}
        ]
    })
}

/// The media kinds `include` keeps.
fn included(args: &Args) -> Result<Option<Vec<&'static str>>, ToolError> {
    let Some(include) = args.opt_strs("include") else {
        return Ok(None);
    };
    if include.contains(&"music") {
        return Err(no_music("include"));
    }
    Ok(Some(
        include
            .iter()
            .filter_map(|i| match *i {
                "movies" => Some("movie"),
                "tv_shows" => Some("tv"),
                "people" => Some("person"),
                _ => None,
            })
            .collect(),
    ))
}

pub fn run(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    if args.given("year") {
        return Err(unsupported(
            "year",
            "Seerr's search has no year filter: search by title and pick the year from the results",
        ));
    }
    let view = VIEWS.select(args)?;
    let keep: Option<Vec<&str>> = match (view.handler)()? {
        Some(kinds) => Some(kinds.to_vec()),
        None => included(args)?,
    };
    let window = args.window()?;
    let term = encode_query_value(args.str("query")?);
    let language = args
        .opt_str("language_code")
        .map(|l| format!("&language={l}"))
        .unwrap_or_default();
    let wanted = window.offset + window.limit;
    let mut rows: Vec<Value> = Vec::new();
    let mut upstream_total = None;
    let mut complete = false;
    let mut page = 1;
    while page <= MAX_PAGES {
        let answer = seerr.get(&format!("/search?query={term}&page={page}{language}"))?;
        let results = answer
            .get("results")
            .and_then(Value::as_array)
            .ok_or_else(|| ToolError::schema_mismatch("Seerr's search answer has no results"))?;
        upstream_total = answer.get("totalResults").and_then(Value::as_u64);
        let pages = answer
            .get("totalPages")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        rows.extend(
            results
                .iter()
                .filter(|r| {
                    keep.as_ref().is_none_or(|k| {
                        r.get("mediaType")
                            .and_then(Value::as_str)
                            .is_some_and(|t| k.contains(&t))
                    })
                })
                .cloned(),
        );
        if page >= pages || results.len() < PAGE_SIZE {
            complete = true;
            break;
        }
        if rows.len() >= wanted {
            break;
        }
        page += 1;
    }
    Ok(page_of(
        rows,
        window,
        complete,
        keep.is_none().then_some(upstream_total).flatten(),
    ))
}

/// The `media_page` of `rows` windowed by `window`: a total only when every page was read
/// (Seerr's own total when nothing was left out).
fn page_of(rows: Vec<Value>, window: Window, complete: bool, upstream_total: Option<u64>) -> Reply {
    let seen = rows.len();
    let mut shortened = false;
    let items: Vec<Value> = paging::slice(rows, window)
        .iter()
        .map(|row| {
            let r = project::media(row, None);
            shortened |= r.shortened;
            r.into_json()
        })
        .collect();
    let page = if complete {
        let total = upstream_total
            .and_then(|t| usize::try_from(t).ok())
            .unwrap_or(seen)
            .max(seen);
        paging::local(window, items.len(), total, "media")
    } else {
        paging::local_partial(window, items.len(), true, "media")
    };
    let mut reply = Reply::ok(json!({"kind": "media_page", "items": items, "page": page}))
        .warn(paging::NO_SNAPSHOT_WARNING)
        .truncated(shortened);
    if shortened {
        reply = reply.warn("long overviews were shortened");
    }
    reply
}
