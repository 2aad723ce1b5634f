//! Configuration from the environment the host gives the component.
//!
//! `OMBI_URL` (base URL, may carry a path prefix), optional `OMBI_API_KEY` (only for hosts that
//! cannot inject the `ApiKey` header themselves), optional `OMBI_USER` (default user to act as),
//! optional `MEDIA_MCP_CALL_DEADLINE_MS`. With no usable `OMBI_URL`, no Ombi tools are listed.
//! MoviePilot's settings (`MOVIEPILOT_URL`, ...) are read by [`crate::moviepilot::config`].

use crate::prelude::*;
/// A validated `http(s)://authority[/prefix]` base URL without trailing slash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl(String);

impl BaseUrl {
    /// Parses a base URL. Userinfo, query and fragment are refused (a key must never sit in a URL).
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn parse(raw: &str) -> Result<Self, String> {
        let raw = raw.trim();
        let (scheme, rest) = raw
            .split_once("://")
            .ok_or("must start with http:// or https://")?;
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return Err("must start with http:// or https://".into());
        }
        if rest.contains(['?', '#']) {
            return Err("must not carry a query or fragment".into());
        }
        let authority = rest.split('/').next().unwrap_or("");
        if authority.is_empty() {
            return Err("has no host".into());
        }
        if authority.contains('@') {
            return Err("must not carry credentials".into());
        }
        if raw.chars().any(|c| c.is_control() || c == ' ') {
            return Err("must not contain spaces or control characters".into());
        }
        Ok(Self(format!(
            "{}://{}",
            scheme.to_ascii_lowercase(),
            rest.trim_end_matches('/')
        )))
    }

    /// The URL for `path` (which starts with `/`) under this base.
    pub fn join(&self, path: &str) -> String {
        format!("{}{}", self.0, path)
    }

    /// The base URL as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

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

/// Default whole-call deadline.
pub const DEFAULT_CALL_DEADLINE_MS: u64 = 30_000;

/// Everything the component reads from its environment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Config {
    /// Ombi, when configured.
    pub ombi: Option<OmbiConfig>,
    /// MoviePilot, when `MOVIEPILOT_URL` is set and usable.
    pub moviepilot: Option<crate::moviepilot::MoviePilotConfig>,
    /// Whole-call deadline in milliseconds.
    pub call_deadline_ms: u64,
    /// Problems found while reading the environment (reported in tool results, never secrets).
    pub problems: Vec<String>,
}

fn non_empty(v: Option<String>) -> Option<String> {
    v.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty())
}

impl Config {
    /// Reads the configuration through `var` (the environment in the guest, a map in tests).
    pub fn from_lookup(var: impl Fn(&str) -> Option<String>) -> Self {
        let mut problems = Vec::new();
        let ombi = non_empty(var("OMBI_URL")).and_then(|raw| match BaseUrl::parse(&raw) {
            Ok(base_url) => Some(OmbiConfig {
                base_url,
                api_key: non_empty(var("OMBI_API_KEY")),
                default_user: non_empty(var("OMBI_USER")),
            }),
            Err(why) => {
                problems.push(format!("OMBI_URL {why}"));
                None
            }
        });
        let call_deadline_ms = match non_empty(var("MEDIA_MCP_CALL_DEADLINE_MS")) {
            None => DEFAULT_CALL_DEADLINE_MS,
            Some(v) => match v.parse::<u64>() {
                Ok(ms) if (100..=600_000).contains(&ms) => ms,
                _ => {
                    problems.push("MEDIA_MCP_CALL_DEADLINE_MS must be 100..=600000".into());
                    DEFAULT_CALL_DEADLINE_MS
                }
            },
        };
        let moviepilot = crate::moviepilot::config::from_lookup(&var, &mut problems);
        Self {
            ombi,
            moviepilot,
            call_deadline_ms,
            problems,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn cfg(pairs: &[(&str, &str)]) -> Config {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn no_url_means_no_ombi() {
        assert_eq!(cfg(&[]).ombi, None);
        assert_eq!(cfg(&[("OMBI_URL", "  ")]).ombi, None);
    }

    #[test]
    fn base_path_is_kept_and_slash_trimmed() {
        let c = cfg(&[
            ("OMBI_URL", "https://media.example/ombi/"),
            ("OMBI_USER", "alice"),
        ]);
        let o = c.ombi.unwrap();
        assert_eq!(
            o.base_url.join("/api/v1/Status"),
            "https://media.example/ombi/api/v1/Status"
        );
        assert_eq!(o.default_user.as_deref(), Some("alice"));
    }

    #[test]
    fn credentials_in_the_url_are_refused() {
        let c = cfg(&[("OMBI_URL", "http://user:pw@host:5000")]);
        assert_eq!(c.ombi, None);
        assert!(c.problems[0].contains("OMBI_URL"));
        assert!(!c.problems[0].contains("pw"));
    }
}
