"""MM-NIAH (``mmniah``): ``mmniah.is_correct`` (option index or whole-word VQA match), the
``_score.json`` compared key by key with what VLMEvalKit's own ``MMNIAH.evaluate`` wrote.
Data: tests/data/vlmevalkit_tail_rules/README.md."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import mmniah

DATA = Path(__file__).parent / "data" / "vlmevalkit_tail_rules" / "mmniah"
STEM = "SynthModel_MM_NIAH_VAL"


def test_report_matches_vlmevalkit():
    res = mmniah.grade(read_result_table(DATA / f"{STEM}.xlsx"))
    expected = json.loads((DATA / f"{STEM}_score.json").read_text())
    assert res.report.columns == list(expected)
    for k, v in expected.items():
        assert res.report[k][0] == v, k
    assert res.stats["reference_error"] is None and res.stats["correct"] == 11.0


def test_rules():
    assert mmniah.is_correct(1, "**B**. because") and not mmniah.is_correct(2, "C, D")
    assert mmniah.is_correct(1, "the camera is moving right") and not mmniah.is_correct(
        3, "none"
    )
    assert mmniah.vqa_match("The needle is an Apple.", "apple") == 1
    assert (
        mmniah.vqa_match("apple", "pineapple") == 0
        and mmniah.vqa_match("two", "2") == 1
    )
    with pytest.raises(AttributeError):
        mmniah.is_correct("x", float("nan"))
    frame = read_result_table(DATA / f"{STEM}.xlsx")
    missing = frame.with_columns(
        pl.Series("prediction", [None] + frame["prediction"].to_list()[1:])
    )
    res = mmniah.grade(missing)
    assert res.report.height == 0 and "AttributeError" in res.stats["reference_error"]
    bad = frame.with_columns(
        pl.Series("answer", ["two"] + frame["answer"].to_list()[1:])
    )
    assert (
        "ValueError" in mmniah.grade(bad).stats["reference_error"]
    )  # int('two') for a find-image row


def test_registry_and_grade_many(tmp_path):
    b = benchmarks.for_dataset("MM_NIAH_VAL")
    assert b is benchmarks.for_dataset("MM_NIAH_TEST") and b.name == "mmniah"
    from gaia_fast.grading import many

    tree = tmp_path / "SynthModel"
    tree.mkdir()
    shutil.copy(DATA / f"{STEM}.xlsx", tree / f"{STEM}.xlsx")
    (record,) = [
        r
        for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R")
        if r.status != "skipped"
    ]
    assert record.status == "ok" and record.accuracy == pytest.approx(0.6875)
    written = json.loads(
        (tmp_path / "R" / "SynthModel" / f"{STEM}_score.json").read_text()
    )
    assert written == json.loads((DATA / f"{STEM}_score.json").read_text())
