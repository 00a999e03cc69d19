"""MTVQA's 2024-07 rule (``vqa_rules``, variant ``2024-07``: VLMEvalKit 04cfded1 ``MTVQA_eval``),
its ``_acc.csv`` compared cell by cell with what that commit's own code wrote, and the
archive with no date graded by the era its report name says.
Data: tests/data/vlmevalkit_mtvqa_2024_07/README.md."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import vqa_rules

DATA = Path(__file__).parent / "data" / "vlmevalkit_mtvqa_2024_07"


def test_report_matches_vlmevalkit_04cfded1():
    res = vqa_rules.grade(
        read_result_table(DATA / "m_MTVQA_TEST.xlsx"),
        benchmark="mtvqa",
        variant="2024-07",
    )
    with (DATA / "m_MTVQA_TEST_acc.csv").open(newline="", encoding="utf-8") as fh:
        header, values = list(csv.reader(fh))
    assert res.report.columns == header
    assert [res.report[c][0] for c in header] == [float(v) for v in values]
    assert res.stats.get("reference_error") is None
    # Head's rule on the same file: periods leave the answer too, and the 'dev' split raises.
    head = vqa_rules.grade(
        read_result_table(DATA / "m_MTVQA_TEST.xlsx"), benchmark="mtvqa"
    )
    assert "split" in head.stats["reference_error"] and "Average" in head.report.columns
    ok = read_result_table(DATA / "m_MTVQA_TEST.xlsx").head(13)  # without the dev row
    scores = {
        v: vqa_rules.grade(ok, benchmark="mtvqa", variant=v).rows["score"].to_list()
        for v in (None, "2024-07")
    }
    assert (
        scores[None][2] == 1.0 and scores["2024-07"][2] == 0.0
    )  # "3.5" vs "the price is 35 dollars"


def test_dates_and_no_date_archives(tmp_path):
    b = benchmarks.for_dataset("MTVQA_TEST")
    assert (
        b.variant_on("2024-07-03") == "2024-07" and b.variant_on("2024-07-22") is None
    )
    from gaia_fast.grading import many

    model = tmp_path / "m"
    model.mkdir()
    for name in ("m_MTVQA_TEST.xlsx", "m_MTVQA_TEST_acc.csv"):
        shutil.copy(DATA / name, model / name)
    (r,) = [
        r
        for r in many.grade_many(many.expand([str(model)]), report_dir=tmp_path / "R")
        if r.status != "skipped"
    ]
    # No date: the _acc.csv beside it is the 2024-07 branch's report.
    assert (r.status, r.variant) == ("ok", "2024-07"), r.error
    assert r.archive_report.endswith("m_MTVQA_TEST_acc.csv")
    # With head's own report beside it, the era hint does not apply.
    (model / "m_MTVQA_TEST_acc.json").write_text("{}")
    (rec,) = [
        r
        for r in many.grade_many(
            many.expand([str(model / "m_MTVQA_TEST.xlsx")]), report_dir=tmp_path / "R2"
        )
        if r.status != "skipped"
    ]
    assert rec.variant is None
    with pytest.raises(ValueError):
        b.variant_on("2024-07-02")
