"""GSM8K-V (``gsm8k_v``): the regex cascade and the 1e-3 tolerance; the ``_score.csv``
compared cell by cell and the extracted numbers row by row with what VLMEvalKit's own
``evaluate_gsm8k_v`` wrote (``_detailed.xlsx``). Data: tests/data/vlmevalkit_tail_rules/README.md."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading.reporters import read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import gsm8k_v

DATA = Path(__file__).parent / "data" / "vlmevalkit_tail_rules" / "gsm8k_v"
STEM = "SynthModel_GSM8K-V"


def test_report_and_rows_match_vlmevalkit():
    res = gsm8k_v.grade(read_result_table(DATA / f"{STEM}.xlsx"))
    expected = read_report(DATA / f"{STEM}_score.csv")
    assert (
        res.report.columns == expected.columns
        and res.report.height == expected.height == 8
    )
    assert report_differences(res.report, expected) == []
    detailed = pl.read_excel(DATA / f"{STEM}_detailed.xlsx")
    assert res.rows["extracted"].to_list() == detailed["extracted_answer"].to_list()
    assert res.rows["score"].to_list() == [
        float(x) for x in detailed["is_correct"].to_list()
    ]


def test_rules():
    assert (
        gsm8k_v.extract_numerical_answer("#### 1,250") == 1.0
    )  # '####\s*N' matches '1' before the comma pattern
    assert gsm8k_v.extract_numerical_answer(r"\boxed{3/4}") == 0.75
    assert gsm8k_v.extract_numerical_answer("We get 40.\n\nSo in the end 42") == 42.0
    assert (
        gsm8k_v.extract_numerical_answer(None) is None
        and gsm8k_v.extract_numerical_answer("none") is None
    )
    assert gsm8k_v.is_correct(12.0004, 12.0) and not gsm8k_v.is_correct(12.01, 12.0)
    frame = read_result_table(DATA / f"{STEM}.xlsx")
    res = gsm8k_v.grade(frame, mode="text_only")
    assert set(res.report["Mode"].to_list()) == {"text_only"}
    with pytest.raises(ValueError, match="not reproduced"):
        gsm8k_v.grade(frame, mode="all")


def test_registry_and_grade_many(tmp_path):
    assert benchmarks.for_dataset("GSM8K-V").name == "gsm8k_v"
    from gaia_fast.grading import many

    tree = tmp_path / "SynthModel"
    tree.mkdir()
    shutil.copy(DATA / f"{STEM}.xlsx", tree / f"{STEM}.xlsx")
    (record,) = [
        r
        for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R")
        if r.status != "skipped"
    ]
    assert record.status == "ok" and record.accuracy == pytest.approx(7 / 12)
    written = read_report(tmp_path / "R" / "SynthModel" / f"{STEM}_score.csv")
    assert report_differences(written, read_report(DATA / f"{STEM}_score.csv")) == []
