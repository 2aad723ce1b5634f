#!/usr/bin/env python3
"""The HTTP front door under load: 1,000 clients connect at once to `host-harness serve --http`
and to `wasmtime serve` (the flags of docs/guide/http.md), each on its own connection, and
each sends `tools/call read_search` (with a bearer token) against the fake Ombi, then a second
one on the same kept-alive connection. Reports per engine: answers by status, latency (median, p99, max,
from the first byte sent to the last byte read), the wall time of the whole burst, and the
engine's peak resident memory (`VmHWM` of /proc/PID/status) against its resident memory when
idle before the burst. Writes its section of BENCHMARKS.md (run by scripts/bench.sh after the
engine costs; `--smoke` runs 50 clients and writes target/bench/frontdoor.smoke.md).

    target/py/bin/python scripts/frontdoor-load.py [--smoke]
"""
import asyncio
import json
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "python"))
import bench_section  # noqa: E402
from http_hosts import HttpServer, memory_kib  # noqa: E402
from test_wasmtime_serve_flags import TOKEN, readme_command  # noqa: E402
from test_wasmtime_serve_flags import serve as readme_serve  # noqa: E402

HEADING = "## Front door: 1,000 clients at once"
SEARCH = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                     "params": {"name": "read_search", "arguments": {"query": "matrix", "media": "movie"}}}).encode()
CALLS_PER_CLIENT = 2
TIMEOUT_S = 120


async def read_answer(reader):
    """Status and body of one HTTP/1.1 response (Content-Length or chunked)."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed before an answer")
    status = int(status_line.split()[1])
    length, chunked = None, False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
        elif name.strip().lower() == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
    if chunked:
        body = b""
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                await reader.readline()
                break
            body += await reader.readexactly(size)
            await reader.readline()
    else:
        body = await reader.readexactly(length or 0)
    return status, body


async def client(port, start, results):
    await start.wait()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as e:
        results.append(("connect: " + type(e).__name__, None))
        return
    request = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
               f"Accept: application/json, text/event-stream\r\nAuthorization: Bearer {TOKEN}\r\n"
               f"Content-Length: {len(SEARCH)}\r\n\r\n").encode() + SEARCH
    try:
        for _ in range(CALLS_PER_CLIENT):
            sent = time.perf_counter()
            writer.write(request)
            await writer.drain()
            status, body = await read_answer(reader)
            took = time.perf_counter() - sent
            ok = status == 200 and b'"isError":false' in body.replace(b" ", b"")
            results.append((str(status) if ok or status != 200 else "200 with an error", took))
    except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError) as e:
        results.append((type(e).__name__, None))
    finally:
        writer.close()


async def burst(port, clients):
    start = asyncio.Event()
    results = []
    tasks = [asyncio.create_task(client(port, start, results)) for _ in range(clients)]
    await asyncio.sleep(0.5)  # every client waiting on the event
    began = time.perf_counter()
    start.set()
    await asyncio.wait_for(asyncio.gather(*tasks), TIMEOUT_S)
    return results, time.perf_counter() - began


def engines(tmp, ombi_url, key):
    env = {"OMBI_URL": ombi_url, "OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}"}
    h = HttpServer("host-harness serve --http", env, tmp / "harness.log")
    yield "`host-harness serve --http` (defaults)", h.port, h.proc.pid, h.stop
    proc, url = readme_serve(tmp, readme_command(), ombi_url, key)
    port = int(url.rsplit(":", 1)[1].split("/")[0])

    def stop_wasmtime():
        proc.terminate()
        proc.wait(timeout=20)

    yield "`wasmtime serve` (documented flags)", port, proc.pid, stop_wasmtime


def warm(port):
    """One call first, so the burst measures serving, not compiling."""
    results, _ = asyncio.run(burst(port, 1))
    if results[0][0] != "200":
        raise RuntimeError(f"warm-up call failed: {results}")


def row(name, results, wall, idle_kib, peak_kib):
    statuses = {}
    for status, _ in results:
        statuses[status] = statuses.get(status, 0) + 1
    times = sorted(t for s, t in results if s == "200")
    pct = (lambda q: 1000 * times[min(len(times) - 1, int(q * len(times)))]) if times else (lambda q: float("nan"))
    answers = ", ".join(f"{n} × {s}" for s, n in sorted(statuses.items()))
    return (f"| {name} | {answers} | {1000 * statistics.median(times) if times else float('nan'):.0f} ms | "
            f"{pct(0.99):.0f} ms | {1000 * times[-1] if times else float('nan'):.0f} ms | {wall:.1f} s | "
            f"{idle_kib / 1024:.0f} MiB | {peak_kib / 1024:.0f} MiB |")


def main():
    smoke = bench_section.smoke_flag("frontdoor-load.py")
    clients = 50 if smoke else 1000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, clients + 512)), hard))
    lines = []
    with bench_section.fake_ombi_run() as run:
        for name, port, pid, stop in engines(run.tmp, run.ombi_url, run.key):
            try:
                warm(port)
                idle = memory_kib(pid, "VmRSS")
                results, wall = asyncio.run(burst(port, clients))
                lines.append(row(name, results, wall, idle, memory_kib(pid, "VmHWM")))
                print(f"frontdoor-load: {lines[-1]}", file=sys.stderr)
            finally:
                stop()
    load_before, load_after = run.load_before, run.load_after
    section = "\n".join([
        HEADING, "",
        f"Generated by `scripts/frontdoor-load.py`. {clients} clients connect at once, each on its own "
        f"connection, and send {CALLS_PER_CLIENT} `tools/call read_search` one after the other on it (bearer "
        "token, kept alive) against the fake Ombi, which runs in the measuring process. Latency is per call, "
        "first byte sent to last byte read, of the calls answered 200; *wall* is the whole burst. Memory is "
        "the engine process's resident set when idle after one warm-up call (`VmRSS`) and its peak over the "
        "run (`VmHWM`). `host-harness serve --http` runs 32 calls at once by default "
        "(`MEDIA_MCP_HTTP_MAX_IN_FLIGHT`) and holds up to 1024 connections; the documented `wasmtime serve` "
        "command line (docs/guide/http.md) runs 32 requests at once and queues the rest (it has no connection limit). "
        f"Load average (1, 5, 15 min) before / after: {' '.join(load_before)} / {' '.join(load_after)}.", "",
        "| engine | answers | latency median | p99 | max | wall | RSS idle | RSS peak |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
        *lines]) + "\n"
    bench_section.write(HEADING, section, "frontdoor.smoke.md", smoke, "frontdoor-load")


if __name__ == "__main__":
    main()
