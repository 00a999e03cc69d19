"""VLRMBench (``vlrmbench``): step-label F1, multi-solution pairs, foresight; each
``_score.csv`` compared cell by cell with what VLMEvalKit's own ``VLRMBench.evaluate``
wrote. Data: tests/data/vlmevalkit_tail_rules/README.md."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from gaia_fast import benchmarks
from gaia_fast.grading.reporters import read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import vlrmbench

DATA = Path(__file__).parent / "data" / "vlmevalkit_tail_rules" / "vlrmbench"
STEMS = (
    "SynthModel_VLRMBench",
    "SynthModel_VLRMBench_Foresight",
    "SynthModel_VLRMBench_MultiSolution",
)


@pytest.mark.parametrize("stem", STEMS)
def test_report_matches_vlmevalkit(stem):
    res = vlrmbench.grade(read_result_table(DATA / f"{stem}.xlsx"))
    expected = read_report(DATA / f"{stem}_score.csv")
    assert res.report.columns == expected.columns
    for c in expected.columns:
        assert res.report[c][0] == expected[c][0], c
    assert res.stats["reference_error"] is None


def test_rules():
    assert vlrmbench.step_labels("0 0 7 1 1", 3) == [0, 0, 1] and vlrmbench.step_labels(
        "[0, 1]", 3
    ) == [0, 1, 0]
    assert vlrmbench.ms_scores("Score 1: 9, Score 2: 3") == [
        2,
        3,
    ]  # the last two integers, labels included
    assert vlrmbench.ms_scores("5") == [5, 0]
    f_pos, f_neg, f_w = vlrmbench.f1_scores([1, 0, 0, 1], [1, 0, 1, 1])
    assert (
        f_pos == pytest.approx(0.8)
        and f_neg == pytest.approx(2 / 3)
        and f_w == pytest.approx(0.75 * 2 / 3 + 0.25 * 0.8)
    )
    with pytest.raises(ValueError, match="not binary"):
        vlrmbench.f1_scores([1, 0], [2, 0])
    res = vlrmbench.grade(
        read_result_table(DATA / "SynthModel_VLRMBench_Foresight.xlsx")
    )
    # the xlsx booleans are never `is True` upstream: every row counted, none right
    assert (
        res.report["foresight_accuracy"][0] == 0.0
        and res.report["foresight_count"][0] == 7
    )


def test_registry_and_grade_many(tmp_path):
    assert {
        benchmarks.for_dataset(n).name
        for n in ("VLRMBench", "VLRMBench_MultiSolution", "VLRMBench_Foresight")
    } == {"vlrmbench"}
    from gaia_fast.grading import many

    tree = tmp_path / "SynthModel"
    tree.mkdir()
    shutil.copy(DATA / f"{STEMS[2]}.xlsx", tree / f"{STEMS[2]}.xlsx")
    (record,) = [
        r
        for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R")
        if r.status != "skipped"
    ]
    assert record.status == "ok" and record.accuracy == pytest.approx(1 / 3)
    written = read_report(tmp_path / "R" / "SynthModel" / f"{STEMS[2]}_score.csv")
    assert (
        report_differences(written, read_report(DATA / f"{STEMS[2]}_score.csv")) == []
    )
