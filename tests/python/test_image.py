"""The media-mcp OCI image (scripts/build-image.sh, deploy/image/Dockerfile), built from this
checkout and run with Docker on the host's network against the fake Ombi on loopback:

* its size is within budget and it holds the harness, the two components and their compiled
  code, and nothing else: no shell, no /etc/passwd;
* its labels and defaults (the MCP Registry name of server.json, the workspace version, a
  non-root user, `serve --http 0.0.0.0:8080`, the exec-form health check);
* `--read-only --user 1234:1234`, settings and secrets from a bind-mounted file: the official
  Python client lists the tools and calls `read_search`, the key never in the log, the component
  loaded from the baked cache (not compiled) in under a second;
* `docker stop` with a call in flight: the call is answered, the container exits 0 in time.

* `/healthz` and `/readyz` answer without a token, Docker's health check turns healthy on another
  address than the default, and the secrets come as `OMBI_API_KEY_FILE` /
  `MEDIA_MCP_HTTP_TOKENS_FILE`.

Skipped only when there is no Docker; `scripts/test.sh` installs and starts it.
"""
import json
import re
import secrets
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fake_ombi  # noqa: E402
import image  # noqa: E402
from http_hosts import ROOT, free_port, post  # noqa: E402

_missing = image.docker_missing()
pytestmark = pytest.mark.skipif(_missing is not None, reason=_missing or "")

TOKEN = "alice-" + secrets.token_urlsafe(24)
SEARCH_ROUTE = ("GET", "/api/v1/search/movie/{searchterm}")
# What `docker export` adds to any container's file system (mount points and the files the
# engine writes), beside what the image holds.
ENGINE_FILES = {".dockerenv", "dev", "dev/console", "dev/pts", "dev/shm", "etc", "etc/hostname",
                "etc/hosts", "etc/mtab", "etc/resolv.conf", "proc", "sys"}


@pytest.fixture(scope="module")
def tag():
    return image.built_image()[0]


@pytest.fixture
def upstream(tmp_path):
    """A fake Ombi on loopback; a test delays an answer through its `cfg["overrides"]`."""
    key = "canary-" + secrets.token_hex(12)
    log = tmp_path / "ombi-requests.jsonl"
    server = fake_ombi.start(key, str(log))
    try:
        yield key, log, f"http://127.0.0.1:{server.server_port}", server
    finally:
        server.shutdown()


def secrets_dir(tmp_path, files):
    d = tmp_path / "secrets"
    d.mkdir()
    for name, text in files.items():
        (d / name).write_text(text)
        (d / name).chmod(0o644)
    return d


def config_file_run(tmp_path, upstream, extra_env=()):
    """`docker run` flags and arguments for a read-only container as 1234:1234 whose settings
    and secrets are in a bind-mounted TOML file (`--config`), serving on a free loopback port."""
    key, _log, url, _server = upstream
    port = free_port()
    toml = f'OMBI_URL = "{url}"\nOMBI_API_KEY = "{key}"\nMEDIA_MCP_HTTP_TOKENS = "alice={TOKEN}"\n'
    d = secrets_dir(tmp_path, {"media-mcp.toml": toml})
    run = ["--read-only", "--user", "1234:1234", "-v", f"{d}:/run/secrets:ro", *extra_env]
    args = ["--config", "/run/secrets/media-mcp.toml", "serve", "--http", f"127.0.0.1:{port}"]
    return run, args, port


def test_the_image_is_within_budget_and_holds_no_shell(tag, tmp_path):
    size = image.inspect(tag, "{{json .Size}}")
    print(f"image {tag}: {size} bytes ({size / (1 << 20):.1f} MiB), built in {image.built_image()[1]:.0f} s")
    assert size <= image.SIZE_BUDGET, f"{tag} is {size} bytes, over the {image.SIZE_BUDGET} budget"
    container = image.docker("create", tag).stdout.strip()
    try:
        tar = tmp_path / "fs.tar"
        with open(tar, "wb") as out:
            subprocess.run(["docker", "export", container], stdout=out, check=True, timeout=120)
        with tarfile.open(tar) as t:
            names = {m.name.rstrip("/") for m in t.getmembers()}
            members = {m.name.rstrip("/"): m for m in t.getmembers()}
    finally:
        image.docker("rm", container, check=False)
    ours = names - ENGINE_FILES
    cwasm = {n for n in ours if re.fullmatch(r"cache/[0-9a-f]{40}\.cwasm", n)}
    assert len(cwasm) == 2, sorted(ours)
    assert ours == {"media-mcp", "media_mcp.wasm", "media_mcp_http.wasm", "cache"} | cwasm, sorted(ours)
    assert members["cache"].uid == 65532 and members["media-mcp"].mode & 0o755 == 0o755
    assert not {"bin/sh", "etc/passwd", "etc/group"} & names
    # The same from the engine's side: there is no shell to run.
    shell = image.docker("run", "--rm", "--network", "host", "--entrypoint", "/bin/sh", tag, "-c", "true",
                         check=False)
    assert shell.returncode != 0 and "no such file" in shell.stderr.lower(), shell.stderr


