//! `cargo +nightly fuzz run redaction --features harness`: see media_mcp_fuzz_targets::redaction.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| media_mcp_fuzz_targets::redaction::run(data));
