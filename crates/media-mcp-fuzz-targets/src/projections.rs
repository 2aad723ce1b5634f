//! Target `projections`: the first byte picks a tool, the second the HTTP status and content
//! type every upstream request gets, the rest is the body of every answer; the tool runs with
//! its sampled valid arguments.
//!
//! Properties: no panic, and the result validates against the tool's `outputSchema` within the
//! output budget, whatever the upstream said.

use media_mcp::upstream::{HttpRequest, HttpResponse, Upstream, UpstreamError};

use crate::tools::{check_envelope, context, plugin, tools};

/// Statuses the second byte chooses from.
const STATUSES: &[u16] = &[
    200, 200, 200, 200, 201, 204, 400, 401, 404, 409, 429, 500, 503, 302,
];

/// Gives every request the same answer.
struct Fixed(HttpResponse);

impl Upstream for Fixed {
    fn send(&self, _: &HttpRequest, max: usize) -> Result<HttpResponse, UpstreamError> {
        if self.0.body.len() > max {
            return Err(UpstreamError::BodyTooLarge {
                status: self.0.status,
                limit: max,
            });
        }
        Ok(self.0.clone())
    }
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let [pick, shape, body @ ..] = data else {
        return;
    };
    let tools = tools();
    let tool = &tools[usize::from(*pick) % tools.len()];
    let status = STATUSES[usize::from(*shape) % STATUSES.len()];
    let content_type = match shape / 64 {
        0 | 1 => "application/json; charset=utf-8",
        2 => "text/plain",
        _ => "application/problem+json",
    };
    let upstream = Fixed(HttpResponse {
        status,
        content_type: Some(content_type.to_owned()),
        body: body.to_vec(),
        ..Default::default()
    });
    let rendered = plugin()
        .call_tool(&tool.name, &tool.sample.to_string(), &context(), &upstream)
        .expect("a listed tool");
    check_envelope(tool, &rendered.structured, &rendered.text, "projections");
}
