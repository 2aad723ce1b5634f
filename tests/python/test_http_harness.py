"""What `host-harness serve --http` adds around the HTTP component (the MCP behaviour itself
runs on both hosts in test_http.py): the API key injected by the host, a bound on requests in
flight, and a clean stop on SIGTERM that lets the request in flight finish.
"""
import json
import secrets
import signal
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fake_ombi  # noqa: E402
from http_hosts import HTTP_COMPONENT, HttpServer, post  # noqa: E402

TOKEN = "alice-" + secrets.token_urlsafe(24)
SEARCH = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                     "params": {"name": "read_search", "arguments": {"query": "matrix", "media": "movie"}}})
SEARCH_ROUTE = ("GET", "/api/v1/search/movie/{searchterm}")


@pytest.fixture
def slow_upstream(tmp_path):
    """A fake Ombi whose movie search answers after 2 s."""
    key = "canary-" + secrets.token_hex(12)
    log = tmp_path / "ombi-requests.jsonl"
    body = (fake_ombi.FIXTURES / "v1-search-movie-term.json").read_bytes()
    server = fake_ombi.start(key, str(log), overrides={SEARCH_ROUTE: (200, "application/json", body, 2.0)})
    try:
        yield key, log, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def harness(upstream, tmp_path, **extra):
    if not HTTP_COMPONENT.is_file():
        pytest.fail(f"{HTTP_COMPONENT} is missing: run scripts/build-component.sh")
    key, _log, url = upstream
    env = {"OMBI_URL": url, "OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}"}
    env.update(extra)
    return HttpServer("host-harness serve --http", env, tmp_path / "harness.log")


def search(url, out, i):
    status, _h, data = post(url, SEARCH, {"Authorization": f"Bearer {TOKEN}"})
    out[i] = (status, json.loads(data) if data else None)


def test_requests_beyond_the_in_flight_bound_wait_then_get_503(slow_upstream, tmp_path):
    # One slot, a 3 s call timeout (the component's deadline 2 s, as the harness requires at
    # least 1 s between them), upstream answers after 2 s: the first call ends at ~2 s, the
    # second takes the slot and ends at ~4 s, the third waits 3 s for a slot and gets 503.
    s = harness(
        slow_upstream,
        tmp_path,
        MEDIA_MCP_HTTP_MAX_IN_FLIGHT="1",
        MEDIA_MCP_CALL_TIMEOUT_SECS="3",
        MEDIA_MCP_CALL_DEADLINE_MS="2000",
    )
    try:
        out = [None] * 3
        threads = []
        for i in range(3):
            threads.append(threading.Thread(target=search, args=(s.url, out, i)))
            threads[-1].start()
            time.sleep(0.1)
        for t in threads:
            t.join(30)
        statuses = sorted(status for status, _ in out)
        assert statuses == [200, 200, 503], out
        busy = next(body for status, body in out if status == 503)
        assert busy["error"]["message"].startswith("the server is busy")
    finally:
        s.stop()


def test_sigterm_finishes_the_request_in_flight_then_exits_cleanly(slow_upstream, tmp_path):
    key, log, _url = slow_upstream
    s = harness(slow_upstream, tmp_path)
    out = [None]
    t = threading.Thread(target=search, args=(s.url, out, 0))
    t.start()
    deadline = time.monotonic() + 20
    # SIGTERM once the search waits at the fake (a fixed sleep can be too short on a loaded machine).
    while not (log.exists() and "/search/movie/" in log.read_text().lower()):
        assert time.monotonic() < deadline, "the search never reached the fake Ombi"
        time.sleep(0.01)
    s.proc.send_signal(signal.SIGTERM)
    t.join(30)
    assert s.proc.wait(timeout=30) == 0
    s.errlog.close()
    status, body = out[0]
    assert status == 200 and body["result"]["structuredContent"]["ok"] is True, body
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    assert seen and all(r["api_key_header"] == key for r in seen if r["path"].lower().startswith("/api/"))
    text = s.log.read_text()
    assert "shutting down" in text and "stopped" in text
    assert key not in text and TOKEN not in text


PING = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "ping"}).encode()


def ping_on_a_new_connection(port):
    """"refused" when the connection is refused or its handshake never completes; else
    "answered" with an HTTP status line, or "lost": the request was sent on an open connection
    and the server reset or closed it without an answer."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    except OSError:
        return "refused"
    try:
        sock.settimeout(10)
        sock.sendall(
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Accept: application/json, text/event-stream\r\nConnection: close\r\n"
            + f"Authorization: Bearer {TOKEN}\r\nContent-Length: {len(PING)}\r\n\r\n".encode() + PING)
        head = sock.recv(64)
    except OSError:
        return "lost"
    finally:
        sock.close()
    return "answered" if head.startswith(b"HTTP/1.1 200") else "lost"


def test_a_connection_that_reaches_the_stopping_server_is_answered_or_refused(slow_upstream, tmp_path):
    """Closing a listener resets the connections the kernel queued for it and the handshakes
    under way, after their clients may have sent a request (a balancer cannot retry that POST).
    Clients connecting in a tight loop across SIGTERM each get an answer or a refused
    connection, never a request lost on an open one."""
    s = harness(slow_upstream, tmp_path)
    outcomes = []
    done = threading.Event()

    def client():
        while not done.is_set():
            outcome = ping_on_a_new_connection(s.port)
            outcomes.append(outcome)
            if outcome == "refused":
                return

    threads = [threading.Thread(target=client) for _ in range(6)]
    try:
        for t in threads:
            t.start()
        time.sleep(1.0)
        s.proc.send_signal(signal.SIGTERM)
        assert s.proc.wait(timeout=30) == 0
    finally:
        done.set()
        for t in threads:
            t.join(30)
        s.stop()
    assert outcomes.count("answered") > 0 and outcomes.count("refused") == len(threads), outcomes
    assert "lost" not in outcomes, f"{outcomes.count('lost')} of {len(outcomes)} requests lost"
