//! `read_media` → `media_page`: one title by id, with optional credits,
//! providers, ratings and seasons; persons, collections, artists and albums.
//!
//! Namespaces are labelled by route: v2 routes are TMDB-keyed (`seriesId` echoes TMDB and is
//! never labelled TVMaze); the v1 TVDB route is TVMaze-backed (`theMovieDbId` = TVDB,
//! `seriesId` = TVMaze). `belongsToCollection.id` is the collection's id, so the collection
//! becomes its own record.

use super::details_people;
use super::ids::{Ns, positive_id};
use super::media::{MAX_EPISODES, MediaItem, episode_cut_warning, safe_artwork_uri};
use super::project::{movie, tv};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::paging;
use crate::prelude::*;
use crate::tool::{Args, Prose, View, Views};
use crate::upstream::path_segment;
use serde_json::{Value, json};

const NUMERIC_ID: &str = "^[1-9][0-9]{0,9}$";
const IMDB_ID: &str = "^tt[0-9]{1,12}$";
const MBID: &str = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
/// Most seasons kept (contract nested-array budget).
const MAX_SEASONS: usize = 100;
/// Most credits kept (contract nested-array budget).
const MAX_CREDITS: usize = 100;

fn ns_rule(ns: &str, media: Value, id_pattern: &str) -> Value {
    json!({"if": {"required": ["id_namespace"], "properties": {"id_namespace": {"const": ns}}},
           "then": {"properties": {"media": media, "id": {"pattern": id_pattern}}}})
}

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_media",
    "Media details",
    "Read one movie, TV show, album, artist, person or collection by id (TMDB by default; IMDb, TVDB, MusicBrainz or an Ombi request id where noted), with optional cast and crew, streaming providers, ratings and seasons. Persons need the person's name, since Ombi returns only ids.",
    &["media_page"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A record of one kind of media, given what was asked of it.
type ViewFn = fn(&Ombi<'_>, &Args, &Asked<'_>) -> Result<Reply, ToolError>;

/// What every media view is asked: the id (as a path segment), its namespace and the extras.
struct Asked<'a> {
    id: &'a str,
    ns: Option<&'a str>,
    include: Include,
}

const fn view(name: &'static str, handler: ViewFn) -> View<ViewFn> {
    View::undescribed(name, &["media_page"], handler)
}

static VIEWS: Views<ViewFn> = Views {
    field: "media",
    default: None,
    prose: Prose::Whole("What the id names."),
    views: &[
        view("movie", movie),
        view("tv", tv),
        view("album", album),
        view("artist", artist),
        view("person", person),
        view("collection", collection),
    ],
};

pub fn input_schema() -> Value {
    let screen = json!({"enum": ["movie", "tv", "person", "collection"]});
    json!({
        "type": "object",
        "properties": {
            "media": VIEWS.property(),
            "id": {"type": "string", "minLength": 1, "maxLength": 64, "description": "The id: numeric for TMDB/TVDB/Ombi ids, tt… for IMDb, a UUID for MusicBrainz."},
            "id_namespace": {"enum": ["tmdb", "imdb", "tvdb", "musicbrainz", "ombi_movie", "ombi_tv_parent", "ombi_album"],
                             "description": "Which id this is. Default: tmdb for movie/tv/person/collection, musicbrainz for album/artist. imdb and ombi_movie: movies; tvdb and ombi_tv_parent: TV; ombi_album: an album request id, answered with its artist."},
            "include": {"type": "array", "items": {"enum": ["credits", "providers", "ratings", "seasons"]}, "uniqueItems": true, "maxItems": 4,
                        "description": "Extra detail for movies and TV: cast and crew, streaming providers, ratings, seasons with episodes (TV)."},
            "person_name": {"type": "string", "minLength": 1, "maxLength": 200, "description": "The person's name (media=person; Ombi returns only the id)."},
            "credit_media": {"enum": ["movie", "tv", "both"], "default": "both", "description": "Which credits of a person to list (media=person)."},
            "offset": paging::offset_schema_described("Records to skip (person credits, collection members, artist albums)."),
            "limit": paging::limit_schema_described("Most records to return.")
        },
        "required": ["media", "id"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"required": ["media"], "properties": {"media": {"const": "person"}}}, "then": {"required": ["person_name"]},
             "else": {"not": {"anyOf": [{"required": ["person_name"]}, {"required": ["credit_media"]}]}}},
            ns_rule("tmdb", screen, NUMERIC_ID),
            ns_rule("imdb", json!({"const": "movie"}), IMDB_ID),
            ns_rule("tvdb", json!({"const": "tv"}), NUMERIC_ID),
            ns_rule("musicbrainz", json!({"enum": ["album", "artist"]}), MBID),
            ns_rule("ombi_movie", json!({"const": "movie"}), NUMERIC_ID),
            ns_rule("ombi_tv_parent", json!({"const": "tv"}), NUMERIC_ID),
            ns_rule("ombi_album", json!({"const": "artist"}), NUMERIC_ID),
            {"if": {"required": ["media"], "properties": {"media": {"enum": ["album", "artist"]}}, "not": {"required": ["id_namespace"]}},
             "then": {"properties": {"id": {"pattern": MBID}}}},
            {"if": {"required": ["media"], "properties": {"media": {"enum": ["movie", "tv", "person", "collection"]}}, "not": {"required": ["id_namespace"]}},
             "then": {"properties": {"id": {"pattern": NUMERIC_ID}}}}
        ]
    })
}

