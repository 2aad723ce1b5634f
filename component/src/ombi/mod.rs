//! The Ombi backend: its client, projections and the native tools (ledger §3).

mod client;
pub mod ids;
pub mod media;
mod search;

pub use client::{Effect, Ombi};

use crate::catalogue::{Access, ToolSpec};

/// The Ombi tools, in catalogue order.
pub static TOOLS: &[&ToolSpec] = &[&READ_SEARCH];

static READ_SEARCH: ToolSpec = ToolSpec {
    name: "read_search",
    title: "Search media",
    description: "Search Ombi for movies, TV shows, music and people by name. Returns media records with their ids (TMDB, TVDB, IMDb, MusicBrainz...), availability and request state where Ombi reports it. Use the ids with read_media or write_request_create.",
    access: Access::Read,
    families: &["media_page"],
    input_schema: search::input_schema,
    handler: search::run,
    reconcile_with: None,
};
