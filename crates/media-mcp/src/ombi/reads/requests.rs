//! `read_requests` → `request_page`, `retry_page`.
//!
//! Lists come from the v2 paged routes (TV items are children); detail and children from v1;
//! `recent` from the bounded recently-requested feed with TV parents resolved by a bounded v1
//! parent scan; `retry_queue` from the retry queue, whose `queue_id` is not a request id.

use super::common::{self, Rec, array, object};
use super::request_items::{self as items, ParentIndex};
use crate::contract::error::sanitize;
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::{Call, OmbiTool};
use crate::ombi::client::Ombi;
use crate::ombi::codes::RequestKind;
use crate::ombi::shape::LocalWindow;
use crate::paging::Window;
use crate::paging::{self, Beyond};
use crate::paging::{limit_schema, offset_schema};
use crate::prelude::*;
use crate::tool::{Args, Prose, View, Views};
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_requests",
    "Read requests",
    "Read media requests in Ombi: a page of movie, TV or album requests (optionally by status and sorted), one request, the child requests of a TV request, a search of requests by title, the most recent requests, or the queue of requests that failed to reach Sonarr/Radarr/Lidarr.",
    &["request_page", "retry_page"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A view of the requests of media `RequestKind`, paged by `Window` where it pages.
type ViewFn = fn(&Ombi<'_>, &Args, Window, RequestKind) -> Result<Reply, ToolError>;

const REQUESTS: &[&str] = &["request_page"];

static VIEWS: Views<ViewFn> = Views {
    field: "view",
    default: Some("list"),
    prose: Prose::GLOSSARY,
    views: &[
        View {
            name: "list",
            description: "a page of requests",
            families: REQUESTS,
            handler: list,
        },
        View {
            name: "detail",
            description: "one request",
            families: REQUESTS,
            handler: detail,
        },
        View {
            name: "children",
            description: "the child requests of a TV request",
            families: REQUESTS,
            handler: children,
        },
        View {
            name: "search",
            description: "requests whose title matches query",
            families: REQUESTS,
            handler: search,
        },
        View {
            name: "recent",
            description: "the latest requests of each media type",
            families: REQUESTS,
            handler: recent,
        },
        View {
            name: "retry_queue",
            description: "requests that failed to reach their downloader (admins only)",
            families: &["retry_page"],
            handler: retry_queue,
        },
    ],
};

fn input_schema() -> Value {
    let only = |views: &[&str], props: &[&str]| {
        let banned: serde_json::Map<String, Value> = props
            .iter()
            .map(|p| ((*p).to_owned(), json!({"not": {}})))
            .collect();
        // `view` defaults to `list`, so an absent view counts as `list`.
        if views.contains(&"list") {
            json!({"if": {"required": ["view"], "properties": {"view": {"not": {"enum": views}}}}, "then": {"properties": banned}})
        } else {
            json!({"if": {"required": ["view"], "properties": {"view": {"enum": views}}}, "else": {"properties": banned}})
        }
    };
    json!({
        "type": "object",
        "properties": {
            "view": VIEWS.property(),
            "media": {"enum": ["movie", "tv", "album"], "default": "movie", "description": "Media of the requests (list, detail, search; children are always tv)."},
            "status": {"enum": ["all", "pending", "processing", "available", "denied", "unavailable"], "default": "all",
                       "description": "Only requests in this state (list; albums have no 'unavailable')."},
            "sort": {"enum": ["requested_date", "title", "available", "approved", "status"], "default": "requested_date",
                     "description": "Sort key (list; albums only requested_date or title)."},
            "sort_order": {"enum": ["desc", "asc"], "default": "desc", "description": "Sort direction (list)."},
            "request_id": {"type": "integer", "minimum": 1, "description": "Ombi request id: movie request, TV parent request or album request (detail, children)."},
            "query": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^/?#\\x00-\\x1f]+$", "description": "Title to search for (search). No '/', '?' or '#'."},
            "offset": offset_schema(),
            "limit": limit_schema()
        },
        "required": [],
        "additionalProperties": false,
        "allOf": [
            {"if": {"required": ["view"], "properties": {"view": {"enum": ["detail", "children"]}}}, "then": {"required": ["request_id"]}},
            {"if": {"required": ["view"], "properties": {"view": {"const": "search"}}}, "then": {"required": ["query"]}},
            {"if": {"required": ["view"], "properties": {"view": {"const": "children"}}}, "then": {"properties": {"media": {"const": "tv"}}}},
            {"if": {"required": ["media"], "properties": {"media": {"const": "album"}}},
             "then": {"properties": {"status": {"not": {"const": "unavailable"}}, "sort": {"enum": ["requested_date", "title"]}}}},
            only(&["detail", "children"], &["request_id"]),
            only(&["search"], &["query"]),
            {"if": {"required": ["view"], "properties": {"view": {"enum": ["detail", "children", "search", "recent", "retry_queue"]}}},
             "then": {"properties": {"status": {"not": {}}, "sort": {"not": {}}, "sort_order": {"not": {}}}}},
            only(&["list", "detail", "search", "children"], &["media"])
        ]
    })
}

fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let window = args.window()?;
    let kind = args.choice::<RequestKind>("media")?;
    (VIEWS.select(args)?.handler)(&ombi, args, window, kind)
}

/// A view's reply: `data` with the warnings `w`, truncated when records were `cut`.
fn reply(data: Value, w: Vec<String>, cut: bool) -> Reply {
    Reply::ok(data).warn_all(w).truncated(cut)
}

fn children(
    ombi: &Ombi<'_>,
    args: &Args,
    window: Window,
    _: RequestKind,
) -> Result<Reply, ToolError> {
    let (mut w, mut cut) = (Vec::new(), false);
    let id = args.int("request_id")?;
    let rows = array(
        ombi.get(&format!("/api/v1/Request/tv/{id}/child"))?,
        "child requests",
    )?;
    let all = rows
        .iter()
        .filter_map(|r| items::tv_child(r, None, &mut w, &mut cut))
        .collect();
    Ok(reply(
        local("request_page", all, window, "requests"),
        w,
        cut,
    ))
}

fn search(
    ombi: &Ombi<'_>,
    args: &Args,
    window: Window,
    kind: RequestKind,
) -> Result<Reply, ToolError> {
    let mut w = Vec::new();
    let term = args.segment("query")?;
    let path = format!("{}/search/{term}", kind.route_base());
    let rows = array(ombi.get(&path)?, "requests")?;
    if kind == RequestKind::Tv {
        w.push(
            "TV search returns parent requests: use view=children for their child requests"
                .to_owned(),
        );
    }
    let all = project(&rows, kind, &mut w);
    Ok(reply(
        local("request_page", all, window, "requests"),
        w,
        false,
    ))
}

fn retry_queue(
    ombi: &Ombi<'_>,
    _: &Args,
    window: Window,
    _: RequestKind,
) -> Result<Reply, ToolError> {
    let mut w = Vec::new();
    let rows = array(ombi.get("/api/v1/RequestRetry")?, "retry queue entries")?;
    let all: Vec<Value> = rows.iter().filter_map(|r| retry(r, &mut w)).collect();
    Ok(reply(
        local("retry_page", all, window, "queue_entries"),
        w,
        false,
    ))
}

fn local(kind: &str, all: Vec<Value>, window: Window, unit: &str) -> Value {
    let total = all.len();
    let items = paging::slice(all, window);
    let page = paging::local(window, items.len(), total, unit);
    json!({"kind": kind, "items": items, "page": page})
}

fn project(rows: &[Value], kind: RequestKind, w: &mut Vec<String>) -> Vec<Value> {
    rows.iter()
        .filter_map(|r| match kind {
            RequestKind::Tv => items::tv_parent(r),
            RequestKind::Album => items::album(r),
            RequestKind::Movie => items::movie(r, w),
        })
        .collect()
}

fn list(
    ombi: &Ombi<'_>,
    args: &Args,
    window: Window,
    kind: RequestKind,
) -> Result<Reply, ToolError> {
    let (mut w, mut cut) = (vec![paging::NO_SNAPSHOT_WARNING.to_owned()], false);
    let path = list_path(args, kind, window, &mut w)?;
    let body = object(ombi.get(&path)?, "request page")?.unwrap_or_default();
    let rows = match body.get("collection") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a.clone(),
        Some(_) => {
            return Err(ToolError::schema_mismatch(
                "the request page's collection is not an array",
            ));
        }
    };
    let found: Vec<Value> = match kind {
        RequestKind::Tv => rows
            .iter()
            .filter_map(|r| items::tv_child(r, None, &mut w, &mut cut))
            .collect(),
        RequestKind::Movie | RequestKind::Album => project(&rows, kind, &mut w),
    };
    let found: Vec<Value> = found.into_iter().take(window.limit).collect();
    let n = found.len();
    // Continuations count upstream rows, which include rows left out for lacking an id.
    let consumed = rows.len().min(window.limit);
    if consumed > n {
        w.push(format!(
            "{} request(s) without a usable id were left out",
            consumed - n
        ));
    }
    let page = if kind == RequestKind::Tv {
        // Ombi counts every child in `total` but returns one child per show.
        w.push("TV lists hold one child request per show and Ombi's total counts every child, so no total is given".to_owned());
        let full = consumed == window.limit;
        let next = window.offset + consumed;
        paging::upstream(window, n, Beyond::Open { ended: !full, next }, "requests")
    } else {
        let total = body.get("total").and_then(Value::as_u64);
        paging::upstream(window, n, Beyond::Total { total, consumed }, "requests")
    };
    let data = json!({"kind": "request_page", "items": found, "page": page});
    Ok(reply(data, w, cut))
}

