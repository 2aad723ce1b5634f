//! `write_request_approve` → `mutation` (Ombi behaviours it works around: docs/ombi-behaviours.md#success-messages-are-not-evidence).
//!
//! `POST /api/v1/Request/{movie|tv}/approve`, `/api/v1/request/music/approve` →
//! `RequestEngineResult`. Ombi saves a movie approval before sending it to Radarr, so a failed
//! send comes back as `result: false` with only a message while the approval stands.

use super::common::{RequestRef, request_schema};
use super::outcome::{Outcome, failure_with, no_user_warning};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::codes::RequestKind;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::Value;

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_request_approve",
    "Approve a request",
    "Approve a pending movie, TV (child) or album request so Ombi sends it to Radarr/Sonarr/Lidarr. Needs an administrator or power user. Take request ids from read_requests.",
    "read_requests",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    request_schema(&["movie", "tv", "album"], &[])
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let req = RequestRef::from_args(args)?;
    let mut warnings: Vec<String> = no_user_warning(&ombi).into_iter().collect();
    let er = req.send(
        &ombi,
        Method::Post,
        &req.v1_route("approve"),
        Some(&req.body()),
    )?;
    let reply = if req.kind == RequestKind::Movie
        && !er.succeeded()
        && er.error_code.is_none()
        && !er.is_missing()
        && er.error().code == ErrorCode::UpstreamRejected
    {
        failure_with(
            ToolError::new(ErrorCode::PartialFailure, format!("Ombi saved the approval but reported a failure, usually the send to Radarr: {}", er.business_message())),
            er.annotate(req.mutation(Outcome::Partial)),
        )
        .warn("the request is approved in Ombi but may not have reached Radarr: check with read_requests; write_request_reprocess re-sends it")
    } else {
        if req.kind == RequestKind::Tv && er.succeeded() {
            warnings.push("Ombi does not report whether Sonarr accepted the approved request: check with read_requests".to_owned());
        }
        er.reply(req.mutation(Outcome::Completed))
    };
    Ok(reply.warn_all(warnings))
}

#[cfg(test)]
mod tests;
