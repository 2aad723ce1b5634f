"""The MCP Apps views in a real browser: headless Debian Chromium, driven by playwright-core
(tests/node/apps_browser.mjs), hosts the views the way an MCP Apps host does, with the
published @modelcontextprotocol/ext-apps AppBridge and the official TypeScript client
connected to `host-harness serve --http` over the fake Ombi:

* the search view shows the cards, with posters from the declared artwork host only (an image
  from an undeclared host is blocked by the CSP built from the view's `_meta.ui.csp`);
* a title containing `<img src=x onerror=…>` is shown as text;
* clicking **Request** makes the fake Ombi receive that title's request as the acting user;
* in read-only mode every **Request** button is disabled, with the reason;
* the requests view lists the user's requests.

It saves a screenshot of the search view to target/apps-browser/search-view.png (the README
shows a copy, docs/images/search-view.png).
"""
import json
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fake_ombi  # noqa: E402
from http_hosts import ROOT, HttpServer, free_port  # noqa: E402
from test_http import requests_since, require_artifact  # noqa: E402
from test_http_modern import node22  # noqa: E402
from test_http_node import node_clients  # noqa: E402,F401

CHROMIUM = Path("/usr/bin/chromium")
HOST = "host-harness serve --http"
XSS = "<img src=x onerror=\"document.title='pwned'\">"
ALICE = "alice-" + secrets.token_urlsafe(24)
SEARCH_ROUTE = ("GET", "/api/v1/search/movie/{searchterm}")


def search_with_a_hostile_title():
    rows = json.loads((fake_ombi.FIXTURES / "v1-search-movie-term.json").read_text())
    hostile = dict(rows[1], id=900001, theMovieDbId="900001", title=XSS, posterPath=None)
    return (200, "application/json; charset=utf-8", json.dumps(rows + [hostile]).encode())


@pytest.fixture(scope="module")
def upstream(tmp_path_factory):
    key = "canary-" + secrets.token_hex(12)
    log = tmp_path_factory.mktemp("ombi") / "ombi-requests.jsonl"
    server = fake_ombi.start(key, str(log), overrides={SEARCH_ROUTE: search_with_a_hostile_title()})
    try:
        yield key, log, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def test_views_in_headless_chromium(node_clients, upstream, tmp_path):
    if not CHROMIUM.is_file():
        pytest.skip("Debian's chromium is not installed (scripts/install-test-deps.sh installs it)")
    require_artifact()
    key, log, url = upstream
    page_port = free_port()
    env = {"OMBI_URL": url, "OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={ALICE}",
           "MEDIA_MCP_HTTP_ALLOWED_ORIGINS": f"http://127.0.0.1:{page_port}"}
    server = HttpServer(HOST, env, tmp_path / "server.log")
    read_only = HttpServer(HOST, {**env, "MEDIA_MCP_READ_ONLY": "1"}, tmp_path / "read-only.log")
    shots = ROOT / "target" / "apps-browser"
    shots.mkdir(parents=True, exist_ok=True)
    # An undeclared origin that counts what reaches it: the CSP must keep the image away.
    blocked = fake_ombi.start("unused-" + secrets.token_hex(8), str(tmp_path / "blocked.jsonl"))
    config = {
        "pagePort": page_port,
        "server": {"url": server.url, "token": ALICE},
        "readOnly": {"url": read_only.url, "token": ALICE},
        "blockedUrl": f"http://127.0.0.1:{blocked.server_port}/poster.png",
        "requestTitle": "The Matrix",
        "screenshot": str(shots / "search-view.png"),
    }
    (tmp_path / "config.json").write_text(json.dumps(config))
    start = len(log.read_text().splitlines()) if log.exists() else 0
    try:
        done = subprocess.run([node22(node_clients), "apps_browser.mjs", str(tmp_path / "config.json")],
                              cwd=node_clients, capture_output=True, text=True, timeout=300)
    finally:
        server.stop()
        read_only.stop()
        blocked.shutdown()
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-4000:]}"
    seen = json.loads(done.stdout.strip().splitlines()[-1])

    hosted = seen["hosted"]
    assert hosted["uri"] == "ui://media-mcp/titles"
    assert hosted["mimeType"] == "text/html;profile=mcp-app"
    assert hosted["csp"]["resourceDomains"] == [
        "https://assets.fanart.tv", "https://image.tmdb.org", "https://coverartarchive.org",
        "https://static.tvmaze.com"]
    assert hosted["toolMeta"]["ui"]["resourceUri"] == "ui://media-mcp/titles"
    assert hosted["resultMeta"]["media-mcp/actions"]["request"]["offered"] is True

    assert seen["cards"] == ["The Matrix", "The Matrix Reloaded", XSS], seen["cards"]
    assert seen["injected"] == 0 and seen["frameTitle"] != "pwned"
    assert [b["name"] for b in seen["buttons"]] == [f"Request {t}" for t in seen["cards"]]
    assert all(b["text"] == "Request" and not b["disabled"] for b in seen["buttons"])
    assert seen["posterLoaded"] is True
    assert seen["posterAlts"] == ["Poster of The Matrix", "Poster of The Matrix Reloaded"]
    assert seen["posters"] and all("/t/p/w342/" in p for p in seen["posters"]), seen["posters"]
    assert seen["blocked"]["loaded"] is False and seen["blocked"]["violated"] == "img-src", seen["blocked"]
    assert not (tmp_path / "blocked.jsonl").exists() or not (tmp_path / "blocked.jsonl").read_text()
    assert seen["sizes"] and max(seen["sizes"]) > 200

    assert seen["outcome"] in ("Requested.", "Request sent."), seen["outcome"]
    sent, _ = requests_since(log, start)
    posts = [r for r in sent if r["method"] == "POST" and r["path"].lower() == "/api/v1/request/movie"]
    assert len(posts) == 1, posts
    assert json.loads(posts[0]["body"])["theMovieDbId"] == 603
    assert posts[0]["user_name"] == "alice"
    assert seen["teardown"] == {}
    assert seen["pageErrors"] == []

    assert seen["readOnlyButtons"] and all(seen["readOnlyButtons"])
    assert "write_request_create" in seen["readOnlyReason"]

    assert seen["requests"], seen
    assert any(s.startswith(("Standard:", "4K:")) for s in seen["requestStates"])
