//! `write_request_subscription` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#tv-subscribed-wrong-key).
//!
//! `POST /api/v1/Request/{movie|tv}/{subscribe|unsubscribe}/{requestId}` → `bool`, always
//! `true`, with no existence check: the outcome is `accepted`, never a claimed state change.

use super::common::{media_property, request_id_property, target_kind};
use super::outcome::{Mutation, Outcome, bool_answer, failure_with, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::codes::RequestKind;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_request_subscription",
    "Follow a request",
    "Subscribe the acting user to notifications about a movie or TV (child) request, or unsubscribe. Ombi does not confirm that the request exists.",
    "read_requests",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "media": media_property(&["movie", "tv"]), "request_id": request_id_property(),
            "subscribed": {"type": "boolean", "description": "true to be notified about the request, false to stop."}
        },
        "required": ["media", "request_id", "subscribed"],
        "additionalProperties": false
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let kind = args.choice::<RequestKind>("media")?;
    let id = args.int("request_id")?;
    let action = if args.bool("subscribed")? {
        "subscribe"
    } else {
        "unsubscribe"
    };
    let target = target_kind(kind);
    if !bool_answer(write(
        &ombi,
        Method::Post,
        &format!("{}/{action}/{id}", kind.route_base()),
        None,
    )?)? {
        let err = ToolError::new(
            ErrorCode::UpstreamRejected,
            format!("Ombi refused to {action}"),
        );
        return Ok(failure_with(
            err,
            Mutation::new(Outcome::Rejected)
                .target(target, Some(id))
                .set("upstream_result", json!(false)),
        ));
    }
    let mut reply = Reply::ok(
        Mutation::new(Outcome::Accepted)
            .target(target, Some(id))
            .set("upstream_result", json!(true))
            .into_json(),
    )
    .warn("Ombi answers true without checking that the request exists or that anything changed");
    if ombi.acting_user().is_none() {
        reply = reply
            .warn("no user to act as is set: the subscription belongs to Ombi's API system user");
    }
    Ok(reply)
}

#[cfg(test)]
mod tests;