/// The v2 list route for the status, sort key and direction `args` ask for.
fn list_path(
    args: &Args,
    kind: RequestKind,
    window: Window,
    w: &mut Vec<String>,
) -> Result<String, ToolError> {
    let status = match args.str("status")? {
        "all" => String::new(),
        s => format!("{s}/"),
    };
    let sort = match args.str("sort")? {
        "title" => "title",
        "available" => "available",
        "approved" => "approved",
        "status" => "requestStatus",
        _ => "requestedDate",
    };
    let order = args.str("sort_order")?;
    if kind == RequestKind::Album && order == "asc" {
        w.push("Ombi ignores the sort key for ascending album lists".to_owned());
    }
    let media = kind.label();
    Ok(format!(
        "/api/v2/Requests/{media}/{status}{}/{}/{sort}/{order}",
        window.limit, window.offset
    ))
}

fn not_found(what: &str, id: i64) -> ToolError {
    ToolError::new(ErrorCode::NotFound, format!("no {what} request {id}"))
}

/// One request; a TV parent with its children, at most 99 of them (the reply is truncated
/// when more children or episodes were cut; only missing children leave the total unknown).
fn detail(ombi: &Ombi<'_>, args: &Args, _: Window, kind: RequestKind) -> Result<Reply, ToolError> {
    let id = args.int("request_id")?;
    let (mut w, mut cut) = (Vec::new(), false);
    let mut children_cut = false;
    let found: Vec<Value> = match kind {
        RequestKind::Tv => tv_detail(ombi, id, &mut w, &mut cut, &mut children_cut)?,
        RequestKind::Album => album_detail(ombi, id, &mut w)?,
        RequestKind::Movie => {
            let row = object(
                ombi.get(&format!("/api/v1/Request/movie/info/{id}"))?,
                "movie request",
            )?
            .ok_or_else(|| not_found("movie", id))?;
            items::movie(&Value::Object(row), &mut w)
                .into_iter()
                .collect()
        }
    };
    let mut page = paging::single(found.len(), "requests");
    if children_cut {
        cut = true;
        // The request has more records than the page holds.
        page["total"] = Value::Null;
    }
    let data = json!({"kind": "request_page", "items": found, "page": page});
    Ok(reply(data, w, cut))
}

