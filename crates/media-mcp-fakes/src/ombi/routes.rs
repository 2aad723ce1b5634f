//! The fixture route table (`index.json`), matched the way `fake_ombi.py` and ASP.NET do:
//! method + path template, case-insensitive, `{param}` segments match any one segment, the
//! query is not part of the route, and the template with the most literal segments wins
//! (`/Request/movie/approve` beats `/Request/movie/{id}`); ties keep index order.

use serde_json::Value;

/// One fixture route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// `GET`, `POST`, `PUT` or `DELETE`.
    pub method: String,
    /// Path template without query, as in `index.json` (`/api/v1/Search/movie/{searchTerm}`).
    pub template: String,
    /// HTTP status to answer (default 200).
    pub status: u16,
    /// Content type; `None` = `application/json; charset=utf-8` when there is a body.
    pub content_type: Option<String>,
    /// Fixture file with the body; `None` = empty body, no content type.
    pub body_file: Option<String>,
    segments: Vec<String>,
    literal: usize,
}

/// All routes, most specific first.
#[derive(Debug, Clone, Default)]
pub struct RouteTable {
    routes: Vec<Route>,
}

impl RouteTable {
    /// Builds the table from `index.json`; entries that are error shapes (method `ANY`, paths
    /// not starting with `/`) are skipped, as in `fake_ombi.py`.
    ///
    /// # Errors
    ///
    /// `index.json` is not the expected JSON.
    pub fn from_index(index: &[u8]) -> Result<RouteTable, String> {
        let index: Value = serde_json::from_slice(index).map_err(|e| format!("index.json: {e}"))?;
        let entries = index["fixtures"]
            .as_array()
            .ok_or("index.json: no fixtures array")?;
        let mut routes = Vec::new();
        for entry in entries {
            let method = entry["method"].as_str().unwrap_or_default();
            let path = entry["path"].as_str().unwrap_or_default();
            if !path.starts_with('/') || !matches!(method, "GET" | "POST" | "PUT" | "DELETE") {
                continue;
            }
            let template = path.split('?').next().unwrap_or(path).to_owned();
            let segments: Vec<String> = template
                .split('/')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            let literal = segments.iter().filter(|s| !s.starts_with('{')).count();
            routes.push(Route {
                method: method.to_owned(),
                status: entry["status"]
                    .as_u64()
                    .and_then(|s| u16::try_from(s).ok())
                    .unwrap_or(200),
                content_type: entry["content_type"].as_str().map(str::to_owned),
                body_file: entry["body_file"]
                    .as_str()
                    .filter(|f| !f.is_empty())
                    .map(str::to_owned),
                template,
                segments,
                literal,
            });
        }
        // Stable: equal literal counts keep index order, like Python's list.sort.
        routes.sort_by_key(|r| std::cmp::Reverse(r.literal));
        Ok(RouteTable { routes })
    }

    /// The route for `method` and a request path (no query; percent-encoded segments decoded).
    pub fn find(&self, method: &str, path: &str) -> Option<&Route> {
        let parts: Vec<String> = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(percent_decode)
            .collect();
        self.routes.iter().find(|r| {
            r.method == method
                && r.segments.len() == parts.len()
                && r.segments
                    .iter()
                    .zip(&parts)
                    .all(|(s, p)| s.starts_with('{') || s.eq_ignore_ascii_case(p))
        })
    }
}

/// Decodes `%XX` escapes (invalid escapes stay as they are), like Python's `unquote`.
pub(super) fn percent_decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).and_then(|&b| hex(b)),
                bytes.get(i + 2).and_then(|&b| hex(b)),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests;
