"""VLMs are Blind (``vlmblind``): per-task rules on the cells as pandas reads them, the report
compared cell by cell with what VLMEvalKit's own ``VLMBlind.evaluate`` returned / wrote at four
commits, from .xlsx and .tsv. Data: tests/data/vlmevalkit_step1/README.md."""

from __future__ import annotations

import csv
import json
import math
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading import many
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import vlmblind

DATA = Path(__file__).parent / "data" / "vlmevalkit_step1"
STEM = "SynthModel_VLMBlind"


def _returned(sub: str) -> dict:
    return json.loads((DATA / sub / f"{STEM}_returned.json").read_text())


@pytest.mark.parametrize(
    ("sub", "suffix", "variant"),
    [
        ("vlmblind_2025-05", "xlsx", "2025-05"),
        ("vlmblind_2025-05b", "xlsx", "2025-05b"),
        ("vlmblind_2025-09", "xlsx", "2025-09"),
        ("vlmblind_head", "xlsx", "2025-11"),
        ("vlmblind_head_tsv", "tsv", "2025-11"),
        ("vlmblind_numeric", "xlsx", "2025-11"),
        ("vlmblind_numeric_tsv", "tsv", "2025-11"),
    ],
)
def test_report_matches_vlmevalkit(sub, suffix, variant):
    res = vlmblind.grade(read_result_table(DATA / sub / f"{STEM}.{suffix}"), variant=variant)
    expected = _returned(sub)
    assert res.report.columns == list(expected)  # same columns, same order
    assert [[v] for v in res.report.row(0)] == list(expected.values())
    assert res.stats["reference_error"] is None
    written = DATA / sub / f"{STEM}_acc.csv"
    if written.exists():  # from 9cc14cd0 on the report is also a file
        with written.open() as f:
            (header, values) = list(csv.reader(f))
        assert header == res.report.columns and [float(v) for v in values] == list(res.report.row(0))


def test_number_answers_are_not_text():
    # the same predictions with answers '2' (text, beside text answers) and 2 (an int64 column)
    text = vlmblind.grade(read_result_table(DATA / "vlmblind_head" / f"{STEM}.xlsx"))
    assert text.report["Subway Connections"][0] == pytest.approx(1 / 3)
    num = vlmblind.grade(read_result_table(DATA / "vlmblind_numeric" / f"{STEM}.xlsx"))
    assert num.report["Subway Connections"][0] == 0.0 and num.rows["reason"][0] == "wrong (braces): answers 2"


def test_in_on_a_number_is_an_upstream_crash():
    res = vlmblind.grade(read_result_table(DATA / "vlmblind_crash" / f"{STEM}.xlsx"))
    assert _returned("vlmblind_crash")["__error__"] == "TypeError"
    assert res.report.height == 0 and "TypeError upstream" in res.stats["reference_error"]
    assert res.rows["status"].to_list() == ["ok"] * 4 + ["error"]
    assert res.stats["tasks"] == 0 and res.stats["accuracy"] is None


def test_rules_and_bad_rows():
    assert vlmblind.extract_content_in_braces("a {1 } b {2}") == "1 "
    assert vlmblind.compare_string_with_values("rows {3} then columns {4}", " 3 , 4")
    assert not vlmblind.compare_string_with_values("(3, 4)", 34) and not vlmblind.compare_string_with_values("(3, 4)", "3,4,5")
    assert vlmblind.rule_of("Touchdown Reading", "2025-09") == "grid" and vlmblind.rule_of("Touchdown Reading", "2025-11") is None
    frame = pl.DataFrame({"task": ["Touching Circles", None], "answers": ["yes", "no"], "prediction": ["Yes", "no"]})
    res = vlmblind.grade(frame)
    assert "no task" in res.stats["reference_error"] and res.rows["status"].to_list() == ["ok", "error"]
    # a missing prediction in a brace task: re.search on NaN raises upstream
    res = vlmblind.grade(pl.DataFrame({"task": ["Nested Squares"], "answers": ["1"], "prediction": [None]}))
    assert "TypeError" in res.stats["reference_error"]
    # tasks of mixed types: sorted() raises from 9cc14cd0 on, not before
    mixed = pl.DataFrame({"task": ["3", "x"], "answers": ["1", "2"], "prediction": ["a", "b"]})
    assert vlmblind.grade(mixed).report.columns == ["3", "x"]  # text tasks: '3' stays text
    assert math.isclose(vlmblind.grade(mixed, variant="2025-05b").report["overall"][0], 0.0)
    with pytest.raises(ValueError, match="no 'answers' column"):
        vlmblind.grade(pl.DataFrame({"task": ["a"], "prediction": ["b"]}))


def test_registry_and_executor(tmp_path):
    b = benchmarks.for_dataset("VLMBlind")
    assert b is not None and b.name == "vlmblind" and b.grading == "rules"
    assert [b.variant_on(d) for d in ("2025-05-27", "2025-06-01", "2025-10-01", "2026-08-18")] == [
        "2025-05", "2025-05b", "2025-09", "2025-11"
    ]
    tree = tmp_path / "SynthModel"
    tree.mkdir()
    for f in ("SynthModel_VLMBlind.xlsx", "SynthModel_VLMBlind_acc.csv"):
        shutil.copy(DATA / "vlmblind_head" / f, tree / f)
    (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"]
    assert record.status == "ok" and record.archive_report is not None, record.error
    # the crash file: an error record, no report
    shutil.copy(DATA / "vlmblind_crash" / f"{STEM}.xlsx", tree / f"{STEM}.xlsx")
    (tree / f"{STEM}_acc.csv").unlink()
    (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R2") if r.status != "skipped"]
    # (the executor keeps the record's status and puts the upstream crash in its error note)
    assert "TypeError upstream (no report)" in record.error and record.tasks == 0 and record.accuracy is None
