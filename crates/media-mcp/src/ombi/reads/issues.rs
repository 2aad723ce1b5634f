//! `read_issues` → `issue_page`, `comment_page`, `group_page`, `metrics`.
//!
//! Issues keep their ids, texts, codes and dates; the reporter is its id only (the embedded
//! `userReported` graph and the comments never leave the adapter). The wire's `resovledDate`
//! (sic) becomes `resolved_date`. v2 summaries are provider groups: Ombi pages them in
//! issues, not groups, so the adapter reads one bounded upstream slice, merges groups split by
//! that paging, and windows groups locally.

use super::common::{self, Rec, array, metric, object};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::{Call, OmbiTool};
use crate::ombi::client::Ombi;
use crate::ombi::codes::{IssueStatus, issue_status_label};
use crate::paging::Window;
use crate::paging::{self, Beyond};
use crate::paging::{limit_schema, offset_schema};
use crate::prelude::*;
use crate::tool::{Args, Prose, View, Views};
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_issues",
    "Read issues",
    "Read issues reported on Ombi media: a page of issues by status, one issue, the issues of a request or of a media provider id, an issue's comments, issues grouped by title, or issue counts by status.",
    &["issue_page", "comment_page", "group_page", "metrics"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A view of issues, paged by `Window` where it pages; the `i64` is the `status` code.
type ViewFn = fn(&Ombi<'_>, &Args, Window, i64) -> Result<Reply, ToolError>;

const ISSUES: &[&str] = &["issue_page"];
const GROUPS: &[&str] = &["group_page"];

static VIEWS: Views<ViewFn> = Views {
    field: "view",
    default: None,
    prose: Prose::GLOSSARY,
    views: &[
        View {
            name: "list",
            description: "issues with a status",
            families: ISSUES,
            handler: list,
        },
        View {
            name: "detail",
            description: "one issue",
            families: ISSUES,
            handler: detail,
        },
        View {
            name: "by_request",
            description: "issues of a request",
            families: ISSUES,
            handler: by_request,
        },
        View {
            name: "by_provider",
            description: "issues of a media provider id",
            families: ISSUES,
            handler: by_provider,
        },
        View {
            name: "comments",
            description: "an issue's comments",
            families: &["comment_page"],
            handler: comments,
        },
        View {
            name: "summary",
            description: "issues grouped by title and provider id",
            families: GROUPS,
            handler: summary,
        },
        View {
            name: "provider_summary",
            description: "the group of one provider id with its issues",
            families: GROUPS,
            handler: provider_summary,
        },
        View {
            name: "counts",
            description: "issues per status",
            families: &["metrics"],
            handler: counts,
        },
    ],
};

fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "view": VIEWS.property(),
            "status": {"enum": ["pending", "in_progress", "resolved", "deleted"], "default": "pending", "description": "Issue status (list and summary)."},
            "issue_id": {"type": "integer", "minimum": 1, "description": "Issue id (detail, comments)."},
            "request_id": {"type": "integer", "minimum": 1, "description": "Ombi request id (by_request)."},
            "provider_id": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^/?#\\x00-\\x1f]+$",
                            "description": "The media's provider id as Ombi stored it on the issue, e.g. an IMDb id or a TMDB id (by_provider, provider_summary)."},
            "offset": offset_schema(),
            "limit": limit_schema()
        },
        "required": ["view"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"view": {"enum": ["detail", "comments"]}}}, "then": {"required": ["issue_id"]}, "else": {"properties": {"issue_id": {"not": {}}}}},
            {"if": {"properties": {"view": {"const": "by_request"}}}, "then": {"required": ["request_id"]}, "else": {"properties": {"request_id": {"not": {}}}}},
            {"if": {"properties": {"view": {"enum": ["by_provider", "provider_summary"]}}}, "then": {"required": ["provider_id"]}, "else": {"properties": {"provider_id": {"not": {}}}}},
            {"if": {"properties": {"view": {"enum": ["list", "summary"]}}}, "else": {"properties": {"status": {"not": {}}}}}
        ]
    })
}

