"""ReasonMap-Plus (``reasonmap_plus``): the ``_metrics.tsv`` compared cell by cell with what
VLMEvalKit's own ``ReasonMap_Plus.evaluate`` wrote. Data: tests/data/vlmevalkit_step1/README.md."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import polars as pl
from gaia_fast import benchmarks
from gaia_fast.grading import many
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import reasonmap_plus

DATA = Path(__file__).parent / "data" / "vlmevalkit_step1" / "reasonmap_plus"
STEM = "SynthModel_ReasonMap-Plus"


def test_report_matches_vlmevalkit():
    res = reasonmap_plus.grade(read_result_table(DATA / f"{STEM}.xlsx"))
    with (DATA / f"{STEM}_metrics.tsv").open() as f:
        expected = list(csv.DictReader(f, delimiter="\t"))
    assert res.report.columns == ["metric", "value", "n"]
    assert res.report.rows() == [(r["metric"], float(r["value"]), int(r["n"])) for r in expected]


def test_rules_and_crashes():
    assert reasonmap_plus.normalize_prediction("The answer is: no. Because", "TorF1") == ": no"  # the first phrase listed wins
    assert reasonmap_plus.normalize_prediction("\\boxed{\\text{True}}", "TorF1") == "\\text{True"  # [^}]* stops early
    assert reasonmap_plus.is_right(2, "C", "Counting1") and not reasonmap_plus.is_right(3, "three", "Counting2")
    frame = pl.DataFrame({"answer": ["1"], "prediction": ["yes"], "type": ["TorF1"], "difficulty_city": ["medium"]})
    res = reasonmap_plus.grade(frame)
    assert res.report.height == 0 and "KeyError" in res.stats["reference_error"]
    frame = pl.DataFrame({"answer": ["1", "2"], "prediction": ["yes", "2"], "type": ["TorF1", None], "difficulty_city": ["easy", "easy"]})
    assert "AttributeError" in reasonmap_plus.grade(frame).stats["reference_error"]


def test_registry_and_executor(tmp_path):
    b = benchmarks.for_dataset("ReasonMap-Plus")
    assert b is not None and b.name == "reasonmap_plus" and b.grading == "rules"
    tree = tmp_path / "SynthModel"
    tree.mkdir()
    for f in DATA.iterdir():
        shutil.copy(f, tree / f.name)
    (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"]
    assert record.status == "ok" and record.archive_report.endswith("_metrics.tsv"), (record.status, record.error)
