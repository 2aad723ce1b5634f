//! `write_issue_create`, `write_issue_comment`, `write_issue_status` → `mutation`, with Ombi's
//! input schemas over `POST /issue`, `POST /issue/{id}/comment`, `DELETE /issueComment/{id}`
//! and `POST /issue/{id}/{open|resolved}`.
//!
//! `POST /issue` takes Seerr's own media id, not the TMDB id: it is read from the request
//! (`request_id`) or from the title's details (`provider_id`, a TMDB id), and the `title` given
//! must be the title Seerr has for it. Seerr keeps one message per issue, so `subject` opens
//! it; the category is Seerr's issue type (1 video, 2 audio, 3 subtitles, 4 other).

use super::outcome::{Mutation, refused};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::prelude::*;
use crate::seerr::client::Seerr;
use crate::seerr::tool::{SeerrTool, unsupported};
use crate::tool::Args;
use crate::upstream::recognise::json_body;
use crate::upstream::{Effect, HttpResponse, Method};
use serde_json::{Value, json};

pub(in crate::seerr) static CREATE: SeerrTool = SeerrTool::write(
    "write_issue_create",
    "Report an issue",
    "Report a problem with a movie or TV show in Seerr, as the acting user (who needs Seerr's permission to create issues). Name the media by the related Seerr request id or by its TMDB id; Seerr must already hold the title (requested or in the library). Categories are Seerr's issue types: 1 video, 2 audio, 3 subtitles, 4 other.",
    "read_issues",
    create_schema,
    create,
);

pub(in crate::seerr) static COMMENT: SeerrTool = SeerrTool::write(
    "write_issue_comment",
    "Comment on an issue",
    "Add a comment to a Seerr issue as the acting user, or delete a comment (its author or an administrator).",
    "read_issues",
    comment_schema,
    comment,
);

pub(in crate::seerr) static STATUS: SeerrTool = SeerrTool::write(
    "write_issue_status",
    "Change an issue's status",
    "Reopen (pending) or resolve a Seerr issue. Seerr has no in-progress state.",
    "read_issues",
    status_schema,
    status,
);

pub fn create_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "category_id": {"type": "integer", "minimum": 1, "description": "Seerr's issue type: 1 video, 2 audio, 3 subtitles, 4 other."},
            "description": {"type": "string", "minLength": 1, "maxLength": 4000, "description": "What is wrong."},
            "provider_id": {"type": "string", "minLength": 1, "maxLength": 64, "description": "TMDB id of the movie or TV show (Seerr does not take IMDb ids here)."},
            "request_id": {"type": "integer", "minimum": 1, "description": "Related Seerr request id, if any (names the media instead of provider_id)."},
            "request_type": {"enum": ["movie", "tv", "album"], "description": "Kind of media (Seerr has no albums)."},
            "subject": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Short summary of the problem (opens Seerr's message)."},
            "title": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Title of the media the issue is about: checked against Seerr's title."}
        },
        "required": ["title", "request_type", "subject", "description", "category_id"],
        "additionalProperties": false
    })
}

pub fn comment_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "action": {"enum": ["add", "delete"], "description": "add a comment to an issue, or delete a comment."},
            "comment": {"type": "string", "minLength": 1, "maxLength": 4000, "description": "The comment text (add)."},
            "comment_id": {"type": "integer", "minimum": 1, "description": "The comment to delete (delete; from read_issues view comments)."},
            "issue_id": {"type": "integer", "minimum": 1, "description": "The issue to comment on (add)."}
        },
        "required": ["action"],
        "additionalProperties": false,
        "allOf": [
            {"if": {"properties": {"action": {"const": "add"}}}, "then": {"required": ["issue_id", "comment"], "not": {"required": ["comment_id"]}}},
            {"if": {"properties": {"action": {"const": "delete"}}}, "then": {"required": ["comment_id"], "not": {"anyOf": [{"required": ["issue_id"]}, {"required": ["comment"]}]}}}
        ]
    })
}

pub fn status_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "issue_id": {"type": "integer", "minimum": 1, "description": "The issue (from read_issues)."},
            "status": {"enum": ["pending", "in_progress", "resolved"], "description": "The new status: pending (reopen) or resolved; Seerr has no in_progress."}
        },
        "required": ["issue_id", "status"],
        "additionalProperties": false
    })
}

/// The issue Seerr answered with, as a completed mutation naming it and its newest comment.
fn issue_mutation(resp: &HttpResponse, message: &str) -> Result<Reply, ToolError> {
    let issue: Value = json_body(resp).ok().flatten().ok_or_else(|| {
        ToolError::unknown_outcome("Seerr's answer to the change could not be read")
    })?;
    let id = issue.get("id").and_then(Value::as_i64).filter(|i| *i > 0);
    let comment = issue
        .get("comments")
        .and_then(Value::as_array)
        .and_then(|c| {
            c.iter()
                .filter_map(|c| c.get("id").and_then(Value::as_i64))
                .max()
        });
    Ok(Reply::ok(
        Mutation::new("completed")
            .maybe("issue_id", id.map(|i| json!(i)))
            .maybe("comment_id", comment.filter(|i| *i > 0).map(|i| json!(i)))
            .message(message)
            .into_json(),
    ))
}

