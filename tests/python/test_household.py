"""The household soak, short form (scripts/household-soak.py runs the long form with the real
defaults): quiet gaps longer than every timeout of the server and of the fake Ombi, then bursts,
against `host-harness serve --http` with its timeouts shortened to 1 s and against `wasmtime
serve` run with the README's flags (which has no idle timeout of its own). See household.py for
what is checked."""
import secrets
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fake_ombi  # noqa: E402
import household  # noqa: E402
from http_hosts import HOSTS, HTTP_COMPONENT, HttpServer  # noqa: E402
from test_wasmtime_serve_flags import TOKEN, readme_command  # noqa: E402
from test_wasmtime_serve_flags import serve as readme_serve  # noqa: E402

# Every timeout is 1 s: the server's idle, header and body timeouts and the fake Ombi's
# keep-alive. The gaps are longer, and bursts of 4 follow them.
SHORT_TIMEOUTS = {
    "MEDIA_MCP_HTTP_IDLE_TIMEOUT_SECS": "1",
    "MEDIA_MCP_HTTP_HEADER_TIMEOUT_SECS": "1",
    "MEDIA_MCP_HTTP_BODY_TIMEOUT_SECS": "1",
}
SHORT = household.Pattern(gaps=[1.6, 2.5, 1.6, 2.5], burst=4, send_after_s=0.3)
UPSTREAM_KEEP_ALIVE_S = 1


@pytest.fixture
def household_ombi(tmp_path):
    key = "canary-" + secrets.token_hex(12)
    log = tmp_path / "ombi-requests.jsonl"
    server = fake_ombi.start(key, str(log), keep_alive_s=UPSTREAM_KEEP_ALIVE_S)
    try:
        yield key, log, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def start(host, key, ombi_url, tmp_path, timeouts):
    """The server `host` against `ombi_url`: (pid, port, stop)."""
    if host == "wasmtime serve":
        proc, url = readme_serve(tmp_path, readme_command(), ombi_url, key)

        def stop():
            proc.terminate()
            proc.wait(timeout=30)

        return proc.pid, int(url.split(":")[2].split("/")[0]), stop
    env = {"OMBI_URL": ombi_url, "OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}", **timeouts}
    server = HttpServer(host, env, tmp_path / "harness.log")
    return server.proc.pid, server.port, server.stop


@pytest.mark.parametrize("host", HOSTS)
def test_a_household_soak_every_call_answered_once(host, household_ombi, tmp_path):
    if not HTTP_COMPONENT.is_file():
        pytest.fail(f"{HTTP_COMPONENT} is missing: run scripts/build-component.sh")
    key, log, url = household_ombi
    pid, port, stop = start(host, key, url, tmp_path, SHORT_TIMEOUTS)
    try:
        report = household.soak(host, port, pid, TOKEN, log, SHORT)
    finally:
        stop()
    assert report.failures() == []
    calls = len(SHORT.gaps) * (SHORT.burst + 1) + len(SHORT.gaps) - 1
    assert len(report.outcomes) == calls
    if host == "host-harness serve --http":
        # Every gap outlasted the idle timeout: each kept-alive connection was closed cleanly
        # and its call answered on a new one.
        assert (report.kept_reused, report.kept_closed) == (0, len(SHORT.gaps) - 1)