/// Issues read upstream for one summary page; Ombi's v2 summary pages by issue.
const SUMMARY_SCAN_ISSUES: usize = 1000;
/// Most nested issues kept per group (contract budget).
const MAX_NESTED: usize = 100;

fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let window = args.window()?;
    let status_code = args.choice::<IssueStatus>("status")?.code();
    (VIEWS.select(args)?.handler)(&ombi, args, window, status_code)
}

fn list(ombi: &Ombi<'_>, _: &Args, window: Window, status: i64) -> Result<Reply, ToolError> {
    let mut w = vec![
        paging::NO_SNAPSHOT_WARNING.to_owned(),
        "Ombi applies no ordering to this list, so pages may overlap or skip issues".to_owned(),
    ];
    // The v1 route takes `take` before `skip` (docs/ombi-behaviours.md#route-argument-orders).
    let path = format!("/api/v1/Issues/{}/{}/{status}", window.limit, window.offset);
    let rows = array(ombi.get(&path)?, "issues")?;
    let items: Vec<Value> = rows
        .iter()
        .take(window.limit)
        .filter_map(|r| project_issue(r, &mut w))
        .collect();
    let n = items.len();
    let ended = rows.len() < window.limit;
    let next = window.offset + n;
    let page = paging::upstream(window, n, Beyond::Open { ended, next }, "issues");
    Ok(Reply::ok(json!({"kind": "issue_page", "items": items, "page": page})).warn_all(w))
}

fn detail(ombi: &Ombi<'_>, args: &Args, _: Window, _: i64) -> Result<Reply, ToolError> {
    let mut w = Vec::new();
    let issue_id = args.int("issue_id")?;
    let row = object(ombi.get(&format!("/api/v1/Issues/{issue_id}"))?, "issue")?
        .ok_or_else(|| ToolError::new(ErrorCode::NotFound, format!("no issue {issue_id}")))?;
    let items: Vec<Value> = project_issue(&Value::Object(row), &mut w)
        .into_iter()
        .collect();
    let page = paging::single(items.len(), "issues");
    Ok(Reply::ok(json!({"kind": "issue_page", "items": items, "page": page})).warn_all(w))
}

fn by_request(ombi: &Ombi<'_>, args: &Args, window: Window, _: i64) -> Result<Reply, ToolError> {
    let path = format!("/api/v1/Issues/request/{}", args.int("request_id")?);
    issues_at(ombi, &path, window)
}

fn by_provider(ombi: &Ombi<'_>, args: &Args, window: Window, _: i64) -> Result<Reply, ToolError> {
    let path = format!("/api/v1/Issues/provider/{}", args.segment("provider_id")?);
    issues_at(ombi, &path, window)
}

/// The issues route `path` lists, windowed locally.
fn issues_at(ombi: &Ombi<'_>, path: &str, window: Window) -> Result<Reply, ToolError> {
    let mut w = Vec::new();
    let all: Vec<Value> = array(ombi.get(path)?, "issues")?
        .iter()
        .filter_map(|r| project_issue(r, &mut w))
        .collect();
    Ok(Reply::ok(local_page("issue_page", all, window, "issues")).warn_all(w))
}

fn comments(ombi: &Ombi<'_>, args: &Args, window: Window, _: i64) -> Result<Reply, ToolError> {
    let mut w = Vec::new();
    let issue_id = args.int("issue_id")?;
    let rows = array(
        ombi.get(&format!("/api/v1/Issues/{issue_id}/comments"))?,
        "comments",
    )?;
    let all = project_comments(&rows, issue_id, &mut w);
    Ok(Reply::ok(local_page("comment_page", all, window, "comments")).warn_all(w))
}

fn counts(ombi: &Ombi<'_>, _: &Args, _: Window, _: i64) -> Result<Reply, ToolError> {
    let counts = object(ombi.get("/api/v1/Issues/count")?, "issue counts")?
        .ok_or_else(|| ToolError::schema_mismatch("the issue count route answered with no body"))?;
    let values: Vec<Value> = [
        ("pending", "pending"),
        ("inProgress", "in_progress"),
        ("resolved", "resolved"),
    ]
    .iter()
    .filter_map(|(k, name)| {
        counts
            .get(*k)
            .and_then(Value::as_i64)
            .filter(|n| *n >= 0)
            .map(|n| metric(name, json!(n), "instance", Some("issues")))
    })
    .collect();
    Ok(Reply::ok(json!({"kind": "metrics", "values": values})))
}

