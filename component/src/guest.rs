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

/// The allocator std would have brought (the same dlmalloc).
#[global_allocator]
static ALLOCATOR: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

/// A panic is a bug: trap, and let the host turn it into `INTERNAL_ERROR`.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

/// The canonical-ABI allocator export (std provides it when linked; `no_std` must).
///
/// # Safety
/// Called by the component runtime per the canonical ABI.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cabi_realloc(
    old_ptr: *mut u8,
    old_len: usize,
    align: usize,
    new_len: usize,
) -> *mut u8 {
    use alloc::alloc::{Layout, alloc, realloc};
    if new_len == 0 {
        return align as *mut u8;
    }
    // SAFETY: the canonical ABI passes a valid power-of-two alignment and, for a reallocation,
    // the pointer and size of an earlier allocation made here.
    let ptr = unsafe {
        if old_len == 0 {
            alloc(Layout::from_size_align_unchecked(new_len, align))
        } else {
            realloc(
                old_ptr,
                Layout::from_size_align_unchecked(old_len, align),
                new_len,
            )
        }
    };
    if ptr.is_null() {
        core::arch::wasm32::unreachable()
    }
    ptr
}

/// `memcmp` for compiler-generated comparisons (libc is not linked in `no_std`).
///
/// # Safety
/// `a` and `b` must be valid for `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    for i in 0..n {
        // SAFETY: the caller guarantees both ranges are readable.
        let (x, y) = unsafe { (*a.add(i), *b.add(i)) };
        if x != y {
            return i32::from(x) - i32::from(y);
        }
    }
    0
}

/// `bcmp`, which LLVM emits for equality-only comparisons.
///
/// # Safety
/// As [`memcmp`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: forwarded unchanged.
    unsafe { memcmp(a, b, n) }
}

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
