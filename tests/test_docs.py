"""The documentation site builds with ``mkdocs build --strict`` and every Python example
in it runs (```python blocks; ```py marks a sketch that needs the reader's own agent or data)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md"))
EXAMPLES = [
    pytest.param(block, id=f"{page.relative_to(ROOT / 'docs')}#{i}")
    for page in PAGES
    for i, block in enumerate(re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S))
]


def test_there_are_pages_and_examples():
    assert len(PAGES) >= 10 and len(EXAMPLES) >= 8


@pytest.mark.parametrize("code", EXAMPLES)
def test_example_runs(code, tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]


def test_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    r = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert (tmp_path / "site" / "benchmarks" / "gaia" / "index.html").is_file()
    assert "question_scorer" in (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    assert "--metadata" in (tmp_path / "site" / "cli" / "index.html").read_text(encoding="utf-8")