fn local_page(kind: &str, all: Vec<Value>, window: Window, unit: &str) -> Value {
    let total = all.len();
    let items = paging::slice(all, window);
    let page = paging::local(window, items.len(), total, unit);
    json!({"kind": kind, "items": items, "page": page})
}

/// `Issues` → contract `issue`. Status 3 is upstream `Deleted`, which has no contract label:
/// it keeps `status_code` only, with a warning.
pub(crate) fn project_issue(row: &Value, warnings: &mut Vec<String>) -> Option<Value> {
    let mut r = Rec::new();
    r.id("id", row.get("id"));
    if !r.has("id") {
        warnings.push("an issue without an id was left out".to_owned());
        return None;
    }
    r.text("title", row.get("title"))
        .text("subject", row.get("subject"))
        .text("description", row.get("description"))
        .id("category_id", row.get("issueCategoryId"))
        .id("request_id", row.get("requestId"))
        .text("provider_id", row.get("providerId"))
        .date("created_date", row.get("createdDate"))
        .date("resolved_date", row.get("resovledDate"))
        .text("reported_by_user_id", row.get("userReportedId"));
    match row.get("status").and_then(Value::as_i64) {
        Some(c) if issue_status_label(c).is_some() => {
            r.set("status", json!(issue_status_label(c)))
                .set("status_code", json!(c));
        }
        Some(3) => {
            r.set("status_code", json!(3));
            warnings.push("issue status code 3 is Ombi's Deleted, which has no contract label: only status_code is given".to_owned());
        }
        Some(c) => warnings.push(format!(
            "unknown upstream issue status code {c}: the issue's status is left out"
        )),
        None => {}
    }
    common::put_request_type(&mut r, row.get("requestType"), "issue", warnings);
    Some(r.build())
}

/// `IssueCommentChatViewModel` carries a display `username`, no user id, so `author_id` is
/// left out; rows without text are left out.
fn project_comments(rows: &[Value], issue_id: i64, warnings: &mut Vec<String>) -> Vec<Value> {
    let mut out = Vec::new();
    for row in rows {
        let mut r = Rec::new();
        r.text("comment", row.get("comment"));
        if !r.has("comment") {
            warnings.push("a comment without text was left out".to_owned());
            continue;
        }
        r.id("id", row.get("id"))
            .id("issue_id", Some(&json!(issue_id)))
            .date("created_date", row.get("date"));
        if let Some(id) = row
            .get("userId")
            .or_else(|| row.get("user").and_then(|u| u.get("id")))
        {
            r.text("author_id", Some(id));
        }
        out.push(r.build());
    }
    if !out.is_empty() && !out.iter().any(|c| c.get("author_id").is_some()) {
        warnings.push(
            "Ombi gives comment authors by display name only, so no author id is reported"
                .to_owned(),
        );
    }
    out
}

/// One `IssuesSummaryModel` → contract `group`, nested issues cut at [`MAX_NESTED`].
fn project_group(row: &Value, warnings: &mut Vec<String>) -> (Value, bool) {
    let mut r = Rec::new();
    r.text("provider_id", row.get("providerId"))
        .text("title", row.get("title"))
        .count("count", row.get("count"));
    let mut cut = false;
    if let Some(issues) = row.get("issues").and_then(Value::as_array) {
        if issues.len() > MAX_NESTED {
            warnings.push(format!(
                "group {:?}: {MAX_NESTED} of {} issues returned",
                row.get("title").and_then(Value::as_str).unwrap_or(""),
                issues.len()
            ));
            cut = true;
        }
        let nested: Vec<Value> = issues
            .iter()
            .take(MAX_NESTED)
            .filter_map(|i| project_issue(i, warnings))
            .collect();
        r.set("issues", Value::Array(nested));
    }
    (r.build(), cut)
}

