//! `read_library` → `media_page`, `calendar_page` or `artwork_page`.
//!
//! Recently added rows come from the media servers' content tables: their `id` is a local row
//! id and is never emitted; identifiers come from `theMovieDbId`/`tvDbId`/`imdbId`. The feed
//! is capped at 30 rows, so a full feed has no known total. The calendar is a fixed window
//! around now in server-local time: dates are returned as calendar dates, with no time zone
//! invented; TV rows carry the episode title only (docs/ombi-behaviours.md#calendar-tv-rows). Artwork is in [`super::artwork`].

use super::artwork;
use super::common::{self, array};
use crate::contract::{Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::ombi::ids::{Identifiers, Ns, positive_id};
use crate::ombi::media::MediaItem;
use crate::paging;
use crate::paging::Window;
use crate::prelude::*;
use crate::tool::{Args, Prose, View, Views};
use serde_json::{Value, json};

/// Ombi's cap on recently added rows (`RecentlyAddedEngine`).
const RECENTLY_ADDED_CAP: usize = 30;

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_library",
    "Library and calendar",
    "See what the media servers (Plex, Emby, Jellyfin) added in the last week, the release calendar of requested titles, or the poster, background or banner image of a movie, show or album.",
    &["media_page", "calendar_page", "artwork_page"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A view of the library, paged by `Window`, given the warnings so far.
type ViewFn = fn(&Ombi<'_>, &Args, Window, Vec<String>) -> Result<Reply, ToolError>;

const MEDIA: &[&str] = &["media_page"];

static VIEWS: Views<ViewFn> = Views {
    field: "view",
    default: None,
    prose: Prose::Whole(
        "recently_added_movies / recently_added_tv (one entry per episode) / recently_added_tv_grouped (one entry per season number): what the media servers added in the last week; calendar: requested titles with release dates around now; artwork: an image of one title.",
    ),
    views: &[
        View {
            name: "recently_added_movies",
            description: "",
            families: MEDIA,
            handler: recently_added_movies,
        },
        View {
            name: "recently_added_tv",
            description: "",
            families: MEDIA,
            handler: recently_added_tv,
        },
        View {
            name: "recently_added_tv_grouped",
            description: "",
            families: MEDIA,
            handler: recently_added_tv_grouped,
        },
        View {
            name: "calendar",
            description: "",
            families: &["calendar_page"],
            handler: calendar,
        },
        View {
            name: "artwork",
            description: "",
            families: &["artwork_page"],
            handler: artwork,
        },
    ],
};

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": crate::paging::with_paging(json!({
            "view": VIEWS.property(),
            "media": {"enum": ["movie", "tv", "album"], "description": "artwork: the kind of title."},
            "artwork_kind": {"enum": ["poster", "background", "banner"], "default": "poster", "description": "artwork: which image (albums have only a cover: poster)."},
            "id": {"type": "string", "minLength": 1, "maxLength": 64, "description": "artwork: the title's id (digits for tmdb/tvdb, a UUID for musicbrainz)."},
            "id_namespace": {"enum": ["tmdb", "tvdb", "musicbrainz"], "description": "artwork: where the id comes from (movie: tmdb; tv: tvdb or tmdb; album: musicbrainz)."}
        })),
        "required": ["view"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"required": ["view"], "properties": {"view": {"const": "artwork"}}},
             "then": {"required": ["media", "id", "id_namespace"]},
             "else": {"not": {"anyOf": [{"required": ["media"]}, {"required": ["artwork_kind"]}, {"required": ["id"]}, {"required": ["id_namespace"]}]}}},
            {"if": {"required": ["media"], "properties": {"media": {"const": "movie"}}}, "then": {"properties": {"id_namespace": {"const": "tmdb"}}}},
            {"if": {"required": ["media"], "properties": {"media": {"const": "tv"}}}, "then": {"properties": {"id_namespace": {"enum": ["tvdb", "tmdb"]}}}},
            {"if": {"required": ["media"], "properties": {"media": {"const": "album"}}},
             "then": {"properties": {"id_namespace": {"const": "musicbrainz"}, "artwork_kind": {"const": "poster"}}}},
            {"if": {"required": ["media", "id_namespace"], "properties": {"media": {"const": "tv"}, "id_namespace": {"const": "tmdb"}}},
             "then": {"properties": {"artwork_kind": {"enum": ["poster", "background"]}}}},
            {"if": {"required": ["id_namespace"], "properties": {"id_namespace": {"enum": ["tmdb", "tvdb"]}}},
             "then": {"properties": {"id": {"pattern": "^[1-9][0-9]{0,9}$"}}}},
            {"if": {"required": ["id_namespace"], "properties": {"id_namespace": {"const": "musicbrainz"}}},
             "then": {"properties": {"id": {"pattern": "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"}}}}
        ]
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let window = args.window()?;
    let warnings = vec![paging::NO_SNAPSHOT_WARNING.to_owned()];
    (VIEWS.select(args)?.handler)(&ombi, args, window, warnings)
}

