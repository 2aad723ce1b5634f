//! Who a Seerr call acts as. Seerr acts as a user when the key comes with `X-API-User: <user
//! id>` (that user's permissions, quotas and auto-approval apply); without it, as user 1, the
//! administrator. The principal (the host's, else `SEERR_USER`) is a Seerr user id or a name,
//! which is resolved through `GET /user?q=` by an exact, case-insensitive match of the user
//! name, display name, e-mail, Plex or Jellyfin user name. A name nobody has is `NOT_FOUND`:
//! the call is never sent as the administrator instead.

use super::client::{Acting, Seerr};
use crate::contract::{ErrorCode, ToolError};
use crate::prelude::*;
use crate::upstream::encode_query_value;
use media_mcp_wire::variables::SEERR_USER;
use serde_json::Value;

/// The warning every result carries when calls act as the administrator.
pub fn administrator_warning() -> String {
    format!(
        "no user to act as is set ({} or the host's principal): the API key acts as Seerr's administrator (user 1), which bypasses request permissions and quotas and auto-approves, so requests are sent to Radarr/Sonarr at once",
        SEERR_USER.name
    )
}

/// Longest Seerr user id accepted as an id (larger numbers are names to look up).
const MAX_ID_DIGITS: usize = 9;

/// How many users a name look-up reads.
pub const LOOKUP_TAKE: u32 = 100;

/// Who `principal` (else `default_user`) is, asking `seerr` (acting as the administrator) for a
/// name.
///
/// # Errors
/// `NOT_FOUND` naming a name no Seerr user has; `CONFLICT` when several users have it; the
/// look-up's own error.
pub fn resolve(
    seerr: &Seerr<'_>,
    principal: Option<&str>,
    default_user: Option<&str>,
) -> Result<Acting, ToolError> {
    let Some(who) = principal
        .or(default_user)
        .map(str::trim)
        .filter(|u| !u.is_empty())
    else {
        return Ok(Acting::Administrator);
    };
    if let Some(id) = as_id(who) {
        return Ok(Acting::User { id, name: None });
    }
    let page = seerr.get(&format!(
        "/user?take={LOOKUP_TAKE}&q={}",
        encode_query_value(who)
    ))?;
    let matches: Vec<i64> = page
        .get("results")
        .and_then(Value::as_array)
        .ok_or_else(|| ToolError::schema_mismatch("Seerr's user search has no results list"))?
        .iter()
        .filter(|u| names_of(u).any(|n| n.eq_ignore_ascii_case(who)))
        .filter_map(|u| u.get("id").and_then(Value::as_i64))
        .collect();
    match matches.as_slice() {
        [id] => Ok(Acting::User {
            id: *id,
            name: Some(who.to_owned()),
        }),
        [] => Err(ToolError::new(
            ErrorCode::NotFound,
            format!(
                "Seerr has no user named {who:?} to act as (checked user names, display names and e-mail addresses); nothing was sent as the administrator"
            ),
        )),
        _ => Err(ToolError::new(
            ErrorCode::Conflict,
            format!(
                "several Seerr users are named {who:?}: set the user to act as by its Seerr user id"
            ),
        )),
    }
}

/// `who` as a Seerr user id, when it is a plain positive number.
fn as_id(who: &str) -> Option<i64> {
    (who.len() <= MAX_ID_DIGITS && who.bytes().all(|b| b.is_ascii_digit()))
        .then(|| who.parse::<i64>().ok())
        .flatten()
        .filter(|id| *id > 0)
}

/// Every name a Seerr user answers to.
fn names_of(user: &Value) -> impl Iterator<Item = &str> {
    [
        "username",
        "displayName",
        "email",
        "plexUsername",
        "jellyfinUsername",
    ]
    .into_iter()
    .filter_map(|k| user.get(k).and_then(Value::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_numbers_are_ids_and_anything_else_a_name() {
        assert_eq!(as_id("7"), Some(7));
        assert_eq!(as_id("0"), None);
        assert_eq!(as_id("7a"), None);
        assert_eq!(as_id("-7"), None);
        assert_eq!(as_id("1234567890"), None);
    }

    #[test]
    fn a_user_answers_to_each_of_its_names() {
        let u = serde_json::json!({"username": "alice", "email": "a@x", "plexUsername": null, "displayName": "Alice A"});
        let names: Vec<&str> = names_of(&u).collect();
        assert_eq!(names, ["alice", "Alice A", "a@x"]);
    }
}
