"""Long calls with the official TypeScript SDK client (tests/node/ts_long_calls.mjs) against
the harness and a slow fake Ombi, over stdio and over `serve --http` (where progress comes as
an SSE stream and the SDK's abort closes the connection): progress keeps a call alive past the
client's timeout (`resetTimeoutOnProgress`), a silent call times out, and a write the caller
aborts is stopped (its upstream connection dropped, an unknown outcome logged) while another
call answers. Skipped with the reason without node and npm, like test_http_node.py. The
official Python SDK receives the same progress over stdio.
"""
import asyncio
import json
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fake_ombi  # noqa: E402
from test_http_node import node_clients  # noqa: E402,F401  (module fixture)
from http_hosts import HTTP_COMPONENT, HttpServer, post  # noqa: E402
from test_mcp_client import CACHE, HARNESS, require_artifacts  # noqa: E402

SEARCH_ROUTE = ("GET", "/api/v1/search/movie/{searchterm}")
REQUEST_ROUTE = ("POST", "/api/v1/request/movie")
DELAY_S = 4.0
TIMEOUT_MS = 1500
TOKEN = "alice-" + secrets.token_urlsafe(24)


@pytest.fixture
def slow_upstream(tmp_path):
    """A fake Ombi whose movie search and movie request answer after DELAY_S."""
    key = "canary-" + secrets.token_hex(12)
    log = tmp_path / "ombi-requests.jsonl"
    fixtures = fake_ombi.FIXTURES
    overrides = {
        SEARCH_ROUTE: (200, "application/json", (fixtures / "v1-search-movie-term.json").read_bytes(), DELAY_S),
        REQUEST_ROUTE: (200, "application/json", (fixtures / "v1-request-movie-post-ok.json").read_bytes(), DELAY_S),
    }
    server = fake_ombi.start(key, str(log), overrides=overrides)
    try:
        yield key, log, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def test_progress_keeps_a_long_call_alive_and_cancellation_stops_a_call(node_clients, slow_upstream):
    require_artifacts()
    key, log, url = slow_upstream
    env = {"OMBI_URL": url, "OMBI_API_KEY": key, "OMBI_USER": "alice", "MEDIA_MCP_CACHE_DIR": str(CACHE),
           "MEDIA_MCP_PROGRESS_INTERVAL_MS": "300", "MEDIA_MCP_LOG": "info"}
    out = run_client(node_clients, "stdio", str(HARNESS), json.dumps(env))
    check_long_calls(out, key, log)
    stderr = out["stderr"]
    assert re.search(r"call write_request_create \[[0-9a-f-]{36}\] cancelled by the client after [0-9.]+ ms "
                     r"and stopped: the tool may write .* outcome is unknown", stderr), stderr[-3000:]
    assert re.search(r"call read_search \[[0-9a-f-]{36}\] cancelled by the client", stderr), stderr[-3000:]
    assert key not in stderr


def test_over_http_progress_streams_as_sse_and_a_dropped_connection_stops_the_call(
        node_clients, slow_upstream, tmp_path):
    key, log, url = slow_upstream
    server = harness_http(slow_upstream, tmp_path)
    try:
        out = run_client(node_clients, "http", server.url, TOKEN)
    finally:
        server.stop()
    check_long_calls(out, key, log)
    harness_log = (tmp_path / "harness.log").read_text()
    assert re.search(r"tools/call write_request_create \(request id \"?\d+\"?\) stopped: the client closed the "
                     r"connection before the answer; if the tool writes, its outcome is unknown", harness_log), harness_log
    assert key not in harness_log


