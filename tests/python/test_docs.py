"""The documentation against the repository: every path and test name the docs cite exists,
every markdown link resolves (to a heading, when it names one), the configuration reference
names exactly the variables of wire's table, and the module order in
docs/dev/architecture.md is what scripts/module-cycles.py prints. No build needed."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

# The documents checked: the README, the security promises, the book and the benchmark notes.
DOCS = sorted(
    [ROOT / "README.md", ROOT / "crates" / "media-mcp-bench" / "NOTES.md"]
    + list((ROOT / "docs").rglob("*.md"))
)
CONFIG_REFERENCE = ROOT / "docs" / "reference" / "configuration.md"
ARCHITECTURE = ROOT / "docs" / "dev" / "architecture.md"
VARIABLES = ROOT / "crates" / "media-mcp-wire" / "src" / "variables.rs"

FENCE = re.compile(r"^```.*?^```[^\n]*$", re.M | re.S)
SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# A repository path: segments of path characters with a `/`, ending in an extension or `/`.
PATH = re.compile(r"^\.?[A-Za-z0-9_][A-Za-z0-9_.+-]*(?:/[A-Za-z0-9_.+-]+)*(?:/|\.[A-Za-z0-9]+)$")
IDENT = re.compile(r"^([a-z_][a-z0-9_]*)(?:\[[^\]]*\])?$")
# Between a cited file and a test name, or two test names: white space, commas, `and`, and
# remarks in parentheses.
GAP = re.compile(r"^(?:\s|,|\band\b|\([^()`;|]*\))*$")
VARIABLE = re.compile(r"(?<![A-Za-z0-9_])((?:OMBI|MOVIEPILOT|MEDIA_MCP|SEERR)_[A-Z0-9_]*[A-Z0-9])(?![A-Za-z0-9_*])")


def prose(text):
    """`text` without fenced code blocks (commands and listings, not citations) and without
    the evidence lines of docs/ombi-behaviours.md, whose paths are in Ombi's source tree."""
    text = FENCE.sub("", text)
    return "\n".join(l for l in text.split("\n") if not l.startswith("- **Evidence:**"))


def rel(doc):
    return doc.relative_to(ROOT)


def is_repo_path(span):
    """Whether a code span names a file or folder of this repository (not a URL, a route, a
    glob, a placeholder, a build output or a path outside the repository)."""
    span = span.split("#", 1)[0]
    if "/" not in span or not PATH.match(span):
        return False
    return not span.startswith(("target/", "../", "./target/"))


def cited_paths(text):
    """(span, position) of every repository path cited in a code span."""
    for m in SPAN.finditer(prose(text)):
        if is_repo_path(m.group(1)):
            yield m.group(1).split("#", 1)[0], m


def test_the_checked_documents_exist():
    for doc in [CONFIG_REFERENCE, ARCHITECTURE, ROOT / "docs" / "README.md"]:
        assert doc in DOCS, doc


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: str(rel(d)))
def test_cited_paths_exist(doc):
    missing = sorted({p for p, _ in cited_paths(doc.read_text()) if not (ROOT / p).exists()})
    assert not missing, f"{rel(doc)} cites paths that do not exist: {missing}"


def files_of_tests(path):
    """The files a test cited with `path` may live in: the file itself and, for a module
    (`x.rs`, `x/mod.rs`), its unit tests (`x/tests.rs`, `x/tests/*.rs`), where the project
    keeps them."""
    file = ROOT / path
    out = [file]
    if file.suffix == ".rs":
        folder = file.parent if file.name in ("mod.rs", "lib.rs", "main.rs") else file.with_suffix("")
        out.append(folder / "tests.rs")
        out += sorted((folder / "tests").glob("*.rs")) if (folder / "tests").is_dir() else []
    return [f for f in out if f.is_file()]


