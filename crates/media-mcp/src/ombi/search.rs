//! `read_search` → `media_page`.
//!
//! Every search route returns an unpaged array, windowed locally. Ids are labelled by route:
//! v1 TV search is TVMaze-backed (TVDB id in `theMovieDbId`, TVMaze id in `seriesId`).

use super::codes::DEFAULT_LANGUAGE_CODE;
use super::ids::{Ns, TargetKind};
use super::media::{MediaItem, safe_artwork_uri};
use super::project::{movie, tv};
use super::shape::records;
use crate::contract::{Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::paging;
use crate::prelude::*;
use crate::tool::{Args, Gloss, Prose, View, Views};
use crate::upstream::Effect;
use crate::upstream::Method;
use serde_json::{Value, json};

/// Ombi's `ResultLimit` for v1 movie search and person credits.
const OMBI_MOVIE_RESULT_LIMIT: usize = 10;

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_search",
    "Search media",
    "Search Ombi for movies, TV shows, music and people by name. Returns media records with their ids (TMDB, TVDB, IMDb, MusicBrainz...), availability and request state where Ombi reports it. Use the ids with read_media or write_request_create.",
    &["media_page"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A search's rows and their view model, given the query as typed and as a path segment;
/// warnings go to the vector.
type ViewFn =
    fn(&Ombi<'_>, &Args, &str, &str, &mut Vec<String>) -> Result<(Vec<Value>, Row), ToolError>;

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
            description: "movies, TV, music and people at once",
            families: MEDIA,
            handler: multi,
        },
        View {
            name: "movie",
            description: "",
            families: MEDIA,
            handler: movie,
        },
        View {
            name: "tv",
            description: "",
            families: MEDIA,
            handler: tv,
        },
        View {
            name: "artist",
            description: "",
            families: MEDIA,
            handler: artist,
        },
        View {
            name: "album",
            description: "",
            families: MEDIA,
            handler: album,
        },
        View {
            name: "movie_by_person",
            description: "movies a person appears in",
            families: MEDIA,
            handler: movie_by_person,
        },
    ],
};

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^/?#\\x00-\\x1f]+$",
                      "description": "What to search for (a title, or a person's name for movie_by_person). No '/', '?' or '#'."},
            "media": VIEWS.property(),
            "year": {"type": "integer", "minimum": 1870, "maximum": 2100, "description": "Release year (media=movie only)."},
            "language_code": {"type": "string", "pattern": "^[a-z]{2}$", "description": "ISO 639-1 language for titles (movie and movie_by_person only)."},
            "include": {"type": "array", "items": {"enum": ["movies", "tv_shows", "music", "people"]}, "minItems": 1, "uniqueItems": true,
                        "description": "What multi search covers (default all four)."},
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

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let query = args.str("query")?;
    let term = args.segment("query")?;
    let view = VIEWS.select(args)?;
    let window = args.window()?;
    let mut warnings = vec![paging::NO_SNAPSHOT_WARNING.to_owned()];
    let (rows, kind) = (view.handler)(&ombi, args, query, &term, &mut warnings)?;
    // Only v1 movie searches (movie, movie_by_person) give movie rows.
    let capped = kind == Row::Movie && rows.len() >= OMBI_MOVIE_RESULT_LIMIT;
    let total = rows.len();
    let mut shortened = false;
    let items: Vec<Value> = paging::slice(rows, window)
        .iter()
        .map(|row| {
            let item = project(row, kind, &mut warnings);
            shortened |= item.shortened;
            item.into_json()
        })
        .collect();
    let page = if capped {
        warnings.push(format!("Ombi returns at most {OMBI_MOVIE_RESULT_LIMIT} movie results per search: refine the query to see others"));
        paging::local_partial(
            window,
            items.len(),
            window.offset + items.len() < total,
            "media",
        )
    } else {
        paging::local(window, items.len(), total, "media")
    };
    if shortened {
        warnings.push("long overviews were shortened".to_owned());
    }
    Ok(
        Reply::ok(json!({"kind": "media_page", "items": items, "page": page}))
            .warn_all(warnings)
            .truncated(shortened),
    )
}

fn movie(
    ombi: &Ombi<'_>,
    args: &Args,
    query: &str,
    term: &str,
    _: &mut Vec<String>,
) -> Result<(Vec<Value>, Row), ToolError> {
    let rows = if args.given("year") || args.given("language_code") {
        let body = json!({"searchTerm": query, "year": args.opt_int("year"), "languageCode": args.opt_str("language_code").unwrap_or(DEFAULT_LANGUAGE_CODE)});
        ombi.send(
            Method::Post,
            "/api/v1/Search/movie",
            Some(&body),
            Effect::Read,
        )?
    } else {
        ombi.get(&format!("/api/v1/Search/movie/{term}"))?
    };
    Ok((records(rows, "search results")?, Row::Movie))
}

fn movie_by_person(
    ombi: &Ombi<'_>,
    args: &Args,
    query: &str,
    _: &str,
    _: &mut Vec<String>,
) -> Result<(Vec<Value>, Row), ToolError> {
    let body = json!({"searchTerm": query, "languageCode": args.opt_str("language_code").unwrap_or(DEFAULT_LANGUAGE_CODE)});
    let rows = ombi.send(
        Method::Post,
        "/api/v1/Search/movie/actor",
        Some(&body),
        Effect::Read,
    )?;
    Ok((records(rows, "search results")?, Row::Movie))
}