/// Which extras were asked for.
pub(super) struct Include {
    credits: bool,
    providers: bool,
    ratings: bool,
    seasons: bool,
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let view = VIEWS.select(args)?;
    let id = args.segment("id")?;
    let ns = args.opt_str("id_namespace");
    let inc = args.opt_strs("include").unwrap_or_default();
    let include = Include {
        credits: inc.contains(&"credits"),
        providers: inc.contains(&"providers"),
        ratings: inc.contains(&"ratings"),
        seasons: inc.contains(&"seasons"),
    };
    (view.handler)(
        &ombi,
        args,
        &Asked {
            id: &id,
            ns,
            include,
        },
    )
}

fn movie(ombi: &Ombi<'_>, _: &Args, a: &Asked<'_>) -> Result<Reply, ToolError> {
    let id = a.id;
    let path = match a.ns {
        Some("imdb") => format!("/api/v2/Search/movie/imdb/{id}"),
        Some("ombi_movie") => format!("/api/v2/Search/movie/request/{id}"),
        _ => format!("/api/v2/Search/movie/{id}"),
    };
    detail(ombi, &path, &a.include, Kind::Movie)
}

fn tv(ombi: &Ombi<'_>, _: &Args, a: &Asked<'_>) -> Result<Reply, ToolError> {
    let id = a.id;
    match a.ns {
        Some("tvdb") => tvmaze_detail(ombi, &format!("/api/v1/Search/tv/info/{id}"), &a.include),
        Some("ombi_tv_parent") => detail(
            ombi,
            &format!("/api/v2/Search/tv/request/{id}"),
            &a.include,
            Kind::Tv,
        ),
        _ => detail(
            ombi,
            &format!("/api/v2/Search/tv/moviedb/{id}"),
            &a.include,
            Kind::Tv,
        ),
    }
}

fn collection(ombi: &Ombi<'_>, args: &Args, a: &Asked<'_>) -> Result<Reply, ToolError> {
    details_people::collection(ombi, a.id, args.window()?)
}

fn person(ombi: &Ombi<'_>, args: &Args, _: &Asked<'_>) -> Result<Reply, ToolError> {
    details_people::person(ombi, args)
}

fn artist(ombi: &Ombi<'_>, args: &Args, a: &Asked<'_>) -> Result<Reply, ToolError> {
    let id = a.id;
    let path = match a.ns {
        Some("ombi_album") => format!("/api/v2/Search/artist/request/{id}"),
        _ => format!("/api/v2/Search/artist/{id}"),
    };
    details_people::artist(ombi, &path, args.window()?)
}

fn album(ombi: &Ombi<'_>, _: &Args, a: &Asked<'_>) -> Result<Reply, ToolError> {
    details_people::album(ombi, &format!("/api/v2/Search/artist/album/{}", a.id))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Movie,
    Tv,
}

