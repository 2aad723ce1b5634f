//! Target `path_segments`: values that become URL path segments, from arguments and from
//! upstream answers.
//!
//! Input: byte 0 picks the mode and tool, then an argument name, a NUL byte, and the value
//! (lossy UTF-8).
//!
//! * Even byte 0: the tool (byte 0 / 2 in catalogue order) is called with its sampled valid
//!   arguments and the named argument set to the value (the upstream is unreachable); inputs
//!   naming no argument of the tool are skipped.
//! * Odd byte 0: `read_media` of a movie with ratings, whose upstream detail carries the value
//!   as its title (the title becomes a segment of the ratings route).
//!
//! Properties: no panic; `path_segment` of the value is `None` exactly for `""`, `.` and `..`,
//! and otherwise one segment that no resolver reads as a dot segment and that decodes back to
//! the value; in every request sent, no path segment is empty or reads as `.` or `..` (also
//! with `%2e` read as a dot, as WHATWG URL parsers do).

use std::cell::RefCell;

use media_mcp::upstream::{HttpRequest, HttpResponse, Upstream, UpstreamError, path_segment};
use serde_json::{Value, json};

use crate::tools::{context, plugin, tools};

const ORIGIN: &str = "http://127.0.0.1:5000";

/// Records request URLs; answers the movie detail with `title` when set, else unreachable.
struct Recording {
    urls: RefCell<Vec<String>>,
    title: Option<String>,
}

impl Upstream for Recording {
    fn send(&self, request: &HttpRequest, _: usize) -> Result<HttpResponse, UpstreamError> {
        self.urls.borrow_mut().push(request.url.clone());
        match &self.title {
            Some(title) if request.url.ends_with("/api/v2/Search/movie/603") => Ok(HttpResponse {
                status: 200,
                content_type: Some("application/json".to_owned()),
                body: serde_json::to_vec(&json!({
                    "id": 603, "title": title, "releaseDate": "1999-03-30T00:00:00"
                }))
                .expect("JSON"),
                ..Default::default()
            }),
            _ => Err(UpstreamError::Unreachable),
        }
    }
}

/// Whether a resolver reads `segment` as `.` or `..`.
fn reads_as_dot_segment(segment: &str) -> bool {
    let dots = segment.to_ascii_lowercase().replace("%2e", ".");
    dots == "." || dots == ".."
}

fn percent_decode(segment: &str) -> Vec<u8> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).expect("ASCII hex");
            out.push(u8::from_str_radix(hex, 16).expect("hex digits"));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Some(nul) = rest.iter().position(|b| *b == 0) else {
        return;
    };
    let field = String::from_utf8_lossy(&rest[..nul]).into_owned();
    let value = String::from_utf8_lossy(&rest[nul + 1..]).into_owned();

    match path_segment(&value) {
        None => assert!(
            value.is_empty() || value == "." || value == "..",
            "{value:?}"
        ),
        Some(segment) => {
            assert!(
                !segment.is_empty() && !reads_as_dot_segment(&segment),
                "{segment}"
            );
            assert!(
                segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._~%".contains(&b)),
                "{segment}"
            );
            assert_eq!(percent_decode(&segment), value.as_bytes());
        }
    }

    let (name, arguments, title) = if pick % 2 == 1 {
        (
            "read_media",
            json!({"media": "movie", "id": "603", "include": ["ratings"]}),
            Some(value),
        )
    } else {
        let tools = tools();
        let tool = &tools[usize::from(pick / 2) % tools.len()];
        if tool.input_schema["properties"].get(&field).is_none() {
            return;
        }
        let mut arguments = tool.sample.clone();
        arguments[field.as_str()] = Value::String(value);
        (tool.name.as_str(), arguments, None)
    };
    let upstream = Recording {
        urls: RefCell::new(Vec::new()),
        title,
    };
    plugin()
        .call_tool(name, &arguments.to_string(), &context(), &upstream)
        .expect("a listed tool");
    for url in upstream.urls.borrow().iter() {
        let path = url
            .strip_prefix(ORIGIN)
            .unwrap_or_else(|| panic!("{url} left the origin"));
        let path = path.split(['?', '#']).next().unwrap_or_default();
        for segment in path.split('/').skip(1) {
            assert!(
                !segment.is_empty() && !reads_as_dot_segment(segment),
                "{name} {arguments}: {url} has an empty or dot segment"
            );
        }
    }
}
