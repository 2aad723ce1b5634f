"""The front-door limits the README gives for `wasmtime serve`: with
`--max-concurrent-requests 90` (and the `-W` deadline and memory limit), 256 calls arriving at
once are queued, not failed: every one is answered with its own result.

    python -m pytest -q tests/python/test_http_limits.py     # after scripts/build-component.sh
"""
import json
import secrets
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fake_ombi  # noqa: E402
from http_hosts import HttpServer, post  # noqa: E402
from test_http import require_artifact  # noqa: E402

ALICE = "alice-" + secrets.token_urlsafe(24)
CALLS = 256

# The README's flags for `wasmtime serve` facing the internet.
README_FLAGS = ["--max-concurrent-requests", "90", "--max-concurrent-connections", "512",
                "-W", "timeout=60s", "-W", f"max-memory-size={64 << 20}"]


def test_wasmtime_serve_with_the_readme_flags_queues_256_calls_and_answers_all(tmp_path):
    require_artifact()
    key = "canary-" + secrets.token_hex(12)
    log = tmp_path / "ombi-requests.jsonl"
    upstream = fake_ombi.start(key, str(log))
    env = {"OMBI_URL": f"http://127.0.0.1:{upstream.server_port}", "OMBI_API_KEY": key,
           "MEDIA_MCP_HTTP_TOKENS": f"alice={ALICE}"}
    server = HttpServer("wasmtime serve", env, tmp_path / "wasmtime.log", host_args=README_FLAGS)
    try:
        def call(i):
            body = {"jsonrpc": "2.0", "id": i, "method": "tools/call",
                    "params": {"name": "read_search", "arguments": {"query": f"q{i}", "media": "movie"}}}
            status, _h, data = post(server.url, json.dumps(body), {"Authorization": f"Bearer {ALICE}"})
            return i, status, data

        with ThreadPoolExecutor(CALLS) as pool:
            answers = list(pool.map(call, range(CALLS)))
        for i, status, data in answers:
            assert status == 200, (i, status, data[:300])
            answer = json.loads(data)
            assert answer["id"] == i
            assert answer["result"]["structuredContent"]["ok"] is True, data[:300]
    finally:
        server.stop()
        upstream.shutdown()
