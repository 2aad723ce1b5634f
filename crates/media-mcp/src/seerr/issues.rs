//! `read_issues` → `issue_page`, `comment_page` or `metrics`: `GET /issue` (paged by Seerr,
//! open or resolved), `GET /issue/{id}` (with its comments) and `GET /issue/count`. Ombi's
//! input schema; Seerr's issues belong to media, not requests, and it has no in-progress or
//! deleted state and no grouping, so those views and states are refused.

use super::client::Seerr;
use super::project;
use super::tool::{SeerrTool, unsupported};
use crate::contract::{Reply, ToolError};
use crate::paging;
use crate::prelude::*;
use crate::tool::Args;
use serde_json::{Value, json};

pub(super) static TOOL: SeerrTool = SeerrTool::read(
    "read_issues",
    "Read issues",
    "Read issues reported on Seerr media: a page of open (pending) or resolved issues, one issue, an issue's comments, or issue counts by type and status. Issue categories are Seerr's issue types: 1 video, 2 audio, 3 subtitles, 4 other.",
    &["issue_page", "comment_page", "group_page", "metrics"],
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    let absent = |field: &str| json!({"properties": {field: {"not": {}}}});
    json!({
        "type": "object",
        "properties": {
            "issue_id": {"type": "integer", "minimum": 1, "description": "Seerr issue id (detail, comments)."},
            "limit": paging::limit_schema_described("Most records to return (1-100)."),
            "offset": paging::offset_schema_described("Records to skip."),
            "provider_id": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^/?#\\x00-\\x1f]+$", "description": "Not supported by Seerr (by_provider, provider_summary)."},
            "request_id": {"type": "integer", "minimum": 1, "description": "Not supported by Seerr: its issues belong to media (by_request)."},
            "status": {"default": "pending", "enum": ["pending", "in_progress", "resolved", "deleted"], "description": "Issue status (list): pending (Seerr's open) or resolved; Seerr has no in_progress or deleted issues."},
            "view": {"enum": ["list", "detail", "by_request", "by_provider", "comments", "summary", "provider_summary", "counts"],
                     "description": "list: issues with a status; detail: one issue; comments: an issue's comments; counts: issues per type and status; by_request, by_provider, summary and provider_summary: not supported by Seerr."}
        },
        "required": ["view"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"view": {"enum": ["detail", "comments"]}}}, "then": {"required": ["issue_id"]}, "else": absent("issue_id")},
            {"if": {"properties": {"view": {"const": "by_request"}}}, "then": {"required": ["request_id"]}, "else": absent("request_id")},
            {"if": {"properties": {"view": {"enum": ["by_provider", "provider_summary"]}}}, "then": {"required": ["provider_id"]}, "else": absent("provider_id")},
            {"if": {"properties": {"view": {"enum": ["list", "summary"]}}}, "else": absent("status")}
        ]
    })
}

pub fn run(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    match args.str("view")? {
        "list" => list(seerr, args),
        "detail" => {
            let issue = seerr.get(&format!("/issue/{}", args.int("issue_id")?))?;
            let record = project::issue(&issue)
                .ok_or_else(|| ToolError::schema_mismatch("Seerr's issue has no id"))?;
            let shortened = record.shortened;
            Ok(Reply::ok(json!({"kind": "issue_page", "items": [record.into_json()], "page": paging::single(1, "issues")}))
                .truncated(shortened))
        }
        "comments" => {
            let issue = seerr.get(&format!("/issue/{}", args.int("issue_id")?))?;
            let all = project::comments(&issue);
            let window = args.window()?;
            let total = all.len();
            let items = paging::slice(all, window);
            let page = paging::local(window, items.len(), total, "comments");
            Ok(Reply::ok(
                json!({"kind": "comment_page", "items": items, "page": page}),
            ))
        }
        "counts" => {
            let counts = seerr.get("/issue/count")?;
            let values: Vec<Value> =
                [
                    "total",
                    "open",
                    "closed",
                    "video",
                    "audio",
                    "subtitles",
                    "others",
                ]
                .iter()
                .filter_map(|k| {
                    counts.get(*k).and_then(Value::as_i64).filter(|n| *n >= 0).map(|n| {
                        json!({"name": k, "value": n, "scope": "instance", "unit": "issues"})
                    })
                })
                .collect();
            Ok(Reply::ok(json!({"kind": "metrics", "values": values})))
        }
        "by_request" => Err(unsupported(
            "view",
            "Seerr's issues belong to media, not to requests: read the request's media with read_media",
        )),
        view => Err(unsupported(
            "view",
            &format!("Seerr has no {view} view of issues"),
        )),
    }
}

fn list(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    let filter = match args.str("status")? {
        "pending" => "open",
        "resolved" => "resolved",
        other => {
            return Err(unsupported(
                "status",
                &format!("Seerr issues are open (pending) or resolved, never {other}"),
            ));
        }
    };
    let window = args.window()?;
    let list = seerr.page(
        &format!(
            "/issue?take={}&skip={}&filter={filter}&sort=added",
            window.limit, window.offset
        ),
        "issues",
    )?;
    let mut shortened = false;
    let items: Vec<Value> = list
        .rows
        .iter()
        .filter_map(project::issue)
        .map(|r| {
            shortened |= r.shortened;
            r.into_json()
        })
        .collect();
    let page = list.paging(window, items.len(), "issues");
    Ok(
        Reply::ok(json!({"kind": "issue_page", "items": items, "page": page}))
            .warn(paging::NO_SNAPSHOT_WARNING)
            .truncated(shortened),
    )
}
