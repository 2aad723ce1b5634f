#!/usr/bin/env bash
# Builds every native binary, test and benchmark of the workspace in one go. Cargo unifies
# features over the packages a command selects, so `-p host-harness` and `cargo test
# --workspace` resolve different features for crates they share (hashbrown, serde_json, rmcp)
# and each recompiles wasmtime and the harness. Building the whole workspace with all its
# targets once leaves `cargo test --workspace` and the bench driver nothing to rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --locked --release --workspace --all-targets
