#!/usr/bin/env python3
"""A fake Ombi server on loopback that answers from the fixture set in ../fixtures/ombi.

Its Rust twin is media_mcp_fakes::ombi::FakeOmbi (crates/media-mcp-fakes/src/ombi/).

It routes by method and path template (case-insensitive, like ASP.NET), checks the API key the
way Ombi does (header `ApiKey`, or the `apikey` query parameter), answers unmatched GETs under
/api with Ombi's HTML page and status 200 (Ombi's single-page-app fallback), and logs every
request as one JSON line so a checker can see what the plugin sent.

    python3 fake_ombi.py --port 0 --api-key KEY --log requests.jsonl   # prints "listening PORT"
"""
import argparse
import json
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ombi"


def load_routes(fixtures: Path):
    index = json.loads((fixtures / "index.json").read_text())
    routes = []
    for entry in index["fixtures"]:
        method, path = entry["method"], entry["path"]
        if not path.startswith("/") or method not in ("GET", "POST", "PUT", "DELETE"):
            continue  # error shapes, not routes
        path = path.split("?", 1)[0]  # query parameters are not part of the route
        segments = [s for s in path.split("/") if s]
        literal = sum(1 for s in segments if not s.startswith("{"))
        routes.append((method, segments, literal, dict(entry, path=path)))
    # Most literal segments first, so /Request/movie/approve beats /Request/movie/{id}.
    routes.sort(key=lambda r: -r[2])
    return routes


def match(routes, method, path):
    parts = [unquote(p) for p in path.split("/") if p]
    for m, segments, _, entry in routes:
        if m != method or len(segments) != len(parts):
            continue
        if all(s.startswith("{") or s.lower() == p.lower() for s, p in zip(segments, parts)):
            return entry
    return None


class Handler(BaseHTTPRequestHandler):
    server_version = "Kestrel"
    protocol_version = "HTTP/1.1"
    # Kestrel sets TCP_NODELAY. Without it, an answer's headers and body go out as two segments
    # and a client on a kept-alive connection waits for its delayed ACK (about 40 ms) per call.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def _handle(self):
        cfg = self.server.cfg
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        body = self._read_body()
        headers = {k.lower(): v for k, v in self.headers.items()}
        record = {
            "method": self.command,
            "path": url.path,
            "query": url.query,
            "api_key_header": headers.get("apikey"),
            "api_key_query": (query.get("apikey") or [None])[0],
            "user_name": headers.get("username"),
            "content_type": headers.get("content-type"),
            "body": body.decode("utf-8", "replace")[:4096],
        }
        with cfg["lock"]:
            with open(cfg["log"], "a") as f:
                f.write(json.dumps(record) + "\n")

        if url.path.lower() == "/health":
            return self._send(200, "text/plain", b"Healthy")
        key = record["api_key_header"] or record["api_key_query"]
        if url.path.lower().startswith("/api/") and key != cfg["api_key"]:
            return self._send(401, "text/plain", b"Invalid API Key")
        entry = match(cfg["routes"], self.command, url.path)
        if entry is None:
            if self.command == "GET":
                page = (FIXTURES / "err-spa-fallback-html.txt").read_bytes()
                return self._send(200, "text/html", page)
            return self._send(500, "application/json", b'{"error":"Object reference not set to an instance of an object."}')
        override = cfg["overrides"].get((self.command, entry["path"].lower()))
        if override is not None:
            status, ctype, data = override[:3]
            if len(override) > 3 and override[3] and not self._wait(override[3]):
                # The client hung up while we waited (a cancelled call): log it, answer nothing.
                with cfg["lock"]:
                    with open(cfg["log"], "a") as f:
                        f.write(json.dumps({"abandoned": True, "method": self.command, "path": url.path}) + "\n")
                self.close_connection = True
                return None
            extra = override[4] if len(override) > 4 else None
            return self._send(status, ctype, data, extra)
        status = entry.get("status", 200)
        body_file = entry.get("body_file")
        if not body_file:
            return self._send(status, None, b"")
        data = (cfg["fixtures"] / body_file).read_bytes()
        ctype = entry.get("content_type") or "application/json; charset=utf-8"
        return self._send(status, ctype, data)

    def _wait(self, seconds):
        """Waits `seconds` before answering (a slow upstream); False as soon as the client closes
        the connection meanwhile (it sends nothing else while it waits for this answer)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            readable, _, _ = select.select([self.connection], [], [], min(left, 0.05))
            if readable and not self.connection.recv(1, socket.MSG_PEEK):
                return False
        return True

    def _read_body(self):
        """The request body, by Content-Length or chunked (as Kestrel reads both): a host that
        does not buffer the guest's body, such as `wasmtime serve`, sends it chunked."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _send(self, status, ctype, data, extra_headers=None):
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in (extra_headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = _handle


def start(api_key: str, log: str, port: int = 0, fixtures: Path = FIXTURES, overrides=None,
          keep_alive_s=None):
    """Start in a background thread; returns the server (server.server_port is the port).

    overrides: {(METHOD, path template as in index.json, lower-cased): (status, content type, bytes[, delay s[, headers]])}
    replaces what a route answers; it can be changed while the server runs (server.cfg["overrides"]).
    keep_alive_s: a connection that sends no request for this long is closed, as Kestrel's
    keep-alive timeout (130 s by default) closes it; unset, kept-alive connections stay open.
    """
    handler = Handler if keep_alive_s is None else type("KeepAliveHandler", (Handler,), {"timeout": keep_alive_s})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    server.cfg = {"api_key": api_key, "log": log, "lock": threading.Lock(),
                  "routes": load_routes(fixtures), "fixtures": fixtures,
                  "overrides": dict(overrides or {})}
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--api-key", required=True)
    ap.add_argument("--log", default="/dev/null")
    ap.add_argument("--fixtures", default=str(FIXTURES))
    args = ap.parse_args()
    server = start(args.api_key, args.log, args.port, Path(args.fixtures))
    print(f"listening {server.server_port}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
