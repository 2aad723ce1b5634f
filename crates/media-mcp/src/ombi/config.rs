//! Ombi's settings from the environment the host gives the component.
//!
//! `OMBI_URL` (base URL, may carry a path prefix), optional `OMBI_API_KEY` (only for hosts that
//! cannot inject the `ApiKey` header themselves), optional `OMBI_USER` (default user to act as).
//! With no usable `OMBI_URL`, no Ombi tools are listed.

use media_mcp_wire::variables::{OMBI_API_KEY, OMBI_URL, OMBI_USER};

use crate::prelude::*;
use crate::tool::ConfigProblem;
use crate::upstream::{BaseUrl, non_empty};

/// Ombi settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OmbiConfig {
    /// Where Ombi is served, base path included.
    pub base_url: BaseUrl,
    /// The key, when the host passes it instead of injecting the header.
    pub api_key: Option<String>,
    /// The user calls act as when the call context names none.
    pub default_user: Option<String>,
}

/// Reads the Ombi settings; `None` when `OMBI_URL` is unset or unusable (then a problem naming
/// the variable is added to `problems`).
pub fn from_lookup(
    var: &dyn Fn(&str) -> Option<String>,
    problems: &mut Vec<ConfigProblem>,
) -> Option<OmbiConfig> {
    non_empty(var(OMBI_URL.name)).and_then(|raw| match BaseUrl::parse(&raw) {
        Ok(base_url) => Some(OmbiConfig {
            base_url,
            api_key: non_empty(var(OMBI_API_KEY.name)),
            default_user: non_empty(var(OMBI_USER.name)),
        }),
        Err(why) => {
            problems.push(ConfigProblem::new(OMBI_URL.name, why));
            None
        }
    })
}
