"""XLRS-Bench-lite (``xlrs``): the judge's letters replayed from the archive's
``{stem}_{str(judge)}_result.pkl``, the regex without a judge; the report compared cell by cell
with what VLMEvalKit's own ``XLRSBench.evaluate`` wrote at three commits.
Data: tests/data/vlmevalkit_step1/README.md."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading import many
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import xlrs
from gaia_fast.scorers.vlm.recorded import find_records

DATA = Path(__file__).parent / "data" / "vlmevalkit_step1"
STEM = "SynthModel_XLRS-Bench-lite"


def _acc(sub: str) -> tuple[list[str], list[float]]:
    with (DATA / sub / f"{STEM}_acc.csv").open() as f:
        header, values = list(csv.reader(f))
    return header, [float(v) for v in values]


def _check(res, sub: str) -> None:
    header, values = _acc(sub)
    assert res.report.columns == header
    assert list(res.report.row(0)) == values  # exact, Overall macro included (NumPy's pairwise sum)
    returned = json.loads((DATA / sub / f"{STEM}_returned.json").read_text())
    assert list(returned) == header and [v[0] for v in returned.values()] == values


def test_judge_cache_replayed():
    path = DATA / "xlrs_head_judge" / f"{STEM}.xlsx"
    records = find_records(path)
    assert records is not None and records.kind == "xlrs" and records.judge.startswith("<__main__.XLRSJudge object at 0x")
    res = xlrs.grade(read_result_table(path), recorded=records)
    _check(res, "xlrs_head_judge")
    assert res.stats["decided"] == {"rules": 0, "recorded": 22, "live": 0, "undecided": 0}
    assert res.stats["matches_archive"] and res.stats["archive_method"].startswith("judge <__main__.XLRSJudge")
    # the judge's letters are kept as it replied: 'TheanswerisB' is wrong, 'c' is not 'C'
    assert res.rows["letters"][6] == "TheanswerisB" and res.rows["score"][6] == 0.0
    assert res.rows["letters"][2] == "c" and res.rows["score"][2] == 0.0


def test_no_judge_cache_and_rules():
    path = DATA / "xlrs_head_exact" / f"{STEM}.xlsx"
    records = find_records(path)
    assert records is not None and records.judge == xlrs.NO_JUDGE
    frame = read_result_table(path)
    res = xlrs.grade(frame, recorded=records)
    _check(res, "xlrs_head_exact")
    assert res.stats["archive_method"] == "exact_matching (regex)" and res.stats["decided"]["recorded"] == 22
    # the regex alone gives the same report (the cache holds the regex's letters)
    _check(xlrs.grade(frame, judge_policy="none"), "xlrs_head_exact")
    # no cache at all: every row needs the judge run.py sets by default
    res = xlrs.grade(frame)
    assert res.report.height == 0 and res.stats["decided"]["undecided"] == 22 and set(res.rows["status"]) == {"needs_judge"}


@pytest.mark.parametrize("variant", ["2025-06b", "2026-03"])
def test_regex_era(variant):
    _check(xlrs.grade(read_result_table(DATA / "xlrs_2025-06b" / f"{STEM}.xlsx"), variant=variant, judge_policy="none"), "xlrs_2025-06b")


def test_raw_prediction_crash_of_2025_06():
    res = xlrs.grade(read_result_table(DATA / "xlrs_2025-06" / f"{STEM}.xlsx"), variant="2025-06")
    assert json.loads((DATA / "xlrs_2025-06" / f"{STEM}_returned.json").read_text())["__error__"] == "AttributeError"
    assert res.report.height == 0 and "AttributeError upstream" in res.stats["reference_error"]
    assert res.rows["status"].to_list()[:8] == ["ok"] * 7 + ["error"]


def test_regex_and_bad_answers():
    assert xlrs.extract_characters_regex("The answer is B.") == "B"
    assert xlrs.extract_characters_regex("(d)") == ""  # no capital A-E
    assert xlrs.extract_characters_regex("A and B") == "ABD"  # the optional groups match every a-e: the a, d of "and"
    assert xlrs.extract_characters_regex("It is D, not E") == "DE"
    frame = pl.DataFrame({"category": ["a", "a"], "l2-category": ["b", "b"], "answer": ["1", "2"], "prediction": ["A", "B"]})
    res = xlrs.grade(frame, judge_policy="none")  # answers read as numbers: set(1) raises upstream
    assert res.report.height == 0 and "TypeError upstream" in res.stats["reference_error"]
    with pytest.raises(ValueError, match="live judging"):
        xlrs.grade(frame, judge=object())


def test_registry_and_executor(tmp_path):
    b = benchmarks.for_dataset("XLRS-Bench-lite")
    assert b is not None and b.name == "xlrs" and b.grading == "judge"
    assert [b.variant_on(d) for d in ("2025-06-21", "2025-07-01", "2026-04-09")] == ["2025-06", "2025-06b", "2026-03"]
    for sub in ("xlrs_head_judge", "xlrs_head_exact"):
        tree = tmp_path / sub / "SynthModel"
        tree.mkdir(parents=True)
        for f in (DATA / sub).iterdir():
            if not f.name.endswith("_returned.json"):
                shutil.copy(f, tree / f.name)
        (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / sub / "R") if r.status != "skipped"]
        assert record.status == "ok" and record.archive_report is not None and record.decided_recorded == 22, (sub, record.error)
    # without its cache the judged archive needs a judge
    (next((tmp_path / "xlrs_head_judge" / "SynthModel").glob("*_result.pkl"))).unlink()
    (record,) = [r for r in many.grade_many(many.expand([str(tmp_path / "xlrs_head_judge" / "SynthModel")]), report_dir=tmp_path / "R3") if r.status != "skipped"]
    assert record.status == "needs_judge" and record.undecided == 22
