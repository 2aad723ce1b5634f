//! Health probes, answered on the MCP port beside the MCP path and before any other check: no
//! token, Origin or body, no upstream call. `GET /healthz` is 200 while the server answers;
//! `GET /readyz` is 200 when the server can take calls (the component loaded, its settings
//! valid) and 503 otherwise (a host draining at shutdown, or a configuration error). The body
//! is `{"status":"..."}` and says nothing more; answers are never cached.

use crate::http::Response;
use crate::prelude::*;

/// The probe paths, which the MCP path may not take.
pub use crate::config::HEALTH_PATHS as PATHS;

/// Answered 200 while the server answers at all.
pub const LIVE_PATH: &str = PATHS[0];
/// Answered 200 when calls can be served, 503 otherwise.
pub const READY_PATH: &str = PATHS[1];

/// Why `/readyz` is 503.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotReady {
    /// The server is shutting down: it finishes the calls in flight and takes no new ones.
    Draining,
    /// The configuration cannot be used (the reason is in the host's log or MCP answers).
    Misconfigured,
}

/// The answer to a probe when `path_with_query` is a probe path, `None` otherwise. `ready`
/// is what `/readyz` reports. Methods other than GET and HEAD are 405.
pub fn probe(method: &str, path_with_query: &str, ready: Result<(), NotReady>) -> Option<Response> {
    let path = path_with_query
        .split_once('?')
        .map_or(path_with_query, |(p, _)| p);
    if !PATHS.contains(&path) {
        return None;
    }
    if method != "GET" && method != "HEAD" {
        return Some(answer(405, "method not allowed").with_allow());
    }
    Some(match (path, ready) {
        (READY_PATH, Err(NotReady::Draining)) => answer(503, "draining"),
        (READY_PATH, Err(NotReady::Misconfigured)) => answer(503, "misconfigured"),
        _ => answer(200, "ok"),
    })
}

fn answer(status: u16, word: &str) -> Response {
    Response {
        status,
        headers: vec![
            ("content-type", "application/json".to_owned()),
            ("cache-control", "no-store".to_owned()),
        ],
        body: format!("{{\"status\":\"{word}\"}}").into_bytes(),
    }
}

impl Response {
    fn with_allow(mut self) -> Response {
        self.headers.push(("allow", "GET, HEAD".to_owned()));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header<'a>(r: &'a Response, name: &str) -> Option<&'a str> {
        r.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn probes_answer_their_status_uncached_and_other_paths_are_not_probes() {
        let live = probe("GET", "/healthz", Err(NotReady::Draining)).unwrap();
        assert_eq!(
            (live.status, live.body.as_slice()),
            (200, &b"{\"status\":\"ok\"}"[..])
        );
        assert_eq!(header(&live, "cache-control"), Some("no-store"));
        let ready = probe("GET", "/readyz?verbose", Ok(())).unwrap();
        assert_eq!(ready.status, 200);
        let draining = probe("HEAD", "/readyz", Err(NotReady::Draining)).unwrap();
        assert_eq!(draining.status, 503);
        assert_eq!(draining.body, b"{\"status\":\"draining\"}");
        let bad = probe("GET", "/readyz", Err(NotReady::Misconfigured)).unwrap();
        assert_eq!(bad.status, 503);
        for path in ["/mcp", "/", "/healthz/", "/readyzz", "/HEALTHZ"] {
            assert!(probe("GET", path, Ok(())).is_none(), "{path}");
        }
    }

    #[test]
    fn other_methods_are_405_naming_the_allowed_ones() {
        for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
            let r = probe(method, "/readyz", Ok(())).unwrap();
            assert_eq!(r.status, 405, "{method}");
            assert_eq!(header(&r, "allow"), Some("GET, HEAD"));
            assert_eq!(header(&r, "cache-control"), Some("no-store"));
        }
    }
}