fn calendar(
    ombi: &Ombi<'_>,
    _: &Args,
    window: Window,
    mut warnings: Vec<String>,
) -> Result<Reply, ToolError> {
    let rows = array(ombi.get::<Value>("/api/v2/Calendar")?, "calendar entries")?;
    let items = rows
        .iter()
        .map(|r| calendar_entry(r, &mut warnings))
        .collect::<Result<Vec<_>, _>>()?;
    warnings.push("Ombi's calendar is a fixed window of about 90 days either side of today in the server's local time; dates are calendar dates without a time zone, and TV entries carry the episode title only".to_owned());
    Ok(Reply::ok(common::local_page(
        "calendar_page",
        items,
        window,
        "calendar_entries",
    ))
    .warn_all(warnings))
}

fn artwork(
    ombi: &Ombi<'_>,
    args: &Args,
    window: Window,
    warnings: Vec<String>,
) -> Result<Reply, ToolError> {
    let (media, ns, id) = (
        args.str("media")?,
        args.str("id_namespace")?,
        args.segment("id")?,
    );
    let kind = args.str("artwork_kind")?;
    let plan = artwork::plan(media, kind, ns, &id).ok_or_else(|| {
        ToolError::invalid_argument(
            "artwork_kind",
            format!("no {kind} artwork for {media} by {ns} id"),
        )
    })?;
    let (items, notes) = artwork::fetch(ombi, &plan)?;
    Ok(
        Reply::ok(common::local_page("artwork_page", items, window, "artwork"))
            .warn_all(warnings)
            .warn_all(notes),
    )
}

fn recently_added_movies(
    ombi: &Ombi<'_>,
    _: &Args,
    window: Window,
    warnings: Vec<String>,
) -> Result<Reply, ToolError> {
    let path = "/api/v1/RecentlyAdded/movies";
    let rows = array(ombi.get::<Value>(path)?, "recently added entries")?;
    recently_added(rows, Added::Movie, window, warnings)
}

fn recently_added_tv(
    ombi: &Ombi<'_>,
    _: &Args,
    window: Window,
    warnings: Vec<String>,
) -> Result<Reply, ToolError> {
    let path = "/api/v1/RecentlyAdded/tv";
    let rows = array(ombi.get::<Value>(path)?, "recently added entries")?;
    recently_added(rows, Added::Episode, window, warnings)
}

fn recently_added_tv_grouped(
    ombi: &Ombi<'_>,
    _: &Args,
    window: Window,
    warnings: Vec<String>,
) -> Result<Reply, ToolError> {
    let path = "/api/v1/RecentlyAdded/tv/grouped";
    let rows = array(ombi.get::<Value>(path)?, "recently added entries")?;
    recently_added(rows, Added::Season, window, warnings)
}

/// Which recently added feed a row comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Added {
    Movie,
    Episode,
    Season,
}

fn recently_added(
    rows: Vec<Value>,
    kind: Added,
    window: Window,
    mut warnings: Vec<String>,
) -> Result<Reply, ToolError> {
    let seen = rows.len();
    let mut items = Vec::new();
    for row in paging::slice(rows, window) {
        items.push(added_item(&row, kind)?);
    }
    warnings.push(format!("recently added covers the last 7 days of the media servers, at most {RECENTLY_ADDED_CAP} entries"));
    if kind == Added::Season {
        warnings.push("Ombi groups this feed by season number across all shows, so seasons of different shows with the same number collapse into one entry".to_owned());
    }
    // A full feed may have been cut by Ombi's cap: then the total is unknown.
    let page = if seen >= RECENTLY_ADDED_CAP {
        warnings.push(format!(
            "Ombi returned its maximum of {RECENTLY_ADDED_CAP} entries: more may have been added"
        ));
        paging::local_partial(
            window,
            items.len(),
            window.offset + items.len() < seen,
            "media",
        )
    } else {
        paging::local(window, items.len(), seen, "media")
    };
    Ok(Reply::ok(json!({"kind": "media_page", "items": items, "page": page})).warn_all(warnings))
}

