"""ReVSI (``revsi``): the first word, exact letters or mean relative accuracy, the carried
score of an unknown type, and the evaluate dict compared key by key with what VLMEvalKit's
own ``ReVSI.evaluate`` returned. Data: tests/data/vlmevalkit_regex_mcq/README.md."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import revsi

DATA = Path(__file__).parent / "data" / "vlmevalkit_regex_mcq" / "revsi"


def test_metrics_match_vlmevalkit():
    res = revsi.grade(read_result_table(DATA / "m_ReVSI.xlsx"))
    expected = json.loads((DATA / "expected_metrics.json").read_text())
    assert res.report.columns == list(expected)
    for k, v in expected.items():
        assert res.report[k][0] == pytest.approx(v, rel=1e-15, abs=0), k
    assert res.stats["status"] == {"carried": 1, "ok": 15} and res.stats["accuracy"] == expected["overall_accuracy"]


def test_rules():
    assert revsi.first_word("  A. left") == "A" and revsi.first_word(None) == "nan"
    # int((0.95 - 0.5) / 0.05 + 2) is 10: ten thresholds, so 0.2 off scores 6/10 (1 - 0.8 < 0.2).
    assert revsi.mean_relative_accuracy(12.0, 10.0) == 0.6
    assert revsi.mean_relative_accuracy(3.0, 3.0) == 1.0
    with pytest.raises(ZeroDivisionError):
        revsi.mean_relative_accuracy(1.0, 0.0)
    frame = read_result_table(DATA / "m_ReVSI.xlsx")
    first_unknown = frame.with_columns(pl.Series("question_type", ["appearance_order"] + frame["question_type"].to_list()[1:]))
    res = revsi.grade(first_unknown)
    assert res.report.height == 0 and "NameError" in res.stats["reference_error"]


def test_registry_and_grade_many(tmp_path):
    for name in ("ReVSI", "revsi_16_frame", "revsi_all_frame"):
        assert benchmarks.for_dataset(name).name == "revsi"
    from gaia_fast.grading import many

    tree = tmp_path / "m"
    tree.mkdir()
    shutil.copy(DATA / "m_ReVSI.xlsx", tree / "m_ReVSI.xlsx")
    (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"]
    assert record.status == "ok" and record.accuracy == pytest.approx(0.46875)
    written = json.loads((tmp_path / "R" / "m" / "m_ReVSI_revsi_metrics.json").read_text())
    assert written == json.loads((DATA / "expected_metrics.json").read_text())
