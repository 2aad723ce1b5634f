"""The balancers of deploy/balancer/ (nginx, HAProxy from Debian's packages) run from the
committed files on loopback, with the listen and replica ports rewritten."""
import re
import shutil
import signal
import socket
import time
from pathlib import Path

from http_hosts import ROOT, free_port, wait_for_port
from procs import Proc

BALANCERS = ("nginx", "haproxy")
CONFIGS = {"nginx": ROOT / "deploy" / "balancer" / "nginx.conf",
           "haproxy": ROOT / "deploy" / "balancer" / "haproxy.cfg"}
BINARIES = {"nginx": "/usr/sbin/nginx", "haproxy": "/usr/sbin/haproxy"}


def available(kind):
    return Path(BINARIES[kind]).is_file() or shutil.which(kind) is not None


def binary(kind):
    return BINARIES[kind] if Path(BINARIES[kind]).is_file() else shutil.which(kind)


def rewrite(text, port, replica_ports):
    """The committed configuration listening on `port` with `replica_ports` as its replicas
    (the committed file has 8080 and three replicas on 8081, 8082, 8083; the server lines of
    replicas not given are left out)."""
    text = text.replace("127.0.0.1:8080", f"127.0.0.1:{port}")
    old = ["127.0.0.1:8081", "127.0.0.1:8082", "127.0.0.1:8083"]
    assert all(o in text for o in old), "the committed file names three replicas"
    assert 1 <= len(replica_ports) <= len(old), "at most one replica per server line"
    for o in old[len(replica_ports):]:
        text = re.sub(rf"^[ \t]*server [^\n]*{re.escape(o)}[^\n]*\n", "", text, flags=re.M)
    for o, new in zip(old, replica_ports):
        text = text.replace(o, f"127.0.0.1:{new}")
    return text


class Balancer:
    def __init__(self, kind, replica_ports, tmp: Path, edit=None):
        self.kind = kind
        self.port = free_port()
        self.dir = tmp / kind
        self.dir.mkdir(exist_ok=True)
        self.replica_ports = list(replica_ports)
        self.socket = self.dir / "admin.sock"
        text = rewrite(CONFIGS[kind].read_text(), self.port, replica_ports)
        text = text.replace("/run/haproxy/admin.sock", str(self.socket))
        if edit:
            text = edit(text)
        self.conf = self.dir / CONFIGS[kind].name
        self.conf.write_text(text)
        conf = self.conf
        self.log = self.dir / "balancer.log"
        if kind == "nginx":
            for d in ("client_body_temp", "proxy_temp", "fastcgi_temp", "uwsgi_temp", "scgi_temp"):
                (self.dir / d).mkdir(exist_ok=True)
            args = [binary("nginx"), "-p", str(self.dir), "-c", str(conf), "-e", str(self.log),
                    "-g", f"daemon off; pid {self.dir / 'nginx.pid'}; error_log {self.log} notice;"]
        else:
            args = [binary("haproxy"), "-db", "-f", str(conf)]
        self.server = Proc(args, self.log)
        self.proc = self.server.proc
        wait_for_port(self.port, self.proc, self.log)
        self.url = f"http://127.0.0.1:{self.port}/mcp"

    def drain(self, index):
        """Takes replica `index` out as its deploy/balancer/ file says: nginx marks its server
        line `down` and reloads (returns once the old worker is shutting down gracefully);
        HAProxy sets the server to `drain` on the admin socket."""
        if self.kind == "nginx":
            line = f"server 127.0.0.1:{self.replica_ports[index]} "
            text = self.conf.read_text()
            assert line in text
            self.conf.write_text(text.replace(line, line + "down "))
            before = self.log.read_text().count("gracefully shutting down")
            self.proc.send_signal(signal.SIGHUP)
            deadline = time.monotonic() + 10
            while self.log.read_text().count("gracefully shutting down") == before:
                assert time.monotonic() < deadline, self.log.read_text()
                time.sleep(0.02)
        else:
            with socket.socket(socket.AF_UNIX) as s:
                s.settimeout(5)
                s.connect(str(self.socket))
                s.sendall(f"set server media_mcp/r{index + 1} state drain\n".encode())
                answer = s.recv(4096)
            assert answer.strip() == b"", answer

    def stop(self):
        self.server.stop()


def nginx_unsafe(text):
    """The setting the committed nginx.conf must not have: POSTs resent to the next replica."""
    return re.sub(r"proxy_next_upstream error timeout;", "proxy_next_upstream error timeout non_idempotent;", text)


def haproxy_unsafe(text):
    """The settings the committed haproxy.cfg must not have: a request resent when its replica
    closed without answering."""
    text = text.replace("retry-on conn-failure", "retry-on conn-failure empty-response response-timeout")
    return text.replace("http-request disable-l7-retry if METH_POST\n", "")


UNSAFE = {"nginx": nginx_unsafe, "haproxy": haproxy_unsafe}
