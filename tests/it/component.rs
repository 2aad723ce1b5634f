//! What the built component imports: only `wasi:cli/environment`, `wasi:http/outgoing-handler`
//! and what those two pull in (`wasi:http/types`, `wasi:io/*`, `wasi:clocks/*`). Explicitly no
//! filesystem and no sockets.

use host_harness::sandbox::{ALLOWED_IMPORTS, component_imports};
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