/// A TV parent request and its first 99 children (`children_cut` says when it has more).
fn tv_detail(
    ombi: &Ombi<'_>,
    id: i64,
    w: &mut Vec<String>,
    cut: &mut bool,
    children_cut: &mut bool,
) -> Result<Vec<Value>, ToolError> {
    let parent = object(ombi.get(&format!("/api/v1/Request/tv/{id}"))?, "TV request")?
        .ok_or_else(|| not_found("TV", id))?;
    let parent = Value::Object(parent);
    let mut out: Vec<Value> = items::tv_parent(&parent).into_iter().collect();
    let children = parent
        .get("childRequests")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if children.len() > 99 {
        *children_cut = true;
        w.push(format!(
            "99 of {} child requests returned: use view=children to page them",
            children.len()
        ));
    }
    out.extend(
        children
            .iter()
            .take(99)
            .filter_map(|c| items::tv_child(c, Some(&parent), w, cut)),
    );
    Ok(out)
}

/// Albums have no by-id route: scan at most 5 pages of 100 of the v2 album list, never the
/// unbounded v1 list (contract: "do not scan an unbounded legacy list").
fn album_detail(ombi: &Ombi<'_>, id: i64, w: &mut Vec<String>) -> Result<Vec<Value>, ToolError> {
    for page in 0..5 {
        let body = object(
            ombi.get(&format!(
                "/api/v2/Requests/album/100/{}/requestedDate/desc",
                page * 100
            ))?,
            "album page",
        )?
        .unwrap_or_default();
        let rows = body
            .get("collection")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if let Some(row) = rows
            .iter()
            .find(|r| crate::ombi::ids::positive_id(r.get("id")) == Some(id))
        {
            return Ok(items::album(row).into_iter().collect());
        }
        if rows.len() < 100 {
            return Err(not_found("album", id));
        }
    }
    w.push("only the 500 newest album requests were searched".to_owned());
    Err(ToolError::new(
        ErrorCode::NotFound,
        format!("album request {id} is not among the 500 newest album requests"),
    ))
}

