//! `read_media` → `media_page`: one movie or TV show by TMDB id (`GET /movie/{id}`,
//! `GET /tv/{id}`), with Seerr's standard and 4K state, its media id and the requests it
//! holds, and on demand cast and crew, streaming providers and seasons. Ombi's input schema;
//! what Seerr cannot read this way (music, other id namespaces) is refused.

use super::client::Seerr;
use super::project::{self, Record};
use super::tool::{SeerrTool, unsupported};
use crate::contract::{Reply, ToolError};
use crate::paging;
use crate::prelude::*;
use crate::tool::Args;
use serde_json::{Value, json};

pub(super) static TOOL: SeerrTool = SeerrTool::read(
    "read_media",
    "Read media details",
    "Read one movie or TV show from Seerr by TMDB id: ids (TMDB, TVDB, IMDb, Seerr's media id), Seerr's standard and 4K state, the requests it holds, and optionally cast and crew, streaming providers, ratings and seasons. Seerr has no music; persons and collections are not read by this backend.",
    &["media_page"],
    input_schema,
    run,
);

const NUMERIC: &str = "^[1-9][0-9]{0,9}$";
const UUID: &str = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/// `id`'s pattern and the media it may name when `id_namespace` is `namespace`.
fn namespace_rule(namespace: &str, pattern: &str, media: Value) -> Value {
    json!({"if": {"properties": {"id_namespace": {"const": namespace}}, "required": ["id_namespace"]},
           "then": {"properties": {"id": {"pattern": pattern}, "media": media}}})
}

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "credit_media": {"default": "both", "description": "Which credits of a person to list (media=person; persons are not read from Seerr by this backend).", "enum": ["movie", "tv", "both"]},
            "id": {"type": "string", "minLength": 1, "maxLength": 64, "description": "The TMDB id of the movie or TV show."},
            "id_namespace": {"enum": ["tmdb", "imdb", "tvdb", "musicbrainz", "ombi_movie", "ombi_tv_parent", "ombi_album"],
                             "description": "Which id this is: Seerr reads titles by TMDB id only (the default); the others are refused."},
            "include": {"type": "array", "items": {"enum": ["credits", "providers", "ratings", "seasons"]}, "maxItems": 4, "uniqueItems": true,
                        "description": "Extra detail: cast and crew, streaming providers, ratings, seasons (TV; Seerr lists seasons without their episodes)."},
            "limit": paging::limit_schema_described("Most records to return."),
            "media": {"enum": ["movie", "tv", "album", "artist", "person", "collection"], "description": "What the id names (Seerr: movie or tv)."},
            "offset": paging::offset_schema_described("Records to skip (not used for movies and TV)."),
            "person_name": {"type": "string", "minLength": 1, "maxLength": 200, "description": "The person's name (media=person)."}
        },
        "required": ["media", "id"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"media": {"const": "person"}}, "required": ["media"]}, "then": {"required": ["person_name"]},
             "else": {"not": {"anyOf": [{"required": ["person_name"]}, {"required": ["credit_media"]}]}}},
            namespace_rule("tmdb", NUMERIC, json!({"enum": ["movie", "tv", "person", "collection"]})),
            namespace_rule("imdb", "^tt[0-9]{1,12}$", json!({"const": "movie"})),
            namespace_rule("tvdb", NUMERIC, json!({"const": "tv"})),
            namespace_rule("musicbrainz", UUID, json!({"enum": ["album", "artist"]})),
            namespace_rule("ombi_movie", NUMERIC, json!({"const": "movie"})),
            namespace_rule("ombi_tv_parent", NUMERIC, json!({"const": "tv"})),
            namespace_rule("ombi_album", NUMERIC, json!({"const": "artist"})),
            {"if": {"not": {"required": ["id_namespace"]}, "properties": {"media": {"enum": ["album", "artist"]}}, "required": ["media"]},
             "then": {"properties": {"id": {"pattern": UUID}}}},
            {"if": {"not": {"required": ["id_namespace"]}, "properties": {"media": {"enum": ["movie", "tv", "person", "collection"]}}, "required": ["media"]},
             "then": {"properties": {"id": {"pattern": NUMERIC}}}}
        ]
    })
}

/// Most credits kept.
const MAX_CREDITS: usize = 100;

