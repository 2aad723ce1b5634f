//! media-mcp-apps: what media-mcp serves besides tools, the same on every transport.
//!
//! - The MCP Apps views (`io.modelcontextprotocol/ui`, SEP-1865): hand-written HTML embedded
//!   in the build (`views/`), listed and read as `ui://media-mcp/…` resources with their CSP
//!   (`_meta.ui.csp.resourceDomains`: the artwork hosts of [`media_mcp_wire::artwork`]), and
//!   linked from the tools that have one by `_meta.ui.resourceUri` ([`tool_meta`]).
//! - [`prompts`]: guided workflows as MCP prompts.
//!
//! Every answer is built here as JSON, so the stdio harness (through rmcp's types) and the HTTP
//! transport send the same bytes. Resources and prompts are static: the same for every caller
//! and connection; what a caller may do (whether `write_request_create` is offered to it) is
//! told per call in the result's `_meta` ([`result_meta`]).

#![cfg_attr(not(test), no_std)]

extern crate alloc;

pub mod prompts;

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use media_mcp_wire::artwork;
use serde_json::{Map, Value, json};

/// The extension's identifier, in the server's capabilities.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

/// The MIME type of a view.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The legacy flat `_meta` key of a tool's view, which the SDKs still write beside `ui`.
pub const LEGACY_RESOURCE_URI_KEY: &str = "ui/resourceUri";

/// The tool a view's **Request** button calls.
pub const REQUEST_TOOL: &str = "write_request_create";

/// The result `_meta` key telling a view whether [`REQUEST_TOOL`] is offered to this caller.
pub const ACTIONS_META_KEY: &str = "media-mcp/actions";

/// Largest view, in bytes (a test holds every view to it).
pub const MAX_VIEW_BYTES: usize = 64 * 1024;

/// The parts every view's HTML document shares, around its own title, CSS and script: the
/// document head, `views/common.css`, and `views/bridge.js` (the MCP Apps handshake over
/// postMessage). Stored once and joined when a view is read, so the views share them in the
/// binary. Nothing is loaded from elsewhere.
const HEAD: &str = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>";
const STYLE: &str = concat!("</title><style>\n", include_str!("../views/common.css"));
const BODY: &str = concat!(
    "</style></head><body><main id=\"view\" aria-live=\"polite\"><p class=\"note muted\">Waiting for the result…</p></main><script>\n",
    include_str!("../views/bridge.js")
);
const TAIL: &str = "</script></body></html>\n";

/// One view: a `ui://` resource and the tools whose results it renders.
#[derive(Debug)]
pub struct View {
    /// `ui://media-mcp/…`.
    pub uri: &'static str,
    /// The resource's name.
    pub name: &'static str,
    /// Its title, for people.
    pub title: &'static str,
    /// What it shows.
    pub description: &'static str,
    /// Its own CSS (`views/NAME.css`).
    pub css: &'static str,
    /// Its own script (`views/NAME.js`), run after the shared bridge.
    pub script: &'static str,
    /// The tools linked to it.
    pub tools: &'static [&'static str],
    /// Whether its cards have a **Request** button (so its results say whether
    /// [`REQUEST_TOOL`] is offered).
    pub requests: bool,
}

/// Every view. The tools are the contract's: a backend that answers these names answers them
/// with the contract's families (`media_page`, `request_page`), which is all a view reads.
pub static VIEWS: &[View] = &[
    View {
        uri: "ui://media-mcp/titles",
        name: "titles",
        title: "Titles",
        description: "Poster cards of a read_search, read_discover or read_media result (one title: its details), each with a Request button.",
        css: include_str!("../views/titles.css"),
        script: include_str!("../views/titles.js"),
        tools: &["read_search", "read_discover", "read_media"],
        requests: true,
    },
    View {
        uri: "ui://media-mcp/requests",
        name: "requests",
        title: "Requests",
        description: "The requests of a read_requests result with their state, standard and 4K apart.",
        css: include_str!("../views/requests.css"),
        script: include_str!("../views/requests.js"),
        tools: &["read_requests"],
        requests: false,
    },
];

impl View {
    fn parts(&self) -> [&'static str; 7] {
        [HEAD, self.title, STYLE, self.css, BODY, self.script, TAIL]
    }

    /// The HTML document: inline CSS and script only.
    pub fn html(&self) -> String {
        self.parts().concat()
    }

    /// Its length in bytes.
    pub fn size(&self) -> usize {
        self.parts().iter().map(|p| p.len()).sum()
    }
}

