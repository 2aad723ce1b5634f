"""Long calls as jobs with the official Python client (mcp==2.3.0), which validates every
structuredContent against the tool's outputSchema: a fake MoviePilot whose torrent search takes
6 s, a job threshold of 1.5 s, and a client that gives up on a request after 3 s and ignores
progress still gets the search's result through job_status, over stdio and `serve --http`, in
both MoviePilot versions; the upstream sees the search once. Then three replicas of
`serve --http` behind the committed nginx and HAProxy configurations: a job started through the
balancer is polled to its result through the balancer.
"""
import asyncio
import secrets
import sys
from pathlib import Path

import jsonschema
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from balancer import BALANCERS, Balancer, available  # noqa: E402
from fake_moviepilot import FakeMoviePilot  # noqa: E402
from http_hosts import HARNESS, HARNESS_CACHE, HttpServer  # noqa: E402

TOKEN = "alice-" + secrets.token_urlsafe(24)
AFTER_MS = 1500
SEARCH_MS = 6000
GIVE_UP_S = 3.0
SEARCHES = {
    "documented": ("moviepilot_api", {"operation_id": "search.torrents", "query": {"title": "Inception"}}),
    "v2.9.15": ("search_torrents", {"explanation": "find a release", "tmdb_id": 27205, "media_type": "movie"}),
}


def job_env(fake):
    return {"MOVIEPILOT_URL": fake.url, "MOVIEPILOT_API_KEY": fake.key,
            "MEDIA_MCP_JOB_AFTER_MS": str(AFTER_MS), "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}",
            "MEDIA_MCP_CACHE_DIR": str(HARNESS_CACHE)}


def checked(tools, name, result):
    """The result's structuredContent, checked against the tool's outputSchema again."""
    schema = next(t.output_schema for t in tools if t.name == name)
    jsonschema.validate(result.structured_content, schema)
    return result.structured_content


async def search_through_job_status(session, version):
    """Calls the torrent search, giving up on each request after GIVE_UP_S; returns the handle
    and the result job_status finally gave."""
    await session.initialize()
    tools = (await session.list_tools()).tools
    assert {"job_status", "job_cancel"} <= {t.name for t in tools}
    tool, args = SEARCHES[version]
    handle = checked(tools, tool, await session.call_tool(tool, args, read_timeout_seconds=GIVE_UP_S))
    assert handle["ok"] is True and handle["data"]["kind"] == "job", handle
    job_id = handle["data"]["job_id"]
    for _ in range(20):
        result = await session.call_tool("job_status", {"job_id": job_id, "wait_ms": 1000},
                                         read_timeout_seconds=GIVE_UP_S)
        status = checked(tools, "job_status", result)
        if status["data"].get("kind") != "job":
            assert status["operation"] == tool, status
            jsonschema.validate(status, next(t.output_schema for t in tools if t.name == tool))
            return handle, status
    pytest.fail(f"job {job_id} did not finish")


async def over_stdio(fake, version):
    params = StdioServerParameters(command=str(HARNESS), args=["serve"], env=job_env(fake))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            return await search_through_job_status(session, version)


async def over_http(url, version):
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                return await search_through_job_status(session, version)


@pytest.mark.parametrize("version", sorted(SEARCHES))
@pytest.mark.parametrize("transport", ["stdio", "serve --http"])
def test_a_client_that_gives_up_at_3_s_gets_a_6_s_search_through_job_status(transport, version, tmp_path):
    fake = FakeMoviePilot(search_delay_ms=SEARCH_MS, v2_9_15=version == "v2.9.15")
    try:
        if transport == "stdio":
            _handle, status = asyncio.run(over_stdio(fake, version))
        else:
            server = HttpServer("host-harness serve --http", job_env(fake), tmp_path / "harness.log")
            try:
                _handle, status = asyncio.run(over_http(server.url, version))
            finally:
                server.stop()
    finally:
        calls = fake.stop()
    assert status["ok"] is True and status["data"]["kind"] == "moviepilot_result", status
    assert calls[SEARCHES[version][0]] == 1, calls


@pytest.mark.parametrize("kind", BALANCERS)
def test_a_job_started_through_the_balancer_is_polled_through_it(kind, tmp_path):
    if not available(kind):
        pytest.fail(f"{kind} is not installed (.ci/run installs it from Debian: nginx-light, haproxy)")
    fake = FakeMoviePilot(search_delay_ms=SEARCH_MS)
    replicas = []
    try:
        for i in range(3):
            replicas.append(HttpServer("host-harness serve --http", job_env(fake), tmp_path / f"replica{i}.log"))
        lb = Balancer(kind, [r.port for r in replicas], tmp_path)
        try:
            _handle, status = asyncio.run(over_http(lb.url, "documented"))
        finally:
            lb.stop()
    finally:
        for r in replicas:
            r.stop()
        calls = fake.stop()
    assert status["ok"] is True, status
    assert calls["moviepilot_api"] == 1, calls
