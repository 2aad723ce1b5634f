//! What the built component imports: only `wasi:cli/environment`, `wasi:http/outgoing-handler`
//! and what those two pull in (`wasi:http/types`, `wasi:io/*`, `wasi:clocks/*`). Explicitly no
//! filesystem and no sockets.

use host_harness::{ALLOWED_IMPORTS, component_imports};
use media_mcp_tests::component_file;

#[test]
fn component_imports_only_environment_http_and_their_dependencies() {
    let imports = component_imports(&component_file()).expect("decoding the component's imports");
    assert!(
        imports.iter().any(|i| i == "wasi:cli/environment"),
        "{imports:?}"
    );
    assert!(
        imports.iter().any(|i| i == "wasi:http/outgoing-handler"),
        "{imports:?}"
    );
    let forbidden: Vec<&String> = imports
        .iter()
        .filter(|i| i.starts_with("wasi:filesystem") || i.starts_with("wasi:sockets"))
        .collect();
    assert!(
        forbidden.is_empty(),
        "the component imports filesystem/sockets interfaces: {forbidden:?}"
    );
    let extra: Vec<&String> = imports
        .iter()
        .filter(|i| !ALLOWED_IMPORTS.contains(&i.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "the component imports more than the plugin world needs: {extra:?} (all imports: {imports:?})"
    );
}

/// The artifact budget: `target/media_mcp.wasm` at most 1 MiB. Deterministic for a
/// given source tree, so it is a test; speed is measured by `scripts/bench.sh`, never here.
const MAX_COMPONENT_BYTES: u64 = 1 << 20;

#[test]
fn component_artifact_is_at_most_one_mebibyte() {
    let path = component_file();
    let bytes = std::fs::metadata(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .len();
    assert!(
        bytes <= MAX_COMPONENT_BYTES,
        "{} is {bytes} bytes, {} over the 1 MiB ({MAX_COMPONENT_BYTES} bytes) budget",
        path.display(),
        bytes - MAX_COMPONENT_BYTES
    );
}
