"""NaturalBench (``naturalbench``): extract_answer per row, get_scores over groups of four, the
report compared cell by cell with what VLMEvalKit's own ``NaturalBenchDataset.evaluate`` wrote.
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
from gaia_fast.scorers.vlm import naturalbench

DATA = Path(__file__).parent / "data" / "vlmevalkit_step1"
STEM = "SynthModel_NaturalBenchDataset"


def _expected(path: Path) -> list[tuple[str, float]]:
    with path.open() as f:
        return [(r["Metric"], float(r["Score"])) for r in csv.DictReader(f)]


@pytest.fixture(scope="module")
def frame() -> pl.DataFrame:
    return read_result_table(DATA / "naturalbench_head" / f"{STEM}.xlsx")


@pytest.mark.parametrize(
    ("variant", "report"),
    [("2024-12", f"naturalbench_head/{STEM}_acc.csv"), ("2024-11", "naturalbench_2024-11/NaturalBench_acc.csv")],
)
def test_report_matches_vlmevalkit(frame, variant, report):
    res = naturalbench.grade(frame, variant=variant)
    expected = _expected(DATA / report)
    assert res.report.columns == ["Metric", "Score"]
    assert res.report["Metric"].to_list() == [m for m, _ in expected]
    assert res.report["Score"].to_list() == [v for _, v in expected]  # exact: the same float sums
    assert res.stats["reference_error"] is None and res.stats["status"] == {"ok": 7600}


def test_types_come_from_the_file_order(frame):
    # rows 9 and 13 of the file hold indexes 12 and 8: the prediction of index 8 (a yes/no
    # row, 'Yes' is right) is read with the type stored at file row 9 (multiple_choice).
    res = naturalbench.grade(frame)
    row = res.rows.filter(pl.col("index") == "8").row(0, named=True)
    assert row["type"] == "yes_no" and row["position"] == "q0_i0"
    assert row["reason"].startswith("wrong: multiple_choice read -1")


def test_extract_answer():
    assert naturalbench.extract_answer("Yes, no doubt") == 1
    assert naturalbench.extract_answer("No, yes it is") == 0
    assert naturalbench.extract_answer("Yesterday it was") == -1  # no whole word
    assert naturalbench.extract_answer("yes-no") == 1
    assert naturalbench.extract_answer("b) is right", "multiple_choice") == 0
    assert naturalbench.extract_answer("AB", "multiple_choice") == -1
    with pytest.raises(ValueError, match="not supported"):
        naturalbench.extract_answer("Yes", "open")


def test_other_row_counts_and_bad_rows(frame):
    small = read_result_table(DATA / "naturalbench_8rows" / f"{STEM}.xlsx")
    res = naturalbench.grade(small)  # upstream: AssertionError (naturalbench_8rows/*_returned.json)
    assert res.report.height == 0 and "AssertionError" in res.stats["reference_error"]
    assert res.stats["status"] == {"error": 8} and res.stats["tasks"] == 0
    bad = frame.with_columns(pl.when(pl.int_range(pl.len()) == 20).then(pl.lit("open")).otherwise(pl.col("type")).alias("type"))
    res = naturalbench.grade(bad)
    assert res.report.height == 0 and "ValueError" in res.stats["reference_error"]
    dup = frame.with_columns(pl.when(pl.int_range(pl.len()) == 5).then(pl.lit("4")).otherwise(pl.col("index")).alias("index"))
    res = naturalbench.grade(dup)
    assert res.report.height == 0 and "share the index" in res.stats["reference_error"]


def test_registry_and_executor(tmp_path):
    b = benchmarks.for_dataset("NaturalBenchDataset")
    assert b is not None and b.name == "naturalbench" and b.grading == "rules"
    assert b.variant_on("2024-11-20") == "2024-11" and b.variant_on("2026-08-18") == "2024-12"
    tree = tmp_path / "SynthModel"
    tree.mkdir()
    for f in (DATA / "naturalbench_head").glob(f"{STEM}*"):
        if not f.name.endswith("_returned.json"):
            shutil.copy(f, tree / f.name)
    (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"]
    assert record.status == "ok" and record.archive_report is not None, record.error
    # a tampered report is caught
    acc = tree / f"{STEM}_acc.csv"
    acc.write_text(acc.read_text().replace("0.29578947368421055", "0.3"))
    (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R2") if r.status != "skipped"]
    assert record.status == "differs" and "Score" in record.error


def test_a_file_upstream_raises_on_is_an_error_record(tmp_path):
    # VLMEvalKit's evaluate asserts 7600 rows: an 8-row file has no reference report, so the
    # record must not read `ok` (exit 1 from the CLI), and the note says why.
    tree = tmp_path / "SynthModel"
    tree.mkdir()
    shutil.copy(DATA / "naturalbench_8rows" / f"{STEM}.xlsx", tree / f"{STEM}.xlsx")
    (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"]
    assert record.status == "error" and "AssertionError" in record.error, (record.status, record.error)
