//! The settings a host hands the components (plugin and HTTP transport), and the grammar both
//! sides apply to them: the host checks a value at start by the same rule the component reads
//! it with, so a value the host accepts never becomes a component's configuration problem.

/// Every variable a component reads from its environment. A host passes these (and no other)
/// to the components; `OMBI_API_KEY` and `MOVIEPILOT_API_KEY` only to a component that must
/// send the key itself.
pub const GUEST_VARIABLES: &[&str] = &[
    "OMBI_URL",
    "OMBI_API_KEY",
    "OMBI_USER",
    "MOVIEPILOT_URL",
    "MOVIEPILOT_API_KEY",
    READ_ONLY,
    "MEDIA_MCP_TOOLS",
    "MEDIA_MCP_TOOLS_DENY",
    CALL_DEADLINE.name,
    "MEDIA_MCP_MOVIEPILOT_ALLOW_DB_WRITES",
    "MEDIA_MCP_MOVIEPILOT_ALLOW_SECRETS",
    "MEDIA_MCP_MOVIEPILOT_API_ALLOW",
    "MEDIA_MCP_MOVIEPILOT_API_DENY",
    MOVIEPILOT_DEADLINES,
    "MEDIA_MCP_MOVIEPILOT_SCHEMA_MODE",
    "MEDIA_MCP_HTTP_TOKENS",
    "MEDIA_MCP_HTTP_PROXY_TOKENS",
    "MEDIA_MCP_HTTP_AUTH",
    "MEDIA_MCP_HTTP_USER_HEADER",
    "MEDIA_MCP_HTTP_ALLOWED_ORIGINS",
    "MEDIA_MCP_HTTP_PATH",
    "MEDIA_MCP_OAUTH_ISSUER",
    "MEDIA_MCP_OAUTH_RESOURCE",
    "MEDIA_MCP_OAUTH_AUDIENCES",
    "MEDIA_MCP_OAUTH_USER_CLAIM",
    "MEDIA_MCP_OAUTH_USER_MAP",
    "MEDIA_MCP_OAUTH_READ_SCOPE",
    "MEDIA_MCP_OAUTH_WRITE_SCOPE",
    "MEDIA_MCP_OAUTH_JWKS_URI",
    "MEDIA_MCP_OAUTH_JWKS",
    "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID",
    "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET",
    "MEDIA_MCP_OAUTH_INTROSPECTION_URI",
    "MEDIA_MCP_OAUTH_INTROSPECT",
];

/// `1`: only tools proven read-only are listed and callable.
pub const READ_ONLY: &str = "MEDIA_MCP_READ_ONLY";

/// A whole number of milliseconds within bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Millis {
    /// The variable's name.
    pub name: &'static str,
    /// Smallest value accepted.
    pub min: u64,
    /// Largest value accepted.
    pub max: u64,
    /// The value when unset.
    pub default: u64,
}

impl Millis {
    /// The value `text` states, if it is a whole number within bounds (spaces around allowed).
    pub fn parse(&self, text: &str) -> Option<u64> {
        text.trim()
            .parse::<u64>()
            .ok()
            .filter(|ms| (self.min..=self.max).contains(ms))
    }
}

/// Bounds every deadline shares: the whole-call one and each MoviePilot one.
pub const DEADLINE_MIN_MS: u64 = 100;
/// Longest deadline anyone may configure.
pub const DEADLINE_MAX_MS: u64 = 600_000;

/// The plugin's whole-call deadline for upstream HTTP.
pub const CALL_DEADLINE: Millis = Millis {
    name: "MEDIA_MCP_CALL_DEADLINE_MS",
    min: DEADLINE_MIN_MS,
    max: DEADLINE_MAX_MS,
    default: 30_000,
};

/// `name=ms,...`: deadlines per MoviePilot tool name or operation id.
pub const MOVIEPILOT_DEADLINES: &str = "MEDIA_MCP_MOVIEPILOT_DEADLINES";

/// Built-in MoviePilot deadlines, which configured entries override: `search.torrents` may
/// search many sites (MoviePilot allows it up to 300 s).
pub const MOVIEPILOT_DEFAULT_DEADLINES: &[(&str, u64)] = &[("search.torrents", 300_000)];

/// The longest of [`MOVIEPILOT_DEFAULT_DEADLINES`], which a host's own MoviePilot limits
/// must outlast.
pub const fn moviepilot_longest_default_ms() -> u64 {
    let mut longest = 0;
    let mut i = 0;
    while i < MOVIEPILOT_DEFAULT_DEADLINES.len() {
        if MOVIEPILOT_DEFAULT_DEADLINES[i].1 > longest {
            longest = MOVIEPILOT_DEFAULT_DEADLINES[i].1;
        }
        i += 1;
    }
    longest
}

/// One MoviePilot deadline entry: `Ok((name, ms))`, or `Err(entry)` as written when it is not
/// `name=ms` with `ms` within the deadline bounds.
pub fn moviepilot_deadline_entries(text: &str) -> impl Iterator<Item = Result<(&str, u64), &str>> {
    let bounds = Millis {
        name: MOVIEPILOT_DEADLINES,
        min: DEADLINE_MIN_MS,
        max: DEADLINE_MAX_MS,
        default: 0,
    };
    text.split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(move |entry| match entry.split_once('=') {
            Some((name, ms)) if !name.trim().is_empty() => {
                bounds.parse(ms).map(|ms| (name.trim(), ms)).ok_or(entry)
            }
            _ => Err(entry),
        })
}

/// A switch: `Some(true)` for 1/true/yes/on, `Some(false)` for 0/false/no/off (any case,
/// spaces around allowed), `None` for anything else.
pub fn switch(text: &str) -> Option<bool> {
    let text = text.trim();
    let is = |words: [&str; 4]| words.iter().any(|w| text.eq_ignore_ascii_case(w));
    if is(["1", "true", "yes", "on"]) {
        Some(true)
    } else if is(["0", "false", "no", "off"]) {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_are_whole_milliseconds_within_bounds() {
        assert_eq!(CALL_DEADLINE.parse(" 100 "), Some(100));
        assert_eq!(CALL_DEADLINE.parse("600000"), Some(600_000));
        for bad in ["99", "600001", "1.5", "-1", "", "30s"] {
            assert_eq!(CALL_DEADLINE.parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn moviepilot_entries_keep_the_good_and_return_the_bad_as_written() {
        let entries: Vec<_> =
            moviepilot_deadline_entries(" a = 1000 ,,b=5, =200,c,search.torrents=600000").collect();
        assert_eq!(
            entries,
            [
                Ok(("a", 1000)),
                Err("b=5"),
                Err("=200"),
                Err("c"),
                Ok(("search.torrents", 600_000)),
            ]
        );
    }

    #[test]
    fn switches_read_four_spellings_each_way() {
        for on in ["1", "TRUE", " yes ", "On"] {
            assert_eq!(switch(on), Some(true), "{on}");
        }
        for off in ["0", "false", "NO", "off"] {
            assert_eq!(switch(off), Some(false), "{off}");
        }
        for bad in ["", "2", "enabled", "y"] {
            assert_eq!(switch(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_guest_variable_is_named_once() {
        let mut names = GUEST_VARIABLES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), GUEST_VARIABLES.len());
    }
}
