"""Replicas behind the balancers of deploy/balancer/: three replicas of target/media_mcp_http.wasm
(`host-harness serve --http`, `wasmtime serve`) behind nginx and HAProxy on loopback, the one a
client's token is routed to killed (SIGKILL) while write calls are in flight on it.

Every call must either have succeeded exactly once (the fake Ombi counts each call's write by
its own TMDB id) or have come back as an error that says its outcome is unknown: a write is never
silently repeated. The same run with the settings the committed files avoid (nginx's
`non_idempotent`, HAProxy's `retry-on empty-response`) repeats writes, which shows that the
check can fail. And an MCP client session keeps working across the kill: a call lost with the
replica is an error of that call, and the session's next call succeeds on the other replica.
"""
import asyncio
import contextlib
import json
import os
import re
import secrets
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fake_ombi  # noqa: E402
from balancer import BALANCERS, CONFIGS, UNSAFE, Balancer, available  # noqa: E402
from http_hosts import HOSTS, HTTP_COMPONENT, HttpServer, post  # noqa: E402

TOKEN = "alice-" + secrets.token_urlsafe(24)
WRITE_ROUTE = ("POST", "/api/v1/request/movie")
WRITE_DELAY_S = 1.5
IN_FLIGHT = 6
AFTER = 2
LOST = "may or may not have been carried out"
# The host of the tests that check the balancer alone (both hosts fail alike when killed).
ONE_HOST = "wasmtime serve"


@pytest.fixture
def slow_writes(tmp_path):
    """A fake Ombi whose movie requests answer after WRITE_DELAY_S (logged when they arrive)."""
    key = "canary-" + secrets.token_hex(12)
    log = tmp_path / "ombi-requests.jsonl"
    body = (fake_ombi.FIXTURES / "v1-request-movie-post-ok.json").read_bytes()
    server = fake_ombi.start(key, str(log), overrides={WRITE_ROUTE: (200, "application/json", body, WRITE_DELAY_S)})
    try:
        yield key, log, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def replicas(host, upstream, tmp_path, n=3):
    if not HTTP_COMPONENT.is_file():
        pytest.fail(f"{HTTP_COMPONENT} is missing: run scripts/build-component.sh")
    key, _log, url = upstream
    env = {"OMBI_URL": url, "OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}"}
    out = []
    try:
        for i in range(n):
            out.append(HttpServer(host, env, tmp_path / f"replica{i}.log"))
    except Exception:
        for r in out:
            r.stop()
        raise
    return out


@contextlib.contextmanager
def behind(kind, host, upstream, tmp_path, edit=None):
    """Three replicas of `host` behind balancer `kind`; yields (balancer, replicas)."""
    rs = replicas(host, upstream, tmp_path)
    try:
        lb = Balancer(kind, [r.port for r in rs], tmp_path, edit=edit)
        try:
            yield lb, rs
        finally:
            lb.stop()
    finally:
        for r in rs:
            r.stop()


def write_call(tmdb_id):
    return json.dumps({"jsonrpc": "2.0", "id": tmdb_id, "method": "tools/call",
                       "params": {"name": "write_request_create", "arguments": {"media": "movie", "tmdb_id": tmdb_id}}})


def writes_seen(log: Path):
    """{tmdb id: how many movie requests with it reached the fake Ombi}."""
    counts = {}
    for line in log.read_text().splitlines() if log.exists() else []:
        r = json.loads(line)
        if r.get("abandoned"):
            continue  # the second line of a request whose client hung up: counted on arrival
        if r.get("method") == "POST" and r.get("path", "").lower() == "/api/v1/request/movie":
            tmdb = json.loads(r["body"])["theMovieDbId"]
            counts[tmdb] = counts.get(tmdb, 0) + 1
    return counts


def arrived(log: Path, ids):
    """Whether every write in `ids` has reached the fake Ombi, which logs each when it arrives
    (a line being appended as it is read counts as not yet arrived)."""
    try:
        seen = writes_seen(log)
    except ValueError:
        return False
    return all(seen.get(i) for i in ids)


def wait_for_arrival(log: Path, ids, timeout=30):
    """Returns once the writes `ids` are all waiting at the fake Ombi (for WRITE_DELAY_S), so a
    replica stopped now has them in flight: a fixed sleep stops it too early on a loaded machine."""
    deadline = time.monotonic() + timeout
    while not arrived(log, ids):
        assert time.monotonic() < deadline, f"writes {list(ids)} did not all reach Ombi: {log.read_text()}"
        time.sleep(0.01)