/// `RecentlyAddedMovieModel` / `RecentlyAddedTvModel` as a media record (the local row `id` is
/// left out on purpose).
fn added_item(row: &Value, kind: Added) -> Result<Value, ToolError> {
    if !row.is_object() {
        return Err(ToolError::schema_mismatch(
            "a recently added entry from Ombi is not an object",
        ));
    }
    let mut m = MediaItem::new(if kind == Added::Movie { "movie" } else { "tv" });
    m.ids
        .add(Ns::Tmdb, row.get("theMovieDbId"))
        .add(Ns::Tvdb, row.get("tvDbId"))
        .add(Ns::Imdb, row.get("imdbId"));
    m.text("title", row.get("title"))
        .text("overview", row.get("overview"));
    match row.get("releaseYear") {
        Some(Value::Number(n)) => {
            if let Some(y) = n.as_i64().filter(|y| (1800..=2200).contains(y)) {
                m.year(y);
            }
        }
        other => {
            m.year_from(other);
        }
    }
    if kind != Added::Movie
        && let Some(season) = row
            .get("seasonNumber")
            .and_then(Value::as_i64)
            .filter(|s| *s >= 0)
    {
        let season = match (
            kind,
            row.get("episodeNumber")
                .and_then(Value::as_i64)
                .filter(|e| *e >= 0),
        ) {
            (Added::Episode, Some(ep)) => {
                json!({"season_number": season, "episodes": [{"episode_number": ep}], "truncated": false})
            }
            // Grouped rows stand for a whole season: the one episode shown is only a sample.
            _ => json!({"season_number": season, "episodes": [], "truncated": true}),
        };
        m.list("seasons", vec![season]);
    }
    Ok(m.into_json())
}

/// `CalendarViewModel` as a calendar entry.
fn calendar_entry(row: &Value, warnings: &mut Vec<String>) -> Result<Value, ToolError> {
    if !row.is_object() {
        return Err(ToolError::schema_mismatch(
            "a calendar entry from Ombi is not an object",
        ));
    }
    let mut e = json!({});
    if let Some(t) = common::opt_str(row, "title", "calendar")?
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        e["title"] = json!(t);
    }
    if let Some(d) = common::opt_str(row, "start", "calendar")?
        .and_then(|s| s.get(..10))
        .filter(|d| !d.starts_with("0001"))
    {
        e["date"] = json!(d);
    }
    let extra = row
        .get("extraParams")
        .and_then(Value::as_array)
        .and_then(|a| a.first());
    let mut ids = Identifiers::default();
    let provider = positive_id(extra.and_then(|x| x.get("providerId")));
    match row.get("type").and_then(Value::as_i64) {
        Some(0) => {
            e["media"] = json!("tv");
            // Ombi leaves TV provider ids unset; if one appears, its namespace (TMDB or TVDB,
            // depending on how the request was made) is not knowable.
            if let Some(p) = provider {
                ids.add_text(Ns::ProviderUnknown, &p.to_string());
            }
        }
        Some(1) => {
            e["media"] = json!("movie");
            if let Some(p) = provider {
                ids.add_text(Ns::Tmdb, &p.to_string());
            }
        }
        code => {
            e["media"] = json!("unknown");
            warnings.push(format!(
                "a calendar entry has an unmapped type code {}",
                code.map_or("null".to_owned(), |c| c.to_string())
            ));
        }
    }
    e["identifiers"] = ids.to_json();
    if extra
        .and_then(|x| x.get("requestStatus"))
        .and_then(Value::as_str)
        == Some("Common.Available")
    {
        e["available"] = json!(true);
    }
    Ok(e)
}

#[cfg(test)]
mod tests;
