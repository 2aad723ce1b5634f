//! `cargo +nightly fuzz run arguments`: see media_mcp_fuzz_targets::arguments.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| media_mcp_fuzz_targets::arguments::run(data));
