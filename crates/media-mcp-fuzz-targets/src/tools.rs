//! The Ombi catalogue as the targets see it, built once: each tool's name, schemas, compiled
//! validators and a sampled valid argument object.

use std::sync::OnceLock;

use media_mcp::upstream::{HttpRequest, HttpResponse, Upstream, UpstreamError};
use media_mcp::{CallContext, Config, Plugin};
use serde_json::Value;

/// One tool, ready for a target.
pub struct Tool {
    pub name: String,
    pub input_schema: Value,
    pub input: jsonschema::Validator,
    pub output: jsonschema::Validator,
    /// Valid arguments (from [`crate::sample`]), `{}` when none could be built.
    pub sample: Value,
}

/// A plugin configured for a loopback Ombi with a default user, so writes that need one run.
pub fn plugin() -> Plugin {
    Plugin::new(Config::from_lookup(|k| match k {
        "OMBI_URL" => Some("http://127.0.0.1:5000".to_owned()),
        "OMBI_USER" => Some("fuzz".to_owned()),
        _ => None,
    }))
}

/// Every Ombi tool, in catalogue order.
pub fn tools() -> &'static [Tool] {
    static TOOLS: OnceLock<Vec<Tool>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        plugin()
            .list_tools(&Unreachable)
            .into_iter()
            .map(|d| {
                let input_schema: Value =
                    serde_json::from_str(&d.input_schema).expect("input schema");
                let output_schema: Value =
                    serde_json::from_str(&d.output_schema).expect("output schema");
                Tool {
                    sample: crate::sample::arguments(&input_schema)
                        .unwrap_or_else(|| Value::Object(Default::default())),
                    input: jsonschema::validator_for(&input_schema).expect("input schema compiles"),
                    output: jsonschema::validator_for(&output_schema)
                        .expect("output schema compiles"),
                    input_schema,
                    name: d.name,
                }
            })
            .collect()
    })
}

/// The context of every call.
pub fn context() -> CallContext {
    CallContext {
        correlation_id: "fuzz".to_owned(),
        principal: None,
    }
}

/// Panics unless `envelope` validates against `tool`'s output schema and fits the budget.
pub fn check_envelope(tool: &Tool, envelope: &Value, text: &str, what: &str) {
    if let Some(error) = tool.output.iter_errors(envelope).next() {
        panic!(
            "{what}: {} result breaks its outputSchema: {error} at {}\n{envelope}",
            tool.name,
            error.instance_path()
        );
    }
    let parsed: Value = serde_json::from_str(text).expect("the text block is JSON");
    assert_eq!(&parsed, envelope, "{what}: the text block differs");
    assert!(
        text.len() <= media_mcp::contract::MAX_STRUCTURED_BYTES,
        "{what}: {} bytes over the budget",
        text.len()
    );
}

/// An upstream nobody answers (nothing was sent).
pub struct Unreachable;

impl Upstream for Unreachable {
    fn send(&self, _: &HttpRequest, _: usize) -> Result<HttpResponse, UpstreamError> {
        Err(UpstreamError::Unreachable)
    }
}
