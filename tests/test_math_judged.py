"""Judge-extracted math (MathVista_MINI): VLMEvalKit's prefetch rule first, the archive's
recorded judge extraction for the rest, then ``MathVista_acc``; compared cell by cell with
the reports VLMEvalKit's own code wrote. Data: tests/data/vlmevalkit_math_judged/README.md."""

from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from gaia_fast import benchmarks
from gaia_fast.cli import main
from gaia_fast.grading.reporters import read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import math_judged
from gaia_fast.scorers.vlm.recorded import find_records

DATA = Path(__file__).parent / "data" / "vlmevalkit_math_judged"
ERAS = {"head": ("gpt-4o-mini", "2026-06"), "v2024_02": ("gpt-4-turbo", "2024-01")}


def _assert_same_report(ours: pl.DataFrame, path: Path) -> None:
    """Every cell equal to VLMEvalKit's csv (labels as text, counts exactly, rates as floats)."""
    theirs = pl.read_csv(path, infer_schema_length=0)
    assert ours.columns == theirs.columns == ["Task&Skill", "tot", "prefetch", "hit", "prefetch_rate", "acc"]
    assert ours.height == theirs.height
    for a, b in zip(ours.iter_rows(), theirs.iter_rows()):
        assert a[0] == b[0]
        assert list(a[1:4]) == [int(x) for x in b[1:4]]
        assert list(a[4:]) == [float(x) for x in b[4:]]


def _grade(era: str, variant: str | None = None, **kw):
    path = DATA / era / "m_MathVista_MINI.xlsx"
    rec = find_records(path)
    return math_judged.grade(read_result_table(path), recorded=rec, variant=variant or ERAS[era][1], **kw)


@pytest.mark.parametrize("era", sorted(ERAS))
def test_archive_report_is_reproduced_cell_by_cell(era):
    judge, variant = ERAS[era]
    path = DATA / era / "m_MathVista_MINI.xlsx"
    rec = find_records(path)
    assert (rec.kind, rec.judge, len(rec)) == ("math_judged", judge, 20)
    assert [p.suffix for p in rec.files] == [".xlsx", ".pkl"]
    res = math_judged.grade(read_result_table(path), recorded=rec, variant=variant)
    _assert_same_report(res.report, path.with_name(f"m_MathVista_MINI_{judge}_score.csv"))
    assert res.stats["decided"] == {"rules": 6, "recorded": 14, "live": 0, "undecided": 0}
    assert res.stats["matches_archive"] is True and res.stats["prefetch_disagreements"] == 0
    assert res.stats["archive_method"] == f"rules + judge {judge}"
    assert set(res.rows["status"]) == {"ok"} and res.rows.height == 20
    # Every row's verdict as VLMEvalKit's own post_check gave it (expected_hits.json).
    expected = json.loads((DATA / "expected_hits.json").read_text())[era]
    assert dict(zip(res.rows["index"].to_list(), res.rows["score"].to_list())) == {k: float(v) for k, v in expected.items()}


def test_the_2024_rule_does_not_count_a_right_zero():
    # Rows 10 (integer 0) and 18 (float 0.0): right under c26761b8's post_check, not before.
    old, new = _grade("v2024_02", "2024-01"), _grade("v2024_02", "classic")
    diff = old.rows.join(new.rows, on="index").filter(pl.col("score") != pl.col("score_right"))
    assert sorted(diff["index"].to_list()) == ["10", "18"]
    assert new.report.row(0) == ("Overall", 20, 6, 10, 30.0, 50.0)
    assert old.report.row(0) == ("Overall", 20, 6, 8, 30.0, 40.0)


