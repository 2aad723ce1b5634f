//! `write_request_create` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#collection-requests-always-succeed, #bare-key-auto-approves,
//! #4k-request-without-feature).
//!
//! Routes: movie `POST /api/v1/Request/movie`, TV `POST /api/v2/Requests/tv` (TMDB-keyed),
//! album `POST /api/v1/request/music`, collection `POST /api/v2/Requests/movie/collection/{id}`;
//! all answer a `RequestEngineResult`. TV's `requestId` is the child request id.

use super::outcome::{
    EngineResult, Mutation, Outcome, engine_result, failure_with, no_user_warning, write,
};
use crate::contract::{Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::ombi::codes::DEFAULT_LANGUAGE_CODE;
use crate::ombi::ids::TargetKind;
use crate::prelude::*;
use crate::tool::{Args, Gloss, Prose, View, Views};
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_request_create",
    "Request media",
    "Ask Ombi for a movie, TV show (all or chosen seasons/episodes), album or a whole TMDB movie collection. Take ids from read_search or read_media. Acting as a user applies that user's permissions, quotas and approval rules; with no user set, the API key acts as Ombi's administrator and the request is approved and sent to Radarr/Sonarr/Lidarr at once. Re-requesting something already requested is refused.",
    "read_requests",
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A request of one media; warnings for every reply go to the vector.
type ViewFn = fn(&Ombi<'_>, &Args, &mut Vec<String>) -> Result<Reply, ToolError>;

static VIEWS: Views<ViewFn> = Views {
    field: "media",
    default: None,
    prose: Prose::Joined {
        intro: "What to request: ",
        gloss: Gloss::Bare,
        sep: ", ",
        last: ", or ",
        end: ".",
    },
    views: &[
        View {
            name: "movie",
            description: "a movie",
            families: &["mutation"],
            handler: movie,
        },
        View {
            name: "tv",
            description: "a TV show (whole or some seasons)",
            families: &["mutation"],
            handler: tv,
        },
        View {
            name: "album",
            description: "an album",
            families: &["mutation"],
            handler: album,
        },
        View {
            name: "movie_collection",
            description: "every movie of a TMDB collection",
            families: &["mutation"],
            handler: movie_collection,
        },
    ],
};

pub fn input_schema() -> Value {
    let id = |d: &str| json!({"type": "integer", "minimum": 1, "description": d});
    let flag = |d: &str| json!({"type": "boolean", "description": d});
    json!({
        "type": "object",
        "properties": {
            "media": VIEWS.property(),
            "tmdb_id": id("TMDB id of the movie, TV show or collection (media movie, tv, movie_collection)."),
            "musicbrainz_album_id": {"type": "string", "pattern": "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$", "description": "MusicBrainz release-group id of the album (media album)."},
            "is_4k": flag("Request the 4K version (movie only; honoured only when Ombi's Movie4KRequests feature is on)."),
            "language_code": {"type": "string", "pattern": "^[a-z]{2}$", "description": "ISO 639-1 language for the request's metadata (movie, tv; default en)."},
            "seasons": {"type": "array", "minItems": 1, "maxItems": 100, "description": "TV seasons and episodes to request.",
                "items": {"type": "object", "additionalProperties": false, "required": ["season_number", "episodes"], "properties": {
                    "season_number": {"type": "integer", "minimum": 0, "description": "Season number."},
                    "episodes": {"type": "array", "minItems": 1, "maxItems": 500, "uniqueItems": true, "items": {"type": "integer", "minimum": 1}, "description": "Episode numbers."}}}},
            "request_all": flag("TV: request every season."),
            "first_season": flag("TV: request the first season."),
            "latest_season": flag("TV: request the latest season."),
            "request_on_behalf": {"type": "string", "minLength": 1, "maxLength": 128, "description": "Ombi user id to request for (administrators and power users only)."},
            "root_folder_override": id("Radarr/Sonarr root folder id to use instead of the default (administrators and power users only)."),
            "quality_profile_override": id("Radarr/Sonarr quality profile id to use instead of the default (administrators and power users only)."),
            "language_profile": id("Sonarr language profile id (tv only; administrators and power users only).")
        },
        "required": ["media"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"media": {"enum": ["movie", "tv", "movie_collection"]}}}, "then": {"required": ["tmdb_id"]}},
            {"if": {"properties": {"media": {"const": "album"}}}, "then": {"required": ["musicbrainz_album_id"]}},
            {"if": {"properties": {"media": {"const": "tv"}}}, "then": {"anyOf": [
                {"required": ["seasons"]},
                {"required": ["request_all"], "properties": {"request_all": {"const": true}}},
                {"required": ["first_season"], "properties": {"first_season": {"const": true}}},
                {"required": ["latest_season"], "properties": {"latest_season": {"const": true}}}]}},
            {"if": {"required": ["is_4k"]}, "then": {"properties": {"media": {"const": "movie"}}}},
            {"if": {"required": ["language_code"]}, "then": {"properties": {"media": {"enum": ["movie", "tv"]}}}},
            {"if": {"anyOf": [{"required": ["seasons"]}, {"required": ["request_all"]}, {"required": ["first_season"]}, {"required": ["latest_season"]}, {"required": ["language_profile"]}]},
             "then": {"properties": {"media": {"const": "tv"}}}},
            {"if": {"anyOf": [{"required": ["tmdb_id"]}]}, "then": {"properties": {"media": {"enum": ["movie", "tv", "movie_collection"]}}}},
            {"if": {"required": ["musicbrainz_album_id"]}, "then": {"properties": {"media": {"const": "album"}}}},
            {"if": {"anyOf": [{"required": ["request_on_behalf"]}, {"required": ["root_folder_override"]}, {"required": ["quality_profile_override"]}]},
             "then": {"properties": {"media": {"enum": ["movie", "tv"]}}}}
        ]
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let mut warnings: Vec<String> = no_user_warning(&ombi).into_iter().collect();
    if args.given("request_on_behalf") {
        warnings.push("Ombi applies the approval rules and quotas of the acting identity, not of the user requested on behalf of".to_owned());
    }
    let reply = (VIEWS.select(args)?.handler)(&ombi, args, &mut warnings)?;
    Ok(reply.warn_all(warnings))
}

fn movie(ombi: &Ombi<'_>, args: &Args, warnings: &mut Vec<String>) -> Result<Reply, ToolError> {
    let want_4k = args.opt_bool("is_4k").unwrap_or(false);
    // Ombi stamps a 4K request date even with 4K switched off and then leaves an
    // orphaned, never-processed request: ask whether 4K is on first.
    let send_4k = want_4k && movie_4k_enabled(ombi)?;
    if want_4k && !send_4k {
        warnings.push("Ombi's Movie4KRequests feature is off, so is_4k was not sent: this is a standard-quality request".to_owned());
    }
    let body = json!({
        "theMovieDbId": args.int("tmdb_id")?, "languageCode": args.opt_str("language_code").unwrap_or(DEFAULT_LANGUAGE_CODE),
        "is4kRequest": send_4k, "requestOnBehalf": args.opt_str("request_on_behalf"),
        "rootFolderOverride": args.opt_int("root_folder_override"), "qualityPathOverride": args.opt_int("quality_profile_override"),
    });
    created(ombi, "/api/v1/Request/movie", &body, TargetKind::Movie)
}

fn tv(ombi: &Ombi<'_>, args: &Args, _: &mut Vec<String>) -> Result<Reply, ToolError> {
    let body = tv_body(args)?;
    created(ombi, "/api/v2/Requests/tv", &body, TargetKind::TvChild)
}

fn album(ombi: &Ombi<'_>, args: &Args, _: &mut Vec<String>) -> Result<Reply, ToolError> {
    let body = json!({"foreignAlbumId": args.str("musicbrainz_album_id")?});
    created(ombi, "/api/v1/request/music", &body, TargetKind::Album)
}

fn movie_collection(ombi: &Ombi<'_>, args: &Args, _: &mut Vec<String>) -> Result<Reply, ToolError> {
    let path = format!("/api/v2/Requests/movie/collection/{}", args.int("tmdb_id")?);
    let er = engine_result(write(ombi, Method::Post, &path, None)?)?;
    Ok(collection_reply(&er))
}

/// Posts `body` to `path` and says what Ombi made of the request of `kind`.
fn created(
    ombi: &Ombi<'_>,
    path: &str,
    body: &Value,
    kind: TargetKind,
) -> Result<Reply, ToolError> {
    let er = engine_result(write(ombi, Method::Post, path, Some(body))?)?;
    if !er.succeeded() && er.error_code.is_none() && !er.is_missing() && !is_permission(&er) {
        // Ombi saves an auto-approved request before sending it to Radarr/Sonarr/Lidarr and
        // reports a failed send as `result: false` with only a message, the same shape as
        // failures that saved nothing: whether a request now exists is unknown.
        return Ok(failure_with(
            ToolError::unknown_outcome(
                "Ombi reported a failure, but it reports a request that was saved and then could not be sent to Radarr/Sonarr/Lidarr the same way",
            ),
            er.annotate(Mutation::new(Outcome::Unknown)),
        ));
    }
    let id = er.request_id;
    Ok(er.reply(
        Mutation::new(Outcome::Completed)
            .target(kind, id)
            .id("request_id", id),
    ))
}

fn is_permission(er: &EngineResult) -> bool {
    er.error_message
        .as_deref()
        .is_some_and(|m| m.to_ascii_lowercase().contains("permission"))
}

/// `result: true` is all Ombi ever answers for a collection, even when every movie failed, and
/// its `requestId` names one movie at most: never claim completion or an id.
fn collection_reply(er: &EngineResult) -> Reply {
    if !er.succeeded() {
        return er.reply(Mutation::new(Outcome::Rejected));
    }
    Reply::ok(er.annotate(Mutation::new(Outcome::Unknown)).into_json()).warn(
        "Ombi answers success for a collection even when some or all of its movies could not be requested: check each movie with read_requests",
    )
}

/// `TvRequestViewModelV2`; the flags the caller leaves out are off.
fn tv_body(args: &Args) -> Result<Value, ToolError> {
    let seasons: Vec<Value> = args
        .opt_value("seasons")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|s| {
                    let episodes: Vec<Value> = s["episodes"]
                        .as_array()
                        .map(|e| e.iter().map(|n| json!({"episodeNumber": n})).collect())
                        .unwrap_or_default();
                    json!({"seasonNumber": s["season_number"], "episodes": episodes})
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(json!({
        "theMovieDbId": args.int("tmdb_id")?, "languageCode": args.opt_str("language_code").unwrap_or(DEFAULT_LANGUAGE_CODE),
        "requestAll": args.opt_bool("request_all").unwrap_or(false), "latestSeason": args.opt_bool("latest_season").unwrap_or(false),
        "firstSeason": args.opt_bool("first_season").unwrap_or(false), "languageProfile": args.opt_int("language_profile"),
        "seasons": seasons, "requestOnBehalf": args.opt_str("request_on_behalf"),
        "rootFolderOverride": args.opt_int("root_folder_override"), "qualityPathOverride": args.opt_int("quality_profile_override"),
    }))
}

/// Whether `GET /api/v2/Features` lists `Movie4KRequests` as enabled.
fn movie_4k_enabled(ombi: &Ombi<'_>) -> Result<bool, ToolError> {
    let features: Option<Value> = ombi.get("/api/v2/Features")?;
    Ok(features
        .as_ref()
        .and_then(Value::as_array)
        .is_some_and(|list| {
            list.iter().any(|f| {
                f.get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|n| n.eq_ignore_ascii_case("Movie4KRequests"))
                    && f.get("enabled").and_then(Value::as_bool) == Some(true)
            })
        }))
}

#[cfg(test)]
mod tests;
