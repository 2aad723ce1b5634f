//! `read_integration` → `reference_page` or `user_page`.
//!
//! Only the GET routes: the POST variants make the caller send *arr credentials. Each
//! service/resource pair has one adapter for its response type. Disabled integrations answer
//! `null` (204) or `[]`: an empty page with a warning. Media-server user ids are the media
//! server's own account ids, never Ombi user ids (watchlist users excepted).

use super::common::{self, reference, req_int, req_str};
use crate::contract::{Reply, ToolError};
use crate::ombi::call::Call;
use crate::ombi::call::OmbiTool;
use crate::ombi::client::Ombi;
use crate::ombi::ids::id_text;
use crate::ombi::shape::LocalWindow;
use crate::paging::{self, Window};
use crate::prelude::*;
use crate::tool::Args;
use serde_json::{Value, json};

/// Valid resources per service (the schema enforces the pairs).
const PAIRS: &[(&str, &[&str])] = &[
    (
        "sonarr",
        &[
            "quality_profiles",
            "root_folders",
            "language_profiles",
            "tags",
            "version",
        ],
    ),
    ("radarr", &["quality_profiles", "root_folders", "tags"]),
    ("radarr_4k", &["quality_profiles", "root_folders"]),
    ("lidarr", &["quality_profiles", "root_folders"]),
    ("plex", &["users", "watchlist_users"]),
    ("emby", &["users"]),
    ("jellyfin", &["users"]),
];

pub(super) static TOOL: OmbiTool = OmbiTool::read(
    "read_integration",
    "Connected services",
    "List what Ombi's connected services offer: Sonarr, Radarr (standard and 4K) and Lidarr quality profiles, root folders, language profiles, tags and version, and the user accounts of the Plex, Emby and Jellyfin servers (including Plex watchlist sync users).",
    &["reference_page", "user_page"],
    input_schema,
    run,
);

pub fn input_schema() -> Value {
    let services: Vec<&str> = PAIRS.iter().map(|(s, _)| *s).collect();
    let rules: Vec<Value> = PAIRS
        .iter()
        .map(|(s, r)| json!({"if": {"required": ["service"], "properties": {"service": {"const": s}}}, "then": {"properties": {"resource": {"enum": r}}}}))
        .collect();
    json!({
        "type": "object",
        "properties": crate::paging::with_paging(json!({
            "service": {"enum": services, "description": "The connected service: sonarr, radarr, radarr_4k, lidarr, plex, emby or jellyfin."},
            "resource": {"enum": ["quality_profiles", "root_folders", "language_profiles", "tags", "version", "users", "watchlist_users"],
                         "description": "What to list. sonarr: quality_profiles, root_folders, language_profiles, tags, version. radarr: quality_profiles, root_folders, tags. radarr_4k and lidarr: quality_profiles, root_folders. plex: users, watchlist_users. emby and jellyfin: users."}
        })),
        "required": ["service", "resource"],
        "additionalProperties": false,
        "allOf": rules
    })
}

pub fn run(call: &Call<'_>, args: &Args) -> Result<Reply, ToolError> {
    let service = args.str("service")?;
    let resource = args.str("resource")?;
    let path = route(service, resource).ok_or_else(|| {
        ToolError::invalid_argument("resource", format!("{service} has no {resource}"))
    })?;
    let ombi = call.ombi()?;
    let window = args.window()?;
    let mut warnings = vec![paging::NO_SNAPSHOT_WARNING.to_owned()];
    if resource == "version" {
        return version_page(&ombi, service, path, window, warnings);
    }
    let users = matches!(resource, "users" | "watchlist_users");
    // Streamed: a list of several megabytes would not fit the call's memory as one JSON tree.
    let mut page = LocalWindow::new(window);
    let listed = ombi.get_each_or_none(path, resource, &mut |r| {
        page.push(if users {
            user(&r, resource)?
        } else {
            option(&r, resource)?
        });
        Ok(())
    })?;
    if listed.is_none() {
        warnings.push(format!(
            "Ombi returned nothing for {service} {resource}: the integration is probably disabled"
        ));
    }
    let reply = if users {
        if resource == "users" {
            warnings.push(format!(
                "user ids are {service} account ids, not Ombi user ids"
            ));
        }
        page.into_page("user_page", "users")
    } else {
        page.into_page("reference_page", "references")
    };
    Ok(Reply::ok(reply).warn_all(warnings))
}

