//! `write_notification_preferences` → `mutation` (docs/ombi-behaviours.md#anonymous-routes,
//! #notification-preferences-enabled-ignored).
//!
//! `POST /api/v1/Identity/NotificationPreferences [{agent, userId, value, enabled}]` → `true`,
//! 404 for an unknown user, 401 when the acting identity may not edit that user. One item per
//! call (a list aborts midway after saving earlier items). `value` (a delivery address or
//! token) is never echoed.

use super::outcome::{Mutation, Outcome, bool_answer, failure_with, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

/// Agents a user may set, with their NotificationAgent codes.
const AGENTS: [(&str, i64); 9] = [
    ("discord", 1),
    ("pushbullet", 2),
    ("pushover", 3),
    ("telegram", 4),
    ("slack", 5),
    ("mattermost", 6),
    ("gotify", 8),
    ("whatsapp", 10),
    ("ntfy", 11),
];

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_notification_preferences",
    "Set a user's notification address",
    "Set or clear where one user receives notifications from one service (Discord, Telegram, Pushover...). Editing other users needs an administrator or power user to act as.",
    "read_users",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    let names: Vec<&str> = AGENTS.iter().map(|(n, _)| *n).collect();
    json!({
        "type": "object",
        "properties": {
            "user_id": {"type": "string", "minLength": 1, "maxLength": 64, "description": "Ombi user id whose preference to set (from read_users)."},
            "agent": {"enum": names, "description": "Notification service."},
            "value": {"type": "string", "minLength": 0, "maxLength": 512, "description": "The user's address on that service (chat id, user key...); empty clears it. Not echoed back."}
        },
        "required": ["user_id", "agent", "value"],
        "additionalProperties": false
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let user = args.str("user_id")?;
    let agent = args.str("agent")?;
    let code = AGENTS
        .iter()
        .find(|(n, _)| *n == agent)
        .map(|(_, c)| *c)
        .ok_or_else(|| ToolError::internal("the agent enum and the agent table disagree"))?;
    let value = args.str("value")?;
    // Ombi ignores `enabled` and keys enablement off a non-empty value.
    let body =
        json!([{"agent": code, "userId": user, "value": value, "enabled": !value.is_empty()}]);
    let mut warnings = vec![
        "Ombi serves every user's notification preferences, including this value, to anyone without authentication (GET /api/v1/Identity/notificationpreferences/{userId})".to_owned(),
    ];
    if ombi.acting_user().is_none() {
        warnings.push(format!(
            "no user to act as is set: Ombi's API system user has no roles, so Ombi likely refuses to edit other users (set an administrator as {})",
            media_mcp_wire::variables::OMBI_USER.name
        ));
    }
    let result = write(&ombi, Method::Post, "/api/v1/Identity/NotificationPreferences", Some(&body))
        .map_err(|e| match e.code {
            // This route answers 401 for a caller who may not edit the user; an unknown
            // acting user keeps its own, clearer error.
            ErrorCode::AuthenticationFailed if !e.message.contains("does not know the user") => ToolError::new(
                ErrorCode::Forbidden,
                "Ombi answered 401: the acting user may not edit this user's preferences (needs an administrator or power user), unless the API key itself is wrong",
            )
            .with_status(401),
            ErrorCode::NotFound => ToolError::new(ErrorCode::NotFound, "Ombi has no user with this id").with_status(404),
            _ => e,
        });
    let done = match result {
        Ok(body) => bool_answer(body)?,
        Err(e) => return Ok(Reply::failure(e).warn_all(warnings)),
    };
    let m = Mutation::new(if done {
        Outcome::Completed
    } else {
        Outcome::Rejected
    })
    .set("user_id", json!(user))
    .set("upstream_result", json!(done));
    let reply = if done {
        Reply::ok(m.into_json())
    } else {
        failure_with(
            ToolError::new(
                ErrorCode::UpstreamRejected,
                "Ombi did not save the preference",
            ),
            m,
        )
    };
    Ok(reply.warn_all(warnings))
}

#[cfg(test)]
mod tests;
