//! Configuration from the environment the host gives the component: each backend's own settings
//! (read by [`crate::ombi::config`] and [`crate::moviepilot::config`]) and the whole-call
//! deadline `MEDIA_MCP_CALL_DEADLINE_MS` and the tool selection ([`Selection`]).

use crate::moviepilot::{self, MoviePilotConfig};
use crate::ombi::{self, OmbiConfig};
use crate::prelude::*;
use crate::seerr::{self, SeerrConfig};
use crate::tool::{ConfigProblem, Selection};

use media_mcp_wire::plugin_settings;

/// Everything the component reads from its environment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Config {
    /// Ombi, when configured.
    pub(crate) ombi: Option<OmbiConfig>,
    /// Seerr, when configured (never together with Ombi).
    pub(crate) seerr: Option<SeerrConfig>,
    /// MoviePilot, when `MOVIEPILOT_URL` is set and usable.
    pub(crate) moviepilot: Option<MoviePilotConfig>,
    /// Whole-call deadline in milliseconds.
    pub(crate) call_deadline_ms: u64,
    /// Which tools are published and callable.
    pub(crate) selection: Selection,
    /// Problems found while reading the environment (reported in tool results, never secrets).
    pub(crate) problems: Vec<ConfigProblem>,
}

impl Config {
    /// Reads the configuration through `var` (the environment in the guest, a map in tests).
    pub fn from_lookup(var: impl Fn(&str) -> Option<String>) -> Self {
        let mut problems = Vec::new();
        let mut ombi = ombi::config::from_lookup(&var, &mut problems);
        let seerr = seerr::config::from_lookup(&var, &mut problems);
        if problems
            .iter()
            .any(|p| p.variable == media_mcp_wire::variables::OMBI_URL.name)
        {
            // Set together with SEERR_URL: neither request server is used.
            ombi = None;
        }
        let call_deadline_ms = plugin_settings::call_deadline_ms(&var, &mut problems);
        let moviepilot = moviepilot::config::from_lookup(&var, &mut problems);
        let selection = Selection::from_lookup(&var, &mut problems);
        Self {
            ombi,
            seerr,
            moviepilot,
            call_deadline_ms,
            selection,
            problems,
        }
    }
}

#[cfg(test)]
mod tests;
