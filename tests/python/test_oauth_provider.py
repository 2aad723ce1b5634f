"""OAuth mode against a real, certified OpenID provider: npm `oidc-provider` 9.13.3
(tests/node/oidc_provider.mjs, resource indicators issuing ES256 JWT access tokens or opaque ones) on loopback,
with a pre-registered client getting tokens by the client-credentials grant with the `resource`
parameter. The server discovers the provider's metadata and keys itself; a tool call reaches
the fake Ombi as the mapped user, and a read-only token cannot write; the same with opaque
access tokens, which the server introspects at the provider's introspection endpoint with its
own client (RFC 7662), and a revoked one is refused. Under `wasmtime serve` and `host-harness
serve --http`. Skipped without node and npm, like test_http_node.py.
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
# The resource server's own client, for introspection.
RS_ID = "media-mcp"
RS_SECRET = secrets.token_urlsafe(24)
CLIENTS = [
    {"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET, "grant_types": ["client_credentials"],
     "redirect_uris": [], "response_types": [], "scope": "media:read media:write"},
    {"client_id": RS_ID, "client_secret": RS_SECRET, "grant_types": ["client_credentials"],
     "redirect_uris": [], "response_types": []},
]


def start_provider(node_clients, **config):
    """tests/node/oidc_provider.mjs with `config`; returns (process, issuer)."""
    proc = subprocess.Popen(["node", "oidc_provider.mjs", json.dumps(config)], cwd=node_clients,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if not line:
        proc.wait(timeout=30)
        pytest.fail("oidc_provider.mjs did not start")
    return proc, json.loads(line)["issuer"]


def stop_provider(proc):
    proc.terminate()
    proc.wait(timeout=30)


@pytest.fixture(scope="module", params=["jwt", "opaque"])
def provider(node_clients, request):
    proc, issuer = start_provider(node_clients, resource=RESOURCE, format=request.param, clients=CLIENTS)
    try:
        yield issuer
    finally:
        stop_provider(proc)


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
    """OAuth mode against the provider: JWTs verified with its keys, opaque tokens introspected."""
    require_artifact()
    s = serve(host, upstream, tmp_path_factory, MEDIA_MCP_HTTP_AUTH="oauth", MEDIA_MCP_OAUTH_ISSUER=provider,
              MEDIA_MCP_OAUTH_RESOURCE=RESOURCE, MEDIA_MCP_OAUTH_USER_CLAIM="client_id",
              MEDIA_MCP_OAUTH_USER_MAP=f"{CLIENT_ID}=alice",
              MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_ID=RS_ID, MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET=RS_SECRET)
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


def test_a_revoked_opaque_token_is_refused_and_nothing_goes_upstream(server, upstream, provider, request):
    if request.node.callspec.params["provider"] != "opaque":
        pytest.skip("revocation of opaque tokens (JWTs stay valid until exp)")
    _key, log, _url = upstream
    read = token(provider, "media:read")
    assert send(server, SEARCH, read)[0] == 200
    form = urllib.parse.urlencode({"token": read, "token_type_hint": "access_token"})
    basic = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
    urllib.request.urlopen(urllib.request.Request(
        f"{provider}/token/revocation", data=form.encode(),
        headers={"Authorization": f"Basic {basic}", "Content-Type": "application/x-www-form-urlencoded"}),
        timeout=30).close()
    start = line_count(log)
    status, headers, body = send(server, SEARCH, read)
    assert status == 401 and 'error="invalid_token"' in headers["www-authenticate"], body
    assert "not active" in body["error"]["message"]
    assert line_count(log) == start
    assert RS_SECRET not in server.log.read_text()
