#!/usr/bin/env bash
# Builds what a deployment runs: the components (scripts/build-component.sh) and the harness
# binary in the `dist` profile (whole-program LTO, one codegen unit; see Cargo.toml), as
# target/dist/media-mcp. The tests run the release build (scripts/build-native.sh), which
# is the same code without the 8-minute LTO build.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/build-component.sh
# `--workspace` resolves the features of shared crates as the tests' release build does
# (scripts/build-native.sh): with `-p host-harness` alone serde_json, for one, would lose
# `float_roundtrip`, and the deployed binary would parse numbers differently from the tested one.
cargo build --locked --profile dist --workspace --bin media-mcp
echo "harness: target/dist/media-mcp ($(stat -c %s target/dist/media-mcp) bytes)"
