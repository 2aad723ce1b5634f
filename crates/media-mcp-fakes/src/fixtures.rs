//! The Ombi fixture files (`tests/fixtures/ombi/`), embedded at build time by `build.rs`.

include!(concat!(env!("OUT_DIR"), "/ombi_fixtures.rs"));

/// One fixture file's bytes by name (`index.json`, `v1-search-movie-term.json`, ...).
pub fn fixture(name: &str) -> Option<&'static [u8]> {
    FIXTURES
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .map(|i| FIXTURES[i].1)
}

#[cfg(test)]
mod tests;
