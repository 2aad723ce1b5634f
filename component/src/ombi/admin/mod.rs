//! Read tools for the server and its setup: read_reference, read_library, read_server, read_integration, read_settings, read_logs (ledger §3.4, §3.10–§3.14).

use crate::catalogue::ToolSpec;

/// The tools of this group, in catalogue order.
pub static TOOLS: &[&ToolSpec] = &[];
