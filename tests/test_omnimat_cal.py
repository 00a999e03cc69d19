"""OmniMat_CAL (``omnimat_cal``): slot scores and the ``_acc.csv`` compared cell by cell with
what VLMEvalKit's own ``OmniMat.evaluate`` wrote. Data: tests/data/vlmevalkit_step1/README.md."""

from __future__ import annotations

import csv
import shutil
from decimal import getcontext
from pathlib import Path

import polars as pl
from gaia_fast import benchmarks
from gaia_fast.grading import many
from gaia_fast.grading.reporters import read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import omnimat_cal

DATA = Path(__file__).parent / "data" / "vlmevalkit_step1" / "omnimat_cal"
STEM = "SynthModel_OmniMat_CAL"


def test_report_and_slots_match_vlmevalkit():
    res = omnimat_cal.grade(read_result_table(DATA / f"{STEM}.xlsx"))
    theirs = read_report(DATA / f"{STEM}_acc.csv")
    assert res.report.columns == theirs.columns and report_differences(res.report, theirs) == []
    assert res.report["Slot Accuracy Exact"].to_list() == theirs["Slot Accuracy Exact"].to_list()
    with (DATA / f"{STEM}_omnimat_cal_details.csv").open() as f:
        detail = list(csv.DictReader(f))
    for col in ("pred_answer", "slot_scores_exact", "slot_scores_threshold"):
        assert res.rows[col].to_list() == [d[col] for d in detail], col
    assert res.rows["score"].to_list() == [float(d["score_threshold"]) for d in detail]


def test_rules():
    assert getcontext().prec != 0  # the global context is left alone (50 digits only inside)
    assert omnimat_cal.parse_prediction("<think>1</think> <answer>[2, 3.50]</answer>") == ["2", "3.5"]
    assert omnimat_cal.score_slots(["1/3"], ["0.3333333"]) == ([0], [1])
    assert omnimat_cal.score_slots(["2.50"], ["2.504"]) == ([1], [1])
    assert omnimat_cal.to_decimal("−1,000") == -1000
    frame = pl.DataFrame({"final_answer_list": ['["1"]'], "prediction": ["1"], "category_id": ["1"], "category": ["x"]})
    assert omnimat_cal.grade(frame).report["Category ID"].to_list() == ["01", "Overall"]


def test_registry_and_executor(tmp_path):
    b = benchmarks.for_dataset("OmniMat_CAL")
    assert b is not None and b.name == "omnimat_cal" and b.grading == "rules"
    assert benchmarks.for_dataset("OmniMat_QA") is None
    tree = tmp_path / "SynthModel"
    tree.mkdir()
    for f in DATA.iterdir():
        shutil.copy(f, tree / f.name)
    (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"]
    assert record.status == "ok" and record.archive_report.endswith("_acc.csv"), (record.status, record.error)
