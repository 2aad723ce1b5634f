//! `read_requests` → `request_page` and `read_request_stats` → `metrics`, over Seerr's
//! `GET /request` (paged by Seerr, filtered by its own filter words), `GET /request/{id}`,
//! `GET /request/count` and `GET /user/{id}/quota`. Ombi's input schemas; what Seerr has no
//! equivalent for (music, TV child requests, a title search of requests, the retry queue,
//! sorting by title or state, a time-window summary) is refused naming the argument.

use super::client::Acting;
use super::client::Seerr;
use super::project;
use super::tool::{SeerrTool, unsupported};
use crate::contract::{Reply, ToolError};
use crate::paging;
use crate::prelude::*;
use crate::tool::Args;
use serde_json::{Value, json};

pub(super) static TOOL: SeerrTool = SeerrTool::read(
    "read_requests",
    "Read requests",
    "Read media requests in Seerr: a page of movie or TV requests (optionally by status, newest or oldest first), one request, or the most recent requests. Each request has its Seerr state (pending, approved, declined, failed, completed) and the media's standard or 4K state; a user without the permission to manage requests sees their own.",
    // Ombi's families: its retry_queue view (retry_page) is refused by Seerr.
    &["request_page", "retry_page"],
    requests_schema,
    run,
);

pub(super) static STATS: SeerrTool = SeerrTool::read(
    "read_request_stats",
    "Read request statistics",
    "Read request statistics from Seerr: request counts by state across the server, or the request quotas (limit, days, used, remaining) of the acting user or of a selected user, as Seerr reports them.",
    &["metrics"],
    stats_schema,
    stats,
);

pub fn requests_schema() -> Value {
    let not = json!({"not": {}});
    json!({
        "type": "object",
        "properties": {
            "limit": paging::limit_schema_described("Most records to return (1-100)."),
            "media": {"default": "movie", "enum": ["movie", "tv", "album"], "description": "Media of the requests (list, detail; Seerr has no music)."},
            "offset": paging::offset_schema_described("Records to skip."),
            "query": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^/?#\\x00-\\x1f]+$", "description": "Title to search for (search: not supported by Seerr)."},
            "request_id": {"type": "integer", "minimum": 1, "description": "Seerr request id (detail)."},
            "sort": {"default": "requested_date", "enum": ["requested_date", "title", "available", "approved", "status"], "description": "Sort key (list; Seerr sorts by requested_date only)."},
            "sort_order": {"default": "desc", "enum": ["desc", "asc"], "description": "Sort direction (list)."},
            "status": {"default": "all", "enum": ["all", "pending", "processing", "available", "denied", "unavailable"],
                       "description": "Only requests in this state (list): pending, processing (approved, media not available), available, unavailable (pending or approved, media not available); Seerr cannot list only denied requests."},
            "view": {"default": "list", "enum": ["list", "detail", "children", "search", "recent", "retry_queue"],
                     "description": "list: a page of requests; detail: one request; recent: the latest requests of every media type; children, search and retry_queue: not supported by Seerr."}
        },
        "required": [],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"view": {"enum": ["detail", "children"]}}, "required": ["view"]}, "then": {"required": ["request_id"]}},
            {"if": {"properties": {"view": {"const": "search"}}, "required": ["view"]}, "then": {"required": ["query"]}},
            {"if": {"properties": {"view": {"const": "children"}}, "required": ["view"]}, "then": {"properties": {"media": {"const": "tv"}}}},
            {"if": {"properties": {"media": {"const": "album"}}, "required": ["media"]}, "then": {"properties": {"sort": {"enum": ["requested_date", "title"]}, "status": {"not": {"const": "unavailable"}}}}},
            {"if": {"properties": {"view": {"enum": ["detail", "children"]}}, "required": ["view"]}, "else": {"properties": {"request_id": not}}},
            {"if": {"properties": {"view": {"enum": ["search"]}}, "required": ["view"]}, "else": {"properties": {"query": not}}},
            {"if": {"properties": {"view": {"enum": ["detail", "children", "search", "recent", "retry_queue"]}}, "required": ["view"]},
             "then": {"properties": {"sort": not, "sort_order": not, "status": not}}},
            {"if": {"properties": {"view": {"not": {"enum": ["list", "detail", "search", "children"]}}}, "required": ["view"]}, "then": {"properties": {"media": not}}}
        ]
    })
}