def serving(rs, upstream_url):
    """The replica with a connection to the upstream open now: the one the token's calls are
    routed to (each client's requests go to one replica)."""
    port = int(upstream_url.rsplit(":", 1)[1].split("/")[0])
    connected = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[2].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                connected.add(fields[9])
    for replica in rs:
        fds = Path(f"/proc/{replica.proc.pid}/fd")
        inodes = set()
        for fd in fds.iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        if inodes & connected:
            return replica
    pytest.fail("no replica has a call in flight to the upstream")


def call(url, tmdb_id, out):
    try:
        status, headers, data = post(url, write_call(tmdb_id), {"Authorization": f"Bearer {TOKEN}"})
    except OSError as e:  # a connection closed without an answer
        out[tmdb_id] = (None, {}, repr(e))
        return
    try:
        out[tmdb_id] = (status, headers, json.loads(data))
    except ValueError:
        out[tmdb_id] = (status, headers, data)


def run_kill(balancer_url, rs, upstream_url, log):
    """IN_FLIGHT writes at once; SIGKILL the replica serving them while they wait at Ombi; then
    AFTER more."""
    out = {}
    first = list(range(1000, 1000 + IN_FLIGHT))
    threads = [threading.Thread(target=call, args=(balancer_url, i, out)) for i in first]
    for t in threads:
        t.start()
    wait_for_arrival(log, first)
    victim = serving(rs, upstream_url)
    victim.proc.send_signal(signal.SIGKILL)
    victim.proc.wait(timeout=10)
    for t in threads:
        t.join(60)
    for i in range(2000, 2000 + AFTER):
        call(balancer_url, i, out)
    return out


def outcomes(out, seen):
    """Per call: "once" (succeeded, one write), "lost" (a stated unknown outcome) or a failure
    description."""
    verdict = {}
    for tmdb, (status, headers, body) in sorted(out.items()):
        n = seen.get(tmdb, 0)
        if status == 200 and body["result"]["structuredContent"]["ok"] is True and n == 1:
            verdict[tmdb] = "once"
        elif status in (502, 504) and LOST in body["error"]["message"] and n <= 1 \
                and headers.get("connection", "").lower() == "close":
            verdict[tmdb] = "lost"
        else:
            verdict[tmdb] = f"status {status}, {n} writes at Ombi, connection {headers.get('connection')!r}: {body}"
    return verdict


@pytest.fixture(params=BALANCERS)
def balancer_kind(request):
    if not available(request.param):
        pytest.fail(f"{request.param} is not installed (.ci/run installs it from Debian: nginx-light, haproxy)")
    return request.param


@pytest.mark.parametrize("host", HOSTS)
def test_a_replica_killed_mid_call_never_repeats_a_write(balancer_kind, host, slow_writes, tmp_path):
    _key, log, url = slow_writes
    with behind(balancer_kind, host, slow_writes, tmp_path) as (lb, rs):
        out = run_kill(lb.url, rs, url, log)
    verdict = outcomes(out, writes_seen(log))
    bad = {k: v for k, v in verdict.items() if v not in ("once", "lost")}
    assert not bad, bad
    assert "lost" in [verdict[i] for i in range(1000, 1000 + IN_FLIGHT)], \
        f"some calls were in flight on the killed replica: {verdict}"
    assert all(verdict[i] == "once" for i in range(2000, 2000 + AFTER)), \
        f"after the kill every call goes to the live replica: {verdict}"


def test_the_settings_the_files_avoid_do_repeat_writes(balancer_kind, slow_writes, tmp_path):
    _key, log, url = slow_writes
    with behind(balancer_kind, ONE_HOST, slow_writes, tmp_path, edit=UNSAFE[balancer_kind]) as (lb, rs):
        out = run_kill(lb.url, rs, url, log)
    seen = writes_seen(log)
    twice = [tmdb for tmdb in out if seen.get(tmdb, 0) > 1]
    assert twice, f"the unsafe setting resent a write: {seen}"
    assert all(out[t][0] == 200 for t in twice), "and the client was told it succeeded"


