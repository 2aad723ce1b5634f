#!/usr/bin/env python3
"""The benchmark's second upstream: a small Ombi stand-in on Python's standard library
(`ThreadingHTTPServer`, HTTP/1.1 keep-alive, one thread per connection), so the throughput
table shows what each server's upstream connections cost against a slow upstream that is not
tokio. It answers only the search route the benchmark calls, after a fixed delay.

    python3 slow_ombi.py --api-key KEY --fixture FILE [--delay-ms 20]   # prints "listening PORT"

GET /api/v1/Search/movie/{term} with header `ApiKey: KEY` -> 200 and the fixture's bytes after
the delay; a wrong or missing key -> 401 (as Ombi); anything else -> 404.
"""
import argparse
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SEARCH_PREFIX = "/api/v1/search/movie/"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Head and body leave in one write with TCP_NODELAY: written separately, Nagle's algorithm
    # and the client's delayed ACK stall every answer on a kept-alive connection by ~40 ms,
    # which would measure the stand-in, not the servers.
    disable_nagle_algorithm = True
    wbufsize = 1 << 16

    def log_message(self, *args):
        pass

    def do_GET(self):
        cfg = self.server.cfg
        path = self.path.split("?", 1)[0]
        if not path.lower().startswith(SEARCH_PREFIX) or "/" in path[len(SEARCH_PREFIX):]:
            return self._send(404, "text/plain", b"not found")
        if self.headers.get("ApiKey") != cfg["api_key"]:
            return self._send(401, "text/plain", b"Invalid API Key")
        time.sleep(cfg["delay"])
        return self._send(200, "application/json; charset=utf-8", cfg["body"])

    def _send(self, status, ctype, data):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # 32 calls in flight may connect at once


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--api-key", required=True)
    ap.add_argument("--fixture", required=True, help="the search answer's body")
    ap.add_argument("--delay-ms", type=float, default=20.0)
    args = ap.parse_args()
    with open(args.fixture, "rb") as f:
        body = f.read()
    server = Server(("127.0.0.1", args.port), Handler)
    server.cfg = {"api_key": args.api_key, "body": body, "delay": args.delay_ms / 1000.0}
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening {server.server_port}", flush=True)
    # Runs until stdin closes (the driver exits or drops it).
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
