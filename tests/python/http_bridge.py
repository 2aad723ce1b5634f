"""A stdio <-> Streamable HTTP bridge, so stdio-only MCP checkers (the shared conformance
checker) can drive the HTTP server: it starts target/media_mcp_http.wasm under `wasmtime serve`
(pass-key mode) or `host-harness serve --http` (`--harness`: the key injected by the host) with
its own OMBI_URL / OMBI_API_KEY and a random bearer token, then POSTs each JSON-RPC line read
from stdin and writes each JSON answer to stdout, one per line.

    python tests/python/http_bridge.py [--harness]    # speaks MCP on stdio, HTTP inside
"""
import json
import os
import secrets
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_hosts import HttpServer, post  # noqa: E402


def answer_of(status, headers, body, request):
    """The JSON-RPC message to hand back for one POST, or None (202, notifications)."""
    if status == 202 or not body:
        return None
    if headers.get("content-type", "").startswith("text/event-stream"):
        body = b"".join(line[5:].strip() for line in body.splitlines() if line.startswith(b"data:"))
    message = json.loads(body)
    if message.get("id") is None and isinstance(request, dict) and "id" in request:
        message["id"] = request["id"]  # an HTTP-level refusal of a request: answer that request
    return message


def main():
    token = secrets.token_urlsafe(32)
    env = {name: os.environ[name] for name in ("OMBI_URL", "OMBI_API_KEY", "OMBI_USER") if name in os.environ}
    env["MEDIA_MCP_HTTP_TOKENS"] = f"bridge={token}"
    host = "host-harness serve --http" if sys.argv[1:] == ["--harness"] else "wasmtime serve"
    log = Path(tempfile.mkdtemp(prefix="media-mcp-bridge-")) / "server.log"
    server = HttpServer(host, env, log)
    headers = {"Authorization": f"Bearer {token}"}
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                request = json.loads(line)
            except ValueError:
                request = None
            status, response_headers, body = post(server.url, line.encode(), headers)
            message = answer_of(status, response_headers, body, request)
            if message is not None:
                sys.stdout.write(json.dumps(message) + "\n")
                sys.stdout.flush()
    finally:
        server.stop()
        sys.stderr.write(log.read_text())


if __name__ == "__main__":
    main()
