//! Seerr's status enums as its code defines them (`server/constants/media.ts`, `issue.ts`;
//! the OpenAPI file of v3.1.0 is out of date there): numbers in, contract words out. A number
//! outside the enum is no state at all (`None`), never a guess.

/// `MediaStatus`: a title's standard or 4K state.
pub fn media_status(code: i64) -> Option<&'static str> {
    Some(match code {
        1 => "unknown",
        2 => "pending",
        3 => "processing",
        4 => "partially_available",
        5 => "available",
        6 => "blocklisted",
        7 => "deleted",
        _ => return None,
    })
}

/// `MediaStatus.AVAILABLE`.
pub const MEDIA_AVAILABLE: i64 = 5;

/// `MediaRequestStatus`: a request's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestStatus {
    Pending,
    Approved,
    Declined,
    Failed,
    Completed,
}

impl RequestStatus {
    /// The state numbered `code`.
    pub fn from_code(code: i64) -> Option<Self> {
        Some(match code {
            1 => Self::Pending,
            2 => Self::Approved,
            3 => Self::Declined,
            4 => Self::Failed,
            5 => Self::Completed,
            _ => return None,
        })
    }

    /// Seerr's name for it, lower case.
    pub fn word(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Declined => "declined",
            Self::Failed => "failed",
            Self::Completed => "completed",
        }
    }

    /// Whether an administrator let it through: approved, and also failed (approved, then the
    /// send to Radarr/Sonarr failed) and completed.
    pub fn approved(self) -> bool {
        matches!(self, Self::Approved | Self::Failed | Self::Completed)
    }
}

/// `IssueStatus`: open (1) or resolved (2), as the contract's `pending` and `resolved`.
pub fn issue_status(code: i64) -> Option<&'static str> {
    match code {
        1 => Some("pending"),
        2 => Some("resolved"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_states_follow_the_code_not_the_openapi_file() {
        assert_eq!(media_status(4), Some("partially_available"));
        assert_eq!(media_status(6), Some("blocklisted"));
        assert_eq!(media_status(7), Some("deleted"));
        assert_eq!(media_status(0), None);
        assert_eq!(media_status(8), None);
    }

    #[test]
    fn request_states_and_what_counts_as_approved() {
        let all: Vec<_> = (1..=5).filter_map(RequestStatus::from_code).collect();
        let words: Vec<_> = all.iter().map(|s| s.word()).collect();
        assert_eq!(
            words,
            ["pending", "approved", "declined", "failed", "completed"]
        );
        let approved: Vec<_> = all.iter().map(|s| s.approved()).collect();
        assert_eq!(approved, [false, true, false, true, true]);
        assert_eq!(RequestStatus::from_code(6), None);
    }
}
