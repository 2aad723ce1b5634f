//! What every server in the run is asked, and the fake Ombi it fetches from: the key, the one
//! route `read_search` reads, and the call's arguments. The floor fetches the same path.

use serde_json::{Value, json};

/// The route `read_search` with `media: "movie"` reads, as written in the fixture index.
pub const SEARCH_ROUTE: &str = "/api/v1/Search/movie/{searchTerm}";
/// What the floor and every server fetch.
pub const SEARCH_PATH: &str = "/api/v1/Search/movie/matrix";
/// The fake Ombi's key.
pub const API_KEY: &str = "bench-key";

/// The upstream delay of the throughput runs.
pub const UPSTREAM_DELAY: std::time::Duration = std::time::Duration::from_millis(20);

/// The arguments of every measured call.
pub fn search_args() -> Value {
    json!({"query": "matrix", "media": "movie"})
}

/// Calls in flight in the throughput runs.
pub const IN_FLIGHT: [usize; 3] = [1, 8, 32];
