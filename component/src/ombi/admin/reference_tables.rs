//! The local enum tables of `read_reference`: Ombi's own enum names and numeric
//! codes, read from its source, so agents can decode `*_code` fields. No upstream call.

/// One local table: its `kind`, the `category` its records carry, and `(code, upstream name)`.
pub struct Table {
    /// The `kind` argument that selects it.
    pub kind: &'static str,
    /// The record category.
    pub category: &'static str,
    /// Codes and Ombi's names for them.
    pub rows: &'static [(i64, &'static str)],
}

/// Every local table, in the order of the `kind` enum.
pub static TABLES: &[Table] = &[
    // Upstream 0 is TV, not movie.
    Table {
        kind: "request_types",
        category: "request_type",
        rows: &[(0, "TvShow"), (1, "Movie"), (2, "Album")],
    },
    // Code 3 is upstream `Deleted` (the contract's issue label set has no such label).
    Table {
        kind: "issue_statuses",
        category: "issue_status",
        rows: &[
            (0, "Pending"),
            (1, "InProgress"),
            (2, "Resolved"),
            (3, "Deleted"),
        ],
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
