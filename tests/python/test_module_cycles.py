"""scripts/module-cycles.py on tiny crates: it passes a clean tree and fails both a cycle and an
import that runs back up into a module face (the check CI runs on every crate's src/)."""
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent.parent / "scripts" / "module-cycles.py"


def run(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True,
                          text=True, timeout=60)


FACE = "mod call;\nmod tool;\npub use call::Call;\n"


def test_siblings_imported_directly_pass(tmp_path):
    result = run(tmp_path, {
        "lib.rs": "mod backend;\nuse crate::backend::Call;\n",
        "backend/mod.rs": FACE,
        "backend/call.rs": "pub struct Call;\n",
        "backend/tool.rs": "use crate::backend::call::Call;\nuse super::call::Call as C;\n",
    })
    assert result.returncode == 0, result.stdout
    assert "imports back up into a module face: 0" in result.stdout


def test_an_import_through_the_face_fails(tmp_path):
    for import_line in ("use crate::backend::Call;", "use super::Call;", "use super::*;"):
        result = run(tmp_path, {
            "lib.rs": "mod backend;\n",
            "backend/mod.rs": FACE,
            "backend/call.rs": "pub struct Call;\n",
            "backend/tool.rs": import_line + "\n",
        })
        assert result.returncode == 1, import_line
        assert "backend::tool:" in result.stdout and "face of backend" in result.stdout, \
            result.stdout


def test_an_item_defined_in_a_parent_file_counts_and_tests_do_not(tmp_path):
    result = run(tmp_path, {
        "lib.rs": "mod project;\n",
        "project.rs": "mod movie;\nfn genre_names() {}\n#[cfg(test)]\nmod tests;\n",
        "project/movie.rs": "use super::genre_names;\n",
        "project/tests.rs": "use super::*;\n",
    })
    assert result.returncode == 1
    assert "project::movie: `super::genre_names`" in result.stdout
    assert "project::tests" not in result.stdout


def test_a_cycle_fails(tmp_path):
    result = run(tmp_path, {
        "lib.rs": "mod a;\nmod b;\n",
        "a.rs": "use crate::b::B;\npub struct A;\n",
        "b.rs": "use crate::a::A;\npub struct B;\n",
    })
    assert result.returncode == 1
    assert "cycle: a, b" in result.stdout


ROOT = SCRIPT.parent.parent
CRATE_SOURCES = sorted(p.parent / "src" for p in [*ROOT.glob("crates/*/Cargo.toml"), ROOT / "tests" / "Cargo.toml"]
                       if (p.parent / "src").is_dir())


@pytest.mark.parametrize("src", CRATE_SOURCES, ids=lambda p: p.parent.name)
def test_every_crate_of_the_repository_passes(src):
    result = subprocess.run([sys.executable, str(SCRIPT), str(src)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
