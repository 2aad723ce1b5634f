"""Writes one generated section of BENCHMARKS.md (replacing the section of the same heading, or
appending it), or in smoke mode a file of its own under target/bench/; shared by the scripts
that bench.sh runs after its driver, with what they share: the `--smoke` flag and a fake Ombi
run with the machine's load average before and after."""
import contextlib
import os
import secrets
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent


def smoke_flag(script):
    """Whether the command line is `--smoke` (the only argument a script takes)."""
    if sys.argv[1:] not in ([], ["--smoke"]):
        sys.exit(f"usage: {script} [--smoke]")
    return sys.argv[1:] == ["--smoke"]


def load_average():
    return Path("/proc/loadavg").read_text().split()[:3]


@contextlib.contextmanager
def fake_ombi_run():
    """A temporary directory and a fake Ombi with a fresh canary key; `load_before` is set on
    entry and `load_after` once the fake has stopped."""
    import fake_ombi

    run = SimpleNamespace(key="canary-" + secrets.token_hex(12))
    with tempfile.TemporaryDirectory() as d:
        run.tmp = Path(d)
        server = fake_ombi.start(run.key, os.devnull)
        run.ombi_url = f"http://127.0.0.1:{server.server_port}"
        run.load_before = load_average()
        try:
            yield run
        finally:
            server.shutdown()
            run.load_after = load_average()


def write(heading, section, smoke_file, smoke, who):
    if smoke:
        out = ROOT / "target" / "bench" / smoke_file
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(section)
        print(f"{who}: wrote {out}", file=sys.stderr)
        return
    path = ROOT / "BENCHMARKS.md"
    text = path.read_text()
    if heading in text:
        head, rest = text.split(heading, 1)
        nxt = rest.find("\n## ")
        text = head + section + (rest[nxt + 1:] if nxt >= 0 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    path.write_text(text)
    print(f"{who}: wrote its section of {path}", file=sys.stderr)
