//! `cargo +nightly fuzz run projections`: see media_mcp_fuzz_targets::projections.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| media_mcp_fuzz_targets::projections::run(data));
