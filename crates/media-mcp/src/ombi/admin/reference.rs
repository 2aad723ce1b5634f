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
use crate::ombi::client::Ombi;
use crate::ombi::shape::LocalWindow;
use crate::paging;
use crate::paging::Window;
use crate::prelude::*;
use crate::tool::{Args, Prose, View, Views};
use crate::upstream::encode_query_value;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_reference",
    "Reference lists",
    "List the ids and names Ombi uses elsewhere: TMDB genres, languages, streaming countries, issue categories, roles, TMDB keywords and watch providers, feature flags, and Ombi's code tables (request types, issue statuses, vote types, notification agents, request statuses, limit types). Use the values as arguments of other tools or to decode *_code fields.",
    &["reference_page"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A reference list, given what was asked of it.
type ViewFn = fn(&Call<'_>, &Args, Asked<'_>) -> Result<Reply, ToolError>;

/// What every reference view is asked: its kind, the window and the name filter (`query`).
#[derive(Debug, Clone, Copy)]
struct Asked<'a> {
    kind: &'a str,
    window: Window,
    query: Option<&'a str>,
}

/// One upstream row of a kind as a reference record; labels that are only corrupted
/// characters are counted.
type Project = fn(&Value, &mut usize) -> Result<Value, ToolError>;

const fn view(name: &'static str, handler: ViewFn) -> View<ViewFn> {
    View::undescribed(name, &["reference_page"], handler)
}

/// The kinds in schema order: upstream-backed first, then Ombi's code tables.
static VIEWS: Views<ViewFn> = Views {
    field: "kind",
    default: None,
    prose: Prose::Whole(
        "Which list: genres_movie/genres_tv (TMDB genre ids), languages (ISO 639-1), streaming_countries (ISO 3166), issue_categories, roles, keywords (TMDB keywords, needs query or keyword_id), watch_providers_movie/watch_providers_tv (TMDB's global provider catalogue, needs query), features (Ombi feature flags), or one of Ombi's code tables: request_types, issue_statuses, vote_types, notification_agents, request_statuses, limit_types.",
    ),
    views: &[
        view("genres_movie", genres_movie),
        view("genres_tv", genres_tv),
        view("languages", languages),
        view("streaming_countries", streaming_countries),
        view("issue_categories", issue_categories),
        view("roles", roles),
        view("keywords", keywords),
        view("watch_providers_movie", watch_providers_movie),
        view("watch_providers_tv", watch_providers_tv),
        view("features", features),
        view("request_types", code_table),
        view("issue_statuses", code_table),
        view("vote_types", code_table),
        view("notification_agents", code_table),
        view("request_statuses", code_table),
        view("limit_types", code_table),
    ],
};

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": crate::paging::with_paging(json!({
            "kind": VIEWS.property(),
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
    let view = VIEWS.select(args)?;
    let asked = Asked {
        kind: view.name,
        window: args.window()?,
        query: args.opt_str("query"),
    };
    (view.handler)(call, args, asked)
}

/// One of Ombi's code tables ([`reference_tables`]), filtered by `query`; no upstream call.
fn code_table(_: &Call<'_>, _: &Args, a: Asked<'_>) -> Result<Reply, ToolError> {
    let table = reference_tables::table(a.kind)
        .ok_or_else(|| ToolError::internal(format!("no code table for kind {}", a.kind)))?;
    let all = table
        .rows
        .iter()
        .filter(|(_, name)| matches(name, a.query))
        .map(|(code, name)| {
            reference(
                Some(code.to_string()),
                name,
                json!(code),
                Some(table.category),
            )
        })
        .collect();
    Ok(Reply::ok(common::local_page(
        "reference_page",
        all,
        a.window,
        "references",
    )))
}

fn genres_movie(call: &Call<'_>, _: &Args, a: Asked<'_>) -> Result<Reply, ToolError> {
    listed(call, a, "/api/v2/Search/Genres/movie", true, None, genre)
}

fn genres_tv(call: &Call<'_>, _: &Args, a: Asked<'_>) -> Result<Reply, ToolError> {
    listed(call, a, "/api/v2/Search/Genres/tv", true, None, genre)
}

fn languages(call: &Call<'_>, _: &Args, a: Asked<'_>) -> Result<Reply, ToolError> {
    listed(call, a, "/api/v2/Search/Languages", true, None, language)
}

fn streaming_countries(call: &Call<'_>, _: &Args, a: Asked<'_>) -> Result<Reply, ToolError> {
    let path = "/api/v1/Identity/streamingcountry";
    listed(call, a, path, true, None, streaming_country)
}

fn issue_categories(call: &Call<'_>, _: &Args, a: Asked<'_>) -> Result<Reply, ToolError> {
    listed(
        call,
        a,
        "/api/v1/Issues/categories",
        true,
        None,
        |row, c| id_name(row, "id", "value", "issue category", Some(c)),
    )
}

