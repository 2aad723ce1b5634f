"""Node MCP clients against target/media_mcp_http.wasm under `wasmtime serve` and
`host-harness serve --http`: the official
TypeScript SDK client (tests/node/ts_client.mjs) and MCP Inspector's CLI
(`mcp-inspector --cli URL --transport http --method tools/list`). The pinned packages of
tests/node/package.json are installed into target/node-clients with npm; without node and npm
these tests are skipped with the reason.
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from http_hosts import ROOT  # noqa: E402
from test_http import ALICE, host, server, upstream  # noqa: E402,F401  (module fixtures)

NODE_SRC = ROOT / "tests" / "node"
NODE_DIR = ROOT / "target" / "node-clients"


@pytest.fixture(scope="module")
def node_clients():
    if not (shutil.which("node") and shutil.which("npm")):
        pytest.skip("node and npm are not installed (.ci/run installs them from Debian packages)")
    NODE_DIR.mkdir(parents=True, exist_ok=True)
    for source in [NODE_SRC / "package.json", *NODE_SRC.glob("*.mjs")]:
        shutil.copyfile(source, NODE_DIR / source.name)
    lock = NODE_DIR / "installed-package.json"
    wanted = (NODE_SRC / "package.json").read_text()
    if not lock.exists() or lock.read_text() != wanted:
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=NODE_DIR, check=True, timeout=600)
        lock.write_text(wanted)
    return NODE_DIR


def run(args, cwd):
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{args[:3]} failed ({done.returncode}): {done.stderr[-2000:]}"
    return done.stdout


def test_typescript_sdk_client(node_clients, server, upstream):
    key, log, _url = upstream
    out = json.loads(run(["node", "ts_client.mjs", server.url, ALICE], node_clients).strip().splitlines()[-1])
    assert out["server"]["name"] == "media-mcp"
    assert "read_search" in out["tools"]
    sc = out["search"]["structuredContent"]
    assert sc["ok"] is True and sc["operation"] == "read_search" and sc["data"]["items"], sc
    assert json.loads(out["search"]["text"]) == sc
    assert out["unknownCode"] == -32602
    assert key not in json.dumps(out)
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    assert {r["user_name"] for r in seen if r["path"].lower().startswith("/api/")} == {"alice"}


def test_inspector_cli_lists_tools(node_clients, server):
    out = run([str(node_clients / "node_modules" / ".bin" / "mcp-inspector"), "--cli", server.url,
               "--transport", "http", "--method", "tools/list",
               "--header", f"Authorization: Bearer {ALICE}"], node_clients)
    listed = json.loads(out)
    names = [t["name"] for t in listed["tools"]]
    assert "read_search" in names and len(names) == len(set(names))
