//! `cargo +nightly fuzz run framing`: see media_mcp_fuzz_targets::framing.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| media_mcp_fuzz_targets::framing::run(data));
