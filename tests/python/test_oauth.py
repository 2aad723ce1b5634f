"""OAuth mode (MEDIA_MCP_HTTP_AUTH=oauth) of target/media_mcp_http.wasm under `wasmtime serve`
and `host-harness serve --http` (which allows the issuer's origin, and only it, besides the
upstreams, and never sends an upstream key there), against a loopback identity provider (fake_idp.py: OpenID
discovery, a rotating JWKS, tokens signed with RS256, PS256, ES256 and EdDSA) and the fake
Ombi: protected resource metadata, the challenges, every refusal with nothing sent upstream,
the read and write scopes, and the official Python client calling a tool as the token's user.
"""
import asyncio
import http.client
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from fake_idp import FakeIdp, Key  # noqa: E402
from http_hosts import HOSTS  # noqa: E402
from test_http import line_count, require_artifact, serve, upstream, with_session  # noqa: E402,F401

RESOURCE = "https://media.example.test/mcp"
METADATA = "https://media.example.test/.well-known/oauth-protected-resource/mcp"
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


def call(name, args):
    return {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": name, "arguments": args}}


SEARCH = call("read_search", {"query": "matrix"})


@pytest.fixture(scope="module", params=HOSTS)
def host(request):
    return request.param


@pytest.fixture(scope="module")
def idp():
    p = FakeIdp(RESOURCE)
    try:
        yield p
    finally:
        p.stop()


@pytest.fixture(scope="module")
def server(host, upstream, idp, tmp_path_factory):
    require_artifact()
    client_id, secret = idp.client
    s = serve(host, upstream, tmp_path_factory, MEDIA_MCP_HTTP_AUTH="oauth",
              MEDIA_MCP_OAUTH_ISSUER=idp.issuer, MEDIA_MCP_OAUTH_RESOURCE=RESOURCE,
              MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID=client_id,
              MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET=secret)
    try:
        yield s
    finally:
        s.stop()


def send(server, body, token=None, path="/mcp", method="POST"):
    """One request to `path` (query included); returns (status, headers, JSON body)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    resp = conn.getresponse()
    status, headers, data = resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    conn.close()
    return status, headers, json.loads(data) if data else None


def test_protected_resource_metadata_with_cors(server, idp):
    for path in ("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"):
        status, headers, doc = send(server, None, path=path, method="GET")
        assert status == 200, path
        assert doc["resource"] == RESOURCE
        assert doc["authorization_servers"] == [idp.issuer]
        assert doc["scopes_supported"] == ["media:read", "media:write"]
        assert doc["bearer_methods_supported"] == ["header"]
        assert headers["access-control-allow-origin"] == "*"


def test_no_token_is_401_pointing_to_the_metadata(server):
    status, headers, body = send(server, INIT)
    assert status == 401, body
    assert headers["www-authenticate"] == f'Bearer resource_metadata="{METADATA}", scope="media:read media:write"'


@pytest.mark.parametrize("alg", ["RS256", "PS256", "ES256", "EdDSA"])
def test_each_algorithm_reaches_ombi_as_the_signed_in_user(server, upstream, idp, alg):
    _key, log, _url = upstream
    start = line_count(log)
    status, _h, body = send(server, SEARCH, idp.token(alg, preferred_username=f"user-{alg.lower()}"))
    assert status == 200, body
    assert body["result"]["structuredContent"]["ok"] is True, body
    seen = [json.loads(line) for line in log.read_text().splitlines()[start:]]
    assert {r["user_name"] for r in seen if r["path"].lower().startswith("/api/")} == {f"user-{alg.lower()}"}


def refusals(idp):
    now = int(time.time())
    stranger = Key("ES256", "es256-1")
    return {
        "expired": idp.token(exp=now - 61),
        "not yet valid": idp.token(nbf=now + 120),
        "wrong issuer": idp.token(iss=idp.issuer + "/other"),
        "wrong audience": idp.token(aud="https://other.example.test/mcp"),
        "no exp": idp.token(exp=None),
        "bad signature": idp.token("ES256", key=stranger),
        "alg none": idp.forged_none(),
        "HMAC keyed with the public key": idp.forged_hmac(),
        "garbage kid": idp.token(kid="no-such-key"),
        "introspection: unknown opaque token": "an-opaque-access-token-0123456789",
        "introspection: inactive": idp.opaque_token(active=False),
        "introspection: wrong audience": idp.opaque_token(aud="https://other.example.test/mcp"),
        "introspection: expired": idp.opaque_token(exp=now - 61),
    }


def test_invalid_tokens_are_401_invalid_token_and_nothing_goes_upstream(server, upstream, idp):
    _key, log, _url = upstream
    start = line_count(log)
    for what, token in refusals(idp).items():
        status, headers, body = send(server, SEARCH, token)
        assert status == 401, (what, body)
        assert headers["www-authenticate"].endswith('error="invalid_token"'), what
        assert token not in json.dumps(body), what
    assert line_count(log) == start


def test_opaque_tokens_are_introspected_and_reach_ombi_as_their_user(server, upstream, idp):
    _key, log, _url = upstream
    start, asked = line_count(log), idp.introspections()
    read = idp.opaque_token(scope="media:read", preferred_username="carol")
    status, _h, body = send(server, SEARCH, read)
    assert status == 200 and body["result"]["structuredContent"]["ok"] is True, body
    assert idp.introspections() == asked + 1
    lines = log.read_text().splitlines()[start:]
    assert {json.loads(line)["user_name"] for line in lines if "/api/" in line.lower()} == {"carol"}
    assert read not in "".join(lines), "the client's token never reaches an upstream"
    status, _h, body = send(server, LIST, read)
    assert all(t["name"].startswith("read_") for t in body["result"]["tools"])
    start = line_count(log)
    status, headers, _b = send(server, call("write_request_create", {"media_type": "movie", "tmdb_id": 603}), read)
    assert status == 403 and 'error="insufficient_scope"' in headers["www-authenticate"]
    assert line_count(log) == start
    server_log = server.log.read_text()
    assert idp.client[1] not in server_log and read not in server_log


def test_a_wrong_introspection_secret_is_503_without_the_secret(host, upstream, idp, tmp_path_factory):
    wrong = "wrong-secret-" + idp.client[1][-8:]
    s = serve(host, upstream, tmp_path_factory, MEDIA_MCP_HTTP_AUTH="oauth",
              MEDIA_MCP_OAUTH_ISSUER=idp.issuer, MEDIA_MCP_OAUTH_RESOURCE=RESOURCE,
              MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID=idp.client[0],
              MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET=wrong)
    try:
        _key, log, _url = upstream
        start = line_count(log)
        status, _h, body = send(s, SEARCH, idp.opaque_token())
        assert status == 503 and "introspection" in body["error"]["message"], body
        assert wrong not in json.dumps(body) and wrong not in s.log.read_text()
        assert line_count(log) == start
    finally:
        s.stop()


def test_token_in_the_query_string_is_refused(server, upstream, idp):
    _key, log, _url = upstream
    start = line_count(log)
    token = idp.token()
    status, headers, body = send(server, SEARCH, token, path=f"/mcp?access_token={token}")
    assert status == 401 and 'error="invalid_token"' in headers["www-authenticate"]
    status, _h, _b = send(server, SEARCH, path=f"/mcp?access_token={token}")
    assert status == 401
    assert line_count(log) == start


def test_scopes_decide_the_tools(server, upstream, idp):
    _key, log, _url = upstream
    start = line_count(log)
    status, headers, body = send(server, LIST, idp.token(scope="openid profile"))
    assert status == 403 and headers["www-authenticate"].endswith('error="insufficient_scope"'), body
    read = idp.token(scope="media:read")
    status, _h, body = send(server, LIST, read)
    names = {t["name"] for t in body["result"]["tools"]}
    assert names and all(n.startswith("read_") for n in names), names
    status, headers, body = send(server, call("write_request_create", {"media_type": "movie", "tmdb_id": 603}), read)
    assert status == 403 and 'scope="media:read media:write"' in headers["www-authenticate"], body
    assert line_count(log) == start, "nothing reached Ombi"
    status, _h, body = send(server, LIST, idp.token(scope="media:write"))
    assert any(t["name"].startswith("write_") for t in body["result"]["tools"])


def test_a_rotated_key_is_picked_up_and_garbage_kids_cost_one_fetch_each(server, idp):
    rotated = Key("ES256", "es256-2")
    idp.keys.append(rotated)
    try:
        status, _h, body = send(server, SEARCH, idp.token("ES256", key=rotated))
        assert status == 200, body
        before = idp.jwks_fetches()
        for i in range(5):
            assert send(server, SEARCH, idp.token(kid=f"junk-{i}"))[0] == 401
        # No host cache on these hosts: each request reads the key set once, never more.
        assert idp.jwks_fetches() - before <= 5
    finally:
        idp.keys.remove(rotated)


def test_python_client_with_a_token(server, idp):
    async def body(session, init):
        tools = (await session.list_tools()).tools
        result = await session.call_tool("read_search", {"query": "matrix"})
        return init, tools, result

    init, tools, result = asyncio.run(with_session(server.url, idp.token(), body))
    assert init.server_info.name == "media-mcp"
    assert any(t.name.startswith("write_") for t in tools)
    assert result.structured_content["ok"] is True


def test_static_token_mode_serves_no_oauth_metadata(host, upstream, tmp_path_factory):
    s = serve(host, upstream, tmp_path_factory, MEDIA_MCP_HTTP_TOKENS="alice=0123456789abcdef0123")
    try:
        status, _h, _b = send(s, None, path="/.well-known/oauth-protected-resource/mcp", method="GET")
        assert status == 404
        status, headers, _b = send(s, INIT)
        assert status == 401 and "resource_metadata" not in headers["www-authenticate"]
    finally:
        s.stop()


def test_an_incomplete_oauth_configuration_names_the_variable(host, upstream, idp, tmp_path_factory):
    env = {"MEDIA_MCP_HTTP_AUTH": "oauth", "MEDIA_MCP_OAUTH_ISSUER": idp.issuer}
    if host == "host-harness serve --http":
        # The harness reads the transport's settings at start: it does not start.
        with pytest.raises(RuntimeError, match="MEDIA_MCP_OAUTH_RESOURCE"):
            serve(host, upstream, tmp_path_factory, **env)
        return
    s = serve(host, upstream, tmp_path_factory, **env)
    try:
        status, _h, body = send(s, INIT)
        assert status == 500 and "MEDIA_MCP_OAUTH_RESOURCE" in body["error"]["message"], body
    finally:
        s.stop()


def test_the_harness_allows_the_issuer_origin_only_and_sends_it_no_key(host, server, upstream, idp):
    if host != "host-harness serve --http":
        pytest.skip("the harness's outbound allowlist")
    key, _log, url = upstream
    assert send(server, SEARCH, idp.token())[0] == 200
    issuer_origin = idp.issuer.rsplit("/oidc", 1)[0]
    log = server.log.read_text()
    assert f"origins allowed: {url}, {issuer_origin})" in log, log
    assert idp.headers, "the component fetched the issuer's metadata and keys"
    for headers in idp.headers:
        assert key not in json.dumps(headers), "an upstream key reached the identity provider"
        assert not {"apikey", "x-api-key"} & {name.lower() for name in headers}
    assert key not in log


def test_the_harness_refuses_an_issuer_on_an_upstream_origin(upstream, tmp_path):
    from http_hosts import HARNESS, HARNESS_CACHE, HTTP_COMPONENT
    if not HARNESS.is_file():
        pytest.fail(f"{HARNESS} is missing: ./scripts/build-native.sh")
    key, _log, url = upstream
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMBI_", "MOVIEPILOT_", "MEDIA_MCP_"))}
    env.update(OMBI_URL=url, OMBI_API_KEY=key, MEDIA_MCP_HTTP_AUTH="oauth",
               MEDIA_MCP_OAUTH_ISSUER=url + "/oidc", MEDIA_MCP_OAUTH_RESOURCE=RESOURCE,
               MEDIA_MCP_CACHE_DIR=str(HARNESS_CACHE), MEDIA_MCP_COMPONENT=str(HTTP_COMPONENT))
    r = subprocess.run([str(HARNESS), "serve", "--http", "127.0.0.1:0"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode != 0
    assert "MEDIA_MCP_OAUTH_ISSUER" in r.stderr and "also an upstream's origin" in r.stderr, r.stderr
    assert key not in r.stderr + r.stdout