pub fn run(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    match args.str("view")? {
        "list" => list(seerr, args),
        "recent" => recent(seerr, args),
        "detail" => detail(seerr, args),
        view => Err(unsupported(
            "view",
            &format!(
                "Seerr has no {view} view of requests: a TV request is one request for its seasons, requests cannot be searched by title, and failed requests are listed with status filters of read_requests"
            ),
        )),
    }
}

/// Seerr's `filter` word for a `status`.
fn filter_of(status: &str) -> Result<&'static str, ToolError> {
    Ok(match status {
        "all" => "all",
        "pending" => "pending",
        "processing" => "processing",
        "available" => "available",
        "unavailable" => "unavailable",
        _ => {
            return Err(unsupported(
                "status",
                "Seerr cannot list only denied requests: list all and read each request's state",
            ));
        }
    })
}

fn list(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    let media = match args.str("media")? {
        "album" => return Err(unsupported("media", "Seerr has no music")),
        m => m,
    };
    if args.str("sort")? != "requested_date" {
        return Err(unsupported(
            "sort",
            "Seerr sorts requests by date only (requested_date)",
        ));
    }
    let filter = filter_of(args.str("status")?)?;
    let direction = args.str("sort_order")?;
    page(
        seerr,
        args,
        &format!("filter={filter}&sort=added&sortDirection={direction}&mediaType={media}"),
    )
}

fn recent(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    page(
        seerr,
        args,
        "filter=all&sort=added&sortDirection=desc&mediaType=all",
    )
}

/// One page of `GET /request` with the `query` after the window.
fn page(seerr: &Seerr<'_>, args: &Args, query: &str) -> Result<Reply, ToolError> {
    let window = args.window()?;
    let list = seerr.page(
        &format!(
            "/request?take={}&skip={}&{query}",
            window.limit, window.offset
        ),
        "requests",
    )?;
    let items = records(&list.rows);
    let dropped = list.rows.len() - items.len();
    let page = list.paging(window, items.len(), "requests");
    let mut reply = Reply::ok(json!({"kind": "request_page", "items": items, "page": page}))
        .warn(paging::NO_SNAPSHOT_WARNING);
    if dropped > 0 {
        reply = reply.warn(format!(
            "{dropped} requests without an id or a movie/tv type were left out"
        ));
    }
    Ok(reply)
}

fn records(rows: &[Value]) -> Vec<Value> {
    rows.iter()
        .filter_map(project::request)
        .map(project::Record::into_json)
        .collect()
}

fn detail(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    let id = args.int("request_id")?;
    let row = seerr.get(&format!("/request/{id}"))?;
    let record = project::request(&row).ok_or_else(|| {
        ToolError::schema_mismatch("Seerr's request has no id or no movie/tv type")
    })?;
    let media = args.str("media")?;
    let kind = row.get("type").and_then(Value::as_str).unwrap_or("");
    let mut reply = Reply::ok(
        json!({"kind": "request_page", "items": [record.into_json()], "page": paging::single(1, "requests")}),
    );
    if args.given("media") && kind != media {
        reply = reply.warn(format!(
            "request {id} is a {kind} request, not a {media} one: Seerr's request ids are shared by movies and TV"
        ));
    }
    Ok(reply)
}

