//! The Seerr backend: the same tools, input schemas and result families as the Ombi backend
//! where Seerr means the same thing, over Seerr's `/api/v1`, acting as the principal through
//! `X-API-User`.
//!
//! Every tool declares its `SeerrTool` spec as `TOOL` in its own file, next to its input
//! schema and handler; `backend.rs` lists them in catalogue order.

mod backend;
mod client;
pub(crate) mod config;
mod identity;
mod issues;
mod media;
mod project;
mod requests;
mod search;
mod server;
mod states;
mod status;
mod tool;
mod users;
mod writes;

pub(crate) use backend::SeerrBackend;
pub use backend::tools;
pub(crate) use config::SeerrConfig;

#[cfg(test)]
mod tests;
