//! `write_request_create` → `mutation`: `POST /request` as the acting user, whose permissions,
//! quotas and auto-approval Seerr applies. Ombi's input schema. Each of Seerr's answers is its
//! own outcome: 201 created (pending or approved), 202 no season left to request, 403 no
//! permission, quota used up ("Movie Quota exceeded.") or blocklisted, 409 already requested.
//!
//! `is4k` is always sent: Seerr v3.1.0 looks for an existing request with `is4k = <body>`, so a
//! body without it matches nothing and a duplicate is created instead of refused.

use super::outcome::{Mutation, refused};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::prelude::*;
use crate::seerr::client::Seerr;
use crate::seerr::project;
use crate::seerr::states::RequestStatus;
use crate::seerr::tool::{SeerrTool, unsupported};
use crate::tool::Args;
use crate::upstream::recognise::json_body;
use crate::upstream::{Effect, Method};
use serde_json::{Value, json};

pub(in crate::seerr) static TOOL: SeerrTool = SeerrTool::write(
    "write_request_create",
    "Request media",
    "Ask Seerr for a movie or a TV show (all seasons, the first or the latest, or whole seasons by number). Take TMDB ids from read_search or read_media. Acting as a user applies that user's permissions, quotas and auto-approval; with no user set, the API key acts as Seerr's administrator and the request is approved at once. Re-requesting something already requested is refused (409), as are a used-up quota, a missing permission and blocklisted media (403).",
    "read_requests",
    input_schema,
    run,
);

const UUID: &str = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

pub fn input_schema() -> Value {
    let media_is = |v: Value| json!({"properties": {"media": v}});
    let tv = media_is(json!({"const": "tv"}));
    json!({
        "type": "object",
        "properties": {
            "first_season": {"type": "boolean", "description": "TV: request the first season."},
            "is_4k": {"type": "boolean", "description": "Request the 4K version (movie only; needs Seerr's 4K permission)."},
            "language_code": {"type": "string", "pattern": "^[a-z]{2}$", "description": "Not supported by Seerr (refused)."},
            "language_profile": {"type": "integer", "minimum": 1, "description": "Not supported by this backend (refused)."},
            "latest_season": {"type": "boolean", "description": "TV: request the latest season."},
            "media": {"enum": ["movie", "tv", "album", "movie_collection"], "description": "What to request: a movie or a TV show (whole or some seasons); Seerr has no albums, and collections are requested movie by movie."},
            "musicbrainz_album_id": {"type": "string", "pattern": UUID, "description": "Not supported by Seerr (no music)."},
            "quality_profile_override": {"type": "integer", "minimum": 1, "description": "Not supported by this backend (refused)."},
            "request_all": {"type": "boolean", "description": "TV: request every season."},
            "request_on_behalf": {"type": "string", "minLength": 1, "maxLength": 128, "description": "Not supported: set the user to act as instead, so that user's permissions and quotas apply."},
            "root_folder_override": {"type": "integer", "minimum": 1, "description": "Not supported by this backend (refused)."},
            "seasons": {"type": "array", "minItems": 1, "maxItems": 100,
                        "description": "TV seasons to request; Seerr requests whole seasons, so each season's episodes must be all of its episodes.",
                        "items": {"type": "object", "additionalProperties": false, "required": ["season_number", "episodes"],
                                  "properties": {"season_number": {"type": "integer", "minimum": 0, "description": "Season number."},
                                                 "episodes": {"type": "array", "minItems": 1, "maxItems": 500, "uniqueItems": true, "items": {"type": "integer", "minimum": 1}, "description": "Episode numbers (all of the season's)."}}}},
            "tmdb_id": {"type": "integer", "minimum": 1, "description": "TMDB id of the movie or TV show."}
        },
        "required": ["media"],
        "additionalProperties": false,
        "allOf": [
            {"if": media_is(json!({"enum": ["movie", "tv", "movie_collection"]})), "then": {"required": ["tmdb_id"]}},
            {"if": media_is(json!({"const": "album"})), "then": {"required": ["musicbrainz_album_id"]}},
            {"if": tv, "then": {"anyOf": [
                {"required": ["seasons"]},
                {"required": ["request_all"], "properties": {"request_all": {"const": true}}},
                {"required": ["first_season"], "properties": {"first_season": {"const": true}}},
                {"required": ["latest_season"], "properties": {"latest_season": {"const": true}}}]}},
            {"if": {"required": ["is_4k"]}, "then": media_is(json!({"const": "movie"}))},
            {"if": {"required": ["language_code"]}, "then": media_is(json!({"enum": ["movie", "tv"]}))},
            {"if": {"anyOf": [{"required": ["seasons"]}, {"required": ["request_all"]}, {"required": ["first_season"]}, {"required": ["latest_season"]}, {"required": ["language_profile"]}]},
             "then": media_is(json!({"const": "tv"}))},
            {"if": {"anyOf": [{"required": ["tmdb_id"]}]}, "then": media_is(json!({"enum": ["movie", "tv", "movie_collection"]}))},
            {"if": {"required": ["musicbrainz_album_id"]}, "then": media_is(json!({"const": "album"}))},
            {"if": {"anyOf": [{"required": ["request_on_behalf"]}, {"required": ["root_folder_override"]}, {"required": ["quality_profile_override"]}]},
             "then": media_is(json!({"enum": ["movie", "tv"]}))}
        ]
    })
}

