"""CRPE (``crpe``): ``crpe.is_correct`` per row (2024-09) or per group of four (2025-09 on),
the ``_score.json`` compared key by key with what VLMEvalKit's own ``CRPE.evaluate`` wrote.
Data: tests/data/vlmevalkit_tail_rules/README.md."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import crpe

DATA = Path(__file__).parent / "data" / "vlmevalkit_tail_rules"
STEM = "SynthModel_CRPE_RELATION"


@pytest.mark.parametrize(
    ("sub", "variant"), [("crpe_2024-09", "classic"), ("crpe_head", "2025-09")]
)
def test_report_matches_vlmevalkit(sub, variant):
    res = crpe.grade(read_result_table(DATA / sub / f"{STEM}.xlsx"), variant=variant)
    expected = json.loads((DATA / sub / f"{STEM}_score.json").read_text())
    assert res.report.columns == list(expected)
    for k, v in expected.items():
        assert res.report[k][0] == v, k
    assert res.stats["reference_error"] is None


def test_rules():
    assert crpe.is_correct("A. yes", "A") and not crpe.is_correct("C. beside", "c")
    # answer[4:]: "A. a red car" -> " red car"; "A. on" -> "n", found in 'nan'
    assert crpe.is_correct("A. a red car", "the red car") and crpe.is_correct(
        "A. on", "nan"
    )
    assert not crpe.is_correct("C. dog", "A dog")
    frame = read_result_table(DATA / "crpe_head" / f"{STEM}.xlsx")
    res = crpe.grade(frame.head(15))
    assert res.report.height == 0 and "AssertionError" in res.stats["reference_error"]
    bad = frame.with_columns(
        pl.Series("category", ["place"] + frame["category"].to_list()[1:])
    )
    assert "KeyError" in crpe.grade(bad, variant="classic").stats["reference_error"]
    res = crpe.grade(frame)
    assert res.stats["status"] == {
        "ok": 15,
        "unchecked": 1,
    }  # row 12 follows the wrong "c"


def test_registry_and_grade_many(tmp_path):
    b = benchmarks.for_dataset("CRPE_EXIST")
    assert b is benchmarks.for_dataset("CRPE_RELATION") and b.name == "crpe"
    assert (
        b.variant_on("2024-09-13") == "classic"
        and b.variant_on("2025-09-08") == "2025-09"
    )
    from gaia_fast.grading import many

    tree = tmp_path / "SynthModel"
    tree.mkdir()
    shutil.copy(DATA / "crpe_head" / f"{STEM}.xlsx", tree / f"{STEM}.xlsx")
    (record,) = [
        r
        for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R")
        if r.status != "skipped"
    ]
    assert record.status == "ok" and record.accuracy == pytest.approx(0.25)
    written = json.loads(
        (tmp_path / "R" / "SynthModel" / f"{STEM}_score.json").read_text()
    )
    assert written == json.loads(
        (DATA / "crpe_head" / f"{STEM}_score.json").read_text()
    )
