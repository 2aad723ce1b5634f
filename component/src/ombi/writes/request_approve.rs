//! `write_request_approve` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#success-messages-are-not-evidence).
//!
//! `POST /api/v1/Request/{movie|tv}/approve`, `/api/v1/request/music/approve` →
//! `RequestEngineResult`. Ombi saves a movie approval before sending it to Radarr, so a failed
//! send comes back as `result: false` with only a message while the approval stands.

use super::common::{
    is_4k_movie_only, is_4k_property, media_property, request_id_property, target_kind, v1_base,
};
use super::outcome::{Mutation, Outcome, engine_result, failure_with, no_user_warning, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::Call;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

/// The input schema.
pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"media": media_property(&["movie", "tv", "album"]), "request_id": request_id_property(), "is_4k": is_4k_property()},
        "required": ["media", "request_id"],
        "additionalProperties": false,
        "allOf": [is_4k_movie_only()]
    })
}

/// The handler.
pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let media = args.str("media").unwrap_or("movie");
    let id = args.int("request_id").unwrap_or(0);
    let body = match media {
        "movie" => json!({"id": id, "is4K": args.bool("is_4k").unwrap_or(false)}),
        _ => json!({"id": id}),
    };
    let mut warnings: Vec<String> = no_user_warning(&ombi).into_iter().collect();
    let er = engine_result(write(
        &ombi,
        Method::Post,
        &format!("{}/approve", v1_base(media)),
        Some(&body),
    )?)?;
    let reply = if media == "movie"
        && !er.succeeded()
        && er.error_code.is_none()
        && !er.is_missing()
        && er.error().code == ErrorCode::UpstreamRejected
    {
        failure_with(
            ToolError::new(ErrorCode::PartialFailure, format!("Ombi saved the approval but reported a failure, usually the send to Radarr: {}", er.business_message())),
            er.annotate(Mutation::new(Outcome::Partial).target(target_kind(media), Some(id))),
        )
        .warn("the request is approved in Ombi but may not have reached Radarr: check with read_requests; write_request_reprocess re-sends it")
    } else {
        if media == "tv" && er.succeeded() {
            warnings.push("Ombi does not report whether Sonarr accepted the approved request: check with read_requests".to_owned());
        }
        er.reply(Mutation::new(Outcome::Completed).target(target_kind(media), Some(id)))
    };
    Ok(reply.warn_all(warnings))
}

#[cfg(test)]
mod tests;
