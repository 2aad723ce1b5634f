//! The settings `revision` and the per-section allowlist of writable, non-secret fields, shared
//! by `read_settings` (which emits the revision) and `write_settings_update` (which checks it).
//!
//! **Revision algorithm.** For a writable section, take the allowlisted leaves (JSON Pointer →
//! scalar value) present in the upstream object, in pointer order, and hash the canonical JSON
//! text `{"section":<name>,"values":[[<pointer>,<value>],...]}` with FNV-1a 64-bit; the
//! revision is the hash as 16 lower-case hex digits. Only non-secret fields feed the hash, so a
//! revision reveals nothing about keys or tokens. Fields the caller cannot see are not part of
//! the revision, and the writer always sends back the freshly read upstream object, so they are
//! never overwritten with stale values.
//!
//! Array leaves (`/excludedKeywordIds/<i>`, `/defaultRoles/<i>`) are display-only: array
//! indices are never mutation identifiers (contract, `settings` family), so they are neither
//! writable nor part of the revision. Read-only computed leaves (`/noticeEnabled`, `/expired`)
//! are not writable either.

use crate::prelude::*;
use serde_json::Value;

/// What a writable leaf accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaf {
    /// `true`/`false`.
    Bool,
    /// An integer in `min..=max`.
    Int(i64, i64),
    /// A non-null string of at most this many characters.
    Text(usize),
    /// A string of at most this many characters, or `null`.
    OptText(usize),
}

/// A section `write_settings_update` may change.
#[derive(Debug)]
pub struct SectionSpec {
    /// The section name (`read_settings`/`write_settings_update` `section` argument).
    pub name: &'static str,
    /// The GET route returning the full section.
    pub read_path: &'static str,
    /// The POST route taking the full section back (`features` posts per flag instead).
    pub write_path: &'static str,
    /// Writable, non-secret scalar leaves as JSON Pointers, with what each accepts.
    pub writable: &'static [(&'static str, Leaf)],
}

const CRON: Leaf = Leaf::Text(100);

/// Every writable section, in the order of the `section` enum.
pub static WRITABLE_SECTIONS: &[SectionSpec] = &[
    SectionSpec {
        name: "ombi",
        read_path: "/api/v1/Settings/ombi",
        write_path: "/api/v1/Settings/ombi",
        writable: &[
            ("/collectAnalyticData", Leaf::Bool),
            ("/doNotSendNotificationsForAutoApprove", Leaf::Bool),
            ("/hideRequestsUsers", Leaf::Bool),
            ("/disableHealthChecks", Leaf::Bool),
            ("/defaultLanguageCode", Leaf::Text(10)),
            ("/autoDeleteAvailableRequests", Leaf::Bool),
            ("/autoDeleteAfterDays", Leaf::Int(0, 3650)),
            // Branch enum: 0 Develop, 1 Stable.
            ("/branch", Leaf::Int(0, 1)),
        ],
    },
    SectionSpec {
        name: "customization",
        read_path: "/api/v1/Settings/customization",
        write_path: "/api/v1/Settings/customization",
        writable: &[
            ("/applicationName", Leaf::OptText(100)),
            ("/enableCustomDonations", Leaf::Bool),
            ("/recentlyAddedPage", Leaf::Bool),
            ("/useCustomPage", Leaf::Bool),
            ("/hideAvailableFromDiscover", Leaf::Bool),
            ("/hideAvailableRecentlyRequested", Leaf::Bool),
        ],
    },
    SectionSpec {
        name: "issues",
        read_path: "/api/v1/Settings/Issues",
        write_path: "/api/v1/Settings/Issues",
        writable: &[
            ("/enabled", Leaf::Bool),
            ("/enableInProgress", Leaf::Bool),
            ("/deleteIssues", Leaf::Bool),
            ("/daysAfterResolvedToDelete", Leaf::Int(0, 3650)),
        ],
    },
    SectionSpec {
        name: "vote",
        read_path: "/api/v1/Settings/vote",
        write_path: "/api/v1/Settings/vote",
        writable: &[
            ("/enabled", Leaf::Bool),
            ("/movieVoteMax", Leaf::Int(0, 100_000)),
            ("/musicVoteMax", Leaf::Int(0, 100_000)),
            ("/tvShowVoteMax", Leaf::Int(0, 100_000)),
        ],
    },
    SectionSpec {
        name: "user_management",
        read_path: "/api/v1/Settings/UserManagement",
        write_path: "/api/v1/Settings/UserManagement",
        writable: &[
            ("/importPlexAdmin", Leaf::Bool),
            ("/importPlexUsers", Leaf::Bool),
            ("/cleanupPlexUsers", Leaf::Bool),
            ("/importEmbyUsers", Leaf::Bool),
            ("/importJellyfinUsers", Leaf::Bool),
            ("/movieRequestLimit", Leaf::Int(0, 100_000)),
            // RequestLimitType: 0 Day, 1 Week, 2 Month.
            ("/movieRequestLimitType", Leaf::Int(0, 2)),
            ("/episodeRequestLimit", Leaf::Int(0, 100_000)),
            ("/episodeRequestLimitType", Leaf::Int(0, 2)),
            ("/musicRequestLimit", Leaf::Int(0, 100_000)),
            ("/musicRequestLimitType", Leaf::Int(0, 2)),
            ("/defaultStreamingCountry", Leaf::OptText(10)),
        ],
    },
    SectionSpec {
        name: "authentication",
        read_path: "/api/v1/Settings/authentication",
        write_path: "/api/v1/Settings/authentication",
        writable: &[
            ("/allowNoPassword", Leaf::Bool),
            ("/requireDigit", Leaf::Bool),
            ("/requiredLength", Leaf::Int(0, 128)),
            ("/requireLowercase", Leaf::Bool),
            ("/requireNonAlphanumeric", Leaf::Bool),
            ("/requireUppercase", Leaf::Bool),
            ("/enableOAuth", Leaf::Bool),
            ("/enableHeaderAuth", Leaf::Bool),
            ("/headerAuthCreateUser", Leaf::Bool),
        ],
    },
    SectionSpec {
        name: "themoviedb",
        read_path: "/api/v1/Settings/themoviedb",
        write_path: "/api/v1/Settings/themoviedb",
        writable: &[("/showAdultMovies", Leaf::Bool)],
    },
    SectionSpec {
        name: "landing_page",
        read_path: "/api/v1/Settings/landingpage",
        write_path: "/api/v1/Settings/landingpage",
        writable: &[
            ("/enabled", Leaf::Bool),
            ("/noticeText", Leaf::OptText(2000)),
            ("/timeLimit", Leaf::Bool),
            ("/startDateTime", Leaf::Text(40)),
            ("/endDateTime", Leaf::Text(40)),
        ],
    },
    SectionSpec {
        name: "jobs",
        read_path: "/api/v1/Settings/jobs",
        write_path: "/api/v1/Settings/jobs",
        writable: &[
            ("/embyContentSync", CRON),
            ("/embyRecentlyAddedSync", CRON),
            ("/jellyfinContentSync", CRON),
            ("/sonarrSync", CRON),
            ("/radarrSync", CRON),
            ("/plexContentSync", CRON),
            ("/plexRecentlyAddedSync", CRON),
            ("/couchPotatoSync", CRON),
            ("/automaticUpdater", CRON),
            ("/userImporter", CRON),
            ("/sickRageSync", CRON),
            ("/newsletter", CRON),
            ("/lidarrArtistSync", CRON),
            ("/issuesPurge", CRON),
            ("/retryRequests", CRON),
            ("/mediaDatabaseRefresh", CRON),
            ("/autoDeleteRequests", CRON),
            ("/plexWatchlistImport", CRON),
        ],
    },
    SectionSpec {
        name: "features",
        read_path: "/api/v2/Features",
        // Features are switched one by one: POST /api/v2/Features/{enable|disable} {name}.
        write_path: "/api/v2/Features",
        writable: &[
            ("/Movie4KRequests", Leaf::Bool),
            ("/PlayedSync", Leaf::Bool),
        ],
    },
];

