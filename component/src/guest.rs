//! The WIT glue (wasm32 only): converts between the `media-mcp:plugin/tools` types and the
//! plain [`crate::catalogue`] types, and nothing else.

mod http;

mod bindings;

use crate::catalogue::Plugin;
use crate::config::Config;
use crate::prelude::*;
use crate::tool::CallContext as Ctx;
use bindings::exports::media_mcp::plugin::tools::{
    CallContext, CallError, Guest, Tool, ToolResult,
};
use bindings::wasi;

// The allocator, panic handler, `cabi_realloc` and `memcmp`/`bcmp` std would have brought.
extern crate media_mcp_guest_rt;

struct Component;

fn plugin() -> Plugin {
    let env = wasi::cli::environment::get_environment();
    Plugin::new(Config::from_lookup(|name| {
        env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }))
}

impl Guest for Component {
    fn list_tools() -> Vec<Tool> {
        let plugin = plugin();
        let upstream = http::WasiUpstream::with_deadline_ms(plugin.config().call_deadline_ms);
        plugin
            .list_tools(&upstream)
            .into_iter()
            .map(|t| Tool {
                name: t.name,
                title: t.title,
                description: t.description,
                input_schema: t.input_schema,
                output_schema: t.output_schema,
                annotations: t.annotations,
            })
            .collect()
    }

    fn call_tool(
        name: String,
        arguments: String,
        context: CallContext,
    ) -> Result<ToolResult, CallError> {
        let plugin = plugin();
        let upstream =
            http::WasiUpstream::with_deadline_ms(plugin.call_deadline_ms(&name, &arguments));
        let ctx = Ctx {
            correlation_id: context.correlation_id,
            principal: context.principal,
        };
        match plugin.call_tool(&name, &arguments, &ctx, &upstream) {
            Ok(r) => Ok(ToolResult {
                structured: r.structured.to_string(),
                text: r.text,
                is_error: r.is_error,
            }),
            Err(unknown) => Err(CallError::UnknownTool(unknown.0)),
        }
    }
}

bindings::export!(Component with_types_in bindings);
