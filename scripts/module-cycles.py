#!/usr/bin/env python3
"""Reports import cycles between the modules of a Rust crate's src/ tree.

Reads every `crate::a::b`, `super::x` and `self::x` path in non-test code (files named
tests.rs / *_tests.rs, folders named tests/ and `#[cfg(test)]` items are skipped), resolves
each to the file that defines the module, and prints the strongly connected components of
the file graph and of the top-level-module graph.

It also reports imports that run back up into a module face. A module's face is the file that
declares a folder of modules (`a/mod.rs`, or `a.rs` beside a folder `a/`). An import runs back
up when a file inside the folder (at any depth) names, through the face of one of its
ancestors, something that is not one of that ancestor's child modules: an item the face
defines or re-exports, or a glob. `crate::ombi::call::Call` used in `ombi/reads/issues.rs` is
fine (it names the sibling module `call`); `crate::ombi::Call` and `super::Call` are not, even
when `ombi/mod.rs` only re-exports `Call`. The crate root (`lib.rs`, `main.rs`) is no face in
this sense: its prelude and re-exports serve the whole crate. A face may name anything below it.
Files under `src/bin/` are other binaries' roots and are left out.

Exit status 1 when either graph has a cycle or an import runs back up into a face.

    scripts/module-cycles.py crates/media-mcp/src

With `--order` it prints the crate's top-level modules in dependency order instead, lowest
first: one line per module with its level (0: it imports no other module of the crate; else one
more than the highest level among the modules it imports) and the modules it imports.
docs/dev/architecture.md holds this output, checked by tests/python/test_docs.py.

    scripts/module-cycles.py crates/host-harness/src --order
"""
import os
import re
import sys


def module_files(src):
    """Maps module paths (tuples) to files."""
    mods = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            full = os.path.join(root, f)
            rel = os.path.relpath(full, src)[:-3].split(os.sep)
            if rel[0] == "bin" and len(rel) > 1:
                continue  # src/bin/*.rs are crate roots of other binaries, not modules
            if rel in (["lib"], ["main"]):
                path = ()
            elif rel[-1] == "mod":
                path = tuple(rel[:-1])
            else:
                path = tuple(rel)
            mods[path] = full
    return mods


def is_test(path):
    return "tests" in path or any(p.endswith("_tests") for p in path) or "testing" in path


def strip_tests(text):
    """Drops `#[cfg(test)]` items (a `mod x { ... }` block or a one-line item)."""
    out, i = [], 0
    lines = text.split("\n")
    while i < len(lines):
        if lines[i].strip() == "#[cfg(test)]":
            i += 1
            if i < len(lines) and lines[i].rstrip().endswith("{"):
                depth = 0
                while i < len(lines):
                    depth += lines[i].count("{") - lines[i].count("}")
                    i += 1
                    if depth <= 0:
                        break
            else:
                i += 1
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(l.split("//")[0] for l in text.split("\n"))


def expand_use(text):
    """Yields every path named by `use` trees and inline `crate::`/`super::` paths."""
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        yield from flatten(m.group(1).replace("\n", " "))
    for m in re.finditer(r"(?<![\w:])((?:crate|super|self)(?:::\w+)+)(?![\w:])", text):
        yield m.group(1)


def flatten(tree, prefix=""):
    tree = tree.strip()
    depth, start, parts = 0, 0, []
    brace = tree.find("{")
    if brace == -1:
        yield prefix + tree.split(" as ")[0].strip()
        return
    head = tree[:brace]
    inner = tree[brace + 1 : tree.rfind("}")]
    for i, c in enumerate(inner):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    for p in parts:
        if p.strip():
            yield from flatten(p, prefix + head)


def anchored(segs, here):
    """The module a path starting with `crate`, `super` or `self` (used in `here`) starts
    from, and its other segments; None for any other path."""
    if segs[0] == "crate":
        return (), segs[1:]
    if segs[0] not in ("super", "self"):
        return None
    base = here
    while segs and segs[0] in ("super", "self"):
        if segs[0] == "super":
            base = base[:-1]
        segs = segs[1:]
    return base, segs


def resolve(path, here, mods, reexports, depth=0):
    """The module file that defines what `path` (used in module `here`) names.

    Follows `pub use` re-exports, so `crate::ombi::Ombi` resolves to the file defining `Ombi`.
    """
    segs = path.split("::")
    start = anchored(segs, here)
    if start is not None:
        base, segs = start
    elif here + (segs[0],) in mods:
        base = here
    else:
        return None
    for i, s in enumerate(segs):
        if base + (s,) in mods:
            base = base + (s,)
        elif depth < 8 and s in reexports.get(base, {}):
            origin, tail = reexports[base][s], segs[i + 1 :]
            target = resolve("::".join([origin] + tail), base, mods, reexports, depth + 1)
            return target if target is not None else base
        else:
            break
    return base


