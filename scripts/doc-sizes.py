#!/usr/bin/env python3
"""Writes the built artifacts' sizes into the docs, or checks them (`--check`, run by
tests/python/test_doc_sizes.py after ./scripts/build-component.sh).

Each figure sits in docs/guide/install.md between `<!-- size:NAME -->` and `<!-- /size -->`;
NAME is one of the artifacts below. Run it after a change to the component, the transport or
the build:

    ./scripts/build-component.sh && python3 scripts/doc-sizes.py
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "guide" / "install.md"
ARTIFACTS = {
    "plugin": ROOT / "target" / "media_mcp.wasm",
    "transport": ROOT / "target" / "wasm32-wasip2" / "wasm" / "component" / "media_mcp_transport.wasm",
    "http": ROOT / "target" / "media_mcp_http.wasm",
}
FIGURE = re.compile(r"(<!-- size:(\w+) -->)([^<]*)(<!-- /size -->)")


def rendered(name):
    path = ARTIFACTS[name]
    if not path.is_file():
        sys.exit(f"doc-sizes: {path} is missing: run ./scripts/build-component.sh")
    return f"{path.stat().st_size:,}"


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit("usage: doc-sizes.py [--check]")
    doc = DOC.relative_to(ROOT)
    text = DOC.read_text()
    stale = []

    def replace(m):
        if m.group(2) not in ARTIFACTS:
            sys.exit(f"doc-sizes: unknown artifact {m.group(2)!r} in {doc}")
        now = rendered(m.group(2))
        if m.group(3) != now:
            stale.append(f"{m.group(2)}: {doc} says {m.group(3)}, {ARTIFACTS[m.group(2)].name} is {now} bytes")
        return m.group(1) + now + m.group(4)

    new = FIGURE.sub(replace, text)
    names = {m.group(2) for m in FIGURE.finditer(text)}
    if names != set(ARTIFACTS):
        sys.exit(f"doc-sizes: {doc} names {sorted(names)}, expected {sorted(ARTIFACTS)}")
    if check:
        if stale:
            sys.exit(f"{doc} sizes are stale (run python3 scripts/doc-sizes.py):\n  " + "\n  ".join(stale))
        return
    DOC.write_text(new)
    print("\n".join(stale) or f"{doc} sizes are current")


if __name__ == "__main__":
    main()
