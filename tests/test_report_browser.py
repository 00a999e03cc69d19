"""The HTML report renders in a real browser: headless Chromium loads the page from disk,
lays it out (screenshot) and exposes every section in its DOM.

Skipped only when no ``chromium`` is on PATH. CI installs it (Debian/Ubuntu):
``sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium``.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from gaia_fast.harness.html_report import SECTION_IDS, write_report

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

W, H = 1200, 2000


def _rows() -> list[dict]:
    rows = []
    answers = ["42", "Sea Gull", "17", "3, 4, 5", "Paris"]
    for i in range(30):
        level = 1 + i % 3
        answer = answers[i % len(answers)]
        ok = i % 3 != 2
        error = None
        prediction = answer if ok else "wrong"
        if i % 10 == 9:
            prediction, error = "", ("" if i % 20 == 9 else "tool exploded")
        rows.append(
            {"task_id": f"task-{i:02d}", "level": level, "question": f"Synthetic question {i}?", "answer": answer,
             "prediction": prediction, "is_correct": ok, "score": float(ok), "runtime_seconds": 2.0 + 3.5 * i,
             "error": error, "timestamp": "2026-01-15T10:00:00"}
        )
    rows.append({"task_id": "xss", "level": 1, "question": "q", "answer": "17", "prediction": "<script>document.title='pwned'</script>17000",
                 "is_correct": False, "runtime_seconds": 1.0, "error": None})
    return rows


def _chromium(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    cmd = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",  # CI containers run as root
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={tmp / 'profile'}",
        f"--window-size={W},{H}",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180, cwd=tmp)


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("browser")
    return write_report(_rows(), tmp / "report.html", title="Browser check")


def test_screenshot_is_a_non_empty_png(page: Path):
    tmp = page.parent
    png = tmp / "report.png"
    proc = _chromium(f"--screenshot={png}", page.as_uri(), tmp=tmp)
    assert png.exists(), proc.stderr[-2000:]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (W, H)
    # a blank 1200×2000 page compresses to a few kB; charts and tables do not
    assert len(data) > 30_000, len(data)


def test_dom_has_every_section_and_no_injected_script(page: Path):
    tmp = page.parent
    proc = _chromium("--dump-dom", page.as_uri(), tmp=tmp)
    dom = proc.stdout
    assert "<title>Browser check</title>" in dom, proc.stderr[-2000:]
    for sid in SECTION_IDS:
        assert f'id="{sid}"' in dom
    assert dom.count("<svg") >= 6
    # the prediction's <script> stayed text: no script element, the title was not changed
    assert "<script" not in dom.lower()
    assert "&lt;script&gt;document.title=" in dom
    assert "pwned</title>" not in dom
