"""The official MCP Python client (mcp==2.3.0) against the harness over stdio.

The harness (target/release/media-mcp) runs the real component (target/media_mcp.wasm)
against a fake Ombi on loopback (fake_ombi.py, serving tests/fixtures/ombi). The client lists
the tools and calls them; each structuredContent is validated against the tool's outputSchema
with jsonschema (the client validates it too, and raises when it does not match). The canary
API key must reach the fake upstream and appear nowhere in what the harness prints.

    pip install -r tests/python/requirements.txt
    python -m pytest -q tests/python          # after scripts/build-component.sh and a release build
"""
import asyncio
import json
import secrets
import sys
from pathlib import Path

import jsonschema
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
import fake_ombi  # noqa: E402

HARNESS = ROOT / "target" / "release" / "media-mcp"
DEMO = ROOT / "target" / "release" / "media-mcp-demo"
COMPONENT = ROOT / "target" / "media_mcp.wasm"
CACHE = ROOT / "target" / "tmp" / "media-mcp-py-cache"

# The demo's tour: representative calls, made when the component lists the tool.
TOUR = [
    ("read_search", {"query": "matrix", "media": "movie"}),
    ("read_media", {"media": "movie", "id": "603"}),
    ("write_request_create", {"media": "movie", "tmdb_id": 603}),
]


def require_artifacts():
    for path, how in (
        (HARNESS, "./scripts/build-native.sh"),
        (DEMO, "cargo build --release -p media-mcp-demo"),
        (COMPONENT, "scripts/build-component.sh"),
    ):
        if not path.is_file():
            pytest.fail(f"{path} is missing: build it with `{how}`, or run scripts/test.sh")


@pytest.fixture
def upstream(tmp_path):
    key = "canary-" + secrets.token_hex(12)
    log = tmp_path / "ombi-requests.jsonl"
    server = fake_ombi.start(key, str(log))
    try:
        yield key, log, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def harness_env(**extra):
    env = {"MEDIA_MCP_CACHE_DIR": str(CACHE), "MEDIA_MCP_LOG": "debug"}
    env.update(extra)
    return env


async def with_session(params, stderr_path, body):
    with open(stderr_path, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                return await body(session, init)


def text_of(result):
    return [c.text for c in result.content if getattr(c, "type", None) == "text"]


def check_result(tool, result, secret):
    sc = result.structured_content
    assert isinstance(sc, dict), f"{tool.name}: structuredContent is an object"
    jsonschema.Draft202012Validator(tool.output_schema).validate(sc)
    assert sc["operation"] == tool.name
    assert bool(result.is_error) == (sc["ok"] is False), f"{tool.name}: isError is the inverse of ok"
    assert isinstance(sc["correlation_id"], str) and sc["correlation_id"]
    assert json.loads(text_of(result)[0]) == sc, f"{tool.name}: the text block carries the same object"
    assert secret not in json.dumps(sc) + "".join(text_of(result))
    return sc


def test_official_client_lists_and_calls_tools(upstream, tmp_path):
    require_artifacts()
    key, log, url = upstream
    params = StdioServerParameters(
        command=str(HARNESS), args=["serve"], env=harness_env(OMBI_URL=url, OMBI_API_KEY=key)
    )

    async def body(session, init):
        assert init.protocol_version in ("2025-11-25", "2025-06-18", "2024-11-05")
        assert init.capabilities.tools is not None
        assert not init.capabilities.tools.list_changed
        assert init.server_info.name == "media-mcp" and init.server_info.version
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert "read_search" in tools
        for tool in tools.values():
            jsonschema.Draft202012Validator.check_schema(tool.input_schema)
            jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        called = []
        for name, args in TOUR:
            if name not in tools:
                continue
            jsonschema.Draft202012Validator(tools[name].input_schema).validate(args)
            result = await session.call_tool(name, args)
            check_result(tools[name], result, key)
            called.append(name)
        # A tool-level failure is a result, valid against the schema too.
        bad = await session.call_tool("read_search", {"query": "matrix", "bogus": 1})
        sc = check_result(tools["read_search"], bad, key)
        assert bad.is_error and sc["error"]["code"] == "INVALID_ARGUMENT"
        return called

    called = asyncio.run(with_session(params, tmp_path / "stderr.txt", body))
    assert "read_search" in called
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    api = [r for r in requests if r["path"].lower().startswith("/api/")]
    assert api and all(r["api_key_header"] == key for r in api), "every /api request carries the host-injected key"
    assert not any(r["api_key_query"] for r in requests), "the key never travels in a URL"
    assert key not in (tmp_path / "stderr.txt").read_text(), "the key never reaches stderr, even at debug level"


def test_unknown_tool_is_a_json_rpc_invalid_params_error(upstream, tmp_path):
    require_artifacts()
    key, _log, url = upstream
    params = StdioServerParameters(
        command=str(HARNESS), args=["serve"], env=harness_env(OMBI_URL=url, OMBI_API_KEY=key)
    )

    async def body(session, _init):
        with pytest.raises(MCPError) as raised:
            await session.call_tool("no_such_tool", {})
        assert raised.value.error.code == -32602
        # The session still works.
        await session.send_ping()

    asyncio.run(with_session(params, tmp_path / "stderr.txt", body))


def test_demo_serve_needs_no_configuration(tmp_path):
    require_artifacts()
    params = StdioServerParameters(command=str(DEMO), args=["--serve"], env=harness_env())

    async def body(session, _init):
        tools = {t.name: t for t in (await session.list_tools()).tools}
        result = await session.call_tool("read_search", {"query": "matrix", "media": "movie"})
        sc = result.structured_content
        jsonschema.Draft202012Validator(tools["read_search"].output_schema).validate(sc)
        assert sc["ok"] is True and sc["data"]["items"], sc

    asyncio.run(with_session(params, tmp_path / "stderr.txt", body))
