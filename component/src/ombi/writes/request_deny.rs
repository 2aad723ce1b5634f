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
mod tests {
    use crate::testing::{FakeUpstream, call};
    use crate::upstream::Method;
    use serde_json::json;

    #[test]
    fn deny_puts_the_reason_and_ignores_the_misleading_message() {
        let up = FakeUpstream::new().fixture(
            Method::Put,
            "/api/v1/request/movie/deny",
            "v1-request-movie-deny.json",
        );
        let out = call(
            &up,
            "write_request_deny",
            json!({"media": "movie", "request_id": 12, "reason": "not on any service"}),
        );
        assert_eq!(out["data"]["outcome"], "completed", "{out}");
        assert!(
            out["data"].get("message").is_none(),
            "'successfully deleted' must not be passed on"
        );
        let sent = &up.requests()[0];
        assert_eq!(sent.method, Method::Put);
        let body: serde_json::Value = serde_json::from_slice(sent.body.as_ref().unwrap()).unwrap();
        assert_eq!(
            body,
            json!({"id": 12, "reason": "not on any service", "is4K": false})
        );
    }

    #[test]
    fn deny_needs_a_reason() {
        let up = FakeUpstream::new();
        let out = call(
            &up,
            "write_request_deny",
            json!({"media": "tv", "request_id": 3}),
        );
        assert_eq!(out["error"]["field"], "reason");
    }

    #[test]
    fn tv_deny_has_no_4k_flag_and_targets_the_child() {
        let up = FakeUpstream::new().fixture(
            Method::Put,
            "/api/v1/request/tv/deny",
            "v1-request-tv-deny.json",
        );
        let out = call(
            &up,
            "write_request_deny",
            json!({"media": "tv", "request_id": 3, "reason": "x"}),
        );
        assert_eq!(out["data"]["target"], json!({"kind": "tv_child", "id": 3}));
        let body: serde_json::Value =
            serde_json::from_slice(up.requests()[0].body.as_ref().unwrap()).unwrap();
        assert!(body.get("is4K").is_none());
    }
}
