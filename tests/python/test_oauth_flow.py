"""The official TypeScript SDK client (`@modelcontextprotocol/sdk`, pinned in tests/node/package.json)
signing in by itself through a certified OpenID provider (npm `oidc-provider` 9.13.3,
tests/node/oidc_provider.mjs: dynamic client registration, PKCE required, resource indicators,
devInteractions off): from the server's 401 through the protected resource metadata, the
provider's metadata, registration, the authorization code with PKCE S256 and the `resource`
parameter (the login and consent step completed by tests/node/ts_oauth.mjs on the provider's
interaction endpoint) to a tool call that reaches the fake Ombi as the signed-in user; and the
same with a pre-registered client (no registration), as with Authentik or Authelia. Under
`wasmtime serve` and `host-harness serve --http`. Skipped without node and npm.
"""
import json
import secrets
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from http_hosts import HttpServer, free_port  # noqa: E402
from test_http import line_count, require_artifact, upstream  # noqa: E402,F401
from test_http_node import node_clients, run  # noqa: E402,F401
from test_oauth import host  # noqa: E402,F401
from test_oauth_provider import start_provider, stop_provider  # noqa: E402

ACCOUNTS = {"dana": "pw-" + secrets.token_urlsafe(12), "erin": "pw-" + secrets.token_urlsafe(12)}
PRE_REGISTERED = {"client_id": "household-app", "client_secret": secrets.token_urlsafe(24)}


@pytest.fixture(scope="module")
def deployment(host, upstream, node_clients, tmp_path_factory):
    """The provider and the server, whose resource URI is its own loopback URL (the SDK checks
    that the metadata's resource matches the URL it connects to)."""
    require_artifact()
    key, _log, url = upstream
    port = free_port()
    resource = f"http://127.0.0.1:{port}/mcp"
    client = {**PRE_REGISTERED, "redirect_uris": ["http://127.0.0.1/callback"],
              "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
              "token_endpoint_auth_method": "client_secret_basic"}
    proc, issuer = start_provider(node_clients, resource=resource, format="jwt", registration=True,
                                  accounts=ACCOUNTS, clients=[client])
    try:
        env = {"OMBI_URL": url, "OMBI_API_KEY": key, "MEDIA_MCP_HTTP_AUTH": "oauth",
               "MEDIA_MCP_OAUTH_ISSUER": issuer, "MEDIA_MCP_OAUTH_RESOURCE": resource}
        server = HttpServer(host, env, tmp_path_factory.mktemp("serve") / "server.log", port=port)
        try:
            yield server, issuer, resource
        finally:
            server.stop()
    finally:
        stop_provider(proc)


def sign_in(node_clients, server, user, client=None):
    args = {"url": server.url, "user": user, "password": ACCOUNTS[user]}
    if client:
        args["client"] = client
    return json.loads(run(["node", "ts_oauth.mjs", json.dumps(args)], node_clients).strip().splitlines()[-1])


def check_flow(out, resource, upstream, start, user):
    assert out["unauthorized"] is True, "the first connection got the 401"
    asked = out["asked"]
    assert asked["response_type"] == "code" and asked["code_challenge_method"] == "S256", asked
    assert len(asked["code_challenge"]) == 43, asked
    assert asked["resource"] == resource, asked
    assert set(asked["scope"].split()) == {"media:read", "media:write"}, asked
    assert out["token_type"].lower() == "bearer"
    assert "read_search" in out["tools"] and any(t.startswith("write_") for t in out["tools"])
    sc = out["result"]["structuredContent"]
    assert sc["ok"] is True and sc["operation"] == "read_search", sc
    _key, log, _url = upstream
    seen = [json.loads(line) for line in log.read_text().splitlines()[start:]]
    assert {r["user_name"] for r in seen if r["path"].lower().startswith("/api/")} == {user}


def test_the_sdk_registers_signs_in_with_pkce_and_calls_a_tool_as_the_user(node_clients, deployment, upstream):
    server, _issuer, resource = deployment
    start = line_count(upstream[1])
    out = sign_in(node_clients, server, "dana")
    assert out["registered"] is True and out["client_id"] != PRE_REGISTERED["client_id"]
    check_flow(out, resource, upstream, start, "dana")


def test_a_pre_registered_client_signs_in_without_registration(node_clients, deployment, upstream):
    server, _issuer, resource = deployment
    start = line_count(upstream[1])
    out = sign_in(node_clients, server, "erin", client=PRE_REGISTERED)
    assert out["registered"] is False and out["client_id"] == PRE_REGISTERED["client_id"]
    check_flow(out, resource, upstream, start, "erin")
    assert PRE_REGISTERED["client_secret"] not in server.log.read_text()
