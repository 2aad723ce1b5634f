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

use crate::ombi::call::OmbiTool;

/// The tools of this group, in catalogue order.
pub static TOOLS: &[&OmbiTool] = &[
    &reference::TOOL,
    &library::TOOL,
    &server::TOOL,
    &integration::TOOL,
    &settings::TOOL,
    &logs::TOOL,
];

#[cfg(test)]
mod tests;
