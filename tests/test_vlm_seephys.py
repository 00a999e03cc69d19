"""SeePhys (eval_acc): the synthetic archive in tests/data/vlmevalkit_mathvision/, whose report
and per-row post_check VLMEvalKit's own seephys.py (e8e78f05) produced."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading.reporters import read_report
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import seephys as sp
from gaia_fast.scorers.vlm.recorded import Records, find_records

DATA = Path(__file__).parent / "data" / "vlmevalkit_mathvision"
RESULT = DATA / "GPT4o" / "GPT4o_SeePhys.xlsx"
EXPECTED = pl.read_csv(DATA / "expected_rows_seephys.csv")


def _grade(**kw):
    rec = find_records(RESULT)
    assert rec is not None and rec.kind == "seephys" and rec.judge == "deepseek" and len(rec) == 13
    return sp.grade(read_result_table(RESULT), recorded=rec, **kw)


def test_registry_maps_both_names():
    assert benchmarks.for_dataset("SeePhys").name == benchmarks.for_dataset("SeePhys_vo").name == "seephys"


def test_report_equals_eval_acc_cell_by_cell():
    got = _grade()
    want = read_report(DATA / "GPT4o" / "GPT4o_SeePhys_deepseek_score.json")
    assert got.report.columns == want.columns == ["key", "value"] and got.report.height == want.height == 19
    for g, w in zip(got.report.iter_rows(), want.iter_rows()):
        assert g[0] == w[0] and math.isclose(g[1], w[1], rel_tol=0, abs_tol=1e-9)
    s = got.stats
    assert s["status"] == {"ok": 13} and s["matches_archive"] is True and s["decided"]["rules"] == 7
    hits = [float(pc or sc == 1) for pc, sc in zip(EXPECTED["post_check"], EXPECTED["score"])]
    assert got.rows["score"].to_list() == hits


def test_rule_alone_without_records():
    got = sp.grade(read_result_table(RESULT), recorded=None)
    rule = EXPECTED["post_check"].to_list()
    assert got.rows["status"].to_list() == ["ok" if r else "needs_judge" for r in rule]
    assert got.rows["score"].to_list() == [1.0 if r else None for r in rule]


def test_sympy_overrun_is_undecided_unless_the_judge_scored_one():
    got = _grade(sympy_timeout=1e-9)  # every SymPy item overruns
    for row, exp in zip(got.rows.iter_rows(named=True), EXPECTED.iter_rows(named=True)):
        text_equal = "equal text" in row["reason"]
        if text_equal or exp["score"] == 1:
            assert row["status"] == "ok" and row["score"] == 1.0, row
        else:
            assert row["status"] == "undecided" and row["score"] is None, row
    assert got.stats["undecided_rows"] == 3 and got.stats["matches_archive"] is False


@pytest.mark.parametrize(
    ("prediction", "want"),
    [("<answer> 42 </answer>", "42"), ("<answer>4.2</answer>", "<answer>4.2</answer>"), ("so the final answer is: 12.0.", "12"),
     ("The answer is: x. y", "x"), ("the final answer is: a\nb.", "the final answer is: a\nb."), (" 7 ", "7"), ("1_000", "1000"),
     ("５", "5"), ("2.50", "2.5"), ("1e3", "1000.0"), ("inf", "inf"), (math.nan, "nan"), (12.7, "12"), (3, "3"), ("x", "x")],
)  # fmt: skip
def test_extract_by_rule(prediction, want):
    assert sp.extract_by_rule(prediction) == want


def test_missing_log_crashes_upstream():
    frame = pl.DataFrame({"index": ["1"], "prediction": ["x"], "answer": ["y"]})
    rec = Records(Path("m_SeePhys.xlsx"), "seephys", "deepseek", (), {"1": {"score": 1, "extract": "y", "log": None}})
    got = sp.grade(frame, recorded=rec)
    assert got.rows["status"].to_list() == ["error"] and "TypeError" in got.stats["reference_error"]


def test_bad_arguments():
    frame = read_result_table(RESULT)
    with pytest.raises(ValueError, match="one rule"):
        sp.grade(frame, variant="2024-01")
    with pytest.raises(ValueError, match="live judging"):
        sp.grade(frame, judge=object())
    with pytest.raises(ValueError, match="'answer'"):
        sp.grade(frame.drop("answer"))


def test_cli_checks_the_archive_report(tmp_path, monkeypatch):
    # The executor finds the records (seephys.RECORD_KIND) and the
    # archive's own _score.json, and the two agree (a mismatch would be status "differs").
    import json
    import shutil

    from click.testing import CliRunner
    from gaia_fast.cli import main

    (tmp_path / "GPT4o").mkdir()
    for f in (DATA / "GPT4o").glob("GPT4o_SeePhys*"):
        shutil.copy(f, tmp_path / "GPT4o" / f.name)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["grade", "GPT4o", "--as-of", "2026-08-18", "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    (rec,) = json.loads(r.output)["archives"]
    assert rec["status"] == "ok" and rec["benchmark"] == "seephys", rec
    assert rec["archive_report"].endswith("GPT4o_SeePhys_deepseek_score.json") and rec["undecided"] == 0
