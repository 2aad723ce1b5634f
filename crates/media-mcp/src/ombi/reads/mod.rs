//! Read tools for requests and people: read_discover, read_requests, read_request_stats,
//! read_issues, read_votes, read_users. One file per tool; shared
//! record building and enum tables live in [`common`].

mod common;
mod discover;
mod issues;
mod request_items;
mod request_stats;
mod requests;
mod users;
mod votes;

use crate::ombi::call::OmbiTool;

/// The tools of this group, in catalogue order.
pub static TOOLS: &[&OmbiTool] = &[
    &discover::TOOL,
    &requests::TOOL,
    &request_stats::TOOL,
    &issues::TOOL,
    &votes::TOOL,
    &users::TOOL,
];

#[cfg(test)]
mod tests;
