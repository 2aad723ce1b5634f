#!/usr/bin/env bash
# Runs every test on a fresh machine: native unit tests of the component, the harness, the fakes
# and the demo, the integration tests (real stdio MCP against fake upstreams on loopback), and the official Python
# MCP client against the harness. Installs what it needs: the system packages
# (scripts/install-test-deps.sh), the wasm target, a Python venv.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-test-deps.sh

# wkg builds in the background (its own target directory) while the components and the native
# binaries build; its log is shown only if it fails.
mkdir -p target/tools
./scripts/install-wkg.sh >target/tools/install-wkg.log 2>&1 &
wkg=$!

./scripts/build-component.sh
./scripts/build-native.sh
wait "$wkg" || { echo "test.sh: building wkg failed:" >&2; cat target/tools/install-wkg.log >&2; exit 1; }
cargo test --locked --release --workspace

python3 -m venv target/py >/dev/null
target/py/bin/pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
target/py/bin/python -m pytest -q --durations=15 tests/python
