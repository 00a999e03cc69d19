"""README.md's benchmark table is the registry's (``scripts/registry_table.py``)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "registry_table.py"


def _module():
    spec = importlib.util.spec_from_file_location("registry_table", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_readme_table_is_generated_from_the_registry():
    mod = _module()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert mod.render(readme) == readme, "README.md's benchmark table is stale: run python scripts/registry_table.py"


def test_table_has_a_row_per_entry():
    from gaia_fast.benchmarks import BENCHMARKS

    rows = _module().table().splitlines()[2:]
    assert [r.split("|")[1].strip().strip("`") for r in rows] == list(BENCHMARKS)


def test_check_mode_fails_on_a_stale_table(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stale = readme.replace("| `mcq` |", "| `mcq-old` |", 1)
    assert stale != readme
    path = tmp_path / "README.md"
    path.write_text(stale, encoding="utf-8")
    bad = subprocess.run([sys.executable, str(SCRIPT), "--check", "--readme", str(path)], capture_output=True, text=True, check=False)
    assert bad.returncode == 1 and "differs" in bad.stderr
    subprocess.run([sys.executable, str(SCRIPT), "--readme", str(path)], check=True)
    assert path.read_text(encoding="utf-8") == readme
