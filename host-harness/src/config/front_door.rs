//! `serve --http`: the front door's limits, one row per setting (name, bounds, default; the
//! help text is the setting's entry in [`super::VARIABLES`]).

use std::time::Duration;

use super::{ConfigError, RawSettings, bounded};

/// One bounded whole-number setting.
struct Limit {
    name: &'static str,
    min: u64,
    max: u64,
    default: u64,
}

/// Connections held at once (further ones wait in the listen queue, idle ones are closed to
/// make room); lowered at start to what the descriptor limit allows.
const MAX_CONNECTIONS: Limit = Limit {
    name: "MEDIA_MCP_HTTP_MAX_CONNECTIONS",
    min: 8,
    max: 65_536,
    default: 1024,
};
/// Seconds a client has to send a request's headers (from its connection or its previous
/// answer).
const HEADER_TIMEOUT: Limit = Limit {
    name: "MEDIA_MCP_HTTP_HEADER_TIMEOUT_SECS",
    min: 1,
    max: 600,
    default: 10,
};
/// Seconds a keep-alive connection may stay open with no request.
const IDLE_TIMEOUT: Limit = Limit {
    name: "MEDIA_MCP_HTTP_IDLE_TIMEOUT_SECS",
    min: 1,
    max: 3600,
    default: 30,
};
/// Seconds an authenticated client has to send its whole body (at most 4 MiB).
const BODY_TIMEOUT: Limit = Limit {
    name: "MEDIA_MCP_HTTP_BODY_TIMEOUT_SECS",
    min: 1,
    max: 600,
    default: 10,
};

/// The front door's limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrontDoor {
    /// Connections held at once, before the descriptor limit lowers it.
    pub max_connections: usize,
    /// Time to send a request's headers.
    pub header_timeout: Duration,
    /// Time a connection may stay open between requests.
    pub idle_timeout: Duration,
    /// Time to send a body.
    pub body_timeout: Duration,
}

impl FrontDoor {
    /// Reads the limits.
    ///
    /// # Errors
    ///
    /// A value outside its bounds, naming the variable.
    pub(crate) fn read(raw: &RawSettings) -> Result<FrontDoor, ConfigError> {
        let get = |l: &Limit| bounded(raw, l.name, l.min, l.max, l.default);
        let secs = |l: &Limit| get(l).map(Duration::from_secs);
        Ok(FrontDoor {
            max_connections: usize::try_from(get(&MAX_CONNECTIONS)?).unwrap_or(usize::MAX),
            header_timeout: secs(&HEADER_TIMEOUT)?,
            idle_timeout: secs(&IDLE_TIMEOUT)?,
            body_timeout: secs(&BODY_TIMEOUT)?,
        })
    }
}