def test_post_check_rules():
    mc = {"question_type": "multi_choice", "answer_type": "text", "choices": "['3/11', '8/11']", "answer": "8/11", "answer_option": "B"}
    assert math_judged.post_check(mc, "(B) 8/11", prefetch=True) == "B"
    assert math_judged.post_check(mc, "Cannot determine the answer", prefetch=True) == "Z"
    assert math_judged.post_check(mc, "no idea", prefetch=True) is False
    assert math_judged.post_check(mc, "B", prefetch=False) is True
    i = {"question_type": "free_form", "answer_type": "integer", "answer": "0"}
    assert math_judged.post_check(i, "0", prefetch=True) == 0  # falsy: not a prefetch upstream
    assert math_judged.post_check(i, " 0\n", prefetch=False) is True  # int() strips
    assert math_judged.post_check(i, "0.0", prefetch=False) is False  # int("0.0") raises
    assert math_judged.post_check(i, "0", prefetch=False, variant="2024-01") == 0
    lst = {"question_type": "free_form", "answer_type": "list", "answer": "[1, 2]"}
    assert math_judged.post_check(lst, "[1, 2]", prefetch=False) is False  # str(None) vs the answer


def test_judge_none_grades_only_the_rule_rows():
    res = _grade("head", judge_policy="none")
    assert res.stats["decided"] == {"rules": 6, "recorded": 0, "live": 0, "undecided": 14}
    assert res.stats["matches_archive"] is False
    assert res.rows.filter(pl.col("status") == "needs_judge").height == 14
    assert res.report.row(0)[:4] == ("Overall", 6, 6, 4)


def test_rows_without_a_record_need_a_judge_and_a_contradicting_log_is_counted(tmp_path):
    src = DATA / "head"
    shutil.copy(src / "m_MathVista_MINI.xlsx", tmp_path)
    table = pl.read_excel(src / "m_MathVista_MINI_gpt-4o-mini.xlsx", infer_schema_length=0)
    table = table.filter(pl.col("index") != "9").with_columns(
        pl.when(pl.col("index") == "3").then(pl.lit("Prefetch succeed")).otherwise(pl.col("log")).alias("log")
    )
    table.write_excel(tmp_path / "m_MathVista_MINI_gpt-4o-mini.xlsx")
    path = tmp_path / "m_MathVista_MINI.xlsx"
    res = math_judged.grade(read_result_table(path), recorded=find_records(path), variant="2026-06")
    assert res.stats["decided"] == {"rules": 6, "recorded": 13, "live": 0, "undecided": 1}
    assert res.rows.filter(pl.col("index") == "9")["status"].to_list() == ["needs_judge"]
    assert res.stats["prefetch_disagreements"] == 1 and res.stats["matches_archive"] is False
    assert res.report.row(0)[1] == 19


def test_bad_input_is_named():
    frame = read_result_table(DATA / "head" / "m_MathVista_MINI.xlsx")
    with pytest.raises(ValueError, match="no 'skills' column"):
        math_judged.grade(frame.drop("skills"))
    with pytest.raises(ValueError, match="live judging is not supported"):
        math_judged.grade(frame, judge=lambda p: "B")
    with pytest.raises(ValueError, match="unknown MathVista variant"):
        math_judged.grade(frame, variant="2099")
    crash = math_judged.grade(frame.with_columns(pl.when(pl.col("index") == "1").then(pl.lit("not a list")).otherwise(pl.col("choices")).alias("choices")))
    assert crash.rows.filter(pl.col("index") == "1")["status"].to_list() == ["error"]
    assert "row 2" in crash.stats["reference_error"]


def test_registry_and_dates():
    found = benchmarks.detect(Path("m/m_MathVista_MINI.xlsx"))
    assert found is not None and found.benchmark.module == "gaia_fast.scorers.vlm.math_judged"
    entry = found.benchmark
    assert entry.grading == "rules+judge-fallback"
    assert [entry.variant_on(d) for d in ("2024-03-01", "2024-07-27", "2025-09-01", "2026-08-18")] == ["2024-01", "classic", "2025-08", "2026-06"]