def test_over_http_a_client_that_does_not_accept_sse_gets_one_json_answer(slow_upstream, tmp_path):
    server = harness_http(slow_upstream, tmp_path)
    try:
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "read_search", "arguments": {"query": "matrix", "media": "movie"},
            "_meta": {"progressToken": "p"}}})
        status, headers, data = post(server.url, body, {"Authorization": f"Bearer {TOKEN}",
                                                        "Accept": "application/json"})
    finally:
        server.stop()
    assert status == 200 and headers["content-type"].startswith("application/json"), (status, headers)
    assert json.loads(data)["result"]["structuredContent"]["ok"] is True


def harness_http(upstream, tmp_path):
    if not HTTP_COMPONENT.is_file():
        pytest.fail(f"{HTTP_COMPONENT} is missing: run scripts/build-component.sh")
    key, _log, url = upstream
    env = {"OMBI_URL": url, "OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}",
           "MEDIA_MCP_PROGRESS_INTERVAL_MS": "300", "MEDIA_MCP_CACHE_DIR": str(CACHE)}
    return HttpServer("host-harness serve --http", env, tmp_path / "harness.log")


def run_client(node_clients, mode, target, secret):
    done = subprocess.run(["node", "ts_long_calls.mjs", mode, target, secret, str(TIMEOUT_MS)],
                          cwd=node_clients, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def check_long_calls(out, key, log):

    # 1. Progress every 300 ms reset the 1.5 s timeout; the 4 s call succeeded.
    assert out["kept"]["isError"] is False and out["kept"]["ok"] is True, out["kept"]
    assert out["kept"]["ms"] >= DELAY_S * 1000 > TIMEOUT_MS
    progress = out["progress"]
    assert len(progress) >= 3, progress
    values = [p["progress"] for p in progress]
    assert values == sorted(values) and len(set(values)) == len(values), values
    assert all("total" not in p for p in progress), "no invented total"
    assert all(p["message"].startswith("read_search: still running after") for p in progress)
    assert all(p["at"] <= out["kept"]["ms"] for p in progress)

    # 2. Without a progress token nothing resets the timeout.
    assert out["silentError"] is not None and out["silentError"]["code"] == -32001, out["silentError"]

    # 3. The aborted write got no answer; the concurrent read did.
    assert out["cancelled"]["answered"] is False, out["cancelled"]
    assert out["other"] == {"isError": False, "ok": True}
    # Nothing arrived for a finished or cancelled request (the SDK reports such messages here).
    assert out["errors"] == [], out["errors"]

    assert key not in json.dumps(out["progress"])

    # The fake saw the cancelled calls' connections dropped before it answered, and no retry.
    records = [json.loads(line) for line in log.read_text().splitlines()]
    abandoned = [(r["method"], r["path"].lower()) for r in records if r.get("abandoned")]
    assert ("POST", "/api/v1/request/movie") in abandoned, records
    assert ("GET", "/api/v1/search/movie/matrix") in abandoned, records
    posts = [r for r in records if r["method"] == "POST" and not r.get("abandoned")]
    assert len(posts) == 1, posts


def test_python_sdk_receives_progress_for_a_long_call(slow_upstream, tmp_path):
    require_artifacts()
    key, _log, url = slow_upstream
    params = StdioServerParameters(command=str(HARNESS), args=["serve"], env={
        "OMBI_URL": url, "OMBI_API_KEY": key, "MEDIA_MCP_CACHE_DIR": str(CACHE),
        "MEDIA_MCP_PROGRESS_INTERVAL_MS": "300"})
    reports = []

    async def on_progress(progress, total, message):
        reports.append((progress, total, message))

    async def body(session):
        await session.initialize()
        return await session.call_tool("read_search", {"query": "matrix", "media": "movie"},
                                       progress_callback=on_progress)

    async def run():
        with open(tmp_path / "stderr.txt", "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    return await body(session)

    result = asyncio.run(run())
    assert not result.is_error and result.structured_content["ok"] is True
    assert len(reports) >= 3, reports
    assert [p for p, _, _ in reports] == sorted(p for p, _, _ in reports)
    assert all(total is None and message.startswith("read_search: still running") for _, total, message in reports)