fn detail(ombi: &Ombi<'_>, path: &str, include: &Include, kind: Kind) -> Result<Reply, ToolError> {
    let mut spilled = Spilled::default();
    let v = match ombi.get_by_id_bounded(path, KEEP, &mut |place, el| {
        spilled.add(kind, place, &el);
    }) {
        Ok(v) => v,
        Err(reply) => return Ok(*reply),
    };
    let mut warnings = Vec::new();
    let mut failed_parts = Vec::new();
    let mut item = match kind {
        Kind::Movie => project_movie_detail(&v, include, &spilled, &mut warnings),
        Kind::Tv => project_tv_detail(&v, include, &spilled, &mut warnings),
    };
    let segment = if kind == Kind::Movie { "movie" } else { "tv" };
    if include.providers {
        add_providers(ombi, &mut item, segment, &mut warnings, &mut failed_parts);
    }
    if include.ratings {
        add_ratings(
            ombi,
            &v,
            &mut item,
            segment,
            &mut warnings,
            &mut failed_parts,
        );
    }
    let mut items = vec![item];
    if let Some(c) = v.get("belongsToCollection").filter(|c| c.is_object()) {
        let mut coll = MediaItem::new("collection");
        coll.ids.add(Ns::Tmdb, c.get("id"));
        if !coll.ids.is_empty() {
            coll.text("title", c.get("name"))
                .artwork(safe_artwork_uri(c.get("posterPath")));
            items.push(coll);
        }
    }
    let shortened = items.iter().any(|i| i.shortened);
    let items: Vec<Value> = items.into_iter().map(MediaItem::into_json).collect();
    let n = items.len();
    let data = json!({"kind": "media_page", "items": items, "page": paging::single(n, "media")});
    let reply = if failed_parts.is_empty() {
        Reply::ok(data)
    } else {
        let mut r = Reply::failure(ToolError::new(
            ErrorCode::PartialFailure,
            format!(
                "the title was read but these parts failed: {}",
                failed_parts.join(", ")
            ),
        ));
        r.data = Some(data);
        r
    };
    Ok(reply.warn_all(warnings).truncated(shortened))
}

/// The streaming providers of `item` (a `segment`: movie or tv) by its TMDB id.
fn add_providers(
    ombi: &Ombi<'_>,
    item: &mut MediaItem,
    segment: &str,
    warnings: &mut Vec<String>,
    failed_parts: &mut Vec<&str>,
) {
    // Upstream data: an id that cannot be a path segment is not looked up.
    let Some(tmdb) = item.ids.get(Ns::Tmdb).and_then(path_segment) else {
        return;
    };
    match ombi.get::<Value>(&format!("/api/v2/Search/stream/{segment}/{tmdb}")) {
        Ok(body) => {
            item.list("providers", providers(body.as_ref()));
            warnings.push(
                "providers are the flat-rate offers for the acting user's streaming country"
                    .to_owned(),
            );
        }
        Err(_) => failed_parts.push("providers"),
    }
}

/// Rotten Tomatoes ratings of title `v` (a `segment`: movie or tv) by its title and year.
fn add_ratings(
    ombi: &Ombi<'_>,
    v: &Value,
    item: &mut MediaItem,
    segment: &str,
    warnings: &mut Vec<String>,
    failed_parts: &mut Vec<&str>,
) {
    let title = v
        .get("title")
        .and_then(Value::as_str)
        .and_then(path_segment);
    match (title, item_year(v)) {
        (Some(title), Some(y)) => {
            let p = format!("/api/v2/Search/ratings/{segment}/{title}/{y}");
            match ombi.get::<Value>(&p) {
                Ok(Some(r)) => add_rotten_tomatoes(item, &r),
                Ok(None) => {
                    warnings.push("Rotten Tomatoes has no rating for this title".to_owned())
                }
                Err(_) => failed_parts.push("ratings"),
            }
        }
        _ => warnings.push(
            "no title (that can be a URL path segment) and year to look up Rotten Tomatoes ratings"
                .to_owned(),
        ),
    }
}

fn item_year(v: &Value) -> Option<i64> {
    ["releaseDate", "firstAired"].iter().find_map(|k| {
        v.get(*k)
            .and_then(Value::as_str)
            .and_then(super::media::year_of)
    })
}

fn credit(
    name: Option<&Value>,
    id: Option<&Value>,
    role: Option<&Value>,
    department: Option<&str>,
) -> Option<Value> {
    let name = name?.as_str().filter(|s| !s.is_empty())?;
    let mut c = json!({"name": name});
    if let Some(id) = positive_id(id) {
        c["person_id"] = json!(id);
    }
    if let Some(r) = role.and_then(Value::as_str).filter(|s| !s.is_empty()) {
        c["role"] = json!(r);
    }
    if let Some(d) = department {
        c["department"] = json!(d);
    }
    Some(c)
}

/// A contract credit from an upstream cast entry, the person's name under `name_key`.
fn cast_credit(c: &Value, name_key: &str) -> Option<Value> {
    credit(
        c.get(name_key),
        c.get("id"),
        c.get("character"),
        Some("Acting"),
    )
}

/// A contract credit from a movie's upstream crew entry.
fn movie_crew_credit(c: &Value) -> Option<Value> {
    credit(
        c.get("name"),
        c.get("id"),
        c.get("job"),
        c.get("department").and_then(Value::as_str),
    )
}