def test_cli_finds_the_records_and_checks_the_archive_report(tmp_path, monkeypatch):
    model = tmp_path / "m"
    shutil.copytree(DATA / "head", model)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["grade", "m", "--as-of", "2026-08-18", "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    (rec,) = json.loads(r.output)["archives"]
    assert rec["status"] == "ok" and rec["archive_report"].endswith("m_MathVista_MINI_gpt-4o-mini_score.csv")
    assert (rec["decided_rules"], rec["decided_recorded"], rec["headline"], rec["archive_headline"]) == (6, 14, 50, 50)
    # The 2024 archive graded with head's rule: its report differs (the two zero rows).
    other = tmp_path / "o"
    shutil.copytree(DATA / "v2024_02", other)
    r = CliRunner().invoke(main, ["grade", "o", "--as-of", "2026-08-18", "--json"], catch_exceptions=False)
    (rec,) = json.loads(r.output)["archives"]
    assert rec["status"] == "differs" and rec["archive_headline"] == 40


# --------------------------------------------------------------------------------------
# MathVerse: recorded extraction, post_check_score, recorded score, MathVerse_acc
# --------------------------------------------------------------------------------------

MV = DATA / "mathverse"


def test_mathverse_archive_report_is_reproduced_cell_by_cell():
    path = MV / "m_MathVerse_MINI.xlsx"
    rec = find_records(path)
    assert rec.judge == "gpt-4o-mini" and [p.name for p in rec.files] == [
        "m_MathVerse_MINI_gpt-4o-mini_extract.xlsx", "m_MathVerse_MINI_gpt-4o-mini_extract.pkl",
        "m_MathVerse_MINI_gpt-4o-mini_score.xlsx", "m_MathVerse_MINI_gpt-4o-mini_score.pkl",
    ]  # fmt: skip
    res = math_judged.grade(read_result_table(path), benchmark="mathverse", recorded=rec)
    theirs = read_report(MV / "m_MathVerse_MINI_gpt-4o-mini_score.csv")
    # Upstream lists versions, subjects and subfields in set order; ours are sorted.
    assert sorted(res.report.columns) == sorted(theirs.columns) and res.report.columns[:2] == ["split", "Overall"]
    assert report_differences(res.report, theirs) == []
    mine = res.report.sort("split")
    for col in theirs.columns[1:]:
        a, b = mine[col].to_list(), theirs.sort("split")[col].to_list()
        assert all((math.isnan(x) and math.isnan(y)) or x == y for x, y in zip(a, b)), col
    assert res.stats["decided"] == {"rules": 3, "recorded": 5, "live": 0, "undecided": 0}
    # Each row's score is the one VLMEvalKit wrote in the _score stage.
    stored = pl.read_excel(MV / "m_MathVerse_MINI_gpt-4o-mini_score.xlsx", infer_schema_length=0)
    assert [s == 1.0 for s in res.rows["score"].to_list()] == [v.lower() == "true" for v in stored["score"].to_list()]


def test_mathverse_without_an_extraction_needs_a_judge(tmp_path):
    for f in MV.iterdir():
        if "_extract" not in f.name:
            shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "m_MathVerse_MINI.xlsx"
    res = math_judged.grade(read_result_table(path), benchmark="mathverse", recorded=find_records(path))
    assert res.stats["decided"]["undecided"] == 8 and res.stats["matches_archive"] is False
    none = math_judged.grade(read_result_table(MV / "m_MathVerse_MINI.xlsx"), benchmark="mathverse", recorded=find_records(MV / "m_MathVerse_MINI.xlsx"), judge_policy="none")
    assert set(none.rows["status"]) == {"needs_judge"}


def test_report_differences_matches_columns_by_name_and_reads_empty_cells_as_nan():
    ours = pl.DataFrame({"split": ["a"], "x": [float("nan")], "y": [50.0]})
    theirs = pl.DataFrame({"split": ["a"], "y": ["50.0"], "x": [""]})
    assert report_differences(ours, theirs) == []
    assert report_differences(ours, theirs.with_columns(pl.lit("40.0").alias("y"))) == ["row 1 y: 50.0 vs 40.0"]
    assert report_differences(ours, theirs.rename({"split": "s"}))[0].startswith("columns differ")


# --------------------------------------------------------------------------------------
# LogicVista: recorded letter extractions, the sorted-letter rule, evaluate_logicvista
# --------------------------------------------------------------------------------------

LV = DATA / "logicvista"


def test_logicvista_archive_report_is_reproduced_cell_by_cell():
    path = LV / "m_LogicVista.xlsx"
    rec = find_records(path)
    assert rec.judge == "gpt4o-mini" and len(rec) == 8
    res = math_judged.grade(read_result_table(path), benchmark="logicvista", recorded=rec)
    theirs = pl.read_csv(LV / "m_LogicVista_gpt4o-mini_score.csv", infer_schema_length=0)
    assert res.report.columns == theirs.columns == ["Task&Skill", "tot", "hit", "acc"]
    for a, b in zip(res.report.iter_rows(), theirs.iter_rows()):
        assert (a[0], a[1], a[2], a[3]) == (b[0], int(b[1]), int(b[2]), float(b[3]))
    assert res.stats["decided"] == {"rules": 0, "recorded": 8, "live": 0, "undecided": 0}
    assert res.stats["record_disagreements"] == 0 and res.stats["matches_archive"] is True
    # The verdicts recomputed from the recorded letters equal the recorded hits.
    stored = pl.read_excel(LV / "m_LogicVista_gpt4o-mini.xlsx", infer_schema_length=0)
    assert res.rows["score"].cast(pl.Int64).cast(pl.String).to_list() == stored["hit"].to_list()


def test_logicvista_letter_rule():
    assert math_judged.logicvista_hit("CA", "A, C") == 1
    assert math_judged.logicvista_hit("C", "A, C") == 0
    assert math_judged.logicvista_hit("C.", "C") == 0  # not letters only: the judge's failure
    assert math_judged.logicvista_hit(None, "C") == 0
    assert math_judged.logicvista_hit("B", "b") == 1


def test_logicvista_contradicting_hit_and_missing_record(tmp_path):
    shutil.copy(LV / "m_LogicVista.xlsx", tmp_path)
    table = pl.read_excel(LV / "m_LogicVista_gpt4o-mini.xlsx", infer_schema_length=0)
    table = table.filter(pl.col("index") != "8").with_columns(
        pl.when(pl.col("index") == "2").then(pl.lit("1")).otherwise(pl.col("hit")).alias("hit")
    )
    table.write_excel(tmp_path / "m_LogicVista_gpt4o-mini.xlsx")
    path = tmp_path / "m_LogicVista.xlsx"
    res = math_judged.grade(read_result_table(path), benchmark="logicvista", recorded=find_records(path))
    assert res.stats["decided"]["undecided"] == 1 and res.stats["record_disagreements"] == 1
    assert res.stats["matches_archive"] is False and res.rows["score"][1] == 0.0


@pytest.mark.parametrize("variant_newer", [True, False])
def test_logicvista_record_is_taken_over_a_custom_variants_predictions_whatever_the_times(tmp_path, variant_newer):
    # m_LogicVista_Rationale.xlsx (a custom variant's predictions) looks like the records of a
    # judge "Rationale" of m_LogicVista.xlsx; it holds no judge column, so the real record
    # m_LogicVista_gpt4o-mini.* is taken, never the newer file. The variant's own judge record
    # (..._Rationale_gpt4o-mini.xlsx, newest of all) belongs to the longer stem.
    for f in LV.iterdir():
        shutil.copy(f, tmp_path)
    shutil.copy(LV / "m_LogicVista.xlsx", tmp_path / "m_LogicVista_Rationale.xlsx")
    shutil.copy(LV / "m_LogicVista_gpt4o-mini.xlsx", tmp_path / "m_LogicVista_Rationale_gpt4o-mini.xlsx")
    record = [tmp_path / "m_LogicVista_gpt4o-mini.xlsx", tmp_path / "m_LogicVista_gpt4o-mini.pkl"]
    old, new = 1_600_000_000, 1_700_000_000
    for f in record:
        os.utime(f, (old, new if not variant_newer else old))
    os.utime(tmp_path / "m_LogicVista_Rationale.xlsx", (old, new + 10 if variant_newer else old))
    os.utime(tmp_path / "m_LogicVista_Rationale_gpt4o-mini.xlsx", (old, new + 20))
    path = tmp_path / "m_LogicVista.xlsx"
    rec = find_records(path)
    assert rec is not None and rec.judge == "gpt4o-mini" and len(rec) == 8
    assert [f.name for f in rec.files] == ["m_LogicVista_gpt4o-mini.xlsx", "m_LogicVista_gpt4o-mini.pkl"]
    # The same notes whichever file is newer: the variant is said not to be a record.
    assert rec.notes == ["m_LogicVista_Rationale.xlsx: not used: it has no 'index' or none of res, log, hit (not a judge record)"]
    res = math_judged.grade(read_result_table(path), benchmark="logicvista", recorded=rec)
    assert res.stats["decided"] == {"rules": 0, "recorded": 8, "live": 0, "undecided": 0}
    assert res.stats["matches_archive"] is True


def test_several_judges_records_the_newest_is_taken(tmp_path):
    for f in LV.iterdir():
        shutil.copy(f, tmp_path)
    for ext in ("xlsx", "pkl"):
        shutil.copy(LV / f"m_LogicVista_gpt4o-mini.{ext}", tmp_path / f"m_LogicVista_gpt-4o.{ext}")
        os.utime(tmp_path / f"m_LogicVista_gpt-4o.{ext}", (1, 1_700_000_000))
        os.utime(tmp_path / f"m_LogicVista_gpt4o-mini.{ext}", (1, 1_600_000_000))
    rec = find_records(tmp_path / "m_LogicVista.xlsx")
    assert rec.judge == "gpt-4o"
    assert rec.notes == ["records of several judges beside the file (gpt4o-mini too); the newest, gpt-4o, is used"]


# --------------------------------------------------------------------------------------
# DynaMath: DynaMath_auxeval's rules, the recorded verdicts for the rest, both settings
# --------------------------------------------------------------------------------------

DY = DATA / "dynamath"


def test_dynamath_archive_report_is_reproduced_cell_by_cell():
    path = DY / "m_DynaMath.xlsx"
    rec = find_records(path)
    assert rec.judge == "gpt-4o-mini" and len(rec) == 10 and rec.notes == []
    res = math_judged.grade(read_result_table(path), benchmark="dynamath", recorded=rec)
    theirs = read_report(DY / "m_DynaMath_gpt-4o-mini_score.csv")
    assert sorted(res.report.columns) == sorted(theirs.columns) and res.report.columns[:2] == ["Setting", "Overall"]
    assert report_differences(res.report, theirs) == []
    for col in theirs.columns[1:]:
        assert res.report[col].to_list() == theirs[col].to_list(), col
    assert res.stats["decided"] == {"rules": 6, "recorded": 4, "live": 0, "undecided": 0}
    assert res.stats["record_disagreements"] == 0 and res.stats["matches_archive"] is True
    stored = pl.read_excel(DY / "m_DynaMath_gpt-4o-mini.xlsx", infer_schema_length=0)
    assert [s == 1.0 for s in res.rows["score"].to_list()] == [v == "true" for v in stored["correct"].to_list()]


def test_dynamath_rules():
    assert math_judged.dynamath_rule('{"short answer": "b"}', "multiple choice", "B") == (True, "B", True)
    assert math_judged.dynamath_rule("2\u03c0 m", "float", 6.283) == (True, 2 * math.pi, True)
    assert math_judged.dynamath_rule("Both A and B", "multiple choice", "A") is None  # the judge's row
    assert math_judged.dynamath_rule('{"short answer": 1.5}', "float", 1.5) is None  # a number, not text: fallback
    assert math_judged.dynamath_rule("Yes it is", "free-form", "yes it is!")[2] is True


def test_dynamath_without_records_grades_the_rule_rows_only():
    res = math_judged.grade(read_result_table(DY / "m_DynaMath.xlsx"), benchmark="dynamath", recorded=None)
    assert res.stats["decided"] == {"rules": 6, "recorded": 0, "live": 0, "undecided": 4}
    assert res.stats["archive_method"] is None and res.stats["matches_archive"] is False
