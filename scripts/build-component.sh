#!/usr/bin/env bash
# Builds the media-mcp component for wasm32-wasip2 with the size-tuned `wasm` profile and copies
# it to the stable path target/media_mcp.wasm.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-wasip2 >/dev/null 2>&1 || rustup target add wasm32-wasip2
cargo build --locked -p media-mcp --target wasm32-wasip2 --profile wasm
cp target/wasm32-wasip2/wasm/media_mcp.wasm target/media_mcp.wasm
echo "component: target/media_mcp.wasm ($(wc -c < target/media_mcp.wasm) bytes)" >&2