/// The integration's version as a one-item reference page; none, with a warning, when the
/// integration reports none.
fn version_page(
    ombi: &Ombi<'_>,
    service: &str,
    path: &str,
    window: Window,
    mut warnings: Vec<String>,
) -> Result<Reply, ToolError> {
    let version = match ombi.get::<Value>(path)? {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.trim().to_owned(),
        Some(_) => {
            return Err(ToolError::schema_mismatch(
                "expected the Sonarr version as a JSON string from Ombi",
            ));
        }
    };
    let items = if version.is_empty() {
        warnings.push(format!(
            "{service} reported no version: the integration is probably disabled"
        ));
        Vec::new()
    } else {
        vec![reference(None, "version", json!(version), Some(service))]
    };
    Ok(Reply::ok(common::local_page(
        "reference_page",
        items,
        window,
        "references",
    ))
    .warn_all(warnings))
}

/// The GET route of a service/resource pair.
fn route(service: &str, resource: &str) -> Option<&'static str> {
    Some(match (service, resource) {
        ("sonarr", "quality_profiles") => "/api/v1/Sonarr/Profiles",
        ("sonarr", "root_folders") => "/api/v1/Sonarr/RootFolders",
        ("sonarr", "language_profiles") => "/api/v1/Sonarr/v3/LanguageProfiles",
        ("sonarr", "tags") => "/api/v1/Sonarr/tags",
        ("sonarr", "version") => "/api/v1/Sonarr/version",
        ("radarr", "quality_profiles") => "/api/v1/Radarr/Profiles",
        ("radarr", "root_folders") => "/api/v1/Radarr/RootFolders",
        ("radarr", "tags") => "/api/v1/Radarr/tags",
        ("radarr_4k", "quality_profiles") => "/api/v1/Radarr/Profiles/4k",
        ("radarr_4k", "root_folders") => "/api/v1/Radarr/RootFolders/4k",
        ("lidarr", "quality_profiles") => "/api/v1/Lidarr/Profiles",
        ("lidarr", "root_folders") => "/api/v1/Lidarr/RootFolders",
        ("plex", "users") => "/api/v1/Plex/friends",
        ("plex", "watchlist_users") => "/api/v1/Plex/WatchlistUsers",
        ("emby", "users") => "/api/v1/Emby/users",
        ("jellyfin", "users") => "/api/v1/Jellyfin/users",
        _ => return None,
    })
}

/// An *arr option as `{id, name, value: id}`: profiles and language profiles are named by
/// `name`, tags by `label`, root folders by their `path` (a display label only; free space is
/// left out).
fn option(row: &Value, resource: &str) -> Result<Value, ToolError> {
    let (key, what) = match resource {
        "tags" => ("label", "tag"),
        "root_folders" => ("path", "root folder"),
        "language_profiles" => ("name", "language profile"),
        _ => ("name", "quality profile"),
    };
    let id = req_int(row, "id", what)?;
    let name = req_str(row, key, what)?.trim();
    if name.is_empty() {
        return Err(ToolError::schema_mismatch(format!(
            "a {what} from Ombi has an empty `{key}`"
        )));
    }
    Ok(reference(Some(id.to_string()), name, json!(id), None))
}

/// `UsersViewModel {username, id}` or `PlexUserWatchlistModel {userId, userName, syncStatus}`
/// as a contract user: id and user name only.
fn user(row: &Value, resource: &str) -> Result<Value, ToolError> {
    let (id_key, name_key) = if resource == "watchlist_users" {
        ("userId", "userName")
    } else {
        ("id", "username")
    };
    let id = row.get(id_key).and_then(id_text).ok_or_else(|| {
        ToolError::schema_mismatch(format!("a user record from Ombi has no `{id_key}`"))
    })?;
    let mut u = json!({"id": id});
    if let Some(name) = common::opt_str(row, name_key, "user")?
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        u["user_name"] = json!(name);
    }
    Ok(u)
}

#[cfg(test)]
mod tests;
