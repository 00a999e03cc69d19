"""vlms_are_biased_main (``vlmsarebiased``): the ``_metrics.json`` and the per-row verdicts of
``_eval_meta.json`` compared with what VLMEvalKit's own ``VLMsAreBiased.evaluate`` wrote.
Data: tests/data/vlmevalkit_step1/README.md."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
from gaia_fast import benchmarks
from gaia_fast.grading import many
from gaia_fast.grading.reporters import read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.io.writers import write_report
from gaia_fast.scorers.vlm import vlmsarebiased

DATA = Path(__file__).parent / "data" / "vlmevalkit_step1" / "vlms_are_biased"
STEM = "SynthModel_vlms_are_biased_main"


def test_report_and_rows_match_vlmevalkit(tmp_path):
    res = vlmsarebiased.grade(read_result_table(DATA / f"{STEM}.xlsx"))
    theirs = read_report(DATA / f"{STEM}_metrics.json")
    assert res.report["key"].to_list() == theirs["key"].to_list() and report_differences(res.report, theirs) == []
    meta = json.loads((DATA / f"{STEM}_eval_meta.json").read_text())
    assert res.rows["score"].to_list() == [float(m["is_correct"]) for m in meta]
    assert res.rows["matches_bias"].to_list() == [m["matches_bias"] for m in meta]
    # written back as the same nested JSON
    write_report(res.report, tmp_path / "m.json")
    assert json.loads((tmp_path / "m.json").read_text()) == json.loads((DATA / f"{STEM}_metrics.json").read_text())


def test_rules():
    assert vlmsarebiased.judge_row("{3} and {2}", "{32}", "{31}") == (True, False)
    assert vlmsarebiased.judge_row("{2}", "{2}", "{2}") == (True, True)
    assert vlmsarebiased.judge_row("I count 45", "5", "4") == (False, False)
    empty = vlmsarebiased.grade(pl.DataFrame({"prediction": []}, schema={"prediction": pl.String}))
    assert empty.report["key"].to_list() == ["overall_acc", "macro_acc", "bias_ratio"]
    bad = vlmsarebiased.grade(pl.DataFrame({"prediction": ["1"], "ground_truth": ["1"], "topic": [None]}))
    assert bad.report.height == 0 and "NaN" in bad.stats["reference_error"]


def test_registry_and_executor(tmp_path):
    b = benchmarks.for_dataset("vlms_are_biased_main")
    assert b is not None and b.name == "vlmsarebiased" and b.grading == "rules"
    tree = tmp_path / "SynthModel"
    tree.mkdir()
    for f in DATA.iterdir():
        shutil.copy(f, tree / f.name)
    (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"]
    assert record.status == "ok" and record.archive_report.endswith("_metrics.json"), (record.status, record.error)
