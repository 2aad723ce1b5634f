//! Read tools for the server and its setup: read_reference, read_library, read_server, read_integration, read_settings, read_logs.

mod artwork;
mod common;
mod integration;
mod library;
mod log_lines;
mod logs;
mod reference;
mod reference_tables;
mod server;
mod settings;

use crate::ombi::OmbiTool;
use crate::tool::Access;

/// The tools of this group, in catalogue order.
pub static TOOLS: &[&OmbiTool] = &[
    &READ_REFERENCE,
    &READ_LIBRARY,
    &READ_SERVER,
    &READ_INTEGRATION,
    &READ_SETTINGS,
    &READ_LOGS,
];

static READ_REFERENCE: OmbiTool = OmbiTool {
    name: "read_reference",
    title: "Reference lists",
    description: "List the ids and names Ombi uses elsewhere: TMDB genres, languages, streaming countries, issue categories, roles, TMDB keywords and watch providers, feature flags, and Ombi's code tables (request types, issue statuses, vote types, notification agents, request statuses, limit types). Use the values as arguments of other tools or to decode *_code fields.",
    access: Access::Read,
    families: &["reference_page"],
    input_schema: reference::input_schema,
    handler: reference::run,
    reconcile_with: None,
};

static READ_SERVER: OmbiTool = OmbiTool {
    name: "read_server",
    title: "Server status",
    description: "Check the Ombi server: whether it is up and its version, safe build facts (branch, runtime, database types), whether its last update check found a newer version, server-wide request counts, which integrations and features are switched on, and its health check.",
    access: Access::Read,
    families: &["metrics", "reference_page"],
    input_schema: server::input_schema,
    handler: server::run,
    reconcile_with: None,
};

static READ_INTEGRATION: OmbiTool = OmbiTool {
    name: "read_integration",
    title: "Connected services",
    description: "List what Ombi's connected services offer: Sonarr, Radarr (standard and 4K) and Lidarr quality profiles, root folders, language profiles, tags and version, and the user accounts of the Plex, Emby and Jellyfin servers (including Plex watchlist sync users).",
    access: Access::Read,
    families: &["reference_page", "user_page"],
    input_schema: integration::input_schema,
    handler: integration::run,
    reconcile_with: None,
};

static READ_SETTINGS: OmbiTool = OmbiTool {
    name: "read_settings",
    title: "Read settings",
    description: "Read one section of Ombi's settings as named values (general, customization, issues, votes, user management, authentication, TMDB filters, landing page, job schedules, Sonarr, Radarr, Radarr 4K, feature flags). Credentials and server addresses are never shown; the names of fields held back are listed. The revision it returns lets write_settings_update detect concurrent changes.",
    access: Access::Read,
    families: &["settings"],
    input_schema: settings::input_schema,
    handler: settings::run,
    reconcile_with: None,
};

static READ_LOGS: OmbiTool = OmbiTool {
    name: "read_logs",
    title: "Read server logs",
    description: "List Ombi's log files (newest first) and read lines of one of them, newest lines by default. Values that look like credentials or e-mail addresses are redacted. Needs an administrator.",
    access: Access::Read,
    families: &["logs"],
    input_schema: logs::input_schema,
    handler: logs::run,
    reconcile_with: None,
};

static READ_LIBRARY: OmbiTool = OmbiTool {
    name: "read_library",
    title: "Library and calendar",
    description: "See what the media servers (Plex, Emby, Jellyfin) added in the last week, the release calendar of requested titles, or the poster, background or banner image of a movie, show or album.",
    access: Access::Read,
    families: &["media_page", "calendar_page", "artwork_page"],
    input_schema: library::input_schema,
    handler: library::run,
    reconcile_with: None,
};

#[cfg(test)]
mod tests;
