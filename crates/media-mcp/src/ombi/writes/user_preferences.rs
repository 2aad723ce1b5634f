//! `write_user_preferences` → `mutation`.
//!
//! `POST /api/v1/Identity/language {lang}` and `POST /api/v1/Identity/streamingcountry {code}`,
//! each an empty 200: completed by status alone. Both act on the principal only, so with the
//! bare key they would change Ombi's API system user: refused without a user to act as. Two
//! calls mean a partial failure is possible; `item_results` says what is known per call.

use super::outcome::{Mutation, Outcome, failed_item, failure_with, write};
use crate::contract::{ErrorCode, Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::prelude::*;
use crate::tool::Args;
use crate::upstream::Method;
use serde_json::{Value, json};

pub(super) static TOOL: OmbiTool = OmbiTool::write(
    "write_user_preferences",
    "Set my language or streaming country",
    "Set the acting user's interface language and/or streaming country in Ombi. Needs a user to act as; refused with the bare API key.",
    "read_users",
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "language": {"type": "string", "pattern": "^[a-z]{2}(-[A-Z]{2})?$", "description": "Interface language of the acting user, e.g. en or pt-BR."},
            "streaming_country": {"type": "string", "pattern": "^[A-Z]{2}$", "description": "Country whose streaming providers Ombi shows the acting user (one of read_reference streaming_countries)."}
        },
        "minProperties": 1,
        "additionalProperties": false
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let ombi = call.ombi()?;
    if ombi.acting_user().is_none() {
        return Err(ToolError::new(
            ErrorCode::UnsupportedCapability,
            format!(
                "preferences belong to the acting user: set a user to act as ({} or the host's principal); with the bare API key Ombi would change its API system user",
                media_mcp_wire::variables::OMBI_USER.name
            ),
        ));
    }
    if let Some(country) = args.opt_str("streaming_country") {
        check_country(&ombi, country)?;
    }
    let mut calls: Vec<(&str, &str, Value)> = Vec::new();
    if let Some(lang) = args.opt_str("language") {
        calls.push((
            "language",
            "/api/v1/Identity/language",
            json!({"lang": lang}),
        ));
    }
    if let Some(country) = args.opt_str("streaming_country") {
        calls.push((
            "streaming_country",
            "/api/v1/Identity/streamingcountry",
            json!({"code": country}),
        ));
    }
    post_in_order(&ombi, &calls)
}

/// Ombi stores any text as the country; only its own country list is meaningful, so it is
/// checked before any change.
fn check_country(ombi: &Ombi<'_>, country: &str) -> Result<(), ToolError> {
    let known: Option<Value> = ombi.get("/api/v1/Identity/streamingcountry")?;
    let listed = known
        .as_ref()
        .and_then(Value::as_array)
        .is_some_and(|l| l.iter().any(|c| c.as_str() == Some(country)));
    if listed {
        Ok(())
    } else {
        Err(ToolError::invalid_argument(
            "streaming_country",
            "is not one of Ombi's streaming countries (read_reference kind streaming_countries)",
        ))
    }
}

/// Posts each `(name, path, body)` in order, stopping at the first failure: nothing saved is a
/// plain error, something saved a partial failure naming what was.
fn post_in_order(ombi: &Ombi<'_>, calls: &[(&str, &str, Value)]) -> Result<Reply, ToolError> {
    let mut items: Vec<Value> = Vec::new();
    for (name, path, body) in calls {
        match write(ombi, Method::Post, path, Some(body)) {
            Ok(_) => items.push(json!({"identifier": name, "outcome": "completed"})),
            Err(e) if items.is_empty() => return Err(e),
            Err(e) => {
                items.push(failed_item(name, &e));
                let err = ToolError::new(
                    ErrorCode::PartialFailure,
                    format!(
                        "{} was saved, {name} failed: {}",
                        items[0]["identifier"].as_str().unwrap_or(""),
                        e.message
                    ),
                );
                return Ok(failure_with(
                    err,
                    Mutation::new(Outcome::Partial).set("item_results", Value::Array(items)),
                ));
            }
        }
    }
    Ok(Reply::ok(
        Mutation::new(Outcome::Completed)
            .set("item_results", Value::Array(items))
            .into_json(),
    ))
}

#[cfg(test)]
mod tests;