/// Arguments this backend refuses, and why.
const REFUSED: [(&str, &str); 5] = [
    ("language_code", "Seerr requests have no language"),
    (
        "language_profile",
        "this backend does not set Seerr's Sonarr language profile",
    ),
    (
        "quality_profile_override",
        "this backend does not set Seerr's Radarr/Sonarr profile",
    ),
    (
        "root_folder_override",
        "Seerr takes a root folder path, not an id",
    ),
    (
        "request_on_behalf",
        "Seerr's userId only relabels a request made with the administrator's rights: set the user to act as instead",
    ),
];

pub fn run(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    if let Some((field, why)) = REFUSED.iter().find(|(f, _)| args.given(f)) {
        return Err(unsupported(field, why));
    }
    let body = match args.str("media")? {
        "movie" => {
            json!({"mediaType": "movie", "mediaId": args.int("tmdb_id")?, "is4k": args.opt_bool("is_4k").unwrap_or(false)})
        }
        "tv" => {
            let tmdb = args.int("tmdb_id")?;
            json!({"mediaType": "tv", "mediaId": tmdb, "is4k": false, "seasons": tv_seasons(seerr, args, tmdb)?})
        }
        "album" => return Err(unsupported("media", "Seerr has no music")),
        _ => {
            return Err(unsupported(
                "media",
                "Seerr requests a collection movie by movie: read the collection's movies and request each",
            ));
        }
    };
    let rejected = Mutation::new("rejected");
    let resp = match seerr.exchange(Method::Post, "/request", Some(&body), Effect::Write) {
        Ok(resp) => resp,
        Err(e) => return Ok(refused(e, rejected)),
    };
    if resp.status == 202 {
        // Seerr's NoSeasonsAvailableError: nothing was created.
        let said = super::super::client::failure_message(&resp).unwrap_or_default();
        let error = ToolError::new(
            ErrorCode::Conflict,
            format!("Seerr created nothing: {said} (every season asked for is already requested or available)"),
        )
        .with_status(202);
        return Ok(refused(error, rejected));
    }
    let created: Value = json_body(&resp)
        .map_err(|_| {
            ToolError::unknown_outcome(
                "Seerr answered the request with a body that could not be read",
            )
        })?
        .ok_or_else(|| ToolError::unknown_outcome("Seerr answered the request with no body"))?;
    Ok(Reply::ok(created_mutation(&created).into_json()))
}

/// The `mutation` of a created request: its id, target, ids and Seerr's state for it.
fn created_mutation(created: &Value) -> Mutation {
    let state = created
        .get("status")
        .and_then(Value::as_i64)
        .and_then(RequestStatus::from_code);
    let message = match state {
        Some(RequestStatus::Pending) => {
            "Seerr created the request; it waits for approval".to_owned()
        }
        Some(s) => format!("Seerr created the request; its state is {}", s.word()),
        None => "Seerr created the request".to_owned(),
    };
    Mutation::new("completed")
        .maybe("target", project::request_target(created))
        .maybe(
            "request_id",
            created
                .get("id")
                .and_then(Value::as_i64)
                .filter(|i| *i > 0)
                .map(|i| json!(i)),
        )
        .maybe(
            "user_id",
            created
                .pointer("/requestedBy/id")
                .and_then(Value::as_i64)
                .map(|i| json!(i.to_string())),
        )
        .message(&message)
}

/// The seasons to ask Seerr for: `"all"`, or season numbers. First, latest and explicit
/// seasons are checked against the show's details (`GET /tv/{id}`): Seerr requests whole
/// seasons, so a season given with only some of its episodes is refused.
fn tv_seasons(seerr: &Seerr<'_>, args: &Args, tmdb: i64) -> Result<Value, ToolError> {
    if args.opt_bool("request_all") == Some(true) {
        return Ok(json!("all"));
    }
    let details = seerr.get(&format!("/tv/{tmdb}"))?;
    let known: Vec<(i64, i64)> = details
        .get("seasons")
        .and_then(Value::as_array)
        .map(|s| {
            s.iter()
                .filter_map(|x| {
                    Some((
                        x.get("seasonNumber")?.as_i64()?,
                        x.get("episodeCount")?.as_i64()?,
                    ))
                })
                .filter(|(n, _)| *n > 0)
                .collect()
        })
        .unwrap_or_default();
    let mut wanted: Vec<i64> = Vec::new();
    if args.opt_bool("first_season") == Some(true) {
        wanted.extend(known.iter().map(|(n, _)| *n).min());
    }
    if args.opt_bool("latest_season") == Some(true) {
        wanted.extend(known.iter().map(|(n, _)| *n).max());
    }
    for season in args
        .opt_value("seasons")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let number = season
            .get("season_number")
            .and_then(Value::as_i64)
            .unwrap_or(-1);
        let asked = season
            .get("episodes")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let Some((_, count)) = known.iter().find(|(n, _)| *n == number) else {
            return Err(ToolError::invalid_argument(
                "seasons",
                format!("the show has no season {number} in Seerr's details"),
            ));
        };
        let all = i64::try_from(asked).is_ok_and(|a| a == *count)
            && season["episodes"].as_array().is_some_and(|e| {
                e.iter()
                    .all(|x| x.as_i64().is_some_and(|x| (1..=*count).contains(&x)))
            });
        if !all {
            return Err(unsupported(
                "seasons",
                &format!(
                    "Seerr requests whole seasons: season {number} has {count} episodes, so list all of them (1-{count}) or use request_all"
                ),
            ));
        }
        wanted.push(number);
    }
    if wanted.is_empty() {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            "Seerr's details of the show list no season to request",
        ));
    }
    wanted.sort_unstable();
    wanted.dedup();
    Ok(json!(wanted))
}