/// Issues grouped by (title, provider id). Ombi skips/takes *issues* before grouping, so one
/// bounded slice from position 0 is read, groups cut by that slice are merged, and groups are
/// windowed locally. The total is known only when the slice held every issue.
fn summary(ombi: &Ombi<'_>, _: &Args, window: Window, status: i64) -> Result<Reply, ToolError> {
    let mut w = vec![paging::NO_SNAPSHOT_WARNING.to_owned()];
    let rows = array(
        ombi.get(&format!("/api/v2/Issues/0/{SUMMARY_SCAN_ISSUES}/{status}"))?,
        "issue groups",
    )?;
    let (groups, consumed, every_count_known) = merge_groups(&rows);
    let complete = every_count_known && consumed < SUMMARY_SCAN_ISSUES as i64;
    let all: Vec<Value> = groups
        .into_iter()
        .map(|(t, p, c)| {
            let mut r = Rec::new();
            r.text("provider_id", Some(&json!(p)))
                .text("title", Some(&json!(t)))
                .count("count", c.map(|c| json!(c)).as_ref());
            r.build()
        })
        .collect();
    if complete {
        let data = local_page("group_page", all, window, "provider_groups");
        return Ok(Reply::ok(data).warn_all(w));
    }
    w.push(if every_count_known {
        format!("only the first {SUMMARY_SCAN_ISSUES} issues were grouped: the group list and counts may be incomplete")
    } else {
        "Ombi left out some group counts: those groups have no count, and whether every issue was grouped is unknown".to_owned()
    });
    let seen = all.len();
    let items = paging::slice(all, window);
    let page = paging::local_partial(
        window,
        items.len(),
        window.offset + items.len() < seen,
        "provider_groups",
    );
    let data = json!({"kind": "group_page", "items": items, "page": page});
    Ok(Reply::ok(data).warn_all(w).truncated(true))
}

/// A summary group: title, provider id and issue count.
type Group = (String, String, Option<i64>);

/// Summary rows merged by (title, provider id) and sorted, with the issues they count and
/// whether every row had a count. A group's count is unknown (None) once any of its rows
/// lacks one.
fn merge_groups(rows: &[Value]) -> (Vec<Group>, i64, bool) {
    let mut groups: Vec<Group> = Vec::new();
    let mut consumed = 0i64;
    let mut every_count_known = true;
    for row in rows {
        let title = row
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let provider = row
            .get("providerId")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let count = row.get("count").and_then(Value::as_i64).map(|c| c.max(0));
        match count {
            Some(c) => consumed += c,
            None => every_count_known = false,
        }
        match groups
            .iter_mut()
            .find(|(t, p, _)| *t == title && *p == provider)
        {
            Some(g) => g.2 = g.2.zip(count).map(|(a, b)| a + b),
            None => groups.push((title, provider, count)),
        }
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    (groups, consumed, every_count_known)
}

/// `GET /api/v2/Issues/details/{providerId}`: one group, or nothing (204, `null`, `[]`, empty
/// body) which is an empty page, not a mismatch.
fn provider_summary(ombi: &Ombi<'_>, args: &Args, _: Window, _: i64) -> Result<Reply, ToolError> {
    let path = format!("/api/v2/Issues/details/{}", args.segment("provider_id")?);
    let row = match ombi.get::<Value>(&path)? {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) if a.is_empty() => None,
        Some(v @ Value::Object(_)) => Some(v),
        Some(_) => {
            return Err(ToolError::schema_mismatch(
                "expected an issue group object from upstream",
            ));
        }
    };
    let Some(row) = row else {
        let page = paging::single(0, "provider_groups");
        return Ok(Reply::ok(
            json!({"kind": "group_page", "items": [], "page": page}),
        ));
    };
    let mut w = vec!["Ombi returns only the first title group for a provider id".to_owned()];
    let (group, cut) = project_group(&row, &mut w);
    let page = paging::single(1, "provider_groups");
    let data = json!({"kind": "group_page", "items": [group], "page": page});
    Ok(Reply::ok(data).warn_all(w).truncated(cut))
}

#[cfg(test)]
mod tests;
