//! The Ombi backend: its client, projections and the native tools.
//!
//! Every tool declares its `OmbiTool` spec as `TOOL` in its own file, next to its input schema
//! and handler; each group lists its tools (`TOOLS`) in catalogue order and `backend.rs` chains
//! the groups.

mod admin;
mod backend;
mod call;
mod client;
mod codes;
pub(crate) mod config;
mod details;
mod details_people;
mod ids;
mod media;
mod project;
mod reads;
mod search;
mod settings_revision;
mod shape;
mod status;
mod writes;

pub(crate) use backend::OmbiBackend;
pub use backend::tools;
pub(crate) use config::OmbiConfig;

#[cfg(test)]
mod tests;
