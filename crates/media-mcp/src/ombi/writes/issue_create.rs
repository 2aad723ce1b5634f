//! `write_issue_create` → `mutation`.
//!
//! `POST /api/v1/Issues` `Issues {title, requestType, providerId, requestId, subject,
//! description, issueCategoryId}` → a bare `int`, the new issue id. `status` is never sent
//! (Ombi would honour it). The reporter is the acting principal.

use super::outcome::{Mutation, Outcome, write};
use crate::contract::{Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::codes::RequestKind;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_issue_create",
    "Report an issue",
    "Report a problem with a movie, TV show or album (wrong audio, missing subtitles...) in Ombi. Take the category id from read_reference (issue_categories). The acting user is the reporter; Ombi notifies administrators.",
    "read_issues",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "title": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Title of the media the issue is about."},
            "request_type": {"enum": ["movie", "tv", "album"], "description": "Kind of media."},
            "provider_id": {"type": "string", "minLength": 1, "maxLength": 64, "description": "Media id: IMDb id (tt…) or TMDB id for a movie, TMDB id for TV."},
            "request_id": {"type": "integer", "minimum": 1, "description": "Related Ombi request id (movie request, TV parent or album request), if any."},
            "subject": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Short summary of the problem."},
            "description": {"type": "string", "minLength": 1, "maxLength": 4000, "description": "What is wrong."},
            "category_id": {"type": "integer", "minimum": 1, "description": "Issue category id from read_reference (kind issue_categories)."}
        },
        "required": ["title", "request_type", "subject", "description", "category_id"],
        "additionalProperties": false
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let request_type = args.choice::<RequestKind>("request_type")?.code();
    let body = json!({
        "title": args.str("title")?, "requestType": request_type, "providerId": args.opt_str("provider_id"),
        "requestId": args.opt_int("request_id"), "subject": args.str("subject")?,
        "description": args.str("description")?, "issueCategoryId": args.int("category_id")?,
    });
    let answer = write(&ombi, Method::Post, "/api/v1/Issues", Some(&body))?;
    let Some(id) = answer.as_ref().and_then(Value::as_i64).filter(|i| *i > 0) else {
        return Err(ToolError::unknown_outcome(
            "Ombi did not return the new issue id",
        ));
    };
    let mut reply = Reply::ok(
        Mutation::new(Outcome::Completed)
            .id("issue_id", Some(id))
            .into_json(),
    );
    if ombi.acting_user().is_none() {
        reply = reply
            .warn("no user to act as is set: Ombi records its API system user as the reporter");
    }
    Ok(reply)
}

#[cfg(test)]
mod tests;
