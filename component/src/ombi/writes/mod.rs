//! The write tools, all returning the `mutation` family (ledger §3.15).
//!
//! Every write: no automatic retry once the body was sent; a lost answer or a 500 is
//! `UNKNOWN_OUTCOME` and the catalogue adds a warning naming `reconcile_with`; results are
//! read by [`outcome`], the one place that interprets Ombi's result shapes.

mod outcome;
mod request_create;

use crate::catalogue::{Access, ToolSpec};

/// The tools of this group, in catalogue order.
pub static TOOLS: &[&ToolSpec] = &[&WRITE_REQUEST_CREATE];

static WRITE_REQUEST_CREATE: ToolSpec = ToolSpec {
    name: "write_request_create",
    title: "Request media",
    description: "Ask Ombi for a movie, TV show (all or chosen seasons/episodes), album or a whole TMDB movie collection. Take ids from read_search or read_media. Acting as a user applies that user's permissions, quotas and approval rules; with no user set, the API key acts as Ombi's administrator and the request is approved and sent to Radarr/Sonarr/Lidarr at once. Re-requesting something already requested is refused.",
    access: Access::Write,
    families: &["mutation"],
    input_schema: request_create::input_schema,
    handler: request_create::run,
    reconcile_with: Some("read_requests"),
};
