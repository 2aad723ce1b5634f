//! Read tools for requests and people: read_discover, read_requests, read_request_stats, read_issues, read_votes, read_users (ledger §3.2, §3.5–§3.9).

use crate::catalogue::ToolSpec;

/// The tools of this group, in catalogue order.
pub static TOOLS: &[&ToolSpec] = &[];
