//! `write_request_deny` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#success-messages-are-not-evidence).
//!
//! `PUT /api/v1/Request/{movie|tv}/deny`, `/api/v1/request/music/deny` `{id, reason[, is4K]}` →
//! `RequestEngineResult`. The movie success message says "deleted": messages are ignored.

use super::common::{
    is_4k_movie_only, is_4k_property, media_property, request_id_property, target_kind, v1_base,
};
use super::outcome::{Mutation, Outcome, engine_result, write};
use crate::contract::{Reply, ToolError};
use crate::ombi::Call;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

/// The input schema.
pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "media": media_property(&["movie", "tv", "album"]), "request_id": request_id_property(),
            "reason": {"type": "string", "minLength": 1, "maxLength": 500, "description": "Why the request is denied (shown to the requester)."},
            "is_4k": is_4k_property()
        },
        "required": ["media", "request_id", "reason"],
        "additionalProperties": false,
        "allOf": [is_4k_movie_only()]
    })
}

/// The handler.
pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let media = args.str("media").unwrap_or("movie");
    let id = args.int("request_id").unwrap_or(0);
    let mut body = json!({"id": id, "reason": args.str("reason")});
    if media == "movie" {
        body["is4K"] = json!(args.bool("is_4k").unwrap_or(false));
    }
    let er = engine_result(write(
        &ombi,
        Method::Put,
        &format!("{}/deny", v1_base(media)),
        Some(&body),
    )?)?;
    Ok(er.reply(Mutation::new(Outcome::Completed).target(target_kind(media), Some(id))))
}

#[cfg(test)]
mod tests;
