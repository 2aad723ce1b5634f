//! The settings a host hands the components (plugin and HTTP transport), and the grammar both
//! sides apply to them: the host checks a value at start by the same rule the component reads
//! it with, so a value the host accepts never becomes a component's configuration problem.
//! The variables themselves are in [`crate::variables`].

use crate::variables::{self, Kind};

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

pub use crate::variables::{DEADLINE_MAX_MS, DEADLINE_MIN_MS};

/// The plugin's whole-call deadline for upstream HTTP ([`variables::CALL_DEADLINE_MS`]).
pub const CALL_DEADLINE: Millis = match variables::CALL_DEADLINE_MS.kind {
    Kind::Number { min, max, default } => Millis {
        name: variables::CALL_DEADLINE_MS.name,
        min,
        max,
        default,
    },
    _ => panic!("MEDIA_MCP_CALL_DEADLINE_MS is a number"),
};

/// Per-tool deadlines an upstream's calls may be given beyond [`CALL_DEADLINE`]: the variable
/// that sets them (`name=ms` entries, comma-separated) and the built-in ones its entries
/// override. A host's own limits for that upstream must outlast the longest.
#[derive(Debug)]
pub struct ToolDeadlines {
    /// The variable whose entries override [`ToolDeadlines::defaults`].
    pub variable: &'static variables::Variable,
    /// The built-in deadlines, by tool name, in ms.
    pub defaults: &'static [(&'static str, u64)],
}

impl ToolDeadlines {
    /// The longest of the built-in deadlines, in ms.
    pub const fn longest_default_ms(&self) -> u64 {
        let mut longest = 0;
        let mut i = 0;
        while i < self.defaults.len() {
            if self.defaults[i].1 > longest {
                longest = self.defaults[i].1;
            }
            i += 1;
        }
        longest
    }

    /// Each entry of `text`: `Ok((name, ms))`, or `Err(entry)` as written when it is not
    /// `name=ms` with `ms` within the deadline bounds.
    pub fn entries<'a>(
        &self,
        text: &'a str,
    ) -> impl Iterator<Item = Result<(&'a str, u64), &'a str>> + use<'a> {
        let bounds = Millis {
            name: self.variable.name,
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
}

/// MoviePilot's per-tool deadlines: a torrent search may search many sites (MoviePilot allows
/// it up to 300 s): the documented endpoint's `search.torrents` operation and v2.9.15's
/// `search_torrents` tool.
pub const MOVIEPILOT_TOOL_DEADLINES: ToolDeadlines = ToolDeadlines {
    variable: &variables::MOVIEPILOT_DEADLINES,
    defaults: &[("search.torrents", 300_000), ("search_torrents", 300_000)],
};

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
        let entries: Vec<_> = MOVIEPILOT_TOOL_DEADLINES
            .entries(" a = 1000 ,,b=5, =200,c,search.torrents=600000")
            .collect();
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
}