pub fn run(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    if let Some(ns) = args.opt_str("id_namespace").filter(|ns| *ns != "tmdb") {
        return Err(unsupported(
            "id_namespace",
            &format!(
                "Seerr reads titles by TMDB id, not by {ns} id: find the TMDB id with read_search"
            ),
        ));
    }
    let media = args.str("media")?;
    let route = match media {
        "movie" => "movie",
        "tv" => "tv",
        "album" | "artist" => {
            return Err(unsupported(
                "media",
                "Seerr has no music: it requests movies and TV shows",
            ));
        }
        _ => {
            return Err(unsupported(
                "media",
                "this backend reads movies and TV shows from Seerr; persons and collections are not supported",
            ));
        }
    };
    let id = args.str("id")?;
    let details = seerr.get(&format!("/{route}/{id}"))?;
    let include = args.opt_strs("include").unwrap_or_default();
    let mut warnings = Vec::new();
    let mut record = project::media(&details, Some(if route == "tv" { "tv" } else { "movie" }));
    add_requests(&mut record, &details);
    if include.contains(&"credits") {
        add_credits(&mut record, &details, &mut warnings);
    }
    if include.contains(&"providers") {
        add_providers(&mut record, &details);
    }
    if include.contains(&"seasons") && route == "tv" {
        add_seasons(&mut record, &details, &mut warnings);
    }
    let shortened = record.shortened;
    let item = record.into_json();
    Ok(Reply::ok(
        json!({"kind": "media_page", "items": [item], "page": paging::single(1, "media")}),
    )
    .warn_all(warnings)
    .truncated(shortened))
}

/// The requests Seerr holds for the title (`mediaInfo.requests`), as `request_targets`.
fn add_requests(record: &mut Record, details: &Value) {
    let targets: Vec<Value> = details
        .pointer("/mediaInfo/requests")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(project::request_target)
                .take(100)
                .collect()
        })
        .unwrap_or_default();
    if !targets.is_empty() {
        record.set("request_targets", Value::Array(targets));
    }
}

fn add_credits(record: &mut Record, details: &Value, warnings: &mut Vec<String>) {
    let credit = |c: &Value, role_key: &str| {
        let name = c.get("name").and_then(Value::as_str)?.trim();
        if name.is_empty() {
            return None;
        }
        let mut r = Record::default();
        r.set("name", json!(name))
            .maybe(
                "person_id",
                c.get("id")
                    .and_then(Value::as_i64)
                    .filter(|i| *i > 0)
                    .map(|i| json!(i)),
            )
            .text("role", c.get(role_key))
            .text("department", c.get("department"));
        Some(r.into_json())
    };
    let cast = details.pointer("/credits/cast").and_then(Value::as_array);
    let crew = details.pointer("/credits/crew").and_then(Value::as_array);
    let all: Vec<Value> = cast
        .into_iter()
        .flatten()
        .filter_map(|c| credit(c, "character"))
        .chain(crew.into_iter().flatten().filter_map(|c| credit(c, "job")))
        .collect();
    if all.len() > MAX_CREDITS {
        warnings.push(format!(
            "{} credits: the first {MAX_CREDITS} are returned",
            all.len()
        ));
    }
    let kept: Vec<Value> = all.into_iter().take(MAX_CREDITS).collect();
    if !kept.is_empty() {
        record.set("credits", Value::Array(kept));
    }
}

/// Streaming providers per country (`watchProviders`), flat-rate, free and ad-supported.
fn add_providers(record: &mut Record, details: &Value) {
    let mut out = Vec::new();
    for region in details
        .get("watchProviders")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let country = region.get("iso_3166_1").and_then(Value::as_str);
        for access in ["flatrate", "free", "ads", "rent", "buy"] {
            for p in region
                .get(access)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(name) = p.get("name").and_then(Value::as_str) {
                    let mut r = Record::default();
                    r.set("name", json!(name))
                        .set("access", json!(access))
                        .maybe("country", country.map(|c| json!(c)));
                    out.push(r.into_json());
                }
            }
        }
    }
    out.truncate(100);
    if !out.is_empty() {
        record.set("providers", Value::Array(out));
    }
}

/// The show's seasons; Seerr's details list no episodes, so each season says it is cut.
fn add_seasons(record: &mut Record, details: &Value, warnings: &mut Vec<String>) {
    if record.seasons(details, true) {
        warnings.push("Seerr's show details list seasons without their episodes: each season is marked truncated".to_owned());
    }
}
