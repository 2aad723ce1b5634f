#!/usr/bin/env python3
"""What each engine costs per request serving target/media_mcp_http.wasm: host CPU time
(user + system of the host process, from /proc) and latency, for `ping` and for `tools/call
read_search` against the fake Ombi, sequential on one kept-alive connection, every engine in the
same run. Engines: `host-harness serve --http`, `wasmtime serve` (the README's flags) and one
`wash host` (tests/python/lattice.py). Writes its section of BENCHMARKS.md (run by
scripts/bench.sh after the main driver; `--smoke` writes target/bench/engines.smoke.md with a
few calls).

    target/py/bin/python scripts/engine-cost.py [--smoke]
"""
import http.client
import json
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "python"))
import bench_section  # noqa: E402
import fake_ombi  # noqa: E402
from http_hosts import HttpServer  # noqa: E402
from lattice import Lattice, missing  # noqa: E402
from test_wasmtime_serve_flags import TOKEN, readme_command  # noqa: E402
from test_wasmtime_serve_flags import serve as readme_serve  # noqa: E402

HEADING = "## Engines: host CPU per request"
TICK = os.sysconf("SC_CLK_TCK")
PING = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
SEARCH = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                     "params": {"name": "read_search", "arguments": {"query": "matrix", "media": "movie"}}})


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def measure(port, pid, body, n, warmup, host_header=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "Authorization": f"Bearer {TOKEN}"}
    if host_header:
        headers["Host"] = host_header

    def one():
        conn.request("POST", "/mcp", body=body, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        if resp.status != 200 or b'"error"' in data[:200]:
            raise RuntimeError(f"{resp.status}: {data[:300]!r}")

    for _ in range(warmup):
        one()
    latencies = []
    cpu0, wall0 = cpu_seconds(pid), time.monotonic()
    for _ in range(n):
        t = time.perf_counter()
        one()
        latencies.append(time.perf_counter() - t)
    cpu, wall = cpu_seconds(pid) - cpu0, time.monotonic() - wall0
    conn.close()
    return {"cpu_ms": 1000 * cpu / n, "median_ms": 1000 * statistics.median(latencies), "wall_s": wall}


def engines(tmp, ombi_url, key):
    """(name, port, pid, Host header, stop) for each engine, started one at a time."""
    env = {"OMBI_URL": ombi_url, "OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}"}
    h = HttpServer("host-harness serve --http", env, tmp / "harness.log")
    yield "`host-harness serve --http`", h.port, h.proc.pid, None, h.stop
    proc, url = readme_serve(tmp, readme_command(), ombi_url, key)
    port = int(url.rsplit(":", 1)[1].split("/")[0])

    def stop_wasmtime():
        proc.terminate()
        proc.wait(timeout=20)

    yield "`wasmtime serve` (README flags)", port, proc.pid, None, stop_wasmtime
    lacking = missing()
    if lacking:
        print(f"engine-cost: no wash host row, missing {lacking}", file=sys.stderr)
        return
    lat_dir = tmp / "lattice"
    lat_dir.mkdir()
    lat = Lattice(lat_dir, hosts=1)
    vhost, _seen = lat.deploy(ombi_url, {"OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}"})
    _host_id, port, host = lat.hosts[0]
    yield "`wash host` (wash 2.10.3, one host)", port, host.proc.pid, vhost, lat.stop


def main():
    smoke = sys.argv[1:] == ["--smoke"]
    if sys.argv[1:] not in ([], ["--smoke"]):
        sys.exit("usage: engine-cost.py [--smoke]")
    n, warmup = (20, 5) if smoke else (1000, 100)
    key = "canary-" + secrets.token_hex(12)
    rows = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        server = fake_ombi.start(key, os.devnull)
        ombi_url = f"http://127.0.0.1:{server.server_port}"
        load_before = Path("/proc/loadavg").read_text().split()[:3]
        try:
            for name, port, pid, vhost, stop in engines(tmp, ombi_url, key):
                try:
                    ping = measure(port, pid, PING, n, warmup, vhost)
                    search = measure(port, pid, SEARCH, n, warmup, vhost)
                    rows.append((name, ping, search))
                    print(f"engine-cost: {name}: ping {ping['cpu_ms']:.2f} ms CPU, read_search {search['cpu_ms']:.2f} ms CPU",
                          file=sys.stderr)
                finally:
                    stop()
        finally:
            server.shutdown()
        load_after = Path("/proc/loadavg").read_text().split()[:3]
    base = next(r for r in rows if r[0].startswith("`wasmtime serve`"))
    lines = [HEADING, "",
             f"Generated by `scripts/engine-cost.py`. {n} sequential requests of each kind per engine (after {warmup} "
             "unmeasured), on one kept-alive connection, against the fake Ombi (in the measuring process, so not "
             "counted): *host CPU* is the user + system time of the engine's process (`/proc/PID/stat`, 10 ms "
             "ticks, divided by the request count), the ratio is to `wasmtime serve` in the same run. "
             f"Load average (1, 5, 15 min) before / after: {' '.join(load_before)} / {' '.join(load_after)}.", "",
             "| engine | `ping`: host CPU per request | median latency | `read_search`: host CPU per request | median latency | CPU vs wasmtime serve (`read_search`) |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, ping, search in rows:
        lines.append(f"| {name} | {ping['cpu_ms']:.2f} ms | {ping['median_ms']:.2f} ms | {search['cpu_ms']:.2f} ms | "
                     f"{search['median_ms']:.2f} ms | {search['cpu_ms'] / base[2]['cpu_ms']:.1f}× |")
    section = "\n".join(lines) + "\n"
    bench_section.write(HEADING, section, "engines.smoke.md", smoke, "engine-cost")


if __name__ == "__main__":
    main()
