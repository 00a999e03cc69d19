"""SIUO_MCQ and M3oralBench (``option_letter``): ``_extract_option`` and the percentages,
compared cell by cell with the ``_score.csv`` VLMEvalKit's own ``evaluate`` wrote.
Data: tests/data/vlmevalkit_step1/README.md."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading import many
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import option_letter

DATA = Path(__file__).parent / "data" / "vlmevalkit_step1"
CASES = [("siuo_mcq", "SynthModel_SIUO_MCQ", "siuo_mcq"), ("m3oralbench", "SynthModel_M3oralBench", "m3oralbench")]


@pytest.mark.parametrize(("sub", "stem", "bench"), CASES)
def test_report_matches_vlmevalkit(sub, stem, bench):
    res = option_letter.grade(read_result_table(DATA / sub / f"{stem}.xlsx"), benchmark=bench)
    with (DATA / sub / f"{stem}_score.csv").open() as f:
        header, values = list(csv.reader(f))
    assert res.report.columns == header and list(res.report.row(0)) == [float(v) for v in values]
    # the letters upstream's _detailed.xlsx held (pred_option)
    assert res.rows["extracted"].to_list() == ["A", "B", "C", "D", "E", "G", "", "", "H", "G", "A"]


def test_extract_option_and_groups():
    assert option_letter.extract_option(float("nan")) == "" and option_letter.extract_option(0) == ""
    assert option_letter.extract_option("\\boxed{ B } (C)") == "B" and option_letter.extract_option("a b") == "B"
    frame = pl.DataFrame({"answer": ["A", "B"], "prediction": ["A", "C"], "category": ["x", None]})
    res = option_letter.grade(frame, benchmark="siuo_mcq")
    assert res.report.height == 0 and "NaN" in res.stats["reference_error"]
    frame = pl.DataFrame({"answer": ["A", "B"], "prediction": ["A", "C"], "category": ["2", "1"]})
    assert option_letter.grade(frame, benchmark="siuo_mcq").report.columns == ["Overall", "1", "2"]  # read as numbers


def test_registry_and_executor(tmp_path):
    for sub, stem, bench in CASES:
        b = benchmarks.for_dataset(stem.removeprefix("SynthModel_"))
        assert b is not None and b.name == bench and b.grading == "rules"
        tree = tmp_path / sub / "SynthModel"
        tree.mkdir(parents=True)
        for f in (DATA / sub).iterdir():
            shutil.copy(f, tree / f.name)
        (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / sub / "R") if r.status != "skipped"]
        assert record.status == "ok" and record.archive_report is not None, (sub, record.status, record.error)
