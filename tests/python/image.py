"""The media-mcp image for the tests: built once per pytest session by scripts/build-image.sh
(test_image.py and test_compose.py share it), containers on the host's network only (loopback
addresses), and the official Python client's call they make.
"""
import asyncio
import functools
import json
import os
import re
import shutil
import subprocess
import time

from http_hosts import ROOT

IMAGE = os.environ.get("MEDIA_MCP_IMAGE", "media-mcp")
BUILD_TIMEOUT_S = 40 * 60
# The budget: the stripped static harness (~30 MB), both components and their compiled code.
SIZE_BUDGET = 48 << 20


def version():
    text = (ROOT / "Cargo.toml").read_text()
    section = text.split("[workspace.package]", 1)[1]
    return re.search(r'^version = "([^"]+)"', section, re.M).group(1)


def docker_missing():
    """Why docker cannot run here (None when it can)."""
    if not shutil.which("docker"):
        return "no docker client (scripts/install-test-deps.sh installs Debian's docker.io)"
    info = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"], capture_output=True,
                          text=True, timeout=60)
    if info.returncode != 0:
        return f"the docker daemon does not answer (scripts/install-test-deps.sh starts it): {info.stderr.strip()}"
    return None


@functools.cache
def built_image():
    """media-mcp:<version>, built from this checkout once per session; (tag, seconds taken)."""
    started = time.monotonic()
    result = subprocess.run([str(ROOT / "scripts" / "build-image.sh")], cwd=ROOT, capture_output=True,
                            text=True, timeout=BUILD_TIMEOUT_S)
    if result.returncode != 0:
        raise RuntimeError(f"scripts/build-image.sh failed:\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}")
    return f"{IMAGE}:{version()}", time.monotonic() - started


def docker(*args, timeout=120, check=True):
    result = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        raise RuntimeError(f"docker {' '.join(args[:3])} ...: {result.stderr.strip()}")
    return result


def inspect(ref, fmt="{{json .}}"):
    return json.loads(docker("inspect", "--format", fmt, ref).stdout)


class Container:
    """`docker run -d` of the image on the host's network, removed by `remove()`."""

    def __init__(self, tag, run_args, args):
        self.id = docker("run", "-d", "--network", "host", *run_args, tag, *args).stdout.strip()

    def logs(self):
        result = docker("logs", self.id, check=False)
        return result.stdout + result.stderr

    def wait_for_log(self, pattern, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.logs()
            m = re.search(pattern, text)
            if m:
                return m
            if not inspect(self.id, "{{json .State.Running}}"):
                raise RuntimeError(f"the container exited: {text[-3000:]}")
            time.sleep(0.05)
        raise RuntimeError(f"no {pattern!r} in {timeout} s: {self.logs()[-3000:]}")

    def state(self):
        return inspect(self.id, "{{json .State}}")

    def remove(self):
        docker("rm", "-f", self.id, check=False)


async def with_session(url, token, body):
    """The official Python MCP client over Streamable HTTP with a bearer token."""
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)


async def list_and_search(session):
    tools = {t.name for t in (await session.list_tools()).tools}
    result = await session.call_tool("read_search", {"query": "matrix", "media": "movie"})
    return tools, result


def list_and_search_over(url, token):
    """(tool names, read_search's result) from one client session."""
    return asyncio.run(with_session(url, token, list_and_search))
