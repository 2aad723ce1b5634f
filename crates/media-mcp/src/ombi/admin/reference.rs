//! `read_reference` → `reference_page`.
//!
//! One verified adapter per `kind`: each knows its route's response type and maps it to
//! `{id, name, value}` with `value` native-typed (the integer id, the ISO code, the boolean).
//! A row of any other shape fails the call (`UPSTREAM_SCHEMA_MISMATCH`) instead of passing raw
//! data on. Every upstream list is unpaged and windowed locally.

use super::common::{self, matches, opt_str, reference, req_int, req_str};
use super::reference_tables;
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::shape::LocalWindow;
use crate::paging;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::encode_query_value;
use serde_json::{Value, json};

/// The `kind` values, in schema order (upstream-backed first, then local tables).
const KINDS: &[&str] = &[
    "genres_movie",
    "genres_tv",
    "languages",
    "streaming_countries",
    "issue_categories",
    "roles",
    "keywords",
    "watch_providers_movie",
    "watch_providers_tv",
    "features",
    "request_types",
    "issue_statuses",
    "vote_types",
    "notification_agents",
    "request_statuses",
    "limit_types",
];

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_reference",
    "Reference lists",
    "List the ids and names Ombi uses elsewhere: TMDB genres, languages, streaming countries, issue categories, roles, TMDB keywords and watch providers, feature flags, and Ombi's code tables (request types, issue statuses, vote types, notification agents, request statuses, limit types). Use the values as arguments of other tools or to decode *_code fields.",
    &["reference_page"],
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": crate::paging::with_paging(json!({
            "kind": {"enum": KINDS, "description": "Which list: genres_movie/genres_tv (TMDB genre ids), languages (ISO 639-1), streaming_countries (ISO 3166), issue_categories, roles, keywords (TMDB keywords, needs query or keyword_id), watch_providers_movie/watch_providers_tv (TMDB's global provider catalogue, needs query), features (Ombi feature flags), or one of Ombi's code tables: request_types, issue_statuses, vote_types, notification_agents, request_statuses, limit_types."},
            "query": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[^\\x00-\\x1f]+$",
                      "description": "Search text for keywords and watch providers; for other kinds, keeps only entries whose name contains it (case-insensitive)."},
            "keyword_id": {"type": "integer", "minimum": 1, "description": "Look up one TMDB keyword by id (kind=keywords, instead of query)."}
        })),
        "required": ["kind"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"required": ["kind"], "properties": {"kind": {"enum": ["watch_providers_movie", "watch_providers_tv"]}}},
             "then": {"required": ["query"]}},
            {"if": {"required": ["kind"], "properties": {"kind": {"const": "keywords"}}},
             "then": {"oneOf": [{"required": ["query"]}, {"required": ["keyword_id"]}]}},
            {"if": {"required": ["keyword_id"]}, "then": {"properties": {"kind": {"const": "keywords"}}}}
        ]
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let kind = args.str("kind")?;
    let window = args.window()?;
    let query = args.opt_str("query");
    if let Some(table) = reference_tables::table(kind) {
        let all = table
            .rows
            .iter()
            .filter(|(_, name)| matches(name, query))
            .map(|(code, name)| {
                reference(
                    Some(code.to_string()),
                    name,
                    json!(code),
                    Some(table.category),
                )
            })
            .collect();
        return Ok(Reply::ok(common::local_page(
            "reference_page",
            all,
            window,
            "references",
        )));
    }
    let ombi = call.ombi()?;
    let mut warnings = vec![paging::NO_SNAPSHOT_WARNING.to_owned()];
    if kind == "keywords"
        && let Some(id) = args.opt_int("keyword_id")
    {
        let row = ombi
            .get::<Value>(&format!("/api/v1/TheMovieDb/Keywords/{id}"))?
            .filter(|v| !v.is_null())
            .ok_or_else(|| {
                ToolError::new(ErrorCode::NotFound, format!("TMDB has no keyword {id}"))
            })?;
        let item = id_name(&row, "id", "name", "keyword", None)?;
        let page = paging::single(1, "references");
        return Ok(Reply::ok(
            json!({"kind": "reference_page", "items": [item], "page": page}),
        ));
    }
    let (path, local_filter) = match kind {
        "genres_movie" => ("/api/v2/Search/Genres/movie".to_owned(), true),
        "genres_tv" => ("/api/v2/Search/Genres/tv".to_owned(), true),
        "languages" => ("/api/v2/Search/Languages".to_owned(), true),
        "streaming_countries" => ("/api/v1/Identity/streamingcountry".to_owned(), true),
        "issue_categories" => ("/api/v1/Issues/categories".to_owned(), true),
        "roles" => ("/api/v1/Identity/claims".to_owned(), true),
        "features" => ("/api/v2/Features".to_owned(), true),
        "keywords" => (
            format!(
                "/api/v1/TheMovieDb/Keywords?searchTerm={}",
                encode_query_value(query.unwrap_or_default())
            ),
            false,
        ),
        "watch_providers_movie" | "watch_providers_tv" => {
            warnings.push("this is TMDB's global catalogue of watch providers, not where any title can be watched: use read_media for a title's providers".to_owned());
            let media = if kind.ends_with("movie") {
                "movie"
            } else {
                "tv"
            };
            (
                format!(
                    "/api/v1/TheMovieDb/WatchProviders/{media}?searchTerm={}",
                    encode_query_value(query.unwrap_or_default())
                ),
                false,
            )
        }
        other => {
            return Err(ToolError::invalid_argument(
                "kind",
                format!("unknown kind {other:?}"),
            ));
        }
    };
    // Streamed: a list of several megabytes would not fit the call's memory as one JSON tree.
    let mut page = LocalWindow::new(window);
    let mut corrupted = 0;
    ombi.get_each(&path, kind, &mut |row| {
        let item = project(kind, &row, &mut corrupted)?;
        let name = item["name"].as_str().unwrap_or_default();
        if !local_filter || matches(name, query) {
            page.push(item);
        }
        Ok(())
    })?;
    if corrupted > 0 {
        warnings.push(format!("{corrupted} entries have only corrupted upstream labels (all '?' or U+FFFD); they are shown as received"));
    }
    Ok(Reply::ok(page.into_page("reference_page", "references")).warn_all(warnings))
}

