//! What the built component imports: only `media-mcp:plugin/host-cache`,
//! `wasi:cli/environment`, `wasi:http/outgoing-handler` and what those pull in
//! (`wasi:http/types`, `wasi:io/*`, `wasi:clocks/*`). Explicitly no filesystem and no sockets.

use host_harness::{ALLOWED_IMPORTS, GATEWAY_EXTRA_IMPORTS, component_imports};
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
    assert!(
        imports.iter().any(|i| i == "media-mcp:plugin/host-cache"),
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

/// The artifact budget: `target/media_mcp.wasm` at most 1 MiB. `scripts/build-component.sh`
/// links the plugin as a core module alone (no rlib beside it), shrinks it with `wasm-opt -Oz`
/// and then makes the component: about 715 KiB. Deterministic for a given source tree, so it
/// is a test; speed is measured by `scripts/bench.sh`, never here.
const MAX_COMPONENT_BYTES: u64 = 1 << 20;

#[test]
fn component_artifact_is_within_its_budget() {
    let path = component_file();
    let bytes = std::fs::metadata(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .len();
    assert!(
        bytes <= MAX_COMPONENT_BYTES,
        "{} is {bytes} bytes, {} over the {MAX_COMPONENT_BYTES}-byte budget (did the build skip wasm-opt?)",
        path.display(),
        bytes - MAX_COMPONENT_BYTES
    );
}

/// `target/media_mcp_http.wasm` (the transport plugged with the plugin); panics with the
/// command to build it when missing.
fn http_component_file() -> std::path::PathBuf {
    let path = media_mcp_tests::target_dir().join("media_mcp_http.wasm");
    assert!(
        path.is_file(),
        "{} is missing: build it with scripts/build-component.sh, or run scripts/test.sh",
        path.display()
    );
    path
}

/// What docs/guide/install.md documents for the gateway artifact: the plugin world's imports plus
/// `wasi:random/random` (the transport's correlation ids), exactly what `serve --http` links. `wasi:http/types` also carries the
/// incoming request the transport answers.
#[test]
fn http_component_imports_only_the_plugin_world_and_random() {
    let imports =
        component_imports(&http_component_file()).expect("decoding the composition's imports");
    assert!(
        !imports.iter().any(|i| i.starts_with("media-mcp:")),
        "the plugin is not plugged in: {imports:?}"
    );
    let extra: Vec<&String> = imports
        .iter()
        .filter(|i| {
            !ALLOWED_IMPORTS.contains(&i.as_str()) && !GATEWAY_EXTRA_IMPORTS.contains(&i.as_str())
        })
        .collect();
    assert!(
        extra.is_empty(),
        "media_mcp_http.wasm imports more than documented: {extra:?} (all imports: {imports:?})"
    );
}

/// The transport's share of the gateway artifact: at most 400 KiB on top of the plugin (about
/// 390 KiB with `wasm-opt -Oz`, about 436 KiB without; before wasm-opt about 276 KiB of the
/// unoptimized share were the OAuth signature checks: RSA, P-256, Ed25519; about 14 KiB token
/// introspection; the MCP Apps views, resources and prompts (`media-mcp-apps`) add about
/// 33 KiB, 19 KiB of it the views' HTML).
const MAX_TRANSPORT_BYTES: u64 = 400 << 10;

#[test]
fn http_component_adds_at_most_400_kib_to_the_plugin() {
    let size = |p: &std::path::Path| std::fs::metadata(p).expect("artifact").len();
    let (plugin, composed) = (size(&component_file()), size(&http_component_file()));
    assert!(
        composed <= plugin + MAX_TRANSPORT_BYTES,
        "media_mcp_http.wasm is {composed} bytes, the plugin {plugin}: the transport adds {} \
         bytes, over the {MAX_TRANSPORT_BYTES}-byte budget (did the build skip wasm-opt?)",
        composed - plugin
    );
}
