#!/usr/bin/env bash
# Builds what a deployment runs: the components (scripts/build-component.sh) and the harness
# binary in the `dist` profile (whole-program LTO, one codegen unit; see Cargo.toml), as
# target/dist/host-harness. The tests run the release build (scripts/build-native.sh), which
# is the same code without the 8-minute LTO build.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/build-component.sh
cargo build --locked --profile dist -p host-harness --bin host-harness
echo "harness: target/dist/host-harness ($(stat -c %s target/dist/host-harness) bytes)"