def test_the_labels_and_defaults_are_the_registry_entrys(tag):
    config = image.inspect(tag, "{{json .Config}}")
    server = json.loads((ROOT / "deploy" / "mcp-registry" / "server.json").read_text())
    labels = config["Labels"]
    assert labels["io.modelcontextprotocol.server.name"] == server["name"]
    assert labels["org.opencontainers.image.version"] == image.version() == server["version"]
    assert labels["org.opencontainers.image.source"] == server["repository"]["url"]
    assert labels["org.opencontainers.image.licenses"] == re.search(
        r'^license = "([^"]+)"', (ROOT / "Cargo.toml").read_text(), re.M).group(1)
    assert labels["org.opencontainers.image.title"] == "media-mcp"
    assert labels["org.opencontainers.image.description"]
    assert config["User"] == "65532:65532"
    assert config["Entrypoint"] == ["/media-mcp"]
    assert config["Cmd"] == ["serve", "--http", "0.0.0.0:8080"]
    assert set(config["ExposedPorts"]) == {"8080/tcp"}
    assert config["Healthcheck"]["Test"] == ["CMD", "/media-mcp", "health"]
    assert {"MEDIA_MCP_COMPONENT=/media_mcp.wasm", "MEDIA_MCP_CACHE_DIR=/cache"} <= set(config["Env"])
    assert image.inspect(f"{image.IMAGE}:latest", "{{json .Id}}") == image.inspect(tag, "{{json .Id}}")


def test_read_only_as_any_user_with_secrets_from_a_file(tag, upstream, tmp_path):
    key, log, _url, _server = upstream
    run, args, port = config_file_run(tmp_path, upstream)
    c = image.Container(tag, run, args)
    try:
        c.wait_for_log(r"serving MCP over HTTP")
        tools, result = image.list_and_search_over(f"http://127.0.0.1:{port}/mcp", TOKEN)
        assert "read_search" in tools and len(tools) > 10, tools
        assert result.structured_content["ok"] is True, result.structured_content
        seen = [json.loads(line) for line in log.read_text().splitlines()]
        api = [r for r in seen if r["path"].lower().startswith("/api/")]
        assert api and all(r["api_key_header"] == key and r["user_name"] == "alice" for r in api)
        text = c.logs()
        # The first start loaded the baked compiled component instead of compiling it, and says so.
        line = re.search(r"HTTP component /media_mcp_http\.wasm .*", text)
        assert line, text
        line = line.group(0)
        print(f"first start: {line}")
        assert "from the compiled-artifact cache in /cache" in line, line
        assert float(re.search(r"loaded in ([\d.]+) ms", line).group(1)) < 1000, line
        assert "cannot write" not in text, "a read-only start tried to write its cache: " + text
        assert key not in text and TOKEN not in text
    finally:
        c.remove()


def test_docker_stop_lets_the_call_in_flight_finish(tag, upstream, tmp_path):
    _key, log, _url, server = upstream
    body = (fake_ombi.FIXTURES / "v1-search-movie-term.json").read_bytes()
    server.cfg["overrides"][SEARCH_ROUTE] = (200, "application/json", body, 3.0)
    run, args, port = config_file_run(tmp_path, upstream)
    c = image.Container(tag, run, args)
    try:
        c.wait_for_log(r"serving MCP over HTTP")
        call = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": "read_search", "arguments": {"query": "matrix", "media": "movie"}}})
        out = [None]

        def search():
            status, _h, data = post(f"http://127.0.0.1:{port}/mcp", call, {"Authorization": f"Bearer {TOKEN}"})
            out[0] = (status, json.loads(data) if data else None)

        t = threading.Thread(target=search)
        t.start()
        deadline = time.monotonic() + 30
        while not (log.exists() and "/search/movie/" in log.read_text().lower()):
            assert time.monotonic() < deadline, "the search never reached the fake Ombi"
            time.sleep(0.01)
        started = time.monotonic()
        image.docker("stop", "-t", "30", c.id, timeout=60)
        stopped = time.monotonic() - started
        t.join(30)
        state = c.state()
        status, answer = out[0]
        assert status == 200 and answer["result"]["structuredContent"]["ok"] is True, answer
        assert state["ExitCode"] == 0 and not state["OOMKilled"], (state, c.logs()[-2000:])
        # Answered after the 3 s delay, well before Docker's 30 s SIGKILL.
        assert stopped < 25, f"docker stop took {stopped:.1f} s"
        assert "stopped" in c.logs()
    finally:
        c.remove()


def test_health_endpoints_and_the_docker_health_check(tag, upstream, tmp_path):
    key, log, url, _server = upstream
    port = free_port()
    d = secrets_dir(tmp_path, {"ombi_api_key": key + "\n", "tokens": f"alice={TOKEN}\n"})
    run = ["--read-only", "--user", "1234:1234", "-v", f"{d}:/run/secrets:ro",
           "-e", f"OMBI_URL={url}", "-e", "OMBI_API_KEY_FILE=/run/secrets/ombi_api_key",
           "-e", "MEDIA_MCP_HTTP_TOKENS_FILE=/run/secrets/tokens",
           "--health-interval", "1s", "--health-timeout", "5s", "--health-start-period", "1s"]
    # Another address than the image's default: the check finds the one given.
    c = image.Container(tag, run, ["serve", "--http", f"127.0.0.1:{port}"])
    try:
        c.wait_for_log(r"serving MCP over HTTP")
        for path in ("/healthz", "/readyz"):
            status, _h, data = post(f"http://127.0.0.1:{port}{path}", None, {"Content-Type": None}, method="GET")
            assert status == 200, (path, data)
            assert key.encode() not in data and TOKEN.encode() not in data
        deadline = time.monotonic() + 60
        while (health := c.state()["Health"])["Status"] != "healthy":
            assert health["Status"] != "unhealthy" and time.monotonic() < deadline, health
            time.sleep(0.2)
        tools, result = image.list_and_search_over(f"http://127.0.0.1:{port}/mcp", TOKEN)
        assert "read_search" in tools and result.structured_content["ok"] is True
        seen = [json.loads(line) for line in log.read_text().splitlines()]
        assert any(r["api_key_header"] == key for r in seen), "the key from the file reached Ombi"
        assert key not in c.logs() and TOKEN not in c.logs()
    finally:
        c.remove()
