//! The Ombi backend: its client, projections and the native tools (ledger §3).
//!
//! Tools are registered per module (`TOOLS` slices) and chained here in catalogue order.

use crate::prelude::*;
mod admin;
mod client;
mod details;
mod details_people;
pub mod ids;
pub mod media;
mod reads;
mod search;
pub mod settings_revision;
pub(crate) mod shape;
mod writes;

pub use client::{Effect, Ombi};

use crate::catalogue::{Access, ToolSpec};

/// The Ombi tools, in catalogue order: reads first, then writes.
pub fn tools() -> Vec<&'static ToolSpec> {
    let groups: [&[&'static ToolSpec]; 4] = [CORE_READS, reads::TOOLS, admin::TOOLS, writes::TOOLS];
    groups.iter().flat_map(|g| g.iter().copied()).collect()
}

/// The read tools of the foundation slice.
static CORE_READS: &[&ToolSpec] = &[&READ_SEARCH, &READ_MEDIA];

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

static READ_MEDIA: ToolSpec = ToolSpec {
    name: "read_media",
    title: "Media details",
    description: "Read one movie, TV show, album, artist, person or collection by id (TMDB by default; IMDb, TVDB, MusicBrainz or an Ombi request id where noted), with optional cast and crew, streaming providers, ratings and seasons. Persons need the person's name, since Ombi returns only ids.",
    access: Access::Read,
    families: &["media_page"],
    input_schema: details::input_schema,
    handler: details::run,
    reconcile_with: None,
};
