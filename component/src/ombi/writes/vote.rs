//! `write_vote` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#votes).
//!
//! `POST /api/v1/Vote/{up|down}/{movie|tv|album}/{requestId}` → `VoteEngineResult`. With voting
//! switched off Ombi answers `result: true` and records nothing, so `voteenabled` is read
//! first. An upvote that reaches the threshold auto-approves and sends the request.

use super::common::{media_property, mentions, request_id_property, target_kind};
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
        "properties": {
            "media": media_property(&["movie", "tv", "album"]), "request_id": request_id_property(),
            "direction": {"enum": ["up", "down"], "description": "Vote for (up) or against (down) the request; replaces the acting user's earlier vote."}
        },
        "required": ["media", "request_id", "direction"],
        "additionalProperties": false
    })
}

/// The handler.
pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let media = args.str("media").unwrap_or("movie");
    let id = args.int("request_id").unwrap_or(0);
    let up = args.str("direction") != Some("down");
    let target = target_kind(media);
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
mod tests {
    use crate::testing::{FakeUpstream, call, json_response};
    use crate::upstream::Method;
    use serde_json::json;

    fn enabled(on: bool) -> FakeUpstream {
        FakeUpstream::new().route(
            Method::Get,
            "/api/v1/settings/voteenabled",
            Ok(json_response(on.to_string().into_bytes())),
        )
    }

    #[test]
    fn votes_are_refused_before_sending_when_voting_is_off() {
        let up = enabled(false).fixture(
            Method::Post,
            "/api/v1/vote/up/movie/12",
            "v1-vote-up-movie.json",
        );
        let out = call(
            &up,
            "write_vote",
            json!({"media": "movie", "request_id": 12, "direction": "up"}),
        );
        assert_eq!(out["error"]["code"], "UNSUPPORTED_CAPABILITY", "{out}");
        assert_eq!(out["data"]["outcome"], "rejected");
        assert!(up.requests().iter().all(|r| r.method == Method::Get));
    }

    #[test]
    fn an_upvote_warns_that_it_may_approve() {
        let up = enabled(true).fixture(
            Method::Post,
            "/api/v1/vote/up/album/4",
            "v1-vote-up-album.json",
        );
        let out = call(
            &up,
            "write_vote",
            json!({"media": "album", "request_id": 4, "direction": "up"}),
        );
        assert_eq!(out["data"]["outcome"], "completed", "{out}");
        assert!(out["warnings"].to_string().contains("approves the request"));
    }

    #[test]
    fn already_voted_is_a_conflict_and_failed_approval_is_partial() {
        let up = enabled(true).fixture(
            Method::Post,
            "/api/v1/vote/up/movie/12",
            "v1-vote-already.json",
        );
        let out = call(
            &up,
            "write_vote",
            json!({"media": "movie", "request_id": 12, "direction": "up"}),
        );
        assert_eq!(out["error"]["code"], "CONFLICT");
        let body = json!({"result": true, "message": null, "isError": true, "errorMessage": "Voted succesfully but could not approve!"});
        let up = enabled(true).route(
            Method::Post,
            "/api/v1/vote/up/tv/7",
            Ok(json_response(body.to_string().into_bytes())),
        );
        let out = call(
            &up,
            "write_vote",
            json!({"media": "tv", "request_id": 7, "direction": "up"}),
        );
        assert_eq!(out["error"]["code"], "PARTIAL_FAILURE");
        assert_eq!(out["data"]["outcome"], "partial");
        assert_eq!(out["data"]["target"], json!({"kind": "tv_child", "id": 7}));
    }
}
