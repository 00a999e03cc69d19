"""MRareBench T1 diagnosis (``mrarebench_dx``): ranked lists, hits against the gold set,
Recall@k / MRR / MR; the ``_detailed_metrics.json`` compared key by key and the ranks row by
row with what VLMEvalKit's own ``MRareBenchDiagnosis.evaluate`` wrote (``_per_row.xlsx``).
Data: tests/data/vlmevalkit_tail_rules/README.md."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import mrarebench_dx as dx

DATA = Path(__file__).parent / "data" / "vlmevalkit_tail_rules" / "mrare_dx"
STEM = "SynthModel_MRareBench_Diagnosis"


def test_report_and_rows_match_vlmevalkit():
    res = dx.grade(read_result_table(DATA / f"{STEM}.xlsx"))
    expected = json.loads((DATA / f"{STEM}_detailed_metrics.json").read_text())
    assert res.report.columns == list(expected)
    for k, v in expected.items():
        assert res.report[k][0] == v, k
    per_row = pl.read_excel(DATA / f"{STEM}_per_row.xlsx")
    assert res.rows["first_hit_rank"].to_list() == per_row["first_hit_rank"].to_list()
    assert res.rows["extracted"].to_list() == per_row["ranked_list"].to_list()


def test_rules():
    assert dx.parse_ranked_list("a; b\n- c") == ["a", "b", "c"]
    assert dx.parse_ranked_list("<think>1. x 2. y</think>1. p 2. q 3. r") == [
        "p",
        "q",
        "r",
    ]
    assert dx.parse_ranked_list("1. A\n2. a\n3. B") == ["A", "B"]
    assert dx.gold_set(" X ", '"Y"') == ["X", "Y"] and dx.gold_set("X", "p; q") == [
        "X",
        "p",
        "q",
    ]
    assert dx.gold_set("X", "null") == [
        "X",
        "None",
    ]  # str(json.loads('null')), as upstream
    assert dx.is_hit("the Kawasaki disease.", ["Kawasaki disease"])
    assert dx.is_hit("disease of Addison type", ["Addison disease"])  # token-set F1 0.8
    assert not dx.is_hit("Gaucher's disease type 1", ["Gaucher disease"])


def test_registry_and_grade_many(tmp_path):
    names = (
        "MRareBench_Diagnosis",
        "MRareBench_Diagnosis_FD",
        "MRareBench_Diagnosis_TO",
    )
    assert {benchmarks.for_dataset(n).name for n in names} == {"mrarebench_dx"}
    from gaia_fast.grading import many

    tree = tmp_path / "SynthModel"
    tree.mkdir()
    shutil.copy(DATA / f"{STEM}.xlsx", tree / f"{STEM}.xlsx")
    (record,) = [
        r
        for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R")
        if r.status != "skipped"
    ]
    assert record.status == "ok" and record.accuracy == pytest.approx(0.6)
    written = json.loads(
        (tmp_path / "R" / "SynthModel" / f"{STEM}_detailed_metrics.json").read_text()
    )
    assert written == json.loads((DATA / f"{STEM}_detailed_metrics.json").read_text())