/// The view of `tool`, if it has one.
pub fn view_of(tool: &str) -> Option<&'static View> {
    VIEWS.iter().find(|v| v.tools.contains(&tool))
}

/// The view at `uri`.
pub fn view_at(uri: &str) -> Option<&'static View> {
    VIEWS.iter().find(|v| v.uri == uri)
}

/// The `_meta` of a listed tool that has a view: `ui.resourceUri` and the legacy flat key.
pub fn tool_meta(tool: &str) -> Option<Value> {
    let view = view_of(tool)?;
    Some(json!({
        "ui": {"resourceUri": view.uri},
        LEGACY_RESOURCE_URI_KEY: view.uri,
    }))
}

/// What a result of `tool` adds to its `_meta`, when its view has **Request** buttons:
/// whether [`REQUEST_TOOL`] is offered to this caller (`offered`: it is in the caller's tool
/// list), and if not, why, so the view disables the button with the reason instead of failing.
pub fn result_meta(tool: &str, offered: bool) -> Option<(&'static str, Value)> {
    if !view_of(tool)?.requests {
        return None;
    }
    let mut request = json!({"tool": REQUEST_TOOL, "offered": offered});
    if !offered {
        request["reason"] = json!(NOT_OFFERED);
    }
    Some((ACTIONS_META_KEY, json!({ "request": request })))
}

/// Why a **Request** button is disabled when the tool is not in the caller's list.
pub const NOT_OFFERED: &str = "Requesting is not available here: this server does not offer write_request_create to you (read-only mode, its tool list, or your sign-in's read-only scope).";

/// The server's capabilities on every transport (legacy `initialize` and modern
/// `server/discover`): tools, resources, prompts, and this extension with its MIME type.
pub fn server_capabilities() -> Value {
    json!({
        "tools": {},
        "resources": {},
        "prompts": {},
        "extensions": {EXTENSION_ID: {"mimeTypes": [MIME_TYPE]}},
    })
}

/// The origins a view may load images from: `https://` and each artwork host.
pub fn resource_domains() -> Vec<String> {
    artwork::HOSTS
        .iter()
        .map(|h| format!("https://{h}"))
        .collect()
}

/// `_meta.ui` of a view: its CSP and a border.
fn ui_meta() -> Value {
    json!({"ui": {"csp": {"resourceDomains": resource_domains()}, "prefersBorder": true}})
}

/// The `resources/list` result (no caching hints: the transport adds them for modern peers).
pub fn list_resources() -> Value {
    let resources: Vec<Value> = VIEWS
        .iter()
        .map(|v| {
            json!({
                "uri": v.uri,
                "name": v.name,
                "title": v.title,
                "description": v.description,
                "mimeType": MIME_TYPE,
                "size": v.size(),
                "_meta": ui_meta(),
            })
        })
        .collect();
    json!({ "resources": resources })
}

/// The `resources/templates/list` result: no templates.
pub fn list_resource_templates() -> Value {
    json!({ "resourceTemplates": [] })
}

/// The `resources/read` result of `uri`, or `None` for a URI this server does not have.
pub fn read_resource(uri: &str) -> Option<Value> {
    let view = view_at(uri)?;
    Some(json!({
        "contents": [{
            "uri": view.uri,
            "mimeType": MIME_TYPE,
            "text": view.html(),
            "_meta": ui_meta(),
        }]
    }))
}

/// The message of a `resources/read` of an unknown URI (at most 80 characters of it quoted).
pub fn unknown_resource(uri: &str) -> String {
    let shown: String = uri.chars().filter(|c| !c.is_control()).take(80).collect();
    format!("Resource not found: {shown:?} (resources/list names this server's resources)")
}

/// Longest URI an unknown-resource error gives back in its `data.uri`.
pub const MAX_ECHOED_URI_CHARS: usize = 1024;

/// The `data` of an unknown-resource error: the URI as requested (SEP-2164), when it is at most
/// [`MAX_ECHOED_URI_CHARS`] characters without control characters.
pub fn unknown_resource_data(uri: &str) -> Option<Value> {
    (uri.chars().count() <= MAX_ECHOED_URI_CHARS && !uri.chars().any(char::is_control))
        .then(|| json!({ "uri": uri }))
}

/// `params.uri` of a `resources/read`.
///
/// # Errors
///
/// It is missing or not a string.
pub fn uri_param(params: &Map<String, Value>) -> Result<&str, String> {
    match params.get("uri") {
        Some(Value::String(uri)) => Ok(uri),
        _ => Err("params.uri must be the resource's URI (a string)".to_owned()),
    }
}

#[cfg(test)]
mod tests;