def face_crossing(path, here, mods):
    """The ancestor of `here` whose face `path` names an item of, or None.

    Walks `path`'s segments from where it starts; crossing a proper, non-root ancestor of
    `here` by a name that is not a child module of that ancestor is running back up.
    """
    start = anchored(path.split("::"), here)
    if start is None:
        return None
    base, segs = start
    for s in segs:
        if s == "self":
            return None
        if base + (s,) in mods:
            base = base + (s,)
            continue
        if 0 < len(base) < len(here) and here[: len(base)] == base:
            return base
        return None
    return None


def reexports_of(text):
    """Names a module re-exports with `pub use` / `pub(crate) use`, and the paths they come from."""
    out = {}
    for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", text):
        for full in flatten(m.group(1).replace("\n", " ")):
            full = full.strip()
            if full.endswith("::*") or full.endswith("self"):
                continue
            out[full.rsplit("::", 1)[-1]] = full
    return out


def sccs(graph):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            visit(v)
    return out


def graphs(src):
    """The file graph, the top-level-module graph and the imports that run back up into a
    module face, of the crate source tree `src`."""
    mods = module_files(src)
    files, tops, texts, reexports, back_up = {}, {}, {}, {}, []
    for path, file in mods.items():
        with open(file, encoding="utf-8") as fh:
            texts[path] = strip_comments(strip_tests(fh.read()))
        reexports[path] = reexports_of(texts[path])
    for path, file in mods.items():
        if is_test(path) or path == ():
            continue
        text = texts[path]
        children = [m[-1] for m in mods if m[:-1] == path and len(m) == len(path) + 1]
        used_paths = list(expand_use(text))
        for c in children:
            for m in re.finditer(r"(?<![\w:])(" + re.escape(c) + r"(?:::\w+)+)(?![\w:])", text):
                used_paths.append(m.group(1))
        deps = set()
        for used in used_paths:
            face = face_crossing(used, path, mods)
            if face is not None:
                back_up.append((path, used, face))
            target = resolve(used, path, mods, reexports)
            if target is None or target in ((), path) or is_test(target):
                continue
            # A module depending on its own parent module file (mod.rs) through `super::` counts.
            deps.add(target)
        files[path] = deps
        top = path[0]
        for d in deps:
            if d[0] != top:
                tops.setdefault(top, set()).add(d[0])
        tops.setdefault(top, set())
    return files, tops, back_up


def levels(tops):
    """Each top-level module's level: 0 when it imports no other module, else one more than
    the highest level among those it imports. None when the graph has a cycle."""
    if sccs(tops):
        return None
    level = {}

    def visit(m):
        if m not in level:
            level[m] = 1 + max((visit(d) for d in tops.get(m, ())), default=-1)
        return level[m]

    for m in tops:
        visit(m)
    return level


def order_lines(tops):
    """The `--order` output: modules lowest first (by level, then name), with their imports."""
    level = levels(tops)
    if level is None:
        return None
    width = max((len(m) for m in tops), default=0)
    out = []
    for m in sorted(tops, key=lambda m: (level[m], m)):
        deps = ", ".join(sorted(tops[m]))
        out.append(f"{level[m]}  {m.ljust(width)}  {deps or '-'}".rstrip())
    return out


def main():
    args = sys.argv[1:]
    src = args[0] if args else "crates/media-mcp/src"
    files, tops, back_up = graphs(src)
    if "--order" in args[1:]:
        lines = order_lines(tops)
        if lines is None:
            print(f"{src}: the module graph has a cycle; run without --order to see it")
            sys.exit(1)
        print("\n".join(lines))
        return
    name = lambda p: "::".join(p)
    bad = False
    for label, graph in (("file", files), ("top-level module", tops)):
        cycles = sccs(graph)
        print(f"{label} graph: {len(graph)} nodes, {sum(len(v) for v in graph.values())} edges, "
              f"{len(cycles)} cycle(s)")
        for c in cycles:
            bad = True
            print("  cycle:", ", ".join(name(x) if isinstance(x, tuple) else x for x in c))
    print(f"imports back up into a module face: {len(back_up)}")
    for path, used, face in sorted(set(back_up)):
        bad = True
        print(f"  {name(path)}: `{used}` goes through the face of {name(face)}")
    if "--layers" in args[1:]:
        for top, deps in sorted(tops.items()):
            print(f"  {top} -> {', '.join(sorted(deps)) or '-'}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
