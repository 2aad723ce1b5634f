"""A household's use of an MCP server over HTTP: a few calls an evening, not a benchmark loop.

Quiet gaps longer than every timeout the server and its upstream have, then a burst of calls at
once. Some calls send their request a moment after connecting (as after a TLS handshake or a
browser's preconnect), and one kept-alive connection from each burst is used again after the
next gap: the server may have closed it meanwhile, which the client must see as a clean close
(not one byte of an answer) and retry on a new connection, or it answers.

Checked per host: every call answered exactly once with its own JSON-RPC id, every call reached
the fake Ombi exactly once (reads by their unique search term, writes by their unique TMDB id),
no answer was cut short, and the server's resident memory after the last gap is back to its idle
level after a warm-up burst. Used by tests/python/test_household.py (short timeouts) and
scripts/household-soak.py (the real defaults, for BENCHMARKS.md).
"""
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from http_hosts import memory_kib

# Resident memory may exceed its idle level by this much at the end (allocator slack).
MEMORY_SLACK_KIB = 4096
MEMORY_SLACK_SHARE = 0.10
IO_TIMEOUT_S = 60


@dataclass
class Pattern:
    """Quiet seconds before each burst, calls per burst, and how long the slow-sending calls
    wait between connecting and sending."""

    gaps: list
    burst: int
    send_after_s: float


@dataclass
class Outcome:
    """What one call ended as."""

    call: int
    status: int = 0
    answer: dict = field(default_factory=dict)
    retried_after_clean_close: bool = False
    failure: str = ""


@dataclass
class Report:
    host: str
    outcomes: list
    upstream_counts: dict
    idle_kib: int
    end_kib: int
    kept_reused: int = 0
    kept_closed: int = 0
    seconds: float = 0.0

    def failures(self):
        """Every way this run fell short, as sentences (empty: it passed)."""
        out = [f"call {o.call}: {o.failure}" for o in self.outcomes if o.failure]
        for o in self.outcomes:
            if o.failure:
                continue
            if o.status != 200 or "result" not in o.answer or o.answer.get("id") != o.call:
                out.append(f"call {o.call}: answered {o.status} {json.dumps(o.answer)[:300]}")
            elif o.answer["result"].get("isError"):
                out.append(f"call {o.call}: tool error {json.dumps(o.answer['result'])[:300]}")
        for o in self.outcomes:
            seen = self.upstream_counts.get(o.call, 0)
            if seen != 1:
                out.append(f"call {o.call} reached the fake Ombi {seen} times")
        limit = self.idle_kib + max(MEMORY_SLACK_KIB, int(self.idle_kib * MEMORY_SLACK_SHARE))
        if self.end_kib > limit:
            out.append(f"resident memory {self.end_kib} KiB after the last gap, idle level {self.idle_kib} KiB")
        return out


def call_body(n):
    """Call `n`: reads and writes alternate, each with its own search term or TMDB id."""
    if n % 2 == 0:
        name, args = "read_search", {"query": f"household {n}", "media": "movie"}
    else:
        name, args = "write_request_create", {"media": "movie", "tmdb_id": 900_000 + n}
    return json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                       "params": {"name": name, "arguments": args}}).encode()


def upstream_counts(log: Path):
    """{call number: how many requests for it reached the fake Ombi}."""
    counts = {}
    for line in log.read_text().splitlines() if log.exists() else []:
        r = json.loads(line)
        if r.get("abandoned"):
            continue
        path = unquote(r.get("path", ""))
        n = None
        if "/search/movie/household " in path.lower():
            n = int(path.rsplit(" ", 1)[1])
        elif r.get("method") == "POST" and path.lower() == "/api/v1/request/movie":
            tmdb = json.loads(r["body"]).get("theMovieDbId", 0)
            if tmdb >= 900_000:
                n = tmdb - 900_000
        if n is not None:
            counts[n] = counts.get(n, 0) + 1
    return counts


class ConnectionClosed(Exception):
    """The server closed the connection before sending one byte of an answer."""


def request_bytes(port, token, body):
    head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode() + body


