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
mod tests {
    use crate::testing::{FakeUpstream, call, json_response};
    use crate::upstream::Method;
    use serde_json::json;

    #[test]
    fn approve_success_targets_the_request_without_claiming_an_id() {
        let up = FakeUpstream::new().fixture(
            Method::Post,
            "/api/v1/request/movie/approve",
            "v1-request-movie-approve.json",
        );
        let out = call(
            &up,
            "write_request_approve",
            json!({"media": "movie", "request_id": 12, "is_4k": true}),
        );
        assert_eq!(out["data"]["outcome"], "completed", "{out}");
        assert_eq!(out["data"]["target"], json!({"kind": "movie", "id": 12}));
        assert!(
            out["data"].get("request_id").is_none(),
            "Ombi returned requestId 0"
        );
        let body: serde_json::Value =
            serde_json::from_slice(up.requests()[0].body.as_ref().unwrap()).unwrap();
        assert_eq!(body, json!({"id": 12, "is4K": true}));
        assert!(out["warnings"].to_string().contains("administrator"));
    }

    #[test]
    fn request_does_not_exist_without_a_code_is_not_found() {
        let up = FakeUpstream::new().fixture(
            Method::Post,
            "/api/v1/request/movie/approve",
            "v1-request-movie-approve-missing.json",
        );
        let out = call(
            &up,
            "write_request_approve",
            json!({"media": "movie", "request_id": 99}),
        );
        assert_eq!(out["error"]["code"], "NOT_FOUND");
        assert_eq!(out["data"]["outcome"], "rejected");
    }

    #[test]
    fn movie_send_failure_is_partial() {
        let body = json!({"result": false, "message": "Radarr refused", "isError": true, "errorMessage": "Radarr refused", "errorCode": null, "requestId": 0});
        let up = FakeUpstream::new().route(
            Method::Post,
            "/api/v1/request/movie/approve",
            Ok(json_response(body.to_string().into_bytes())),
        );
        let out = call(
            &up,
            "write_request_approve",
            json!({"media": "movie", "request_id": 12}),
        );
        assert_eq!(out["error"]["code"], "PARTIAL_FAILURE");
        assert_eq!(out["data"]["outcome"], "partial");
    }

    #[test]
    fn tv_result_false_without_code_is_rejected_with_the_message() {
        let body = json!({"result": false, "isError": true, "errorMessage": "Child request has no seasons", "errorCode": null, "requestId": 0});
        let up = FakeUpstream::new().route(
            Method::Post,
            "/api/v1/request/tv/approve",
            Ok(json_response(body.to_string().into_bytes())),
        );
        let out = call(
            &up,
            "write_request_approve",
            json!({"media": "tv", "request_id": 7}),
        );
        assert_eq!(out["error"]["code"], "UPSTREAM_REJECTED");
        assert!(
            out["error"]["message"]
                .as_str()
                .unwrap()
                .contains("Child request has no seasons")
        );
    }

    #[test]
    fn tv_success_warns_that_the_send_is_unconfirmed_and_album_uses_the_music_route() {
        let up = FakeUpstream::new().fixture(
            Method::Post,
            "/api/v1/request/tv/approve",
            "v1-request-tv-approve.json",
        );
        let out = call(
            &up,
            "write_request_approve",
            json!({"media": "tv", "request_id": 7}),
        );
        assert_eq!(out["data"]["target"], json!({"kind": "tv_child", "id": 7}));
        assert!(out["warnings"].to_string().contains("Sonarr"));
        let up = FakeUpstream::new().fixture(
            Method::Post,
            "/api/v1/request/music/approve",
            "v1-request-music-approve.json",
        );
        let out = call(
            &up,
            "write_request_approve",
            json!({"media": "album", "request_id": 4}),
        );
        assert_eq!(out["data"]["target"], json!({"kind": "album", "id": 4}));
    }

    #[test]
    fn is_4k_is_movie_only() {
        let up = FakeUpstream::new();
        let out = call(
            &up,
            "write_request_approve",
            json!({"media": "tv", "request_id": 7, "is_4k": true}),
        );
        assert_eq!(out["error"]["code"], "INVALID_ARGUMENT");
        assert!(up.requests().is_empty());
    }
}

#[cfg(test)]
mod permission_tests {
    use crate::testing::{FakeUpstream, call, json_response};
    use crate::upstream::Method;
    use serde_json::json;

    #[test]
    fn a_permission_message_without_code_is_forbidden_not_partial() {
        let body = json!({"result": false, "isError": true, "errorMessage": "You do not have the correct permissions!", "errorCode": null, "requestId": 0});
        let up = FakeUpstream::new().route(
            Method::Post,
            "/api/v1/request/movie/approve",
            Ok(json_response(body.to_string().into_bytes())),
        );
        let out = call(
            &up,
            "write_request_approve",
            json!({"media": "movie", "request_id": 12}),
        );
        assert_eq!(out["error"]["code"], "FORBIDDEN", "{out}");
    }
}
