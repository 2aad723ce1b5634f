#!/usr/bin/env bash
# Builds the component and the workspace (the demo among it), then runs it: a fake Ombi on loopback and a short tour of
# the tools. Extra arguments go to `media-mcp-demo` (e.g. --serve: MCP on stdio against that
# fake instead). The demo is a program of its own (crates/media-mcp-demo/) so that the installed host-harness
# carries no fake upstream.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build-component.sh
./scripts/build-native.sh
exec target/release/media-mcp-demo "$@"
