"""compose.yaml at the repository root: the compose tool accepts it (Debian's `docker-compose`
1.29, or the `docker compose` plugin where that is what the machine has), and a compose run of
media-mcp beside the fake Ombi, with secrets from files, passes the official Python client's
call. The run adds a test override: the service on the host's network (compose's default network
is a bridge with private-range addresses; the tests use loopback only) on a free loopback port,
the fake Ombi as its upstream.
"""
import json
import secrets
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fake_ombi  # noqa: E402
import image  # noqa: E402
from http_hosts import ROOT, free_port  # noqa: E402

COMPOSE = ROOT / "compose.yaml"
TOKEN = "alice-" + secrets.token_urlsafe(24)


def compose_command():
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    return None


_missing = image.docker_missing() or (None if compose_command() else
                                      "no docker-compose (scripts/install-test-deps.sh installs Debian's)")
pytestmark = pytest.mark.skipif(_missing is not None, reason=_missing or "")


def project(tmp_path, override=None):
    """compose.yaml in a project folder of its own, with the secret files it names. With an
    override (the service on the host's network), compose.yaml's `ports` go: the host's network
    publishes nothing and refuses port bindings, and compose 1.29 cannot reset a list from an
    override file."""
    text = COMPOSE.read_text()
    if override:
        resolved = yaml.safe_load(text)
        del resolved["services"]["media-mcp"]["ports"]
        text = yaml.safe_dump(resolved)
    (tmp_path / "compose.yaml").write_text(text)
    (tmp_path / "secrets").mkdir(mode=0o700)
    files = ["compose.yaml"]
    if override:
        (tmp_path / "compose.test.yaml").write_text(yaml.safe_dump(override))
        files.append("compose.test.yaml")
    name = "mediamcptest" + uuid.uuid4().hex[:8]
    base = compose_command() + ["--project-directory", str(tmp_path), "-p", name]
    for f in files:
        base += ["-f", str(tmp_path / f)]
    return base


def write_secrets(tmp_path, key):
    for name, text in {"ombi_api_key": key + "\n", "media_mcp_http_tokens": f"alice={TOKEN}\n"}.items():
        path = tmp_path / "secrets" / name
        path.write_text(text)
        path.chmod(0o644)


def test_compose_accepts_the_file(tmp_path):
    base = project(tmp_path)
    write_secrets(tmp_path, "k" * 32)
    result = subprocess.run(base + ["config"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    resolved = yaml.safe_load(result.stdout)
    service = resolved["services"]["media-mcp"]
    assert service["image"] == f"{image.IMAGE}:{image.version()}", "compose.yaml runs this version's image"
    env = service["environment"]
    assert env["OMBI_URL"].startswith("http://ombi:")
    assert env["OMBI_API_KEY_FILE"] == "/run/secrets/ombi_api_key"
    assert env["MEDIA_MCP_HTTP_TOKENS_FILE"] == "/run/secrets/media_mcp_http_tokens"
    assert not {n for n in env if n.endswith(("_KEY", "_TOKENS", "_SECRET"))}, "secrets come from files only"
    assert service["read_only"] is True
    assert service["healthcheck"]["test"] == ["CMD", "/media-mcp", "health"]
    # media-mcp-cache:/cache (compose 1.29 adds :rw), or the plugin's long form.
    assert any(v.get("target") == "/cache" if isinstance(v, dict) else v.split(":")[:2] == ["media-mcp-cache", "/cache"]
               for v in service["volumes"])
    assert "media-mcp-cache" in resolved["volumes"]
    assert set(resolved["secrets"]) == {"ombi_api_key", "media_mcp_http_tokens"}
    # The OAuth variant is there, commented.
    text = COMPOSE.read_text()
    assert "# MEDIA_MCP_HTTP_AUTH: oauth" in text and "# MEDIA_MCP_OAUTH_ISSUER:" in text


def test_a_compose_run_beside_the_fake_ombi(tmp_path):
    tag = image.built_image()[0]
    key = "canary-" + secrets.token_hex(12)
    log = tmp_path / "ombi-requests.jsonl"
    server = fake_ombi.start(key, str(log))
    port = free_port()
    override = {"services": {"media-mcp": {
        "image": tag,
        "network_mode": "host",
        "command": ["serve", "--http", f"127.0.0.1:{port}"],
        "environment": {"OMBI_URL": f"http://127.0.0.1:{server.server_port}"},
    }}}
    base = project(tmp_path, override)
    write_secrets(tmp_path, key)
    try:
        up = subprocess.run(base + ["up", "-d"], capture_output=True, text=True, timeout=300)
        assert up.returncode == 0, up.stderr
        deadline = time.monotonic() + 60
        while "serving MCP over HTTP" not in (logs := subprocess.run(
                base + ["logs", "--no-color"], capture_output=True, text=True, timeout=60).stdout):
            assert time.monotonic() < deadline, logs[-3000:]
            time.sleep(0.2)
        tools, result = image.list_and_search_over(f"http://127.0.0.1:{port}/mcp", TOKEN)
        assert "read_search" in tools and result.structured_content["ok"] is True, result.structured_content
        seen = [json.loads(line) for line in log.read_text().splitlines()]
        api = [r for r in seen if r["path"].lower().startswith("/api/")]
        assert api and all(r["api_key_header"] == key and r["user_name"] == "alice" for r in api)
        assert key not in logs and TOKEN not in logs
    finally:
        subprocess.run(base + ["down", "-v", "-t", "30"], capture_output=True, timeout=180)
        server.shutdown()