fn roles(call: &Call<'_>, _: &Args, a: Asked<'_>) -> Result<Reply, ToolError> {
    listed(call, a, "/api/v1/Identity/claims", true, None, |row, _| {
        let role = req_str(row, "value", "role")?;
        Ok(reference(None, role, json!(role), None))
    })
}

fn features(call: &Call<'_>, _: &Args, a: Asked<'_>) -> Result<Reply, ToolError> {
    listed(call, a, "/api/v2/Features", true, None, feature)
}

/// TMDB keywords: one by `keyword_id`, or those matching `query`.
fn keywords(call: &Call<'_>, args: &Args, a: Asked<'_>) -> Result<Reply, ToolError> {
    if let Some(id) = args.opt_int("keyword_id") {
        return keyword(&call.ombi()?, id);
    }
    let path = format!(
        "/api/v1/TheMovieDb/Keywords?searchTerm={}",
        encode_query_value(a.query.unwrap_or_default())
    );
    listed(call, a, &path, false, None, |row, c| {
        id_name(row, "id", "name", "keyword", Some(c))
    })
}

fn watch_providers_movie(call: &Call<'_>, _: &Args, a: Asked<'_>) -> Result<Reply, ToolError> {
    watch_providers(call, a, "movie")
}

fn watch_providers_tv(call: &Call<'_>, _: &Args, a: Asked<'_>) -> Result<Reply, ToolError> {
    watch_providers(call, a, "tv")
}

/// TMDB's watch providers of `media` matching `query`.
fn watch_providers(call: &Call<'_>, a: Asked<'_>, media: &str) -> Result<Reply, ToolError> {
    let path = format!(
        "/api/v1/TheMovieDb/WatchProviders/{media}?searchTerm={}",
        encode_query_value(a.query.unwrap_or_default())
    );
    let note = "this is TMDB's global catalogue of watch providers, not where any title can be watched: use read_media for a title's providers";
    listed(call, a, &path, false, Some(note), |row, c| {
        id_name(
            row,
            "provider_id",
            "provider_name",
            "watch provider",
            Some(c),
        )
    })
}

/// The rows of upstream list `path`, each projected by `project`; `query` filters them by name
/// when `local_filter` (else the route itself searched for it). `note` is a warning of the kind.
fn listed(
    call: &Call<'_>,
    a: Asked<'_>,
    path: &str,
    local_filter: bool,
    note: Option<&str>,
    project: Project,
) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let mut warnings = vec![paging::NO_SNAPSHOT_WARNING.to_owned()];
    warnings.extend(note.map(str::to_owned));
    // Streamed: a list of several megabytes would not fit the call's memory as one JSON tree.
    let mut page = LocalWindow::new(a.window);
    let mut corrupted = 0;
    ombi.get_each(path, a.kind, &mut |row| {
        let item = project(&row, &mut corrupted)?;
        let name = item["name"].as_str().unwrap_or_default();
        if !local_filter || matches(name, a.query) {
            page.push(item);
        }
        Ok(())
    })?;
    if corrupted > 0 {
        warnings.push(format!("{corrupted} entries have only corrupted upstream labels (all '?' or U+FFFD); they are shown as received"));
    }
    Ok(Reply::ok(page.into_page("reference_page", "references")).warn_all(warnings))
}

/// TMDB keyword `id`.
fn keyword(ombi: &Ombi<'_>, id: i64) -> Result<Reply, ToolError> {
    let row = ombi
        .get::<Value>(&format!("/api/v1/TheMovieDb/Keywords/{id}"))?
        .filter(|v| !v.is_null())
        .ok_or_else(|| ToolError::new(ErrorCode::NotFound, format!("TMDB has no keyword {id}")))?;
    let item = id_name(&row, "id", "name", "keyword", None)?;
    let page = paging::single(1, "references");
    Ok(Reply::ok(
        json!({"kind": "reference_page", "items": [item], "page": page}),
    ))
}

fn genre(row: &Value, corrupted: &mut usize) -> Result<Value, ToolError> {
    id_name(row, "id", "name", "genre", Some(corrupted))
}

fn streaming_country(row: &Value, _: &mut usize) -> Result<Value, ToolError> {
    let code = row
        .as_str()
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| {
            ToolError::schema_mismatch("a streaming country from Ombi is not a non-empty string")
        })?;
    Ok(reference(Some(code.to_owned()), code, json!(code), None))
}

fn feature(row: &Value, _: &mut usize) -> Result<Value, ToolError> {
    let name = req_str(row, "name", "feature")?;
    let enabled = row.get("enabled").and_then(Value::as_bool).ok_or_else(|| {
        ToolError::schema_mismatch("a feature record from Ombi has no boolean `enabled`")
    })?;
    Ok(reference(None, name, json!(enabled), None))
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
