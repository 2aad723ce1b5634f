//! Target `arguments`: the first byte picks a tool, the rest is its arguments text.
//!
//! Properties: no panic; on JSON objects the in-guest validator and `jsonschema` give the same
//! verdict on the tool's own `inputSchema`; a refusal is `INVALID_ARGUMENT` naming a field and
//! nothing is sent upstream; every result validates against the `outputSchema`.

use std::cell::Cell;

use media_mcp::upstream::{HttpRequest, HttpResponse, Upstream, UpstreamError};
use serde_json::Value;

use crate::tools::{check_envelope, context, plugin, tools};

/// Counts requests and sends none.
struct Counting(Cell<usize>);

impl Upstream for Counting {
    fn send(&self, _: &HttpRequest, _: usize) -> Result<HttpResponse, UpstreamError> {
        self.0.set(self.0.get() + 1);
        Err(UpstreamError::Unreachable)
    }
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let tools = tools();
    let tool = &tools[usize::from(pick) % tools.len()];
    let text = String::from_utf8_lossy(rest);
    let upstream = Counting(Cell::new(0));
    let rendered = plugin()
        .call_tool(&tool.name, &text, &context(), &upstream)
        .expect("a listed tool");
    check_envelope(tool, &rendered.structured, &rendered.text, "arguments");
    let refused = rendered.structured["error"]["code"] == "INVALID_ARGUMENT";
    if refused {
        assert!(
            rendered.structured["error"]["field"].is_string(),
            "a refusal names the field: {}",
            rendered.structured
        );
        assert_eq!(upstream.0.get(), 0, "refused arguments were sent upstream");
    }
    let parsed = if text.trim().is_empty() {
        Some(Value::Object(Default::default()))
    } else {
        serde_json::from_str::<Value>(&text).ok()
    };
    if let Some(value @ Value::Object(_)) = parsed {
        let ours = media_mcp::schema::validate(&tool.input_schema, &value).is_ok();
        let reference = tool.input.is_valid(&value);
        assert_eq!(
            ours, reference,
            "{}: the guest validator says {ours}, jsonschema says {reference} for {value}",
            tool.name
        );
        // Handlers may refuse valid arguments for their own reasons (a missing user, an id
        // pair that does not exist), but never as a schema refusal of schema-valid input
        // without naming why.
        if !reference {
            assert!(
                refused,
                "{}: schema-invalid arguments ran: {value}",
                tool.name
            );
        }
    } else {
        assert!(
            refused,
            "{}: arguments that are not an object ran",
            tool.name
        );
    }
}