def read_answer(sock):
    """(status, body) of one HTTP/1.1 answer. ConnectionClosed when the connection ended before
    any byte of it; ValueError (an answer cut short) when it ended part-way."""
    buf = b""

    def more():
        nonlocal buf
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            chunk = b""
        if not chunk:
            if not buf:
                raise ConnectionClosed()
            raise ValueError(f"the answer was cut short after {len(buf)} bytes")
        buf += chunk

    while b"\r\n\r\n" not in buf:
        more()
    head, _, rest = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    buf = rest
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = b""
        while True:
            while b"\r\n" not in buf:
                more()
            size_line, _, buf = buf.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            while len(buf) < size + 2:
                more()
            body += buf[:size]
            buf = buf[size + 2:]
            if size == 0:
                return status, body
    length = int(headers.get("content-length", "0"))
    while len(buf) < length:
        more()
    return status, buf[:length]


def parse(body):
    """The JSON-RPC answer of a JSON body or of an event stream's last event."""
    text = body.decode()
    if text.lstrip().startswith("{"):
        return json.loads(text)
    data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
    return json.loads(data[-1]) if data else {}


def exchange(sock, port, token, n):
    sock.sendall(request_bytes(port, token, call_body(n)))
    return read_answer(sock)


def connect(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=IO_TIMEOUT_S)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def fresh_call(port, token, n, send_after_s=0.0):
    """Call `n` on a new connection, sent `send_after_s` after connecting; the connection is
    returned open (kept alive) with the outcome."""
    out = Outcome(n)
    sock = connect(port)
    try:
        time.sleep(send_after_s)
        out.status, body = exchange(sock, port, token, n)
        out.answer = parse(body)
    except ConnectionClosed:
        out.failure = f"a new connection was closed without an answer ({send_after_s} s after connecting)"
    except Exception as e:  # noqa: BLE001 (every failure is reported, none stops the soak)
        out.failure = f"{type(e).__name__}: {e}"
    return out, sock


def kept_call(sock, port, token, n):
    """Call `n` on a kept-alive connection; after a clean close, once more on a new one.
    Returns the outcome and whether the kept connection was still served."""
    out = Outcome(n)
    try:
        out.status, body = exchange(sock, port, token, n)
        out.answer = parse(body)
        return out, True
    except (ConnectionClosed, BrokenPipeError, ConnectionResetError):
        pass
    except Exception as e:  # noqa: BLE001
        out.failure = f"on a kept-alive connection: {type(e).__name__}: {e}"
        return out, True
    finally:
        sock.close()
    retry, again = fresh_call(port, token, n)
    again.close()
    retry.retried_after_clean_close = True
    return retry, False


def burst(port, token, first, size, send_after_s):
    """`size` calls at once from `first` on, each on a new connection, every other one sent
    late; the connections are closed after their answer."""
    outcomes = [None] * size

    def one(i):
        out, sock = fresh_call(port, token, first + i, send_after_s if i % 2 else 0.0)
        sock.close()
        outcomes[i] = out

    threads = [threading.Thread(target=one, args=(i,)) for i in range(size)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(IO_TIMEOUT_S * 2)
    return [o or Outcome(first + i, failure="no outcome") for i, o in enumerate(outcomes)]


def soak(host, port, pid, token, ombi_log: Path, pattern: Pattern, settle_s=0.5):
    """Runs `pattern` against the server on `port` (process `pid`) and reports."""
    started = time.monotonic()
    # Warm-up: one burst (the component loaded, its instances and connections made), then the
    # idle level once it has settled. Warm-up calls are numbered below zero and not counted.
    warm = burst(port, token, 1_000_000, pattern.burst, 0.0)
    warm_failures = [o.failure or o.status for o in warm if o.failure or o.status != 200]
    if warm_failures:
        raise RuntimeError(f"{host}: the warm-up burst failed: {warm_failures}")
    time.sleep(settle_s)
    idle_kib = memory_kib(pid)
    outcomes = []
    n = 0
    kept = None
    reused = closed = 0
    for gap in pattern.gaps:
        time.sleep(gap)
        if kept is not None:
            out, served = kept_call(kept, port, token, n)
            outcomes.append(out)
            reused += served
            closed += not served
            n += 1
        outcomes.extend(burst(port, token, n, pattern.burst, pattern.send_after_s))
        n += pattern.burst
        out, kept = fresh_call(port, token, n)
        outcomes.append(out)
        n += 1
    kept.close()
    time.sleep(max(pattern.gaps[-1], settle_s))
    end_kib = memory_kib(pid)
    counts = upstream_counts(ombi_log)
    return Report(host, outcomes, {k: v for k, v in counts.items() if k < 1_000_000}, idle_kib, end_kib,
                  reused, closed, time.monotonic() - started)
