//! Seerr's settings from the environment the host gives the component.
//!
//! `SEERR_URL` (base URL, may carry a path prefix), optional `SEERR_API_KEY` (only for hosts
//! that cannot inject the `X-Api-Key` header themselves), optional `SEERR_USER` (the user to act
//! as by default: a Seerr user id or a name). One request server per deployment: `SEERR_URL`
//! with `OMBI_URL` makes both unusable, each reporting the problem through its status tool.

use media_mcp_wire::variables::{OMBI_URL, SEERR_API_KEY, SEERR_URL, SEERR_USER};

use crate::prelude::*;
use crate::tool::ConfigProblem;
use crate::upstream::{BaseUrl, non_empty};

/// Seerr settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeerrConfig {
    /// Where Seerr is served, base path included (the tools add `/api/v1`).
    pub base_url: BaseUrl,
    /// The key, when the host passes it instead of injecting the header.
    pub api_key: Option<String>,
    /// The user calls act as when the call context names none.
    pub default_user: Option<String>,
}

/// Why `variable` cannot be used together with `other` (both request servers' URLs).
fn with_other_request_server(other: &str) -> String {
    format!(
        "is set together with {other}: a deployment uses one request server (Ombi or Seerr); MoviePilot works beside either"
    )
}

/// Reads the Seerr settings; `None` when `SEERR_URL` is unset or unusable (then a problem
/// naming the variable is added to `problems`).
pub fn from_lookup(
    var: &dyn Fn(&str) -> Option<String>,
    problems: &mut Vec<ConfigProblem>,
) -> Option<SeerrConfig> {
    let raw = non_empty(var(SEERR_URL.name))?;
    if non_empty(var(OMBI_URL.name)).is_some() {
        problems.push(ConfigProblem::new(
            OMBI_URL.name,
            with_other_request_server(SEERR_URL.name),
        ));
        problems.push(ConfigProblem::new(
            SEERR_URL.name,
            with_other_request_server(OMBI_URL.name),
        ));
        return None;
    }
    match BaseUrl::parse(&raw) {
        Ok(base_url) => Some(SeerrConfig {
            base_url,
            api_key: non_empty(var(SEERR_API_KEY.name)),
            default_user: non_empty(var(SEERR_USER.name)),
        }),
        Err(why) => {
            problems.push(ConfigProblem::new(SEERR_URL.name, why));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(pairs: &[(&str, &str)]) -> (Option<SeerrConfig>, Vec<ConfigProblem>) {
        let mut problems = Vec::new();
        let var = |name: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        };
        (from_lookup(&var, &mut problems), problems)
    }

    #[test]
    fn seerr_url_user_and_key_are_read() {
        let (config, problems) = read(&[
            ("SEERR_URL", "http://127.0.0.1:5055/seerr/"),
            ("SEERR_USER", "alice"),
        ]);
        let config = config.expect("configured");
        assert!(problems.is_empty());
        assert_eq!(config.default_user.as_deref(), Some("alice"));
        assert_eq!(config.api_key, None);
        assert_eq!(
            config.base_url.join("/api/v1/status"),
            "http://127.0.0.1:5055/seerr/api/v1/status"
        );
    }

    #[test]
    fn with_ombi_url_neither_is_used_and_both_are_named() {
        let (config, problems) = read(&[
            ("SEERR_URL", "http://127.0.0.1:5055"),
            ("OMBI_URL", "http://127.0.0.1:5000"),
        ]);
        assert!(config.is_none());
        let named: Vec<&str> = problems.iter().map(|p| p.variable).collect();
        assert_eq!(named, ["OMBI_URL", "SEERR_URL"]);
        assert!(
            problems[0]
                .to_string()
                .starts_with("OMBI_URL is set together with SEERR_URL")
        );
    }

    #[test]
    fn unset_is_no_backend_and_no_problem() {
        assert_eq!(read(&[]), (None, Vec::new()));
    }
}