/// A contract credit from a TV show's upstream crew entry (name and id only).
fn tv_crew_credit(c: &Value) -> Option<Value> {
    credit(c.get("name"), c.get("id"), None, None)
}

/// Elements of each array of a detail answer held as JSON; the rest are spilled
/// ([`Spilled`]). One more than any list keeps, so "more than kept" stays visible.
const KEEP: usize = 1 + if MAX_CREDITS > MAX_SEASONS {
    MAX_CREDITS
} else {
    MAX_SEASONS
};

/// What a detail answer held past [`KEEP`] elements of its credit and season lists, reduced to
/// what the projection reports: the first entries it could show and how many there were.
#[derive(Default)]
pub(super) struct Spilled {
    cast: SpilledList,
    crew: SpilledList,
    seasons: SpilledList,
    /// Seasons after the first [`MAX_SEASONS`] spilled ones whose episodes were cut, as
    /// `{"season_number", "truncated"}` records for [`episode_cut_warning`].
    later_cut_seasons: Vec<Value>,
}

#[derive(Default)]
struct SpilledList {
    /// The first projected records (at most 100).
    first: Vec<Value>,
    /// How many spilled elements projected to a record.
    count: usize,
}

impl SpilledList {
    /// Counts `record`, keeping it while fewer than `cap` are kept; hands it back otherwise.
    fn add(&mut self, record: Option<Value>, cap: usize) -> Option<Value> {
        let record = record?;
        self.count += 1;
        if self.first.len() < cap {
            self.first.push(record);
            None
        } else {
            Some(record)
        }
    }
}

impl Spilled {
    /// Takes one element spilled from the array at `place` of a `kind` detail answer.
    fn add(&mut self, kind: Kind, place: &str, el: &Value) {
        match (kind, place) {
            (Kind::Movie, "credits/cast") => {
                self.cast.add(cast_credit(el, "name"), MAX_CREDITS);
            }
            (Kind::Movie, "credits/crew") => {
                self.crew.add(movie_crew_credit(el), MAX_CREDITS);
            }
            (Kind::Tv, "cast") => {
                self.cast.add(cast_credit(el, "person"), MAX_CREDITS);
            }
            (Kind::Tv, "crew") => {
                self.crew.add(tv_crew_credit(el), MAX_CREDITS);
            }
            (Kind::Tv, "seasonRequests") => {
                if let Some(s) = self.seasons.add(season(el), MAX_SEASONS)
                    && s["truncated"] == true
                {
                    self.later_cut_seasons
                        .push(json!({"season_number": s["season_number"], "truncated": true}));
                }
            }
            _ => {}
        }
    }
}

/// The records `make` projects from the upstream list `list`, then those spilled from it.
fn listed<'a>(
    list: Option<&'a Value>,
    spilled: &'a SpilledList,
    make: impl Fn(&Value) -> Option<Value> + 'a,
) -> (impl Iterator<Item = Value> + 'a, usize) {
    let kept = list
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let n = kept.iter().filter(|c| make(c).is_some()).count();
    let records = kept
        .iter()
        .filter_map(make)
        .chain(spilled.first.iter().cloned());
    (records, n + spilled.count)
}

/// `MovieFullInfoViewModel` with the credits `include` asks for.
pub(super) fn project_movie_detail(
    v: &Value,
    include: &Include,
    spilled: &Spilled,
    warnings: &mut Vec<String>,
) -> MediaItem {
    let mut m = movie::full_info(v);
    if include.credits {
        let (cast, n_cast) = listed(v.pointer("/credits/cast"), &spilled.cast, |c| {
            cast_credit(c, "name")
        });
        let (crew, n_crew) = listed(v.pointer("/credits/crew"), &spilled.crew, movie_crew_credit);
        capped_credits(&mut m, cast.chain(crew), n_cast + n_crew, warnings);
    }
    m
}

/// Sets `credits`, at most [`MAX_CREDITS`] of `total`; a cut marks the record shortened and
/// says so.
fn capped_credits(
    m: &mut MediaItem,
    all: impl Iterator<Item = Value>,
    total: usize,
    warnings: &mut Vec<String>,
) {
    if total > MAX_CREDITS {
        warnings.push(format!(
            "{MAX_CREDITS} of {total} credits returned (cast first, then crew)"
        ));
        m.shortened = true;
    }
    m.list("credits", all.take(MAX_CREDITS).collect());
}

