//! The write tools, all returning the `mutation` family (ledger §3.15).

use crate::catalogue::ToolSpec;

/// The tools of this group, in catalogue order.
pub static TOOLS: &[&ToolSpec] = &[];