/// Seerr's media id, title and type for the issue: from the request, else from the details of
/// the TMDB id.
fn media_of(
    seerr: &Seerr<'_>,
    args: &Args,
    kind: &str,
) -> Result<(i64, Option<String>), ToolError> {
    let tmdb = if let Some(request) = args.opt_int("request_id") {
        let row = seerr.get(&format!("/request/{request}"))?;
        if row.get("type").and_then(Value::as_str) != Some(kind) {
            return Err(ToolError::invalid_argument(
                "request_id",
                format!("Seerr request {request} is not a {kind} request"),
            ));
        }
        let tmdb = row.pointer("/media/tmdbId").and_then(Value::as_i64);
        if let Some(given) = args.opt_str("provider_id")
            && tmdb.map(|t| t.to_string()).as_deref() != Some(given)
        {
            return Err(ToolError::invalid_argument(
                "provider_id",
                format!("Seerr request {request} is for another title"),
            ));
        }
        tmdb.ok_or_else(|| ToolError::schema_mismatch("Seerr's request names no TMDB id"))?
    } else {
        let Some(given) = args.opt_str("provider_id") else {
            return Err(ToolError::invalid_argument(
                "provider_id",
                "name the media: its TMDB id (provider_id) or a Seerr request id (request_id)",
            ));
        };
        given
            .parse::<i64>()
            .ok()
            .filter(|t| *t > 0)
            .ok_or_else(|| {
                unsupported(
                    "provider_id",
                    "Seerr names media by TMDB id (a number), not by IMDb id",
                )
            })?
    };
    let details = seerr.get(&format!("/{kind}/{tmdb}"))?;
    let title = details
        .get("title")
        .or_else(|| details.get("name"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let media_id = details
        .pointer("/mediaInfo/id")
        .and_then(Value::as_i64)
        .filter(|i| *i > 0)
        .ok_or_else(|| ToolError::new(ErrorCode::NotFound, format!("Seerr holds no record of TMDB {kind} {tmdb} (it gets one when the title is requested or found in the library), so no issue can be reported on it")))?;
    Ok((media_id, title))
}

pub fn create(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    let kind = match args.str("request_type")? {
        "album" => return Err(unsupported("request_type", "Seerr has no music")),
        k => k,
    };
    let category = args.int("category_id")?;
    if !(1..=4).contains(&category) {
        return Err(ToolError::invalid_argument(
            "category_id",
            "Seerr's issue types are 1 video, 2 audio, 3 subtitles, 4 other",
        ));
    }
    let (media_id, title) = media_of(seerr, args, kind)?;
    let given = args.str("title")?;
    if let Some(t) = &title
        && !t.trim().eq_ignore_ascii_case(given.trim())
    {
        return Err(ToolError::invalid_argument(
            "title",
            format!("the media is {t:?} in Seerr, not {given:?}: nothing was sent"),
        ));
    }
    let message = format!("{}\n\n{}", args.str("subject")?, args.str("description")?);
    let body = json!({"issueType": category, "message": message, "mediaId": media_id});
    match seerr.exchange(Method::Post, "/issue", Some(&body), Effect::Write) {
        Ok(resp) => issue_mutation(&resp, "Seerr recorded the issue"),
        Err(e) => Ok(refused(e, Mutation::new("rejected"))),
    }
}

pub fn comment(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    if args.str("action")? == "delete" {
        let id = args.int("comment_id")?;
        let done = Mutation::new("completed").maybe("comment_id", Some(json!(id)));
        return Ok(
            match seerr.exchange(
                Method::Delete,
                &format!("/issueComment/{id}"),
                None,
                Effect::Write,
            ) {
                Ok(_) => Reply::ok(done.message("Seerr deleted the comment").into_json()),
                Err(e) => refused(
                    e,
                    Mutation::new("rejected").maybe("comment_id", Some(json!(id))),
                ),
            },
        );
    }
    let id = args.int("issue_id")?;
    let body = json!({"message": args.str("comment")?});
    match seerr.exchange(
        Method::Post,
        &format!("/issue/{id}/comment"),
        Some(&body),
        Effect::Write,
    ) {
        Ok(resp) => issue_mutation(&resp, "Seerr added the comment"),
        Err(e) => Ok(refused(
            e,
            Mutation::new("rejected").maybe("issue_id", Some(json!(id))),
        )),
    }
}

pub fn status(seerr: &Seerr<'_>, args: &Args) -> Result<Reply, ToolError> {
    let verb = match args.str("status")? {
        "pending" => "open",
        "resolved" => "resolved",
        _ => {
            return Err(unsupported(
                "status",
                "Seerr issues are open (pending) or resolved; it has no in-progress state",
            ));
        }
    };
    let id = args.int("issue_id")?;
    match seerr.exchange(
        Method::Post,
        &format!("/issue/{id}/{verb}"),
        None,
        Effect::Write,
    ) {
        Ok(resp) => issue_mutation(
            &resp,
            &format!(
                "the issue is now {}",
                if verb == "open" { "open" } else { "resolved" }
            ),
        ),
        Err(e) => Ok(refused(
            e,
            Mutation::new("rejected").maybe("issue_id", Some(json!(id))),
        )),
    }
}
