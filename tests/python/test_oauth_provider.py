"""OAuth mode against a real, certified OpenID provider: npm `oidc-provider` 9.13.3
(tests/node/oidc_provider.mjs, resource indicators issuing ES256 JWT access tokens) on loopback,
with a pre-registered client getting tokens by the client-credentials grant with the `resource`
parameter. The server discovers the provider's metadata and keys itself; a tool call reaches
the fake Ombi as the mapped user, and a read-only token cannot write. Under `wasmtime serve` (see test_oauth.py). Skipped without node and npm, like test_http_node.py.
"""
import base64
import json
import secrets
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from test_http import line_count, require_artifact, serve, upstream  # noqa: E402,F401
from test_http_node import node_clients  # noqa: E402,F401
from test_oauth import LIST, RESOURCE, SEARCH, call, host, send  # noqa: E402,F401

CLIENT_ID = "media-app"
CLIENT_SECRET = secrets.token_urlsafe(24)


@pytest.fixture(scope="module")
def provider(node_clients):
    proc = subprocess.Popen(["node", "oidc_provider.mjs", RESOURCE, CLIENT_ID, CLIENT_SECRET], cwd=node_clients,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        issuer = json.loads(proc.stdout.readline())["issuer"]
        yield issuer
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def token(issuer, scope, resource=RESOURCE):
    form = urllib.parse.urlencode({"grant_type": "client_credentials", "scope": scope, "resource": resource})
    basic = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
    req = urllib.request.Request(f"{issuer}/token", data=form.encode(),
                                 headers={"Authorization": f"Basic {basic}",
                                          "Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)["access_token"]


@pytest.fixture(scope="module")
def server(host, upstream, provider, tmp_path_factory):
    require_artifact()
    s = serve(host, upstream, tmp_path_factory, MEDIA_MCP_HTTP_AUTH="oauth", MEDIA_MCP_OAUTH_ISSUER=provider,
              MEDIA_MCP_OAUTH_RESOURCE=RESOURCE, MEDIA_MCP_OAUTH_USER_CLAIM="client_id",
              MEDIA_MCP_OAUTH_USER_MAP=f"{CLIENT_ID}=alice")
    try:
        yield s
    finally:
        s.stop()


def test_a_provider_token_reaches_ombi_as_the_mapped_user(server, upstream, provider):
    _key, log, _url = upstream
    start = line_count(log)
    status, _h, body = send(server, SEARCH, token(provider, "media:read"))
    assert status == 200 and body["result"]["structuredContent"]["ok"] is True, body
    seen = [json.loads(line) for line in log.read_text().splitlines()[start:]]
    assert {r["user_name"] for r in seen if r["path"].lower().startswith("/api/")} == {"alice"}


def test_provider_scopes_decide_the_tools(server, upstream, provider):
    _key, log, _url = upstream
    read = token(provider, "media:read")
    names = {t["name"] for t in send(server, LIST, read)[2]["result"]["tools"]}
    assert names and all(n.startswith("read_") for n in names)
    start = line_count(log)
    status, headers, _b = send(server, call("write_request_create", {"media_type": "movie", "tmdb_id": 603}), read)
    assert status == 403 and 'error="insufficient_scope"' in headers["www-authenticate"]
    assert line_count(log) == start
    names = {t["name"] for t in send(server, LIST, token(provider, "media:read media:write"))[2]["result"]["tools"]}
    assert any(n.startswith("write_") for n in names)
