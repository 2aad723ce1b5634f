#!/usr/bin/env bash
# Builds the wasm32-wasip2 components with the size-tuned `wasm` profile:
#   target/media_mcp.wasm       the plugin (exports media-mcp:plugin/tools, imports the host's
#                               media-mcp:plugin/host-cache), for host-harness and other hosts of
#                               the plugin world;
#   target/media_mcp_http.wasm  the HTTP transport plugged with the plugin (exports
#                               wasi:http/incoming-handler), for wasmtime serve, wasmCloud, Spin.
# The composition is made by media-mcp-compose (compose/, its own workspace) (the wac-graph library, what
# `wac plug` does), so nothing beyond the Rust toolchain is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-wasip2 >/dev/null 2>&1 || rustup target add wasm32-wasip2
cargo build --locked -p media-mcp -p media-mcp-transport -p media-mcp-no-cache --target wasm32-wasip2 --profile wasm
cp target/wasm32-wasip2/wasm/media_mcp.wasm target/media_mcp.wasm
echo "component: target/media_mcp.wasm ($(wc -c < target/media_mcp.wasm) bytes)" >&2
compose() {
  cargo run --quiet --locked --release --manifest-path compose/Cargo.toml --target-dir target/compose -- "$@"
}
# wasi:http hosts have no media-mcp:plugin/host-cache: the plugin gets one that keeps nothing
# (so every call discovers MoviePilot's catalogue again), then goes into the transport.
compose target/media_mcp.wasm target/wasm32-wasip2/wasm/media_mcp_no_cache.wasm \
  target/wasm32-wasip2/wasm/media_mcp_uncached.wasm
compose target/wasm32-wasip2/wasm/media_mcp_transport.wasm \
  target/wasm32-wasip2/wasm/media_mcp_uncached.wasm target/media_mcp_http.wasm
