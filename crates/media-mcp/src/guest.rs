//! The WIT glue (wasm32 only): converts between the `media-mcp:plugin/tools` types and the
//! plain [`crate::catalogue`] types, and adapts the imported `media-mcp:plugin/host-cache` to
//! [`HostCache`]; nothing else.

mod http;

mod bindings;

use crate::catalogue::Plugin;
use crate::config::Config;
use crate::host_cache::HostCache;
use crate::prelude::*;
use crate::tool::CallContext as Ctx;
use alloc::rc::Rc;
use bindings::exports::media_mcp::plugin::tools::{
    CallContext, CallError, Guest, Tool, ToolResult,
};
use bindings::media_mcp::plugin::host_cache;
use bindings::wasi;

// The allocator, panic handler, `cabi_realloc` and `memcmp`/`bcmp` std would have brought.
extern crate media_mcp_guest_rt;

struct Component;

/// The imported `media-mcp:plugin/host-cache`.
struct WitCache {
    enabled: bool,
}

impl HostCache for WitCache {
    fn enabled(&self) -> bool {
        self.enabled
    }

    fn get(&self, key: &str) -> Option<String> {
        host_cache::get(key)
    }

    fn set(&self, key: &str, value: &str) {
        host_cache::set(key, value);
    }
}

fn plugin() -> Plugin {
    let env = wasi::cli::environment::get_environment();
    let config =
        Config::from_lookup(|name| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()));
    let cache = WitCache {
        enabled: host_cache::capacity() > 0,
    };
    Plugin::with_cache(config, Rc::new(cache))
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
                // The text is the structured object as compact JSON: serialized once.
                structured: r.text.clone(),
                text: r.text,
                is_error: r.is_error,
            }),
            Err(unknown) => Err(CallError::UnknownTool(unknown.0)),
        }
    }
}

bindings::export!(Component with_types_in bindings);
