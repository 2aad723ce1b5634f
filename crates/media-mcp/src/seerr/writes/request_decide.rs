//! `write_request_approve`, `write_request_deny`, `write_request_delete` → `mutation`:
//! `POST /request/{id}/approve`, `POST /request/{id}/decline`, `DELETE /request/{id}`. Seerr's
//! request ids are shared by movies and TV, so the request is read first and a kind (or 4K
//! side) that does not match the arguments is refused before anything is sent.

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

pub(in crate::seerr) static APPROVE: SeerrTool = SeerrTool::write(
    "write_request_approve",
    "Approve a request",
    "Approve a pending Seerr movie or TV request so Seerr sends it to Radarr/Sonarr. Needs Seerr's permission to manage requests. Take request ids from read_requests.",
    "read_requests",
    approve_schema,
    approve,
);

pub(in crate::seerr) static DENY: SeerrTool = SeerrTool::write(
    "write_request_deny",
    "Deny a request",
    "Decline a Seerr movie or TV request. Needs Seerr's permission to manage requests. Seerr keeps no reason for a decline, so a reason is refused rather than dropped.",
    "read_requests",
    deny_schema,
    deny,
);

pub(in crate::seerr) static DELETE: SeerrTool = SeerrTool::write(
    "write_request_delete",
    "Delete a request",
    "Delete a Seerr movie or TV request. Users may delete their own pending requests; others need Seerr's permission to manage requests.",
    "read_requests",
    delete_schema,
    delete,
);

fn decision_schema(reason: Option<Value>) -> Value {
    let mut schema = json!({
        "type": "object",
        "properties": {
            "is_4k": {"type": "boolean", "description": "Whether the request is the 4K one (movie only; default false): checked against the request."},
            "media": {"enum": ["movie", "tv", "album"], "description": "Which kind of request: movie or tv (Seerr has no albums)."},
            "request_id": {"type": "integer", "minimum": 1, "description": "Seerr request id from read_requests."}
        },
        "required": ["media", "request_id"],
        "additionalProperties": false,
        "allOf": [{"if": {"required": ["is_4k"]}, "then": {"properties": {"media": {"const": "movie"}}}}]
    });
    if let Some(reason) = reason {
        schema["properties"]["reason"] = reason;
    }
    schema
}

pub fn approve_schema() -> Value {
    decision_schema(None)
}

/// As Ombi's, but `reason` is optional: Seerr keeps none, so one given is refused.
pub fn deny_schema() -> Value {
    decision_schema(Some(
        json!({"type": "string", "minLength": 1, "maxLength": 500, "description": "Not kept by Seerr: a reason given is refused."}),
    ))
}

pub fn delete_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "request_id": {"type": "integer", "minimum": 1, "description": "The Seerr request id (from read_requests)."},
            "target_kind": {"enum": ["movie", "tv_parent", "tv_child", "album"], "description": "What the id names: a movie request or a TV request (tv_child: Seerr's TV request is one set of seasons); Seerr has no TV parent requests and no albums."}
        },
        "required": ["target_kind", "request_id"],
        "additionalProperties": false
    })
}

/// The request `id`, read first, checked to be of `kind` (`movie`, `tv`) and 4K side `is_4k`.
fn checked(
    seerr: &Seerr<'_>,
    id: i64,
    kind: &str,
    field: &str,
    is_4k: Option<bool>,
) -> Result<Value, ToolError> {
    let row = seerr.get(&format!("/request/{id}"))?;
    let actual = row.get("type").and_then(Value::as_str).unwrap_or("");
    if actual != kind {
        return Err(ToolError::invalid_argument(
            field,
            format!("Seerr request {id} is a {actual} request, not a {kind} one: nothing was sent"),
        ));
    }
    if let Some(wanted) = is_4k
        && row.get("is4k").and_then(Value::as_bool) != Some(wanted)
    {
        return Err(ToolError::invalid_argument(
            "is_4k",
            format!(
                "Seerr request {id} is not the {} request: nothing was sent",
                if wanted { "4K" } else { "standard" }
            ),
        ));
    }
    Ok(row)
}

fn media_kind(args: &Args) -> Result<&str, ToolError> {
    match args.str("media")? {
        "album" => Err(unsupported("media", "Seerr has no music")),
        m => Ok(m),
    }
}

fn decide(seerr: &Seerr<'_>, args: &Args, verb: &str) -> Result<Reply, ToolError> {
    let kind = media_kind(args)?;
    let id = args.int("request_id")?;
    checked(seerr, id, kind, "media", args.opt_bool("is_4k"))?;
    let target = json!({"kind": if kind == "tv" { "tv_child" } else { "movie" }, "id": id});
    let base = |outcome: &str| {
        Mutation::new(outcome)
            .maybe("target", Some(target.clone()))
            .maybe("request_id", Some(json!(id)))
    };
    let resp = match seerr.exchange(
        Method::Post,
        &format!("/request/{id}/{verb}"),
        None,
        Effect::Write,
    ) {
        Ok(resp) => resp,
        Err(e) => return Ok(refused(e, base("rejected"))),
    };
    let after: Option<Value> = json_body(&resp).unwrap_or(None);
    let state = after
        .as_ref()
        .and_then(|v| v.get("status"))
        .and_then(Value::as_i64)
        .and_then(RequestStatus::from_code);
    let wanted = if verb == "approve" {
        RequestStatus::Approved
    } else {
        RequestStatus::Declined
    };
    Ok(match state {
        Some(s) if s == wanted => Reply::ok(
            base("completed")
                .message(&format!("the request is now {}", s.word()))
                .into_json(),
        ),
        Some(s) => Reply {
            data: Some(base("unknown").into_json()),
            ..Reply::failure(ToolError::new(
                ErrorCode::UpstreamRejected,
                format!(
                    "Seerr answered with the request {}, not {}",
                    s.word(),
                    wanted.word()
                ),
            ))
        },
        None => Reply::ok(base("accepted").into_json())
            .warn("Seerr's answer did not show the request's new state: check with read_requests"),
    })
}

pub fn approve(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    decide(seerr, args, "approve")
}

pub fn deny(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    if args.given("reason") {
        return Err(unsupported(
            "reason",
            "Seerr keeps no reason for a declined request: decline without one, and tell the requester another way",
        ));
    }
    decide(seerr, args, "decline")
}

pub fn delete(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    let kind = match args.str("target_kind")? {
        "movie" => "movie",
        "tv_child" => "tv",
        "tv_parent" => {
            return Err(unsupported(
                "target_kind",
                "Seerr has no TV parent requests: each TV request (tv_child) is deleted on its own",
            ));
        }
        _ => return Err(unsupported("target_kind", "Seerr has no music")),
    };
    let id = args.int("request_id")?;
    let row = checked(seerr, id, kind, "target_kind", None)?;
    let base = |outcome: &str| {
        Mutation::new(outcome)
            .maybe("target", project::request_target(&row))
            .maybe("request_id", Some(json!(id)))
    };
    Ok(
        match seerr.exchange(
            Method::Delete,
            &format!("/request/{id}"),
            None,
            Effect::Write,
        ) {
            Ok(_) => Reply::ok(
                base("completed")
                    .message("Seerr deleted the request")
                    .into_json(),
            ),
            Err(e) => refused(e, base("rejected")),
        },
    )
}
