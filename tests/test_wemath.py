"""WeMath / WeMath_COT (``wemath``): the mcq_vanilla_eval rows (replayed from the archive's
recorded judge) or the exact-matching 'Answer' rule, then the four-dimensional report, compared
cell by cell with what VLMEvalKit's own ``WeMath.evaluate`` wrote.
Data: tests/data/vlmevalkit_wemath/README.md."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import wemath
from gaia_fast.scorers.vlm.recorded import Records, find_records

DATA = Path(__file__).parent / "data" / "vlmevalkit_wemath"
CASES = [
    ("m_WeMath", "m_WeMath_gpt4o-mini_score.csv", 5),
    ("m_WeMath_COT", "m_WeMath_COT_gpt4o-mini_score.csv", 3),
    ("e_WeMath", "e_WeMath_exact_matching_score.csv", 0),
    ("g_WeMath", "g_WeMath_exact_matching_score.csv", 0),
]


def _csv(path: Path) -> tuple[list[str], list[str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        header, *rows = list(csv.reader(fh))
    assert len(rows) == 1
    return header, rows[0]


@pytest.mark.parametrize(("stem", "report", "judged"), CASES)
def test_report_matches_vlmevalkit(stem, report, judged):
    path = DATA / f"{stem}.xlsx"
    # e8e78f05's can_infer is the 2026-06 matcher; these predictions read the same under classic.
    res = wemath.grade(
        read_result_table(path),
        recorded=find_records(path, "wemath"),
        variant="2026-06",
    )
    header, cells = _csv(DATA / report)
    assert res.report.columns == header
    assert [res.report[c][0] for c in header] == cells  # every cell, as text
    classic = wemath.grade(
        read_result_table(path), recorded=find_records(path, "wemath")
    )
    assert classic.report.equals(res.report)
    assert res.stats["reference_error"] is None
    assert (
        res.stats["decided"]["recorded"] == judged
        and res.stats["decided"]["undecided"] == 0
    )
    assert res.stats["path"] == ("judge" if judged else "exact_matching")
    if judged:
        assert (
            res.stats["matches_archive"] is True
            and res.stats["record_disagreements"] == 0
        )


def test_rows_without_records_need_a_judge():
    path = DATA / "m_WeMath.xlsx"
    res = wemath.grade(read_result_table(path), recorded=Records.empty(path, "mcq"))
    assert res.stats["decided"] == {
        "rules": 33,
        "recorded": 0,
        "live": 0,
        "undecided": 5,
    }
    assert res.rows["status"].to_list().count("needs_judge") == 5
    # judge_policy="none": VLMEvalKit's exact_matching path reads the result file itself.
    none = wemath.grade(
        read_result_table(path),
        recorded=find_records(path, "wemath"),
        judge_policy="none",
    )
    assert none.stats["path"] == "exact_matching"
    with pytest.raises(ValueError, match="live judge"):
        wemath.grade(read_result_table(path), judge=lambda p: "A")


def test_answer_rule_and_reference_errors():
    assert wemath.answer_rule("<Thought process>: <<x>> <Answer>: <<B>>") == "B"
    assert (
        wemath.answer_rule("Answer: the Answer is C.") is None
    )  # after the last 'Answer': ' is C'
    assert wemath.answer_rule("... Answer:. :D") == "D"
    assert (
        wemath.answer_rule("Answer: Z") is None
        and wemath.answer_rule("no marker") is None
    )
    frame = read_result_table(DATA / "e_WeMath.xlsx")
    import polars as pl

    gap = frame.with_columns(
        pl.when(pl.col("index") == "3")
        .then(None)
        .otherwise(pl.col("prediction"))
        .alias("prediction")
    )
    res = wemath.grade(gap)
    assert res.report.height == 0 and "TypeError" in res.stats["reference_error"]
    # Every problem wrong on its multi row: no mastery, no rote memorisation -> upstream divides by zero.
    wrong = frame.with_columns(
        pl.when(pl.col("key").str.ends_with("multi"))
        .then(pl.lit("Answer: Z"))
        .otherwise(pl.col("prediction"))
        .alias("prediction")
    )
    res = wemath.grade(wrong)
    assert (
        res.report.height == 0 and "ZeroDivisionError" in res.stats["reference_error"]
    )
    assert (
        wemath.grade(read_result_table(DATA / "g_WeMath.xlsx"))
        .rows["status"]
        .to_list()
        .count("not_counted")
        == 1
    )


def test_registry_and_grade_many(tmp_path):
    b = benchmarks.for_dataset("WeMath")
    assert (
        b is benchmarks.for_dataset("WeMath_COT")
        and b.name == "wemath"
        and b.grading == "rules+judge-fallback"
    )
    assert (
        b.variant_on("2025-01-18") == "classic"
        and b.variant_on("2025-08-04") == "2025-08"
        and b.variant_on("2026-08-18") == "2026-06"
    )
    with pytest.raises(ValueError):
        b.variant_on("2025-01-17")
    from gaia_fast.grading import many

    tree = tmp_path / "m"
    shutil.copytree(DATA, tree, ignore=shutil.ignore_patterns("tools", "README.md"))
    records = {
        Path(r.path).name: r
        for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R")
        if r.status != "skipped"
    }
    assert set(records) == {f"{s}.xlsx" for s, _, _ in CASES}
    for stem, report, _ in CASES:
        r = records[f"{stem}.xlsx"]
        assert r.status == "ok", (stem, r.error)
        assert (
            Path(r.archive_report).name == report
        )  # compared with the archive's own report


def test_storage_alone_is_the_record_and_no_report_is_unverified(tmp_path):
    # Without the _result.pkl, the storage {stem}_{J}.xlsx (rows + hit + log) is the record.
    for name in ("m_WeMath.xlsx", "m_WeMath_gpt4o-mini.xlsx", "m_WeMath_COT.xlsx"):
        shutil.copy(DATA / name, tmp_path / name)
    found = find_records(tmp_path / "m_WeMath.xlsx", "wemath")
    assert found.judge == "gpt4o-mini" and [p.name for p in found.files] == [
        "m_WeMath_gpt4o-mini.xlsx"
    ]
    res = wemath.grade(read_result_table(tmp_path / "m_WeMath.xlsx"), recorded=found)
    header, cells = _csv(DATA / "m_WeMath_gpt4o-mini_score.csv")
    assert [res.report[c][0] for c in header] == cells and res.stats["decided"][
        "recorded"
    ] == 5
    # m_WeMath_COT.xlsx is a result file, not m_WeMath's record.
    assert find_records(tmp_path / "m_WeMath_COT.xlsx", "wemath") is None
    # WeMath_COT's storage beside its result file sorts before m_WeMath_gpt4o-mini.xlsx
    # ('C' < 'g') and has 'hit': it is WeMath_COT's record, never m_WeMath's.
    shutil.copy(DATA / "m_WeMath_COT_gpt4o-mini.xlsx", tmp_path / "m_WeMath_COT_gpt4o-mini.xlsx")
    again = find_records(tmp_path / "m_WeMath.xlsx", "wemath")
    assert [p.name for p in again.files] == ["m_WeMath_gpt4o-mini.xlsx"] and again.entries == found.entries
    from gaia_fast.grading import many

    plain = tmp_path / "plain" / "e"
    plain.mkdir(parents=True)
    shutil.copy(DATA / "e_WeMath.xlsx", plain / "e_WeMath.xlsx")
    (rec,) = [
        r
        for r in many.grade_many(many.expand([str(plain)]), report_dir=tmp_path / "R")
        if r.status != "skipped"
    ]
    assert (
        rec.status == "unverified"
    )  # no judge records, no report: exact matching assumed
