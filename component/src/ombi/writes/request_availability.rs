//! `write_request_availability` → `mutation`.
//!
//! `POST /api/v1/Request/{movie|tv}/{available|unavailable}`, `/api/v1/request/music/...` →
//! `RequestEngineResult`. TV marks every episode of the child; marking available notifies.

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
            "available": {"type": "boolean", "description": "true marks the request available (and notifies the requester), false marks it unavailable."},
            "is_4k": is_4k_property()
        },
        "required": ["media", "request_id", "available"],
        "additionalProperties": false,
        "allOf": [is_4k_movie_only()]
    })
}

/// The handler.
pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let media = args.str("media").unwrap_or("movie");
    let id = args.int("request_id").unwrap_or(0);
    let available = args.bool("available").unwrap_or(false);
    let body = match media {
        "movie" => json!({"id": id, "is4K": args.bool("is_4k").unwrap_or(false)}),
        _ => json!({"id": id}),
    };
    let action = if available {
        "available"
    } else {
        "unavailable"
    };
    let er = engine_result(write(
        &ombi,
        Method::Post,
        &format!("{}/{action}", v1_base(media)),
        Some(&body),
    )?)?;
    let mut reply =
        er.reply(Mutation::new(Outcome::Completed).target(target_kind(media), Some(id)));
    if media == "tv" && reply.is_ok() {
        reply =
            reply.warn("Ombi marks every episode of the TV child request, whatever was asked for");
    }
    Ok(reply)
}

#[cfg(test)]
mod tests;