/// Rows per media type Ombi's recently-requested feed returns at most.
const RECENT_PER_TYPE: usize = 7;

fn recent(ombi: &Ombi<'_>, _: &Args, window: Window, _: RequestKind) -> Result<Reply, ToolError> {
    let mut w = Vec::new();
    let (page, cut) = project_recent(ombi, window, &mut w)?;
    let (items, n_all) = page.into_parts();
    let page = if cut {
        w.push(format!("Ombi returns at most {RECENT_PER_TYPE} recent requests per media type: older ones are not listed"));
        paging::local_partial(
            window,
            items.len(),
            window.offset + items.len() < n_all,
            "requests",
        )
    } else {
        paging::local(window, items.len(), n_all, "requests")
    };
    Ok(
        Reply::ok(json!({"kind": "request_page", "items": items, "page": page}))
            .warn_all(w)
            .truncated(cut),
    )
}

/// Projects the recently-requested feed into the page of `window` while it streams by (a
/// feed of several megabytes would not fit the call's memory as one JSON tree), scanning TV
/// parents once, at the first TV row. Returns the page and whether a media type hit the feed's
/// cap; warnings of the parent scan come before those of the rows.
///
/// # Errors
/// As [`Ombi::get_each`].
fn project_recent(
    ombi: &Ombi<'_>,
    window: Window,
    w: &mut Vec<String>,
) -> Result<(LocalWindow, bool), ToolError> {
    let mut per_type = [0_usize; 3];
    let mut index: Option<Option<ParentIndex>> = None;
    let mut row_warnings = Vec::new();
    let mut page = LocalWindow::new(window);
    ombi.get_each(
        "/api/v2/Requests/recentlyRequested",
        "recent requests",
        &mut |row| {
            let kind = row.get("type").and_then(Value::as_i64);
            if let Some(n) = kind
                .and_then(|t| usize::try_from(t).ok())
                .and_then(|t| per_type.get_mut(t))
            {
                *n += 1;
            }
            if kind == Some(0) && index.is_none() {
                index = Some(scan_parents(ombi, w));
            }
            if let Some(item) = items::recent(
                &row,
                index.as_ref().and_then(Option::as_ref),
                &mut row_warnings,
            ) {
                page.push(item);
            }
            Ok(())
        },
    )?;
    w.append(&mut row_warnings);
    let cut = per_type.iter().any(|&n| n >= RECENT_PER_TYPE);
    Ok((page, cut))
}

/// The TV parent requests, or `None` with a warning when they cannot be read.
fn scan_parents(ombi: &Ombi<'_>, w: &mut Vec<String>) -> Option<ParentIndex> {
    match ParentIndex::scan(ombi) {
        Ok(i) => {
            if !i.complete {
                w.push("the TV parent scan stopped at 500 parents".to_owned());
            }
            Some(i)
        }
        Err(e) => {
            w.push(format!(
                "TV parent requests could not be read ({}), so TV rows target their child requests",
                e.message
            ));
            None
        }
    }
}

/// `FailedRequestViewModel` → `retry`: `queue_id` is the queue entry (`failedId`), distinct
/// from `request_id` (TV: a child id).
fn retry(row: &Value, w: &mut Vec<String>) -> Option<Value> {
    let mut r = Rec::new();
    r.id("queue_id", row.get("failedId"));
    if !r.has("queue_id") {
        w.push("a retry queue entry without an id was left out".to_owned());
        return None;
    }
    r.id("request_id", row.get("requestId"))
        .text("title", row.get("title"));
    common::put_request_type(&mut r, row.get("type"), "retry queue entry", w);
    if let Some(e) = row
        .get("error")
        .and_then(Value::as_str)
        .filter(|e| !e.trim().is_empty())
    {
        r.set("reason", json!(sanitize(e)));
    }
    Some(r.build())
}

#[cfg(test)]
mod tests;
