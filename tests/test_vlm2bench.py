"""VLM2Bench (``vlm2bench``): the ``_score.csv`` compared cell by cell with what VLMEvalKit's
own ``VLM2Bench.evaluate`` wrote at 9e86c826 and at head. Data: tests/data/vlmevalkit_step1/README.md."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading import many
from gaia_fast.grading.reporters import read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import vlm2bench

DATA = Path(__file__).parent / "data" / "vlmevalkit_step1"
STEM = "SynthModel_VLM2Bench"


@pytest.mark.parametrize(("sub", "variant"), [("vlm2bench_2025-03", "2025-03"), ("vlm2bench_head", "2026-08")])
def test_report_matches_vlmevalkit(sub, variant):
    res = vlm2bench.grade(read_result_table(DATA / sub / f"{STEM}.xlsx"), variant=variant)
    theirs = read_report(DATA / sub / f"{STEM}_score.csv")
    assert res.report.columns == theirs.columns and report_differences(res.report, theirs) == []
    assert res.report["xx-new"][0] is None and res.stats["reference_error"] is None


def test_image_count_differs_by_era():
    frame = read_result_table(DATA / "vlm2bench_head" / f"{STEM}.xlsx")
    old, new = vlm2bench.grade(frame, variant="2025-03"), vlm2bench.grade(frame, variant="2026-08")
    assert old.report["oc-cnt"][0] == 25.0 and new.report["oc-cnt"][0] == pytest.approx(27.88591051512091, rel=1e-15)


def test_rules_and_crashes():
    assert vlm2bench.parse_tf("T, or F") is None and vlm2bench.parse_tf("It is TRUE") == "T"
    assert vlm2bench.parse_count("one hundred and two") == 102 and vlm2bench.parse_count("5 or 6") is None
    assert vlm2bench.cnt_score(3, 2, 2) == 0.0 and vlm2bench.cnt_score(2, 2, 4) == 100.0
    bad = pl.DataFrame({"index": ["gc-mat_1_p", "gc-mat_1_n"], "category": ["gc-mat"] * 2, "answer": ["T", "F"], "prediction": ["T", None]})
    res = vlm2bench.grade(bad)
    assert res.report.height == 0 and "AttributeError" in res.stats["reference_error"]
    nums = pl.DataFrame({"index": ["1", "2"], "category": ["gc-mat"] * 2, "answer": ["T", "F"], "prediction": ["T", "F"]})
    assert "TypeError" in vlm2bench.grade(nums).stats["reference_error"]  # the index column reads as numbers


def test_registry_and_executor(tmp_path):
    b = benchmarks.for_dataset("VLM2Bench")
    assert b is not None and b.name == "vlm2bench" and b.grading == "rules"
    assert b.variant_on("2025-06-01") == "2025-03" and b.variant_on("2026-08-18") == "2026-08"
    tree = tmp_path / "SynthModel"
    tree.mkdir()
    for f in (DATA / "vlm2bench_head").iterdir():
        shutil.copy(f, tree / f.name)
    (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"]
    assert record.status == "ok" and record.archive_report.endswith("_score.csv"), (record.status, record.error)