fn tv(
    ombi: &Ombi<'_>,
    _: &Args,
    _: &str,
    term: &str,
    warnings: &mut Vec<String>,
) -> Result<(Vec<Value>, Row), ToolError> {
    warnings.push("TV request state is not reported by TVMaze-backed search (Ombi looks it up by the wrong id): use read_media for it".to_owned());
    let rows = ombi.get(&format!("/api/v1/Search/tv/{term}"))?;
    Ok((records(rows, "search results")?, Row::TvMaze))
}

fn artist(
    ombi: &Ombi<'_>,
    _: &Args,
    _: &str,
    term: &str,
    _: &mut Vec<String>,
) -> Result<(Vec<Value>, Row), ToolError> {
    let rows = ombi.get(&format!("/api/v1/Search/music/artist/{term}"))?;
    Ok((records(rows, "search results")?, Row::Artist))
}

fn album(
    ombi: &Ombi<'_>,
    _: &Args,
    _: &str,
    term: &str,
    _: &mut Vec<String>,
) -> Result<(Vec<Value>, Row), ToolError> {
    let rows = ombi.get(&format!("/api/v1/Search/music/album/{term}"))?;
    Ok((records(rows, "search results")?, Row::Album))
}

fn multi(
    ombi: &Ombi<'_>,
    args: &Args,
    _: &str,
    term: &str,
    _: &mut Vec<String>,
) -> Result<(Vec<Value>, Row), ToolError> {
    let include = args
        .opt_strs("include")
        .unwrap_or_else(|| vec!["movies", "tv_shows", "music", "people"]);
    let body = json!({
        "movies": include.contains(&"movies"), "tvShows": include.contains(&"tv_shows"),
        "music": include.contains(&"music"), "people": include.contains(&"people"),
    });
    let path = format!("/api/v2/Search/multi/{term}");
    let rows = ombi.send(Method::Post, &path, Some(&body), Effect::Read)?;
    Ok((records(rows, "search results")?, Row::Multi))
}

/// Which view model a row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Row {
    Movie,
    TvMaze,
    Artist,
    Album,
    Multi,
}

fn project(row: &Value, kind: Row, warnings: &mut Vec<String>) -> MediaItem {
    match kind {
        Row::Movie => movie::list_item(row),
        Row::TvMaze => tv::tvmaze(row),
        Row::Artist => project_artist(row),
        Row::Album => project_album(row),
        Row::Multi => project_multi(row, warnings),
    }
}

fn project_artist(row: &Value) -> MediaItem {
    let mut m = MediaItem::new("artist");
    m.ids
        .add(Ns::Musicbrainz, row.get("forignArtistId"))
        .add(Ns::Musicbrainz, row.get("foreignArtistId"));
    m.text("title", row.get("artistName"))
        .text("overview", row.get("overview"))
        .artwork(safe_artwork_uri(row.get("poster")));
    m
}

/// `SearchAlbumViewModel`: identity is `foreignAlbumId` (`id` is always 0).
fn project_album(row: &Value) -> MediaItem {
    let mut m = MediaItem::new("album");
    m.ids.add(Ns::Musicbrainz, row.get("foreignAlbumId"));
    m.text("title", row.get("title"))
        .year_from(row.get("releaseDate"))
        .flag("available", row.get("available"))
        .flag("requested", row.get("requested"))
        .request_target(TargetKind::Album, row.get("requestId"))
        .artwork(safe_artwork_uri(row.get("cover")));
    m
}

/// `MultiSearchResult`: `mediaType` matched case-insensitively; movie titles lose Ombi's
/// ` (YYYY)` suffix, which becomes `year`.
fn project_multi(row: &Value, warnings: &mut Vec<String>) -> MediaItem {
    let media_type = row
        .get("mediaType")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_ascii_lowercase();
    let (kind, ns) = match media_type.as_str() {
        "movie" => ("movie", Ns::Tmdb),
        "tv" => ("tv", Ns::Tmdb),
        "person" => ("person", Ns::Tmdb),
        "artist" => ("artist", Ns::Musicbrainz),
        other => {
            warnings.push(format!(
                "unknown multi-search media type {other:?}: its id is reported as provider_unknown"
            ));
            ("unknown", Ns::ProviderUnknown)
        }
    };
    let mut m = MediaItem::new(kind);
    m.ids.add(ns, row.get("id"));
    let title = row.get("title").and_then(Value::as_str).unwrap_or("");
    match split_year_suffix(title).filter(|_| kind == "movie") {
        Some((t, y)) => {
            m.text("title", Some(&json!(t))).year(y);
        }
        None => {
            m.text("title", row.get("title"));
        }
    }
    m.text("overview", row.get("overview"))
        .artwork(safe_artwork_uri(row.get("poster")));
    m
}

fn split_year_suffix(title: &str) -> Option<(&str, i64)> {
    let open = title.strip_suffix(')')?.rfind(" (")?;
    let year: i64 = title[open + 2..title.len() - 1].parse().ok()?;
    ((1800..=2200).contains(&year)).then(|| (&title[..open], year))
}

#[cfg(test)]
mod tests;
