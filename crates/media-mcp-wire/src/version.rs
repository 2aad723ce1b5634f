//! The protocol versions spoken on every transport (stdio and Streamable HTTP alike).

/// Modern versions: every request carries its version and capabilities in `_meta`; no
/// `initialize`, `server/discover` instead.
pub const MODERN: &[&str] = &["2026-07-28"];

/// Legacy versions, negotiated by `initialize`, newest first.
pub const LEGACY: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// Every version spoken, newest first (what `server/discover` and -32022 list).
pub const SUPPORTED: &[&str] = &[
    "2026-07-28",
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
];

/// The answer to an `initialize` asking for a version not spoken here: the newest legacy one.
pub const NEWEST_LEGACY: &str = LEGACY[0];

/// The version a Streamable HTTP request without `MCP-Protocol-Version` is taken as (the
/// header did not exist before 2025-06-18).
pub const HTTP_DEFAULT: &str = "2025-03-26";

/// Whether `version` is spoken here.
pub fn supported(version: &str) -> bool {
    SUPPORTED.contains(&version)
}

/// Whether `version` is a modern one spoken here.
pub fn modern(version: &str) -> bool {
    MODERN.contains(&version)
}

/// Whether `version` is at least the first modern revision (spoken here or not): ISO dates
/// compare as text.
pub fn is_modern_era(version: &str) -> bool {
    version >= MODERN[MODERN.len() - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supported_is_modern_then_legacy() {
        let joined: alloc::vec::Vec<&str> = MODERN.iter().chain(LEGACY).copied().collect();
        assert_eq!(joined, SUPPORTED);
        assert!(modern("2026-07-28") && !modern("2025-11-25"));
        assert!(is_modern_era("2027-01-01") && !is_modern_era("2025-11-25"));
        assert!(supported("2024-11-05") && !supported("1900-01-01"));
    }
}
