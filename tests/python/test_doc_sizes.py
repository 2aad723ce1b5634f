"""The artifact sizes docs/guide/install.md states are those of the built files
(scripts/doc-sizes.py writes them; this fails when a change to the component left them stale)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_documented_sizes_are_the_built_artifacts():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "doc-sizes.py"), "--check"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
