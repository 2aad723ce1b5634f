//! `media-mcp:plugin/host-cache` for hosts that have no cache: it keeps nothing, so the plugin
//! discovers what it needs in every call. `scripts/build-component.sh` plugs it into the plugin
//! before the plugin is plugged into the HTTP transport, so the HTTP artifact imports only
//! what every wasi:http host provides.

#![cfg_attr(target_arch = "wasm32", no_std)]

#[cfg(target_arch = "wasm32")]
#[allow(
    unsafe_code,
    reason = "wit-bindgen generates the canonical-ABI glue and export symbols"
)]
mod guest {
    extern crate alloc;
    // The allocator, panic handler and `cabi_realloc` std would have brought.
    extern crate media_mcp_guest_rt;

    use alloc::string::String;

    mod bindings {
        wit_bindgen::generate!({
            path: "../../wit",
            world: "no-cache",
        });
    }

    struct NoCache;

    impl bindings::exports::media_mcp::plugin::host_cache::Guest for NoCache {
        fn capacity() -> u64 {
            0
        }

        fn get(_key: String) -> Option<String> {
            None
        }

        fn set(_key: String, _value: String) {}
    }

    bindings::export!(NoCache with_types_in bindings);
}
