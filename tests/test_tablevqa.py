"""TableVQABench (``tablevqa``): TabFact words, WTQ denotations, FinTabNet normalised
numbers; the ``_acc.csv`` compared cell by cell with what VLMEvalKit's own
``TableVQABench.evaluate`` wrote. Data: tests/data/vlmevalkit_tail_rules/README.md."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
from gaia_fast import benchmarks
from gaia_fast.grading.reporters import read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import tablevqa

DATA = Path(__file__).parent / "data" / "vlmevalkit_tail_rules" / "tablevqa"
STEM = "SynthModel_TableVQABench"


def test_report_matches_vlmevalkit():
    res = tablevqa.grade(read_result_table(DATA / f"{STEM}.xlsx"))
    expected = read_report(DATA / f"{STEM}_acc.csv")
    assert res.report.columns == expected.columns == ["split", "average_scores"]
    assert (
        res.report["average_scores"].to_list() == expected["average_scores"].to_list()
    )
    assert report_differences(res.report, expected) == []
    assert res.stats["flags"] == {"ambiguous": 1}


def test_rules():
    assert tablevqa.normalize("\u201cFreeman\u201d [1]") == "freeman"
    assert tablevqa.fintabnet_normalize("$3,852 million") == (3852e6, [3852e6, 3852.0])
    assert tablevqa.fintabnet_normalize("34.2%")[1] == [0.342, 34.2]
    vl = tablevqa.to_value_list
    assert tablevqa.check_denotation(vl(["Apple", "Banana"]), vl(["banana", "apple"]))
    assert (
        tablevqa.check_denotation(vl(["2004"]), vl(["2004.0"]))
        and len(vl(["2", "2"])) == 1
    )
    assert not tablevqa.check_denotation(vl(["3"]), vl(["three"]))
    frame = read_result_table(DATA / f"{STEM}.xlsx")
    res = tablevqa.grade(frame.filter(pl.col("split") != "vwtq_syn"))
    assert res.report.height == 0 and "KeyError" in res.stats["reference_error"]
    nan = frame.with_columns(
        pl.when(pl.col("index").cast(pl.String) == "9")
        .then(pl.lit("inf"))
        .otherwise(pl.col("prediction"))
        .alias("prediction")
    )
    assert (
        "assert" in tablevqa.grade(nan).stats["reference_error"]
    )  # float("inf") fails NumberValue.parse's assert


def test_registry_and_grade_many(tmp_path):
    assert benchmarks.for_dataset("TableVQABench").name == "tablevqa"
    from gaia_fast.grading import many

    tree = tmp_path / "SynthModel"
    tree.mkdir()
    shutil.copy(DATA / f"{STEM}.xlsx", tree / f"{STEM}.xlsx")
    (record,) = [
        r
        for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R")
        if r.status != "skipped"
    ]
    assert record.status == "ok"
    written = read_report(tmp_path / "R" / "SynthModel" / f"{STEM}_acc.csv")
    assert report_differences(written, read_report(DATA / f"{STEM}_acc.csv")) == []
