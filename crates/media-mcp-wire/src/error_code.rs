//! The contract's 13 error codes (`$defs/error/properties/code`): what a failed tool result's
//! `error.code` says, written once for the plugin and the hosts that make results themselves.

/// The contract's error codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// An argument is missing, unknown, of the wrong type or out of range.
    InvalidArgument,
    /// Upstream refused the credentials (HTTP 401).
    AuthenticationFailed,
    /// Upstream or policy refused the action for this principal.
    Forbidden,
    /// The addressed thing does not exist upstream.
    NotFound,
    /// Not configured, or not offered by this upstream.
    UnsupportedCapability,
    /// Upstream answered with a failure (business or HTTP).
    UpstreamRejected,
    /// Upstream asked us to slow down, or a quota is exhausted.
    RateLimited,
    /// No answer in time; the request was not a mutation that may have run.
    Timeout,
    /// A mutation was sent and its effect cannot be known.
    UnknownOutcome,
    /// The change conflicts with the current upstream state.
    Conflict,
    /// Part of a compound operation failed.
    PartialFailure,
    /// Upstream answered with something that is not the documented shape.
    UpstreamSchemaMismatch,
    /// A fault inside the plugin or its host.
    InternalError,
}

impl ErrorCode {
    /// Every code, in the contract's order.
    pub const ALL: [ErrorCode; 13] = [
        Self::InvalidArgument,
        Self::AuthenticationFailed,
        Self::Forbidden,
        Self::NotFound,
        Self::UnsupportedCapability,
        Self::UpstreamRejected,
        Self::RateLimited,
        Self::Timeout,
        Self::UnknownOutcome,
        Self::Conflict,
        Self::PartialFailure,
        Self::UpstreamSchemaMismatch,
        Self::InternalError,
    ];

    /// The wire name, for example `INVALID_ARGUMENT`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InvalidArgument => "INVALID_ARGUMENT",
            Self::AuthenticationFailed => "AUTHENTICATION_FAILED",
            Self::Forbidden => "FORBIDDEN",
            Self::NotFound => "NOT_FOUND",
            Self::UnsupportedCapability => "UNSUPPORTED_CAPABILITY",
            Self::UpstreamRejected => "UPSTREAM_REJECTED",
            Self::RateLimited => "RATE_LIMITED",
            Self::Timeout => "TIMEOUT",
            Self::UnknownOutcome => "UNKNOWN_OUTCOME",
            Self::Conflict => "CONFLICT",
            Self::PartialFailure => "PARTIAL_FAILURE",
            Self::UpstreamSchemaMismatch => "UPSTREAM_SCHEMA_MISMATCH",
            Self::InternalError => "INTERNAL_ERROR",
        }
    }
}
