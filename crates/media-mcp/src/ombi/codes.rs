//! Ombi's enum codes the plugin reads and sends, each mapped in one place: the request kind
//! (Ombi's `RequestType`, with the base of its request routes) and the issue status
//! (`IssueStatus`). `read_reference` publishes the same tables.

use crate::tool::Choice;

/// The ISO 639-1 language sent in Ombi's search and request models when the caller names none
/// (the tools' `language_code` schemas state no default, so this is the one place it lives).
pub(crate) const DEFAULT_LANGUAGE_CODE: &str = "en";

/// Ombi's `RequestType`: the kind of media a request, issue or vote is about. Upstream 0 is
/// TV, not movie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RequestKind {
    /// `TvShow` (0), label `tv`.
    Tv,
    /// `Movie` (1), label `movie`.
    Movie,
    /// `Album` (2), label `album`.
    Album,
}

impl RequestKind {
    /// Every kind, in code order.
    pub(crate) const ALL: [RequestKind; 3] = [Self::Tv, Self::Movie, Self::Album];

    /// Ombi's numeric code.
    pub(crate) const fn code(self) -> i64 {
        match self {
            Self::Tv => 0,
            Self::Movie => 1,
            Self::Album => 2,
        }
    }

    /// The contract's label.
    pub(crate) const fn label(self) -> &'static str {
        match self {
            Self::Tv => "tv",
            Self::Movie => "movie",
            Self::Album => "album",
        }
    }

    /// Ombi's own name for the code.
    pub(crate) const fn upstream_name(self) -> &'static str {
        match self {
            Self::Tv => "TvShow",
            Self::Movie => "Movie",
            Self::Album => "Album",
        }
    }

    /// The base of Ombi's v1 request routes for this kind. The music controller answers at
    /// lower-case `/api/v1/request/music`.
    pub(crate) const fn route_base(self) -> &'static str {
        match self {
            Self::Tv => "/api/v1/Request/tv",
            Self::Movie => "/api/v1/Request/movie",
            Self::Album => "/api/v1/request/music",
        }
    }

    /// The kind with Ombi code `code`.
    pub(crate) fn from_code(code: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.code() == code)
    }

    /// The kind labelled `label` (`tv`, `movie`, `album`).
    pub(crate) fn from_label(label: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.label() == label)
    }
}

impl Choice for RequestKind {
    fn from_label(label: &str) -> Option<Self> {
        RequestKind::from_label(label)
    }
}

/// Ombi's `IssueStatus` codes with the contract's label and Ombi's name. Code 3 (`Deleted`) has
/// no label in the contract's issue schema, so only the argument side uses `deleted`.
pub(crate) const ISSUE_STATUSES: [(i64, &str, &str); 4] = [
    (0, "pending", "Pending"),
    (1, "in_progress", "InProgress"),
    (2, "resolved", "Resolved"),
    (3, "deleted", "Deleted"),
];

/// The IssueStatus code of `label`.
pub(crate) fn issue_status_code(label: &str) -> Option<i64> {
    ISSUE_STATUSES
        .iter()
        .find(|(_, l, _)| *l == label)
        .map(|(c, _, _)| *c)
}

/// The label a result may carry for IssueStatus `code` (0–2; `Deleted` has none).
pub(crate) fn issue_status_label(code: i64) -> Option<&'static str> {
    ISSUE_STATUSES[..3]
        .iter()
        .find(|(c, _, _)| *c == code)
        .map(|(_, l, _)| *l)
}

/// An issue-status argument (`pending`, `in_progress`, `resolved`, `deleted`) as Ombi's
/// `IssueStatus` code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IssueStatus(i64);

impl IssueStatus {
    /// Ombi's numeric code.
    pub(crate) const fn code(self) -> i64 {
        self.0
    }
}

impl Choice for IssueStatus {
    fn from_label(label: &str) -> Option<Self> {
        issue_status_code(label).map(Self)
    }
}
