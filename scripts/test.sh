#!/usr/bin/env bash
# Runs every test on a fresh machine: native unit tests of the component, the harness, the fakes
# and the demo, the integration tests (real stdio MCP against fake upstreams on loopback), and the official Python
# MCP client against the harness. Installs what it needs: the system packages
# (scripts/install-test-deps.sh), the wasm target, a Python venv.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-test-deps.sh

./scripts/build-component.sh
./scripts/build-native.sh
cargo test --locked --release --workspace

python3 -m venv target/py >/dev/null
target/py/bin/pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
target/py/bin/python -m pytest -q --durations=15 tests/python
