//! `write_tester_run` → `mutation`.
//!
//! Reads the saved settings of the target (they hold credentials, so the caller never supplies
//! or sees them) and posts them unchanged to `POST /api/v1/Tester/{target}`. Notification and
//! media-server testers answer `bool`, *arr testers `TesterResultModel {isValid, version,
//! expectedSubDir, additionalInformation}`; `false`/`isValid: false` is a business failure.

use super::outcome::{Mutation, Outcome, failure_with, write};
use crate::contract::error::sanitize;
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

const NOTIFIERS: [&str; 10] = [
    "discord",
    "slack",
    "mattermost",
    "pushbullet",
    "pushover",
    "gotify",
    "ntfy",
    "telegram",
    "webhook",
    "email",
];
const ARRS: [&str; 4] = ["sonarr", "radarr", "radarr_4k", "lidarr"];
const SERVERS: [&str; 3] = ["plex", "emby", "jellyfin"];

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_tester_run",
    "Test an integration",
    "Test a configured notification service, Radarr/Sonarr/Lidarr or media server with its saved settings; notification tests send a real test message. Needs an administrator.",
    "read_logs",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    let targets: Vec<&str> = NOTIFIERS
        .iter()
        .chain(ARRS.iter())
        .chain(SERVERS.iter())
        .copied()
        .collect();
    json!({
        "type": "object",
        "properties": {
            "target": {"enum": targets, "description": "The integration to test with its saved settings. Notification tests send a real test message."},
            "server_index": {"type": "integer", "minimum": 0, "maximum": 99, "default": 0, "description": "Which configured server to test (plex, emby, jellyfin only; default 0)."}
        },
        "required": ["target"],
        "additionalProperties": false,
        "allOf": [{"if": {"required": ["server_index"]}, "then": {"properties": {"target": {"enum": SERVERS}}}}]
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let target = args.str("target")?;
    let tester = match target {
        "radarr" | "radarr_4k" => "radarr",
        t => t,
    };
    let body = saved_settings(&ombi, args, target)?;
    let answer = write(
        &ombi,
        Method::Post,
        &format!("/api/v1/Tester/{tester}"),
        Some(&body),
    )?;
    let (valid, hint) = verdict(answer.as_ref())?;
    let m = Mutation::new(if valid {
        Outcome::Completed
    } else {
        Outcome::Rejected
    })
    .set("upstream_result", json!(valid));
    if !valid {
        let msg = hint.unwrap_or_else(|| "the test failed".to_owned());
        return Ok(failure_with(
            ToolError::new(
                ErrorCode::UpstreamRejected,
                format!("{target} test failed: {msg}"),
            ),
            m.message(&msg),
        ));
    }
    let reply = Reply::ok(m.into_json());
    Ok(if NOTIFIERS.contains(&target) {
        reply.warn(
            "Ombi only reports that sending raised no error, not that the message was delivered",
        )
    } else {
        reply
    })
}

/// The saved settings of `target` that its tester takes: the whole notification or *arr
/// settings, the standard or 4K Radarr block, or one media server by `server_index`.
fn saved_settings(ombi: &Ombi<'_>, args: &Args, target: &str) -> Result<Value, ToolError> {
    let settings_path = match target {
        t if NOTIFIERS.contains(&t) => format!("/api/v1/Settings/notifications/{t}"),
        "radarr" | "radarr_4k" => "/api/v1/Settings/radarr".to_owned(),
        t => format!("/api/v1/Settings/{t}"),
    };
    let saved: Value = ombi.get(&settings_path)?.ok_or_else(|| {
        ToolError::new(
            ErrorCode::UnsupportedCapability,
            format!("Ombi has no saved {target} settings to test; nothing was sent"),
        )
    })?;
    let body = match target {
        "radarr" => saved.get("radarr").cloned(),
        "radarr_4k" => saved.get("radarr4K").cloned(),
        t if SERVERS.contains(&t) => {
            let i = args.int("server_index")? as usize;
            saved
                .get("servers")
                .and_then(Value::as_array)
                .and_then(|s| s.get(i))
                .cloned()
        }
        _ => Some(saved),
    };
    body.filter(Value::is_object).ok_or_else(|| {
        ToolError::new(
            ErrorCode::NotFound,
            format!("Ombi has no such saved {target} configuration; nothing was sent"),
        )
    })
}

/// Whether the tester's answer says the test passed, and Ombi's hint when it did not: `bool`
/// from notification and media-server testers, `TesterResultModel` from the *arr ones.
fn verdict(answer: Option<&Value>) -> Result<(bool, Option<String>), ToolError> {
    match answer {
        Some(Value::Bool(b)) => Ok((*b, None)),
        Some(Value::Object(o)) => match o.get("isValid").and_then(Value::as_bool) {
            Some(v) => Ok((v, hint_of(o))),
            None => Err(ToolError::unknown_outcome(
                "the tester answer had no isValid flag",
            )),
        },
        _ => Err(ToolError::unknown_outcome(
            "the tester answer was not true/false or a test result",
        )),
    }
}

/// What Ombi says went wrong: `additionalInformation` (NullApiKey, NullIp, BadPort) or the
/// expected sub-directory.
fn hint_of(o: &serde_json::Map<String, Value>) -> Option<String> {
    if let Some(info) = o
        .get("additionalInformation")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    {
        return Some(sanitize(info));
    }
    o.get("expectedSubDir")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(|d| format!("the server answers under the sub-directory {}", sanitize(d)))
}

#[cfg(test)]
mod tests;
