//! `cargo +nightly fuzz run path_segments`: see media_mcp_fuzz_targets::path_segments.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| media_mcp_fuzz_targets::path_segments::run(data));
