#!/usr/bin/env bash
# Builds the wasm32-wasip2 components with the size-tuned `wasm` profile:
#   target/media_mcp.wasm       the plugin (exports media-mcp:plugin/tools), for host-harness
#                               and other hosts of the plugin world;
#   target/media_mcp_http.wasm  the HTTP transport plugged with the plugin (exports
#                               wasi:http/incoming-handler), for wasmtime serve, wasmCloud, Spin.
# The composition is made by media-mcp-compose (compose/, its own workspace) (the wac-graph library, what
# `wac plug` does), so nothing beyond the Rust toolchain is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-wasip2 >/dev/null 2>&1 || rustup target add wasm32-wasip2
cargo build --locked -p media-mcp -p media-mcp-transport --target wasm32-wasip2 --profile wasm
cp target/wasm32-wasip2/wasm/media_mcp.wasm target/media_mcp.wasm
echo "component: target/media_mcp.wasm ($(wc -c < target/media_mcp.wasm) bytes)" >&2
cargo run --quiet --locked --release --manifest-path compose/Cargo.toml --target-dir target/compose -- \
  target/wasm32-wasip2/wasm/media_mcp_transport.wasm target/media_mcp.wasm target/media_mcp_http.wasm
