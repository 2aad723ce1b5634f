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
mod tests {
    #[test]
    fn fixtures_are_sorted_and_found() {
        assert!(super::FIXTURES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(super::fixture("index.json").is_some());
        assert!(super::fixture("err-spa-fallback-html.txt").is_some());
        assert!(super::fixture("nope.json").is_none());
    }
}
