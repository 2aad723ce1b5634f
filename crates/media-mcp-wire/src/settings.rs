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
        name: variables::MOVIEPILOT_DEADLINES.name,
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
}
