//! `write_vote` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#votes).
//!
//! `POST /api/v1/Vote/{up|down}/{movie|tv|album}/{requestId}` → `VoteEngineResult`. With voting
//! switched off Ombi answers `result: true` and records nothing, so `voteenabled` is read
//! first. An upvote that reaches the threshold auto-approves and sends the request.

use super::common::{media_property, mentions, request_id_property, target_kind};
use super::outcome::{Mutation, Outcome, engine_result, failure_with, no_user_warning, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::codes::RequestKind;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_vote",
    "Vote on a request",
    "Vote a movie, TV (child) or album request up or down as the acting user, replacing that user's earlier vote. Enough upvotes make Ombi approve the request and send it to Radarr/Sonarr/Lidarr.",
    "read_votes",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "media": media_property(&["movie", "tv", "album"]), "request_id": request_id_property(),
            "direction": {"enum": ["up", "down"], "description": "Vote for (up) or against (down) the request; replaces the acting user's earlier vote."}
        },
        "required": ["media", "request_id", "direction"],
        "additionalProperties": false
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let kind = args.choice::<RequestKind>("media")?;
    let media = kind.label();
    let id = args.int("request_id")?;
    let up = args.str("direction")? == "up";
    let target = target_kind(kind);
    match ombi.get::<Value>("/api/v1/Settings/voteenabled")? {
        Some(Value::Bool(true)) => {}
        Some(Value::Bool(false)) => {
            return Ok(failure_with(
                ToolError::new(
                    ErrorCode::UnsupportedCapability,
                    "voting is switched off in Ombi, which would accept the vote without recording it; nothing was sent",
                ),
                Mutation::new(Outcome::Rejected).target(target, Some(id)),
            ));
        }
        _ => {
            return Err(ToolError::schema_mismatch(
                "Ombi did not say whether voting is enabled; nothing was sent",
            ));
        }
    }
    let path = format!(
        "/api/v1/Vote/{}/{media}/{id}",
        if up { "up" } else { "down" }
    );
    let er = engine_result(write(&ombi, Method::Post, &path, None)?)?;
    let mut warnings: Vec<String> = no_user_warning(&ombi).into_iter().collect();
    let reply = if mentions(er.error_message.as_deref(), "could not approve") {
        // The vote was stored and reached the threshold; the automatic approval failed.
        failure_with(
            ToolError::new(
                ErrorCode::PartialFailure,
                "the vote was recorded but Ombi could not approve the request it made eligible",
            ),
            er.annotate(Mutation::new(Outcome::Partial).target(target, Some(id))),
        )
    } else if mentions(er.error_message.as_deref(), "already voted") {
        failure_with(
            ToolError::new(
                ErrorCode::Conflict,
                "the acting user has already voted this way on this request",
            ),
            er.annotate(Mutation::new(Outcome::Rejected).target(target, Some(id))),
        )
    } else {
        er.reply(Mutation::new(Outcome::Completed).target(target, Some(id)))
    };
    if up {
        warnings.push("an upvote subscribes the voter and, once the vote threshold is reached, approves the request and sends it to Radarr/Sonarr/Lidarr: check with read_requests".to_owned());
    } else {
        warnings.push("a downvote unsubscribes the voter from the request".to_owned());
    }
    Ok(reply.warn_all(warnings))
}

#[cfg(test)]
mod tests;
