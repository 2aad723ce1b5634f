"""Benchmark peer: a minimal stdio MCP server on the official Python SDK (`mcp`).

With `--http PORT` it serves stateless Streamable HTTP (JSON answers) on 127.0.0.1:PORT/mcp
instead of stdio. It does the job `read_search` does in the benchmark, the way a typical Python media MCP server
does it: fetch `GET {OMBI_URL}/api/v1/Search/movie/{query}` with the `ApiKey` header from a
shared HTTP client, and return the parsed body as structured content. No validation, no
projection, no byte cap: it stands in for the servers users run today, not for ours.
"""

import os
import sys
import urllib.parse
from typing import Any

import httpx2  # the HTTP client the `mcp` package itself depends on
from mcp.server.mcpserver import MCPServer

OMBI_URL = os.environ["OMBI_URL"].rstrip("/")
OMBI_API_KEY = os.environ.get("OMBI_API_KEY", "")

server = MCPServer("python-peer", log_level="ERROR")
client = httpx2.AsyncClient(timeout=60.0)


@server.tool(structured_output=True)
async def read_search(query: str, media: str = "movie") -> dict[str, Any]:
    """Search Ombi for movies."""
    url = f"{OMBI_URL}/api/v1/Search/movie/{urllib.parse.quote(query, safe='')}"
    response = await client.get(url, headers={"ApiKey": OMBI_API_KEY})
    response.raise_for_status()
    return {"results": response.json()}


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]),
                   json_response=True, stateless_http=True)
    else:
        server.run("stdio")
