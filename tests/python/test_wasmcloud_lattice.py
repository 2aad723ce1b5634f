"""Two wasmCloud hosts on one NATS, without Kubernetes (tests/python/lattice.py: Debian's
nats-server and docker-registry, two `wash host`s, the committed workload started on both by
`workload.start` requests on NATS), and one MCP session through deploy/balancer/nginx.conf as
the ingress in front of both hosts.
"""
import asyncio
import json
import secrets
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from balancer import Balancer, available  # noqa: E402
from http_hosts import post  # noqa: E402
from lattice import Lattice, missing  # noqa: E402
from test_http import with_session  # noqa: E402
from test_mcp_client import upstream  # noqa: E402,F401  (the fake Ombi fixture)

TOKEN = "alice-" + secrets.token_urlsafe(24)


@pytest.fixture
def lattice(tmp_path):
    lacking = missing() + ([] if available("nginx") else ["nginx"])
    if lacking:
        pytest.fail(f"missing {lacking}: .ci/run installs nats-server, docker-registry and nginx-light from "
                    "Debian; scripts/build-component.sh builds the component")
    lat = Lattice(tmp_path, hosts=2)
    try:
        yield lat
    finally:
        lat.stop()


def test_two_hosts_serve_one_session_through_an_ingress(lattice, upstream, tmp_path):
    key, log, ombi_url = upstream
    virtual_host, seen = lattice.deploy(ombi_url, {"OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}"})

    # What protects the key in transit is NATS: the start message carries it in the clear to
    # anyone who may subscribe to the hosts' subjects (here, a plain client of an open NATS).
    assert any(key in data for subject, data in seen if subject.endswith(".workload.start"))

    # The hosts route by the Host header the workload's wasi:http interface names; any other
    # name (as on a host without this workload) answers 404.
    ping = '{"jsonrpc":"2.0","id":0,"method":"ping"}'
    for _host_id, port, _proc in lattice.hosts:
        url = f"http://127.0.0.1:{port}/mcp"
        assert post(url, ping, {"Authorization": f"Bearer {TOKEN}", "Host": virtual_host})[0] == 200
        assert post(url, ping, {"Authorization": f"Bearer {TOKEN}", "Host": "other.example.com"})[0] == 404

    def ingress(text):
        text = text.replace("proxy_set_header Host $host;", f"proxy_set_header Host {virtual_host};")
        # wasmCloud hosts keep no jobs, so nothing ties a client to one of them: round robin
        # spreads the session over both, which is what this test shows.
        text = text.replace("hash $http_authorization consistent;", "")
        return text.replace("access_log off;", "log_format up '$upstream_addr $status';\n"
                            f"    access_log {tmp_path / 'nginx' / 'upstreams.log'} up;")

    lb = Balancer("nginx", [port for _h, port, _p in lattice.hosts], tmp_path, edit=ingress)
    try:
        async def calls(session, init):
            assert init.server_info.name == "media-mcp"
            tools = {t.name for t in (await session.list_tools()).tools}
            assert "read_search" in tools and "write_request_create" in tools
            return [await session.call_tool("read_search", {"query": f"matrix {i}"}) for i in range(6)]

        results = asyncio.run(with_session(lb.url, TOKEN, calls))
        assert all(r.structured_content["ok"] is True for r in results), results
        served = {line.split()[0] for line in (tmp_path / "nginx" / "upstreams.log").read_text().splitlines()}
        assert served == {f"127.0.0.1:{port}" for _h, port, _p in lattice.hosts}, "both hosts answered"
    finally:
        lb.stop()
    calls_seen = [json.loads(line) for line in log.read_text().splitlines()]
    api = [r for r in calls_seen if r.get("path", "").lower().startswith("/api/")]
    assert api and {(r["user_name"], r["api_key_header"]) for r in api} == {("alice", key)}
    for _h, _port, proc in lattice.hosts:
        text = proc.log.read_text()
        assert key not in text and TOKEN not in text
