//! The demo's short tour: a few representative calls, each printed as the request and a
//! readable summary of its result. Only tools the component lists are called.

use std::fmt::Write as _;

use serde_json::Value;

use host_harness::app::Host;
use host_harness::present;

/// The tour: tool name and arguments, in order.
pub const TOUR: &[(&str, &str)] = &[
    ("read_search", r#"{"query":"matrix","media":"movie"}"#),
    ("read_media", r#"{"media":"movie","id":"603"}"#),
    ("write_request_create", r#"{"media":"movie","tmdb_id":603}"#),
];

/// Runs the tour and returns its text.
pub async fn tour(host: &Host) -> String {
    let mut out = String::new();
    let stops: Vec<_> = TOUR
        .iter()
        .filter(|(name, _)| host.tools().iter().any(|t| t.name == *name))
        .collect();
    if stops.is_empty() {
        out.push_str("The component lists none of the tour's tools; nothing to call.\n");
        return out;
    }
    for (name, arguments) in stops {
        let Ok(Value::Object(args)) = serde_json::from_str::<Value>(arguments) else {
            continue;
        };
        let _ = writeln!(out, "\n> {name} {arguments}");
        match host.call(name, Some(args), None).await {
            Ok(result) => out.push_str(&present::result_summary(&result)),
            Err(error) => {
                let _ = writeln!(out, "  protocol error {}: {}", error.code.0, error.message);
            }
        }
    }
    out
}
