//! `serve --http`: the front door's connection limits and timeouts, each read by its entry in
//! the configuration table.

use std::time::Duration;

use super::raw::{ConfigError, RawSettings};
use super::table;

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
        let secs = |v| raw.number(v).map(Duration::from_secs);
        Ok(FrontDoor {
            max_connections: usize::try_from(raw.number(&table::HTTP_MAX_CONNECTIONS)?)
                .unwrap_or(usize::MAX),
            header_timeout: secs(&table::HTTP_HEADER_TIMEOUT_SECS)?,
            idle_timeout: secs(&table::HTTP_IDLE_TIMEOUT_SECS)?,
            body_timeout: secs(&table::HTTP_BODY_TIMEOUT_SECS)?,
        })
    }
}
