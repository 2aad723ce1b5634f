"""Writes one generated section of BENCHMARKS.md (replacing the section of the same heading, or
appending it), or in smoke mode a file of its own under target/bench/; shared by the scripts
that bench.sh runs after its driver."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
