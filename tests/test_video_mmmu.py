"""VideoMMMU (``video_mmmu``): process_results' parsers, the lists as the ``_score.xlsx``
store gives them back, eval_multi_choice / eval_open, and aggregate_results' table compared
cell by cell with what VLMEvalKit's own evaluate wrote (``_score_score.csv``). Data:
tests/data/vlmevalkit_regex_mcq/README.md."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading.reporters import read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import video_mmmu
from gaia_fast.scorers.vlm.recorded import find_records

DATA = Path(__file__).parent / "data" / "vlmevalkit_regex_mcq" / "videommmu"
RESULT = DATA / "m_VideoMMMU.xlsx"


def test_report_matches_vlmevalkit():
    res = video_mmmu.grade(read_result_table(RESULT), recorded=find_records(RESULT, "video_mmmu"))
    theirs = pl.read_csv(DATA / "m_VideoMMMU_score_score.csv", infer_schema_length=0)
    assert res.report.columns == theirs.columns == ["Perception", "Comprehension", "Adaptation", "Overall"]
    for c in theirs.columns:
        assert res.report[c].to_list() == pytest.approx([float(x) for x in theirs[c].to_list()], rel=1e-15)
    assert report_differences(res.report, read_report(DATA / "m_VideoMMMU_score_score.csv")) == []
    # Our parsed predictions are the ones VLMEvalKit stored (lists as the xlsx holds their text).
    stored = pl.read_excel(DATA / "m_VideoMMMU_score.xlsx")["parsed_pred"].cast(pl.String).to_list()
    assert res.rows["extracted"].to_list() == stored
    assert res.stats["status"] == {"api_error": 1, "ok": 11} and res.stats["record_disagreements"] == 0


def test_parsers():
    opts = ["cat", "dog", "car", "tree"]
    idx = {chr(65 + i): o for i, o in enumerate(opts)}
    f = video_mmmu.parse_multi_choice_response
    assert f("A. cat or maybe B. dog", list(idx), idx) == "B"  # the last candidate
    assert f("nothing fits", list(idx), idx) == "No Answere Found"
    assert f("I think the dog is right here in the picture", list(idx), idx) == "B"
    assert f("", list(idx), idx) == "API Error"
    assert sorted(video_mmmu.parse_open_response("so the result is 3,000")) == [0.0, 3000.0]
    # An xlsx store gives eval_open the list's text: it walks characters, so this is wrong...
    assert video_mmmu.eval_open("42", str([42.0])) is False
    # ... where the list itself (a json store) would be right.
    assert video_mmmu.eval_open("42", [42.0]) is True
    assert video_mmmu.eval_open("blue", ["blue"]) is True


def test_json_store_and_missing_prediction():
    frame = read_result_table(RESULT)
    res = video_mmmu.grade(frame, stored_as="json")
    assert res.report.height == 0 and "iterrows" in res.stats["reference_error"]
    assert res.rows.filter(pl.col("index") == "7")["score"].to_list() == [1.0]  # the list compares as a list
    gone = frame.with_columns(pl.when(pl.col("index") == "2").then(None).otherwise(pl.col("prediction")).alias("prediction"))
    res = video_mmmu.grade(gone)
    assert res.report.height == 0 and res.rows["status"][2] == "error"
    with pytest.raises(ValueError):
        video_mmmu.grade(frame, judge=lambda p: "A")


def test_registry_and_grade_many(tmp_path):
    for name in ("VideoMMMU", "VideoMMMU_8frame", "VideoMMMU_0.5fps"):
        assert benchmarks.for_dataset(name).name == "videommmu"
    from gaia_fast.grading import many

    tree = tmp_path / "m"
    tree.mkdir()
    for p in DATA.iterdir():
        shutil.copy(p, tree / p.name)
    records = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"]
    assert [(r.dataset, r.status) for r in records] == [("VideoMMMU", "ok")]
    assert records[0].archive_report is not None and records[0].accuracy == pytest.approx(6 / 11)
