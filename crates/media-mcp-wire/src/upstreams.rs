//! Every upstream service once: its variables (URL, key, CA file, user), the header its key
//! travels in and the routes read without the key. The harness's configuration reading,
//! outbound policy, guest environment and connection pool iterate [`UPSTREAMS`]; a new backend
//! adds an entry here.

use crate::settings::{MOVIEPILOT_TOOL_DEADLINES, ToolDeadlines};
use crate::variables::{
    MOVIEPILOT_API_KEY, MOVIEPILOT_CA_FILE, MOVIEPILOT_URL, OMBI_API_KEY, OMBI_CA_FILE, OMBI_URL,
    OMBI_USER, SEERR_API_KEY, SEERR_CA_FILE, SEERR_URL, SEERR_USER, Variable,
};

/// Shortest API key accepted, by the harness at start and by the HTTP component when it holds
/// the keys: results are searched for the keys (in any case, across invisible characters) and
/// every match is replaced, and a shorter key would match ordinary text.
pub const MIN_KEY_CHARS: usize = 8;

/// One upstream service the harness may reach.
#[derive(Debug)]
pub struct Upstream {
    /// The service's name in prose (`Ombi`).
    pub name: &'static str,
    /// Its base URL (kind [`crate::variables::Kind::Url`]); unset, the upstream is not used.
    pub url: &'static Variable,
    /// Its API key (kind [`crate::variables::Kind::Secret`]), required with the URL.
    pub api_key: &'static Variable,
    /// Extra CA certificates trusted for its origin only (kind [`crate::variables::Kind::Path`]).
    pub ca_file: &'static Variable,
    /// The user calls act as by default, when the upstream has users to act as.
    pub user: Option<&'static Variable>,
    /// The request header the host puts the key in (unless the key goes to the guest).
    pub key_header: &'static str,
    /// Routes below the base path sent without the key, matched whole and without regard to
    /// case.
    pub keyless_paths: &'static [&'static str],
    /// Tools of this upstream that may run longer than the one call deadline; the host's call
    /// limit and first-byte wait for the upstream follow the longest.
    pub tool_deadlines: Option<&'static ToolDeadlines>,
}

impl PartialEq for Upstream {
    fn eq(&self, other: &Upstream) -> bool {
        self.name == other.name
    }
}

impl Eq for Upstream {}

/// Ombi. Its key goes in the `ApiKey` header (Ombi also accepts an `apikey` query parameter,
/// which would put the key in URLs and logs, so the host never uses it). `/health` is Ombi's
/// ASP.NET health check, served outside `/api` and its key check, so it is sent without the
/// key; ASP.NET matches routes without regard to case.
pub const OMBI: Upstream = Upstream {
    name: "Ombi",
    url: &OMBI_URL,
    api_key: &OMBI_API_KEY,
    ca_file: &OMBI_CA_FILE,
    user: Some(&OMBI_USER),
    key_header: "ApiKey",
    keyless_paths: &["/health"],
    tool_deadlines: None,
};

/// Seerr. Its key goes in the `X-Api-Key` header; the acting user in `X-API-User` (a Seerr
/// user id), which the component sends.
pub const SEERR: Upstream = Upstream {
    name: "Seerr",
    url: &SEERR_URL,
    api_key: &SEERR_API_KEY,
    ca_file: &SEERR_CA_FILE,
    user: Some(&SEERR_USER),
    key_header: "X-Api-Key",
    keyless_paths: &[],
    tool_deadlines: None,
};

/// MoviePilot's MCP endpoint. Its `API_TOKEN` goes in the `X-API-KEY` header, which its API
/// reads the token from; every route needs it.
pub const MOVIEPILOT: Upstream = Upstream {
    name: "MoviePilot",
    url: &MOVIEPILOT_URL,
    api_key: &MOVIEPILOT_API_KEY,
    ca_file: &MOVIEPILOT_CA_FILE,
    user: None,
    key_header: "X-API-KEY",
    keyless_paths: &[],
    tool_deadlines: Some(&MOVIEPILOT_TOOL_DEADLINES),
};

/// Every upstream, in the order the harness reads, lists and applies them.
pub const UPSTREAMS: &[Upstream] = &[OMBI, SEERR, MOVIEPILOT];

/// The request servers, of which a deployment configures at most one.
pub const REQUEST_SERVERS: &[Upstream] = &[OMBI, SEERR];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variables::{Kind, VARIABLES};

    fn in_table(v: &Variable) -> &'static Variable {
        VARIABLES
            .iter()
            .find(|t| t.name == v.name)
            .unwrap_or_else(|| panic!("{} is not in VARIABLES", v.name))
    }

    #[test]
    fn each_upstream_names_variables_of_the_table_with_their_kinds() {
        for u in UPSTREAMS {
            assert_eq!(in_table(u.url).kind, Kind::Url, "{}", u.name);
            assert_eq!(in_table(u.api_key).kind, Kind::Secret, "{}", u.name);
            assert_eq!(in_table(u.ca_file).kind, Kind::Path, "{}", u.name);
            if let Some(user) = u.user {
                in_table(user);
            }
            assert!(!u.key_header.is_empty());
            assert!(u.keyless_paths.iter().all(|p| p.starts_with('/')));
        }
    }

    #[test]
    fn each_key_variables_text_names_the_header_and_length_of_the_table() {
        for u in UPSTREAMS {
            let key = in_table(u.api_key);
            let header = alloc::format!("`{}`", u.key_header);
            let length = alloc::format!("at least {MIN_KEY_CHARS} characters");
            assert!(key.help.contains(&header), "{} help", key.name);
            assert!(key.doc.contains(&header), "{} doc", key.name);
            assert!(key.doc.contains(&length), "{} doc", key.name);
            for path in u.keyless_paths {
                assert!(
                    key.doc.contains(&alloc::format!("`{path}`")),
                    "{} doc",
                    key.name
                );
            }
        }
    }

    /// Key headers may repeat: Seerr and MoviePilot both read `X-Api-Key`, and the host
    /// injects each key per origin (and base path), never by header name.
    #[test]
    fn no_two_upstreams_share_a_name_or_variable() {
        let mut names = alloc::vec::Vec::new();
        let mut variables = alloc::vec::Vec::new();
        for u in UPSTREAMS {
            names.push(u.name);
            variables.extend([u.url.name, u.api_key.name, u.ca_file.name]);
            variables.extend(u.user.map(|v| v.name));
        }
        for list in [&mut names, &mut variables] {
            let all = list.len();
            list.sort_unstable();
            list.dedup();
            assert_eq!(list.len(), all);
        }
    }
}
