#!/usr/bin/env bash
# Builds the component and the harness, then runs the demo: an embedded demo Ombi on loopback
# and a short tour of the tools. Extra arguments go to `host-harness demo` (e.g. --serve).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build-component.sh
cargo build --locked --release -p host-harness
exec target/release/host-harness demo "$@"
