#!/usr/bin/env bash
# Builds the wasm32-wasip2 components with the size-tuned `wasm` profile:
#   target/media_mcp.wasm       the plugin (exports media-mcp:plugin/tools, imports the host's
#                               media-mcp:plugin/host-cache), for host-harness and other hosts of
#                               the plugin world;
#   target/media_mcp_http.wasm  the HTTP transport plugged with the plugin (exports
#                               wasi:http/incoming-handler), for wasmtime serve, wasmCloud, Spin.
# Each guest is linked as a core module (wasm-component-ld's `--skip-wit-component`), shrunk by
# Binaryen's `wasm-opt -Oz` (the npm package pinned in scripts/wasm-opt/, installed into
# target/wasm-opt), then made a component by media-mcp-compose (crates/media-mcp-compose/, its own workspace: the
# wit-component library, what wasm-component-ld does after linking). The same tool plugs the
# components together (the wac-graph library, what `wac plug` does). The components are in
# target/wasm32-wasip2/wasm/component/.
#
# Without node/npm the modules go unoptimized, with a warning on stderr; with
# MEDIA_MCP_REQUIRE_WASM_OPT=1 (CI) that is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-wasip2 >/dev/null 2>&1 || rustup target add wasm32-wasip2

out=target/wasm32-wasip2/wasm
mkdir -p "$out/component"

# Core modules: `cargo rustc` passes the linker flags to the one crate it builds, and
# `--crate-type cdylib` leaves out the rlib the native tests use. `--initial-heap` gives each
# module 512 KiB of heap in its initial memory, which guest-rt's allocator uses before it
# grows memory (a call rarely needs more).
for package in media-mcp media-mcp-transport media-mcp-no-cache; do
  cargo rustc --locked -p "$package" --lib --crate-type cdylib --target wasm32-wasip2 \
    --profile wasm -- -C link-arg=--skip-wit-component -C link-arg=--initial-heap=524288
done

# wasm-opt, installed with `npm ci` when the lock file changed since the last install.
wasm_opt=target/wasm-opt/node_modules/.bin/wasm-opt
install_wasm_opt() {
  command -v npm >/dev/null && command -v node >/dev/null || return 1
  if [ -x "$wasm_opt" ] && cmp -s scripts/wasm-opt/package-lock.json target/wasm-opt/package-lock.json; then
    return 0
  fi
  mkdir -p target/wasm-opt
  cp scripts/wasm-opt/package.json scripts/wasm-opt/package-lock.json target/wasm-opt/
  npm ci --prefix target/wasm-opt --ignore-scripts --no-audit --no-fund --loglevel=error >&2
}
if ! install_wasm_opt; then
  if [ "${MEDIA_MCP_REQUIRE_WASM_OPT:-}" = 1 ]; then
    echo "error: wasm-opt is required (MEDIA_MCP_REQUIRE_WASM_OPT=1) but node/npm are missing or npm ci failed" >&2
    exit 1
  fi
  wasm_opt=
  cat >&2 <<'EOF'
************************************************************************************
WARNING: wasm-opt SKIPPED (node/npm missing or `npm ci` in target/wasm-opt failed):
the components are built from unoptimized core modules and are larger than shipped
(the plugin by about a quarter; tests/it/component.rs's transport budget fails).
Install node and npm and build again.
************************************************************************************
EOF
fi

# -Oz for size; the features are the wasm32-wasip2 target's (`rustc --print cfg`), so
# wasm-opt accepts what rustc emitted and emits nothing a host of the target lacks. Binaryen
# keeps custom sections it does not know (the component-type ones media-mcp-compose reads; it
# fails when they are missing); without -g it writes no names section.
wasm_opt_flags=(-Oz --enable-bulk-memory --enable-multivalue --enable-mutable-globals
  --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext)

compose() {
  cargo run --quiet --locked --release --manifest-path crates/media-mcp-compose/Cargo.toml --target-dir target/compose -- "$@"
}
cargo build --quiet --locked --release --manifest-path crates/media-mcp-compose/Cargo.toml --target-dir target/compose
compose_tool=target/compose/release/media-mcp-compose

# Whether $1 exists and is newer than each later argument (this script and the compose tool
# always count): an unchanged module is not optimized, wrapped or copied again, so the
# artifacts keep their modification times and the harness's cached listings stay valid.
fresh() {
  local out=$1 input
  shift
  for input in "$@" "$0" "$compose_tool"; do
    [ "$out" -nt "$input" ] || return 1
  done
}

for name in media_mcp media_mcp_transport media_mcp_no_cache; do
  core="$out/$name.wasm"
  if [ -n "$wasm_opt" ]; then
    fresh "$out/$name.opt.wasm" "$core" scripts/wasm-opt/package-lock.json || "$wasm_opt" "${wasm_opt_flags[@]}" "$core" -o "$out/$name.opt.wasm"
    core="$out/$name.opt.wasm"
  fi
  fresh "$out/component/$name.wasm" "$core" || compose component "$core" "$out/component/$name.wasm"
done
cmp -s "$out/component/media_mcp.wasm" target/media_mcp.wasm || cp "$out/component/media_mcp.wasm" target/media_mcp.wasm
echo "component: target/media_mcp.wasm ($(wc -c < target/media_mcp.wasm) bytes)" >&2
# wasi:http hosts have no media-mcp:plugin/host-cache: the plugin gets one that keeps nothing
# (so every call discovers MoviePilot's catalogue again), then goes into the transport.
uncached="$out/component/media_mcp_uncached.wasm"
fresh "$uncached" target/media_mcp.wasm "$out/component/media_mcp_no_cache.wasm" ||
  compose plug target/media_mcp.wasm "$out/component/media_mcp_no_cache.wasm" "$uncached"
fresh target/media_mcp_http.wasm "$out/component/media_mcp_transport.wasm" "$uncached" ||
  compose plug "$out/component/media_mcp_transport.wasm" "$uncached" target/media_mcp_http.wasm
echo "component: target/media_mcp_http.wasm ($(wc -c < target/media_mcp_http.wasm) bytes)" >&2