/// The writable section called `name`, if any.
pub fn section(name: &str) -> Option<&'static SectionSpec> {
    WRITABLE_SECTIONS.iter().find(|s| s.name == name)
}

/// What `pointer` accepts in `section`, or `None` when it is not writable there.
pub fn writable_leaf(section_name: &str, pointer: &str) -> Option<Leaf> {
    section(section_name)?
        .writable
        .iter()
        .find(|(p, _)| *p == pointer)
        .map(|(_, l)| *l)
}

/// The current value of a leaf: a JSON Pointer into the object, or for `features` (a
/// `[{name, enabled}]` list upstream) the `enabled` flag of the feature named by the pointer.
pub fn leaf_value<'v>(section_name: &str, upstream: &'v Value, pointer: &str) -> Option<&'v Value> {
    if section_name == "features" {
        let name = pointer.strip_prefix('/')?;
        return upstream
            .as_array()?
            .iter()
            .find(|f| f.get("name").and_then(Value::as_str) == Some(name))?
            .get("enabled");
    }
    upstream.pointer(pointer)
}

/// The allowlisted writable leaves present in `upstream` (scalars only), in allowlist order.
/// Empty for a section that is not writable.
pub fn writable_values(section_name: &str, upstream: &Value) -> Vec<(&'static str, Value)> {
    let Some(spec) = section(section_name) else {
        return Vec::new();
    };
    spec.writable
        .iter()
        .filter_map(|(p, _)| {
            let v = leaf_value(section_name, upstream, p)?;
            (!v.is_array() && !v.is_object()).then(|| (*p, v.clone()))
        })
        .collect()
}

/// The revision of `upstream` for a writable section, or `None` when the section is not
/// writable (then `read_settings` emits no revision).
pub fn revision(section_name: &str, upstream: &Value) -> Option<String> {
    section(section_name)?;
    let mut values = writable_values(section_name, upstream);
    values.sort_by(|a, b| a.0.cmp(b.0));
    // Scalars serialize the same way every time (no object keys to order), so this text is
    // canonical without relying on serde_json's map ordering features.
    let pairs: Vec<String> = values
        .iter()
        .map(|(p, v)| format!("[{},{}]", Value::from(*p), v))
        .collect();
    let text = format!(
        "{{\"section\":{},\"values\":[{}]}}",
        Value::from(section_name),
        pairs.join(",")
    );
    Some(format!("{:016x}", fnv1a64(text.as_bytes())))
}

/// FNV-1a, 64-bit.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, b| (h ^ u64::from(*b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests;
