"""The `wasmtime serve` command line of docs/guide/http.md, run as written (the address, the
Ombi URL and the component path pointed at this test's), with its limits: the tools work
within them, the request bound queues the requests past it, and the wall-clock limit is above
the component's own deadline."""
import json
import re
import secrets
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from http_hosts import HTTP_COMPONENT, ROOT, free_port, post, wait_for_port, wasmtime_binary  # noqa: E402
from test_http_harness import slow_upstream  # noqa: E402,F401  (the fake Ombi, searches after 2 s)
from test_mcp_client import TOUR, upstream  # noqa: E402,F401  (the fake Ombi fixture)

TOKEN = "alice-" + secrets.token_urlsafe(24)
COMPONENT_DEADLINE_S = 30  # MEDIA_MCP_CALL_DEADLINE_MS's default


def readme_command():
    """The documented `wasmtime serve` invocation (docs/guide/http.md, "With `wasmtime serve`"),
    as argv (without the environment prefix). The name predates the docs/ book; other scripts
    and tests import it."""
    text = (ROOT / "docs" / "guide" / "http.md").read_text()
    blocks = re.findall(r"\n((?:    .*\\\n)+    .*\n)", text)
    (block,) = [b for b in blocks if "wasmtime serve" in b and "--max-concurrent-requests" in b]
    words = shlex.split(block.replace("\\\n", " "))
    return words[words.index("wasmtime"):]


def flags(argv):
    out = {"-W": {}}
    i = 0
    while i < len(argv):
        if argv[i] == "-W":
            k, v = argv[i + 1].split("=", 1)
            out["-W"][k] = v
            i += 2
        elif argv[i].startswith("--") and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            out.setdefault(argv[i], []).append(argv[i + 1])
            i += 2
        else:
            i += 1
    return out


def seconds(value):
    m = re.fullmatch(r"(\d+)(ms|s)?", value)
    return int(m.group(1)) / (1000 if m.group(2) == "ms" else 1)


def serve(tmp_path, argv, ombi_url, key, bound=None):
    """Runs `argv` (the documented one) on a free port against `ombi_url`; `bound` replaces the
    --max-concurrent-requests value."""
    args = list(argv)
    args[0] = str(wasmtime_binary())
    port = free_port()
    args[args.index("--addr") + 1] = f"127.0.0.1:{port}"
    args = [f"OMBI_URL={ombi_url}" if a.startswith("OMBI_URL=") else a for a in args]
    args[-1] = str(HTTP_COMPONENT)
    if bound is not None:
        args[args.index("--max-concurrent-requests") + 1] = str(bound)
    env = {"PATH": "/usr/bin:/bin", "OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}"}
    log = tmp_path / f"wasmtime-{port}.log"
    out = open(log, "w")
    proc = subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT)
    wait_for_port(port, proc, log)
    return proc, f"http://127.0.0.1:{port}/mcp"


def test_the_documented_limits_suit_the_component():
    f = flags(readme_command())
    assert int(f["--max-concurrent-requests"][0]) == 32, "the harness's MEDIA_MCP_HTTP_MAX_IN_FLIGHT default"
    assert seconds(f["-W"]["timeout"]) >= COMPONENT_DEADLINE_S + 1, "above the component's own deadline"
    assert int(f["-W"]["max-memory-size"]) == 64 << 20, "the harness's MEDIA_MCP_MEMORY_LIMIT_MIB default"


def test_the_documented_command_serves_the_tools(upstream, tmp_path):
    if not HTTP_COMPONENT.is_file():
        pytest.fail(f"{HTTP_COMPONENT} is missing: run scripts/build-component.sh")
    key, log, url = upstream
    proc, mcp = serve(tmp_path, readme_command(), url, key)
    try:
        for i, (name, args) in enumerate(TOUR):
            body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": args}})
            status, _h, data = post(mcp, body, {"Authorization": f"Bearer {TOKEN}"})
            assert status == 200, data[:300]
            assert "result" in json.loads(data), data[:300]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    assert {r["api_key_header"] for r in seen if r["path"].lower().startswith("/api/")} == {key}


def test_requests_past_the_bound_wait_their_turn(slow_upstream, tmp_path):
    key, log, url = slow_upstream  # movie searches answer after 2 s
    proc, mcp = serve(tmp_path, readme_command(), url, key, bound=2)
    search = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                         "params": {"name": "read_search", "arguments": {"query": "matrix", "media": "movie"}}})
    out = []
    try:
        threads = [threading.Thread(target=lambda: out.append(post(mcp, search, {"Authorization": f"Bearer {TOKEN}"})[0]))
                   for _ in range(4)]
        for t in threads:
            t.start()
        def arrived():
            lines = log.read_text().splitlines() if log.exists() else []
            return len([r for r in map(json.loads, lines)
                        if not r.get("abandoned") and "/search/movie/" in r["path"].lower()])

        deadline = time.monotonic() + 20
        while arrived() < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.5)  # the first two are held 2 s at the fake; nothing else may start meanwhile
        running = arrived()
        for t in threads:
            t.join(30)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert running == 2, "two requests ran; the others waited"
    assert out == [200] * 4, "and then were served"
