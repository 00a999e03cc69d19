"""Q-Spatial (``qspatial``): the scalar / distance_unit boxes in centimetres, delta-2 and
delta-1.5, the ``_score.json`` compared key by key with what VLMEvalKit's own
``QSpatial.evaluate`` wrote. Data: tests/data/vlmevalkit_tail_rules/README.md."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import qspatial

DATA = Path(__file__).parent / "data" / "vlmevalkit_tail_rules" / "qspatial"
STEM = "SynthModel_QSpatial_plus"


def test_report_matches_vlmevalkit():
    res = qspatial.grade(read_result_table(DATA / f"{STEM}.xlsx"))
    expected = json.loads((DATA / f"{STEM}_score.json").read_text())
    assert sorted(res.report.columns) == sorted(
        expected
    )  # upstream's type keys come from a set
    for k, v in expected.items():
        assert res.report[k][0] == v, k
    assert (
        res.stats["flags"] == {"unparsed": 2} and res.stats["reference_error"] is None
    )


def test_rules():
    assert qspatial.parse_prediction(
        r"\scalar{10 - 14} \distance_unit{inches}"
    ) == pytest.approx(30.48)
    assert qspatial.parse_prediction(
        r"\scalar{1} \distance_unit{ft} \scalar{2} \distance_unit{feet}"
    ) == pytest.approx(60.96)
    assert math.isnan(qspatial.parse_prediction(r"\scalar{four} \distance_unit{cm}"))
    assert (
        qspatial.parse_prediction(r"\scalar{1.5} no unit") is None
        and qspatial.parse_prediction("five feet") is None
    )
    assert (
        qspatial.multiplier("Metres") == 100.0 and qspatial.multiplier("yards") == 0.0
    )
    frame = read_result_table(DATA / f"{STEM}.xlsx")
    missing = frame.with_columns(
        pl.Series("prediction", [None] + frame["prediction"].to_list()[1:])
    )
    assert "TypeError" in qspatial.grade(missing).stats["reference_error"]
    bad = frame.with_columns(
        pl.Series("answer", ["2 meters"] + frame["answer"].to_list()[1:])
    )
    assert qspatial.grade(bad).report.height == 0


def test_registry_and_grade_many(tmp_path):
    b = benchmarks.for_dataset("QSpatial_plus")
    assert b is benchmarks.for_dataset("QSpatial_scannet") and b.name == "qspatial"
    from gaia_fast.grading import many

    tree = tmp_path / "SynthModel"
    tree.mkdir()
    shutil.copy(DATA / f"{STEM}.xlsx", tree / f"{STEM}.xlsx")
    (record,) = [
        r
        for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R")
        if r.status != "skipped"
    ]
    assert record.status == "ok" and record.accuracy == pytest.approx(0.5)
    written = json.loads(
        (tmp_path / "R" / "SynthModel" / f"{STEM}_score.json").read_text()
    )
    assert written == json.loads((DATA / f"{STEM}_score.json").read_text())