/// v2 `SearchFullInfoTvShowViewModel` with the credits and seasons `include` asks for.
pub(super) fn project_tv_detail(
    v: &Value,
    include: &Include,
    spilled: &Spilled,
    warnings: &mut Vec<String>,
) -> MediaItem {
    let mut m = tv::full_info(v);
    if include.credits {
        let (cast, n_cast) = listed(v.get("cast"), &spilled.cast, |c| cast_credit(c, "person"));
        let (crew, n_crew) = listed(v.get("crew"), &spilled.crew, tv_crew_credit);
        capped_credits(&mut m, cast.chain(crew), n_cast + n_crew, warnings);
    }
    if include.seasons {
        let list = seasons(v, spilled, warnings);
        m.shortened |= list.1;
        m.list("seasons", list.0);
    }
    m
}

fn tvmaze_detail(ombi: &Ombi<'_>, path: &str, include: &Include) -> Result<Reply, ToolError> {
    let mut spilled = Spilled::default();
    let v = match ombi.get_by_id_bounded(path, KEEP, &mut |place, el| {
        spilled.add(Kind::Tv, place, &el);
    }) {
        Ok(v) => v,
        Err(reply) => return Ok(*reply),
    };
    let mut item = tv::tvmaze(&v);
    let mut warnings = vec!["TV request state is not reported by the TVDB (TVMaze-backed) route: look the show up by TMDB id for it".to_owned()];
    if include.seasons {
        let list = seasons(&v, &spilled, &mut warnings);
        item.shortened |= list.1;
        item.list("seasons", list.0);
    }
    if include.credits || include.providers || include.ratings {
        warnings.push("credits, providers and ratings need the TMDB id: call read_media with id_namespace tmdb".to_owned());
    }
    let shortened = item.shortened;
    let data = json!({"kind": "media_page", "items": [item.into_json()], "page": paging::single(1, "media")});
    Ok(Reply::ok(data).warn_all(warnings).truncated(shortened))
}

/// `seasonRequests` → contract seasons, at most [`MAX_SEASONS`] with at most [`MAX_EPISODES`]
/// episodes each, and whether anything was cut (each cut is a warning).
fn seasons(v: &Value, spilled: &Spilled, warnings: &mut Vec<String>) -> (Vec<Value>, bool) {
    let Some(list) = v.get("seasonRequests").and_then(Value::as_array) else {
        return (Vec::new(), false);
    };
    let mut out: Vec<Value> = list.iter().filter_map(season).collect();
    out.extend(spilled.seasons.first.iter().cloned());
    let total = out.len() - spilled.seasons.first.len() + spilled.seasons.count;
    let mut cut = false;
    if let Some(warning) = episode_cut_warning(out.iter().chain(&spilled.later_cut_seasons)) {
        warnings.push(warning);
        cut = true;
    }
    if total > MAX_SEASONS {
        warnings.push(format!("{MAX_SEASONS} of {total} seasons returned"));
        out.truncate(MAX_SEASONS);
        cut = true;
    }
    (out, cut)
}

/// One upstream season → a contract season with at most [`MAX_EPISODES`] episodes; `None`
/// without a season number.
fn season(s: &Value) -> Option<Value> {
    let number = s
        .get("seasonNumber")
        .and_then(Value::as_i64)
        .filter(|n| *n >= 0)?;
    let all: &[Value] = s
        .get("episodes")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let episodes: Vec<Value> = all
        .iter()
        .filter_map(|e| {
            let n = e
                .get("episodeNumber")
                .and_then(Value::as_i64)
                .filter(|n| *n >= 0)?;
            let mut ep = json!({"episode_number": n});
            if let Some(t) = e
                .get("title")
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
            {
                ep["title"] = json!(super::media::bounded(t, 200).0);
            }
            for key in ["requested", "available"] {
                if let Some(b) = e.get(key).and_then(Value::as_bool) {
                    ep[key] = json!(b);
                }
            }
            Some(ep)
        })
        .take(MAX_EPISODES)
        .collect();
    Some(
        json!({"season_number": number, "truncated": all.len() > MAX_EPISODES, "episodes": episodes}),
    )
}

fn providers(body: Option<&Value>) -> Vec<Value> {
    body.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|p| {
                    p.get("streamingProvider")
                        .and_then(Value::as_str)
                        .filter(|s| !s.is_empty())
                })
                .map(|name| json!({"name": name, "access": "flatrate"}))
                .collect()
        })
        .unwrap_or_default()
}

fn add_rotten_tomatoes(item: &mut MediaItem, r: &Value) {
    item.rating("rotten_tomatoes_critics_score", r.get("critics_score"))
        .rating("rotten_tomatoes_audience_score", r.get("audience_score"))
        .rating("rotten_tomatoes_score", r.get("score"));
}

#[cfg(test)]
mod tests;
