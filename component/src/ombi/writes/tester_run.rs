//! `write_tester_run` → `mutation`.
//!
//! Reads the saved settings of the target (they hold credentials, so the caller never supplies
//! or sees them) and posts them unchanged to `POST /api/v1/Tester/{target}`. Notification and
//! media-server testers answer `bool`, *arr testers `TesterResultModel {isValid, version,
//! expectedSubDir, additionalInformation}`; `false`/`isValid: false` is a business failure.

use super::outcome::{Mutation, Outcome, failure_with, unknown, write};
use crate::contract::error::sanitize;
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::Call;
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

/// The input schema.
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

/// The handler.
pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    let target = args.str("target").unwrap_or("discord");
    let (settings_path, tester) = match target {
        t if NOTIFIERS.contains(&t) => (format!("/api/v1/Settings/notifications/{t}"), t),
        "radarr" | "radarr_4k" => ("/api/v1/Settings/radarr".to_owned(), "radarr"),
        t => (format!("/api/v1/Settings/{t}"), t),
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
            let i = args.int("server_index").unwrap_or(0) as usize;
            saved
                .get("servers")
                .and_then(Value::as_array)
                .and_then(|s| s.get(i))
                .cloned()
        }
        _ => Some(saved),
    };
    let Some(body) = body.filter(Value::is_object) else {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            format!("Ombi has no such saved {target} configuration; nothing was sent"),
        ));
    };
    let answer = write(
        &ombi,
        Method::Post,
        &format!("/api/v1/Tester/{tester}"),
        Some(&body),
    )?;
    let (valid, hint) = match &answer {
        Some(Value::Bool(b)) => (*b, None),
        Some(Value::Object(o)) => match o.get("isValid").and_then(Value::as_bool) {
            Some(v) => (v, hint_of(o)),
            None => return Err(unknown("the tester answer had no isValid flag")),
        },
        _ => {
            return Err(unknown(
                "the tester answer was not true/false or a test result",
            ));
        }
    };
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
mod tests {
    use crate::testing::{FakeUpstream, call, fixture};
    use crate::upstream::Method;
    use serde_json::{Value, json};

    #[test]
    fn saved_settings_are_posted_unchanged_and_never_echoed() {
        let up = FakeUpstream::new()
            .fixture(
                Method::Get,
                "/api/v1/settings/notifications/discord",
                "v1-settings-notifications-discord.json",
            )
            .fixture(
                Method::Post,
                "/api/v1/tester/discord",
                "v1-tester-discord.json",
            );
        let out = call(&up, "write_tester_run", json!({"target": "discord"}));
        assert_eq!(out["data"]["outcome"], "completed", "{out}");
        assert!(out["warnings"].to_string().contains("delivered"));
        let sent: Value = serde_json::from_slice(up.requests()[1].body.as_ref().unwrap()).unwrap();
        let saved: Value =
            serde_json::from_slice(&fixture("v1-settings-notifications-discord.json")).unwrap();
        assert_eq!(sent, saved);
        assert_eq!(
            out["data"].as_object().unwrap().len(),
            3,
            "kind, outcome, upstream_result only: {out}"
        );
    }

    #[test]
    fn radarr_4k_tests_the_4k_block_and_invalid_is_rejected_with_the_hint() {
        let up = FakeUpstream::new()
            .fixture(
                Method::Get,
                "/api/v1/settings/radarr",
                "v1-settings-radarr.json",
            )
            .fixture(
                Method::Post,
                "/api/v1/tester/radarr",
                "v1-tester-radarr.json",
            );
        let out = call(&up, "write_tester_run", json!({"target": "radarr_4k"}));
        assert_eq!(out["error"]["code"], "UPSTREAM_REJECTED", "{out}");
        assert_eq!(out["data"]["outcome"], "rejected");
        assert!(
            out["error"]["message"]
                .as_str()
                .unwrap()
                .contains("/radarr")
        );
        let sent: Value = serde_json::from_slice(up.requests()[1].body.as_ref().unwrap()).unwrap();
        let saved: Value = serde_json::from_slice(&fixture("v1-settings-radarr.json")).unwrap();
        assert_eq!(sent, saved["radarr4K"]);
    }

    #[test]
    fn a_missing_server_is_not_found_before_anything_is_sent() {
        let up = FakeUpstream::new().route(
            Method::Get,
            "/api/v1/settings/plex",
            Ok(crate::testing::json_response(
                br#"{"enable": true, "servers": []}"#.to_vec(),
            )),
        );
        let out = call(
            &up,
            "write_tester_run",
            json!({"target": "plex", "server_index": 0}),
        );
        assert_eq!(out["error"]["code"], "NOT_FOUND");
        assert_eq!(up.requests().len(), 1);
    }
}
