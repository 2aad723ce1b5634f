#!/usr/bin/env bash
# Builds `wkg` (crates.io, pinned) into target/tools/ for the wasm OCI round trip
# (tests/python/test_wasm_oci.py) and scripts/push-wasm.sh; a rerun finds it and does nothing.
# A debug build: it pushes and pulls two small files, and costs 4 CPU-minutes instead of 12.
# scripts/test.sh runs it beside the component build, whose single-threaded link leaves a core
# idle.
set -euo pipefail
cd "$(dirname "$0")/.."

WKG_VERSION=0.16.1
wkg_root=target/tools/wkg-$WKG_VERSION
if [ ! -x "$wkg_root/bin/wkg" ]; then
  echo "install-wkg: building wkg $WKG_VERSION into $wkg_root" >&2
  cargo install --quiet --locked --debug "wkg@$WKG_VERSION" --root "$wkg_root"
fi