def test_an_mcp_session_survives_the_kill(balancer_kind, slow_writes, tmp_path):
    _key, log, url = slow_writes

    ids = range(3000, 3004)

    async def session_body(lb, rs):
        async with create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"}) as http:
            async with streamable_http_client(lb.url, http_client=http) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()

                    async def one(tmdb):
                        try:
                            r = await session.call_tool("write_request_create", {"media": "movie", "tmdb_id": tmdb})
                            return tmdb, "ok" if r.structured_content["ok"] else r.structured_content
                        except MCPError as e:
                            return tmdb, e.error

                    async def kill_later():
                        while not arrived(log, ids):
                            await asyncio.sleep(0.01)
                        serving(rs, url).proc.send_signal(signal.SIGKILL)

                    results = await asyncio.wait_for(
                        asyncio.gather(*(one(t) for t in ids), kill_later()), 60)
                    after = await asyncio.wait_for(one(3100), 30)
                    return results[:-1], after

    with behind(balancer_kind, ONE_HOST, slow_writes, tmp_path) as (lb, rs):
        results, after = asyncio.run(session_body(lb, rs))
    seen = writes_seen(log)
    errors = [(t, e) for t, e in results if e != "ok"]
    assert errors, f"a call was lost with the replica: {results}"
    # The client is told the outcome is unknown (the SDK passes the balancer's message on;
    # without the files' error pages it says only "Server returned an error response").
    for tmdb, e in errors:
        assert seen.get(tmdb, 0) <= 1
        assert getattr(e, "code", None) == -32603 and LOST in e.message, e
    assert all(seen.get(t) == 1 for t, e in results if e == "ok")
    assert after == (3100, "ok") and seen.get(3100) == 1, "the session's next call succeeds"


def start_writes(url, ids, out):
    threads = [threading.Thread(target=call, args=(url, i, out)) for i in ids]
    for t in threads:
        t.start()
    return threads


def keepalive_idle_seconds(kind):
    text = CONFIGS[kind].read_text()
    if kind == "nginx":
        return int(re.search(r"keepalive_timeout (\d+)s", text).group(1))
    return int(re.search(r"timeout http-keep-alive (\d+)s", text).group(1))


@pytest.mark.parametrize("kind", BALANCERS)
def test_idle_client_connections_outlive_the_clients_own_keep_alive(kind):
    """A balancer that closes an idle client connection first races the client's next request
    on it, which then fails with no answer (the Python SDK drops the session). The client
    closes its own first: the Python SDK's httpx2 client (default limits) after 5 s."""
    import httpx2

    client = create_mcp_http_client()
    client_expiry = client._transport._pool._keepalive_expiry
    asyncio.run(client.aclose())
    assert client_expiry == httpx2.Limits().keepalive_expiry == 5.0
    assert keepalive_idle_seconds(kind) >= 4 * client_expiry


@pytest.mark.parametrize("host, how", [
    ("wasmtime serve", "balancer drain"),
    ("wasmtime serve", "none"),
    ("host-harness serve --http", "SIGTERM"),
])
def test_a_replica_stopped_while_serving_loses_no_call_when_drained(balancer_kind, host, how, slow_writes, tmp_path):
    """`wasmtime serve` cannot drain itself: the balancer takes it out first, its calls in flight
    finish, calls started meanwhile go to the other replica, and stopping it once its calls are
    done loses nothing (without the drain, the calls started meanwhile are lost).
    `host-harness serve --http` drains by itself on SIGTERM: it refuses new connections (which
    the balancer then sends to the other replica) and finishes its calls."""
    _key, log, url = slow_writes
    out = {}
    with behind(balancer_kind, host, slow_writes, tmp_path) as (lb, rs):
        first = start_writes(lb.url, range(4000, 4000 + IN_FLIGHT), out)
        wait_for_arrival(log, range(4000, 4000 + IN_FLIGHT))
        victim = serving(rs, url)
        # The calls started next end this long after the first ones, while the replica is stopped.
        time.sleep(WRITE_DELAY_S / 3)
        if how == "balancer drain":
            lb.drain(rs.index(victim))
        elif how == "SIGTERM":
            victim.proc.send_signal(signal.SIGTERM)
        second = start_writes(lb.url, range(5000, 5000 + IN_FLIGHT), out)
        for t in first:
            t.join(60)
        if how == "SIGTERM":
            assert victim.proc.wait(timeout=30) == 0
        else:
            victim.proc.send_signal(signal.SIGKILL)  # stopped once the first calls are done
        for t in second:
            t.join(60)
    verdict = outcomes(out, writes_seen(log))
    if how == "none":
        assert "lost" in verdict.values() and all(v in ("once", "lost") for v in verdict.values()), verdict
    else:
        assert all(v == "once" for v in verdict.values()), verdict
