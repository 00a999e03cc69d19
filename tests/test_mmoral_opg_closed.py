"""MMOral_OPG_CLOSED (``mmoral_opg_closed``): ``get_single_choice_prediction`` and the
``_acc.csv`` compared cell by cell with what VLMEvalKit's own ``evaluate`` wrote.
Data: tests/data/vlmevalkit_step1/README.md."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
from gaia_fast import benchmarks
from gaia_fast.grading import many
from gaia_fast.grading.reporters import read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import mmoral_opg_closed

DATA = Path(__file__).parent / "data" / "vlmevalkit_step1" / "mmoral_opg_closed"
STEM = "SynthModel_MMOral_OPG_CLOSED"
OPTS = {"A": "caries", "B": "implant", "C": "28", "D": "cyst"}


def test_report_matches_vlmevalkit():
    res = mmoral_opg_closed.grade(read_result_table(DATA / f"{STEM}.xlsx"))
    theirs = read_report(DATA / f"{STEM}_acc.csv")
    assert res.report.columns == theirs.columns and report_differences(res.report, theirs) == []
    assert res.report.filter(pl.col("Category") == "HisT")["tot"].item() == 4  # 'HisT' counted 3 times + 'HisTeeth'
    assert res.stats["reference_error"] is None


def test_single_choice_and_random_rows():
    assert mmoral_opg_closed.single_choice("B, or maybe A", OPTS) == "A"  # ' B,' has no position: ' A ' wins
    assert mmoral_opg_closed.single_choice("(C) or (B)", OPTS) == "C"
    assert mmoral_opg_closed.single_choice("no idea", OPTS) is None  # upstream: random.choice
    frame = read_result_table(DATA / f"{STEM}.xlsx")
    frame = frame.with_columns(pl.when(pl.int_range(pl.len()) == 3).then(pl.lit("no idea")).otherwise(pl.col("prediction")).alias("prediction"))
    res = mmoral_opg_closed.grade(frame)
    assert res.rows["status"][3] == "random" and res.report.height == 0 and "random.choice" in res.stats["reference_error"]


def test_registry_and_executor(tmp_path):
    b = benchmarks.for_dataset("MMOral_OPG_CLOSED")
    assert b is not None and b.name == "mmoral_opg_closed" and b.grading == "rules"
    assert benchmarks.for_dataset("MMOral_OPG_OPEN") is None
    tree = tmp_path / "SynthModel"
    tree.mkdir()
    for f in DATA.iterdir():
        shutil.copy(f, tree / f.name)
    (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"]
    assert record.status == "ok" and record.archive_report.endswith(f"{STEM}_acc.csv"), (record.status, record.error)