pub fn stats_schema() -> Value {
    let not = json!({"not": {}});
    let date = "^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,7})?)?(Z|[+-][0-9]{2}:[0-9]{2})?)?$";
    json!({
        "type": "object",
        "properties": {
            "from": {"type": "string", "pattern": date, "description": "Start of the window, ISO 8601 (summary: not supported by Seerr)."},
            "media": {"default": "all", "enum": ["all", "movie", "tv", "album"], "description": "Which quota to read (quota only; Seerr has no music)."},
            "scope": {"enum": ["counts", "quota", "summary"], "description": "counts: requests by state on the whole server; quota: request quotas (of the acting user, or of user_id); summary: not supported by Seerr."},
            "to": {"type": "string", "pattern": date, "description": "End of the window, ISO 8601 (summary only)."},
            "user_id": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^/?#\\x00-\\x1f]+$",
                        "description": "Seerr user id whose quotas to read (quota only; needs the permission to manage users unless it is the acting user). Default: the acting user."}
        },
        "required": ["scope"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"scope": {"const": "summary"}}}, "then": {"required": ["from", "to"]}, "else": {"properties": {"from": not, "to": not}}},
            {"if": {"properties": {"scope": {"const": "quota"}}}, "else": {"properties": {"media": not, "user_id": not}}}
        ]
    })
}

fn metric(name: &str, value: Value, scope: &str, unit: Option<&str>) -> Value {
    let mut m = json!({"name": name, "value": value, "scope": scope});
    if let Some(u) = unit {
        m["unit"] = json!(u);
    }
    m
}

pub fn stats(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    let values = match args.str("scope")? {
        "counts" => counts(seerr)?,
        "quota" => quota(seerr, args)?,
        _ => {
            return Err(unsupported(
                "scope",
                "Seerr has no request totals for a time window: use scope counts, or read_requests",
            ));
        }
    };
    Ok(Reply::ok(json!({"kind": "metrics", "values": values})))
}

/// Seerr's request counts, each as it reports it.
fn counts(seerr: &Seerr<'_>) -> Result<Vec<Value>, ToolError> {
    let counts = seerr.get("/request/count")?;
    Ok([
        "total",
        "movie",
        "tv",
        "pending",
        "approved",
        "declined",
        "processing",
        "available",
        "completed",
    ]
    .iter()
    .filter_map(|k| {
        counts
            .get(*k)
            .and_then(Value::as_i64)
            .filter(|n| *n >= 0)
            .map(|n| metric(k, json!(n), "instance", Some("requests")))
    })
    .collect())
}

/// A user's quotas (`GET /user/{id}/quota`), each value only when Seerr reports it.
fn quota(seerr: &Seerr<'_>, args: &Args) -> Result<Vec<Value>, ToolError> {
    let (id, scope) = match args.opt_str("user_id") {
        Some(id) if id.bytes().all(|b| b.is_ascii_digit()) && id.len() <= 9 => {
            (id.to_owned(), "selected_user")
        }
        Some(_) => {
            return Err(ToolError::invalid_argument(
                "user_id",
                "a Seerr user id is a number (see read_users)",
            ));
        }
        None => match seerr.acting() {
            Acting::User { id, .. } => (id.to_string(), "principal"),
            Acting::Administrator => ("1".to_owned(), "principal"),
        },
    };
    let media: &[&str] = match args.str("media")? {
        "all" => &["movie", "tv"],
        "movie" => &["movie"],
        "tv" => &["tv"],
        _ => return Err(unsupported("media", "Seerr has no music")),
    };
    let answer = seerr.get(&format!("/user/{id}/quota"))?;
    let mut out = Vec::new();
    for m in media {
        let Some(q) = answer.get(*m).filter(|q| q.is_object()) else {
            continue;
        };
        let limit = q.get("limit").and_then(Value::as_i64);
        out.push(metric(
            &format!("{m}.has_limit"),
            json!(limit.is_some_and(|l| l > 0)),
            scope,
            None,
        ));
        for (key, unit) in [
            ("limit", Some("requests")),
            ("days", Some("days")),
            ("used", Some("requests")),
            ("remaining", Some("requests")),
        ] {
            if let Some(v) = q.get(key).and_then(Value::as_i64).filter(|v| *v >= 0) {
                out.push(metric(&format!("{m}.{key}"), json!(v), scope, unit));
            }
        }
        if let Some(r) = q.get("restricted").and_then(Value::as_bool) {
            out.push(metric(&format!("{m}.restricted"), json!(r), scope, None));
        }
    }
    Ok(out)
}
