//! `read_votes` → `vote_page`.
//!
//! `overview` lists pending requests with their complete up/down tallies; `by_request` lists the
//! individual votes of one request. The caller's own vote (`myVote`) is never reported: Ombi
//! defaults it to Downvote when nobody voted (docs/ombi-behaviours.md#votes), so it is no evidence of identity.

use super::common::{self, array};
use crate::contract::{Reply, ToolError};
use crate::ombi::call::{Call, OmbiTool};
use crate::ombi::client::Ombi;
use crate::ombi::codes::RequestKind;
use crate::paging;
use crate::paging::{limit_schema, offset_schema};
use crate::prelude::*;
use crate::tool::{Args, Prose, View, Views};
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_votes",
    "Read votes",
    "Read request votes in Ombi: the overview of pending requests with their up and down vote counts, or the individual votes cast on one request (TV requests are addressed by their child request id).",
    &["vote_page"],
    input_schema,
    run,
)
.with_views(&VIEWS);

/// A view's votes, before paging; warnings go to the vector.
type ViewFn = fn(&Ombi<'_>, &Args, &mut Vec<String>) -> Result<Vec<Value>, ToolError>;

static VIEWS: Views<ViewFn> = Views {
    field: "view",
    default: Some("overview"),
    prose: Prose::GLOSSARY,
    views: &[
        View {
            name: "overview",
            description: "pending requests with their vote counts",
            families: &["vote_page"],
            handler: overview,
        },
        View {
            name: "by_request",
            description: "every vote on one request",
            families: &["vote_page"],
            handler: by_request,
        },
    ],
};

fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "view": VIEWS.property(),
            "media": {"enum": ["movie", "tv", "album"], "description": "Media of the request (by_request only)."},
            "request_id": {"type": "integer", "minimum": 1, "description": "Ombi request id (by_request only; for TV the child request id)."},
            "offset": offset_schema(),
            "limit": limit_schema()
        },
        "required": [],
        "additionalProperties": false,
        "allOf": [
            {"if": {"required": ["view"], "properties": {"view": {"const": "by_request"}}},
             "then": {"required": ["media", "request_id"]},
             "else": {"properties": {"media": {"not": {}}, "request_id": {"not": {}}}}}
        ]
    })
}

fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let window = args.window()?;
    let mut warnings = vec![paging::NO_SNAPSHOT_WARNING.to_owned()];
    let votes = (VIEWS.select(args)?.handler)(&ombi, args, &mut warnings)?;
    let total = votes.len();
    let items = paging::slice(votes, window);
    let page = paging::local(window, items.len(), total, "votes");
    Ok(Reply::ok(json!({"kind": "vote_page", "items": items, "page": page})).warn_all(warnings))
}

fn overview(
    ombi: &Ombi<'_>,
    _: &Args,
    warnings: &mut Vec<String>,
) -> Result<Vec<Value>, ToolError> {
    let rows = array(ombi.get("/api/v1/Vote")?, "vote overviews")?;
    Ok(rows
        .iter()
        .filter_map(|r| project_overview(r, warnings))
        .collect())
}

fn by_request(
    ombi: &Ombi<'_>,
    args: &Args,
    warnings: &mut Vec<String>,
) -> Result<Vec<Value>, ToolError> {
    let kind = args.choice::<RequestKind>("media")?;
    let id = args.int("request_id")?;
    // GET uses `music` while the vote writes use `album` (docs/ombi-behaviours.md#route-argument-orders).
    let segment = match kind {
        RequestKind::Album => "music",
        other => other.label(),
    };
    let rows = array(ombi.get(&format!("/api/v1/Vote/{segment}/{id}"))?, "votes")?;
    Ok(project_votes(&rows, kind, warnings))
}

/// `VoteViewModel` → `{request_id, media, up, down}`; `myVote`/`alreadyVoted` are dropped.
fn project_overview(row: &Value, warnings: &mut Vec<String>) -> Option<Value> {
    let mut r = common::Rec::new();
    r.id("request_id", row.get("requestId"))
        .count("up", row.get("upvotes"))
        .count("down", row.get("downvotes"));
    media_of(&mut r, row.get("requestType"), warnings);
    Some(r.build())
}

fn media_of(r: &mut common::Rec, code: Option<&Value>, warnings: &mut Vec<String>) {
    if let Some(c) = code.and_then(Value::as_i64) {
        match RequestKind::from_code(c).map(RequestKind::label) {
            Some(m) => {
                r.set("media", json!(m));
            }
            None => warnings.push(format!(
                "unknown upstream request type code {c}: the vote's media is left out"
            )),
        }
    }
}

/// `Votes` rows → `{request_id, media, user_id, vote_code}`. Ombi's lookup ignores the media
/// type (docs/ombi-behaviours.md#votes), so rows of another media are left out; deleted votes no longer count and are left
/// out too. Both are said in a warning.
fn project_votes(rows: &[Value], kind: RequestKind, warnings: &mut Vec<String>) -> Vec<Value> {
    let want = kind.code();
    let (mut other_media, mut deleted) = (0, 0);
    let mut out = Vec::new();
    for row in rows {
        if row
            .get("requestType")
            .and_then(Value::as_i64)
            .is_some_and(|c| c != want)
        {
            other_media += 1;
            continue;
        }
        if row.get("deleted").and_then(Value::as_bool) == Some(true) {
            deleted += 1;
            continue;
        }
        let mut r = common::Rec::new();
        r.id("request_id", row.get("requestId"))
            .text("user_id", row.get("userId"));
        r.set("media", json!(kind.label()));
        match row.get("voteType").and_then(Value::as_i64) {
            Some(c @ (0 | 1)) => {
                r.set("vote_code", json!(c));
            }
            Some(c) => warnings.push(format!(
                "unknown upstream vote type code {c}: that vote's type is left out"
            )),
            None => {}
        }
        out.push(r.build());
    }
    if other_media > 0 {
        warnings.push(format!("{other_media} vote(s) upstream returned for a request of another media type were left out"));
    }
    if deleted > 0 {
        warnings.push(format!("{deleted} deleted vote(s) were left out"));
    }
    out
}

#[cfg(test)]
mod tests;