def cited_tests(text):
    """(file, name) for every test name cited right after a `.rs` or `.py` file: the code spans
    that follow the file's own span, separated only by spaces, commas, `and` or a closed
    parenthesis (not by another kind of span or the end of a sentence or table cell)."""
    body = prose(text)
    spans = list(SPAN.finditer(body))
    for i, m in enumerate(spans):
        path = m.group(1)
        if not (is_repo_path(path) and path.endswith((".rs", ".py"))):
            continue
        end = m.end()
        for n in spans[i + 1:]:
            gap = body[end:n.start()]
            ident = IDENT.match(n.group(1))
            if not ident or not GAP.match(gap):
                break
            yield path, ident.group(1)
            end = n.end()


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: str(rel(d)))
def test_cited_test_names_exist(doc):
    missing = []
    for path, name in cited_tests(doc.read_text()):
        files = files_of_tests(path)
        if not files:
            continue  # reported by test_cited_paths_exist
        pattern = re.compile(rf"\b(?:fn|def)\s+{re.escape(name)}\b")
        if not any(pattern.search(f.read_text()) for f in files):
            missing.append(f"{path} `{name}`")
    assert not missing, f"{rel(doc)} cites tests that do not exist: {missing}"


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]|<[^>]+>", "", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(doc):
    text = prose(doc.read_text())
    out = set(re.findall(r'<a id="([^"]+)"', text))
    seen = {}
    for h in re.findall(r"^#{1,6}\s+(.*)$", text, re.M):
        s = slug(h)
        out.add(s if s not in seen else f"{s}-{seen[s]}")
        seen[s] = seen.get(s, 0) + 1
    return out


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: str(rel(d)))
def test_relative_links_resolve(doc):
    broken = []
    for target in LINK.findall(prose(doc.read_text())):
        if re.match(r"^[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{rel(doc)} has broken links: {broken}"


def table_variables():
    """The variable names of the table (every `name:` of crates/media-mcp-wire/src/variables.rs),
    and `NAME_FILE` for each secret (`secret: true`)."""
    text = VARIABLES.read_text()
    secrets = re.findall(r'\bname:\s*"([A-Z0-9_]+)"[^}]*?\bsecret:\s*true', text)
    return set(re.findall(r'\bname:\s*"([A-Z0-9_]+)"', text)) | {f"{n}_FILE" for n in secrets}


def test_the_configuration_reference_names_exactly_the_tables_variables():
    table = table_variables()
    assert len(table) > 40, table
    documented = set(VARIABLE.findall(CONFIG_REFERENCE.read_text()))
    assert not table - documented, f"in the table, not in {rel(CONFIG_REFERENCE)}: {sorted(table - documented)}"
    assert not documented - table, f"in {rel(CONFIG_REFERENCE)}, not in the table: {sorted(documented - table)}"


def module_order_blocks():
    text = ARCHITECTURE.read_text()
    blocks = re.findall(r"<!-- module-order:(\S+) -->\n(.*?)<!-- /module-order -->", text, re.S)
    assert blocks, f"{rel(ARCHITECTURE)} has no module-order block"
    return blocks


@pytest.mark.parametrize("src", [src for src, _ in module_order_blocks()])
def test_the_module_order_is_what_module_cycles_prints(src):
    (block,) = [b for s, b in module_order_blocks() if s == src]
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "module-cycles.py"),
                             str(ROOT / src), "--order"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    shown = re.sub(r"^```\w*\n|```\n?$", "", block.strip() + "\n", flags=re.M).strip()
    assert shown == result.stdout.strip(), (
        f"the module order of {src} in {rel(ARCHITECTURE)} is stale; replace the block with:\n"
        f"```text\n{result.stdout}```")


@pytest.mark.parametrize("name", ["README.md", "BENCHMARKS.md"])
def test_the_front_pages_stay_short(name):
    """The README routes and BENCHMARKS.md holds the generated results: each at most 200 lines
    (the guide and the analysis live in docs/ and crates/media-mcp-bench/NOTES.md)."""
    lines = (ROOT / name).read_text().count("\n")
    assert lines <= 200, f"{name} has {lines} lines"
