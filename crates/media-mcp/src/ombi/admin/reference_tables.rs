//! The local enum tables of `read_reference`: Ombi's own enum names and numeric
//! codes, read from its source, so agents can decode `*_code` fields. No upstream call.

use crate::ombi::codes::{ISSUE_STATUSES, RequestKind};

/// One local table: its `kind`, the `category` its records carry, and `(code, upstream name)`.
pub struct Table {
    /// The `kind` argument that selects it.
    pub kind: &'static str,
    /// The record category.
    pub category: &'static str,
    /// Codes and Ombi's names for them.
    pub rows: &'static [(i64, &'static str)],
}

/// `RequestType` codes and names, from [`RequestKind`].
const REQUEST_TYPES: [(i64, &str); 3] = {
    let k = RequestKind::ALL;
    [
        (k[0].code(), k[0].upstream_name()),
        (k[1].code(), k[1].upstream_name()),
        (k[2].code(), k[2].upstream_name()),
    ]
};

/// `IssueStatus` codes and names, from [`ISSUE_STATUSES`].
const ISSUE_STATUS_NAMES: [(i64, &str); 4] = {
    let s = ISSUE_STATUSES;
    [
        (s[0].0, s[0].2),
        (s[1].0, s[1].2),
        (s[2].0, s[2].2),
        (s[3].0, s[3].2),
    ]
};

/// Every local table, in the order of the `kind` enum.
pub static TABLES: &[Table] = &[
    Table {
        kind: "request_types",
        category: "request_type",
        rows: &REQUEST_TYPES,
    },
    Table {
        kind: "issue_statuses",
        category: "issue_status",
        rows: &ISSUE_STATUS_NAMES,
    },
    Table {
        kind: "vote_types",
        category: "vote_type",
        rows: &[(0, "Upvote"), (1, "Downvote")],
    },
    Table {
        kind: "notification_agents",
        category: "notification_agent",
        rows: &[
            (0, "Email"),
            (1, "Discord"),
            (2, "Pushbullet"),
            (3, "Pushover"),
            (4, "Telegram"),
            (5, "Slack"),
            (6, "Mattermost"),
            (7, "Mobile"),
            (8, "Gotify"),
            (9, "Webhook"),
            (10, "WhatsApp"),
            (11, "Ntfy"),
        ],
    },
    Table {
        kind: "request_statuses",
        category: "request_status",
        rows: &[
            (0, "PendingApproval"),
            (1, "ProcessingRequest"),
            (2, "Available"),
            (3, "Denied"),
        ],
    },
    Table {
        kind: "limit_types",
        category: "request_limit_type",
        rows: &[(0, "Day"), (1, "Week"), (2, "Month")],
    },
];

/// The table for `kind`, if it is a local one.
pub fn table(kind: &str) -> Option<&'static Table> {
    TABLES.iter().find(|t| t.kind == kind)
}

#[cfg(test)]
mod tests;
