"""The tailrules families through the executor with the archive's own report beside each
result file (as VLMEvalKit wrote it): every record ``ok``, none ``differs``; a tampered
report is caught. Data: tests/data/vlmevalkit_tail_rules/README.md."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from gaia_fast.grading import many

DATA = Path(__file__).parent / "data" / "vlmevalkit_tail_rules"
SUBS = (
    "crpe_head",
    "mmniah",
    "qspatial",
    "mrare_dx",
    "vlrmbench",
    "gsm8k_v",
    "tablevqa",
)


def _tree(tmp_path: Path) -> Path:
    tree = tmp_path / "SynthModel"
    tree.mkdir()
    for sub in SUBS:
        for f in (DATA / sub).iterdir():
            if not f.name.endswith(
                ("_per_row.xlsx", "_detailed.xlsx")
            ):  # upstream's row dumps, not results
                shutil.copy(f, tree / f.name)
    return tree


def _records(tree: Path, out: Path) -> dict:
    return {
        r.dataset: r
        for r in many.grade_many(many.expand([str(tree)]), report_dir=out)
        if r.status != "skipped"
    }


def test_reports_equal_the_archives(tmp_path):
    records = _records(_tree(tmp_path), tmp_path / "R")
    assert len(records) == 9
    for name, r in records.items():
        assert r.status == "ok", (name, r.status, r.error)
        assert r.archive_report is not None, name


def test_a_tampered_report_differs(tmp_path):
    tree = _tree(tmp_path)
    path = tree / "SynthModel_MM_NIAH_VAL_score.json"
    report = json.loads(path.read_text())
    report["find-text"] = 0.25
    path.write_text(json.dumps(report))
    r = _records(tree, tmp_path / "R")["MM_NIAH_VAL"]
    assert r.status == "differs" and "find-text" in r.error