/// One upstream row of `kind` as a reference record.
fn project(kind: &str, row: &Value, corrupted: &mut usize) -> Result<Value, ToolError> {
    match kind {
        "genres_movie" | "genres_tv" => id_name(row, "id", "name", "genre", Some(corrupted)),
        "issue_categories" => id_name(row, "id", "value", "issue category", Some(corrupted)),
        "keywords" => id_name(row, "id", "name", "keyword", Some(corrupted)),
        "watch_providers_movie" | "watch_providers_tv" => id_name(
            row,
            "provider_id",
            "provider_name",
            "watch provider",
            Some(corrupted),
        ),
        "languages" => language(row, corrupted),
        "streaming_countries" => {
            let code = row
                .as_str()
                .filter(|s| !s.trim().is_empty())
                .ok_or_else(|| {
                    ToolError::schema_mismatch(
                        "a streaming country from Ombi is not a non-empty string",
                    )
                })?;
            Ok(reference(Some(code.to_owned()), code, json!(code), None))
        }
        "roles" => {
            let role = req_str(row, "value", "role")?;
            Ok(reference(None, role, json!(role), None))
        }
        "features" => {
            let name = req_str(row, "name", "feature")?;
            let enabled = row.get("enabled").and_then(Value::as_bool).ok_or_else(|| {
                ToolError::schema_mismatch("a feature record from Ombi has no boolean `enabled`")
            })?;
            Ok(reference(None, name, json!(enabled), None))
        }
        other => Err(ToolError::internal(format!("no adapter for kind {other}"))),
    }
}

/// `{<id_key>: int, <name_key>: string}` rows: `id` and `value` are the id, `name` the label.
fn id_name(
    row: &Value,
    id_key: &str,
    name_key: &str,
    what: &str,
    corrupted: Option<&mut usize>,
) -> Result<Value, ToolError> {
    let id = req_int(row, id_key, what)?;
    let name = req_str(row, name_key, what)?.trim();
    if name.is_empty() {
        return Err(ToolError::schema_mismatch(format!(
            "a {what} record from Ombi has an empty `{name_key}`"
        )));
    }
    if let Some(c) = corrupted
        && common::is_corrupted(name)
    {
        *c += 1;
    }
    Ok(reference(Some(id.to_string()), name, json!(id), None))
}

/// TMDB `Language {iso_639_1, english_name, name}`: the code is id and value; the label is the
/// first clean one of `english_name`, `name` (TMDB's native `name` is sometimes mojibake).
fn language(row: &Value, corrupted: &mut usize) -> Result<Value, ToolError> {
    let code = req_str(row, "iso_639_1", "language")?.trim();
    if code.is_empty() {
        return Err(ToolError::schema_mismatch(
            "a language record from Ombi has an empty `iso_639_1`",
        ));
    }
    let english = opt_str(row, "english_name", "language")?;
    let native = opt_str(row, "name", "language")?;
    let name = match common::select_label(&[english, native]) {
        Some((label, bad)) => {
            if bad {
                *corrupted += 1;
            }
            label
        }
        // No label at all: the code itself is the only honest name.
        None => code,
    };
    Ok(reference(Some(code.to_owned()), name, json!(code), None))
}

#[cfg(test)]
mod tests;
