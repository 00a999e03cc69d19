"""OCRBench v2 (``OCRBench_v2.evaluate``): the archives in ``tests/data/vlmevalkit_ocrbench_v2/``
were graded by VLMEvalKit's own code at e8e78f05 (see that folder's README); gaia-fast grades the
same files and every key of the ``_score.json`` report and every row's ``process_predictions``
score must be equal."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

pytest.importorskip("jieba")
pytest.importorskip("nltk")
pytest.importorskip("zss")
pytest.importorskip("apted")
pytest.importorskip("lxml")

from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import ocrbench_v2

DATA = Path(__file__).parent / "data" / "vlmevalkit_ocrbench_v2"
STEMS = ("m_OCRBench_v2", "m_OCRBench_v2_MINI")
NO = {"eval": "without eval", "bbox": "without bbox", "content": "without content"}


def _frame(stem: str) -> pl.DataFrame:
    return read_result_table(DATA / f"{stem}.xlsx")


def _row(category: str, answer: str, prediction: str | None, **kw: str) -> dict:
    return {"question": "q", "answer": answer, "category": category, **NO, **kw, "prediction": prediction}


@pytest.mark.parametrize("stem", STEMS)
def test_report_equals_the_reference(stem: str) -> None:
    res = ocrbench_v2.grade(_frame(stem))
    assert res.stats["reference_error"] is None
    theirs = json.loads((DATA / f"{stem}_score.json").read_text(encoding="utf-8"))
    assert res.report.height == 1
    assert res.report.columns == list(theirs)  # every group present, in the reference's order
    for key, value in theirs.items():
        assert res.report[key][0] == value, (stem, key)  # exactly, not approximately


@pytest.mark.parametrize("stem", STEMS)
def test_every_row_score_equals_process_predictions(stem: str) -> None:
    res = ocrbench_v2.grade(_frame(stem))
    theirs = json.loads((DATA / f"{stem}_rows.json").read_text(encoding="utf-8"))
    rows = res.rows
    assert rows.height == len(theirs)
    assert rows["category"].to_list() == [r["type"] for r in theirs]
    for i, (ref, score, status) in enumerate(zip(theirs, rows["score"].to_list(), rows["status"].to_list())):
        assert status == ("ignored" if ref["ignore"] else "ok"), (stem, i, rows["reason"][i])
        assert score == ref["score"], (stem, i, ref["type"], rows["reason"][i])


def test_the_archive_covers_every_task_type_and_rule() -> None:
    res = ocrbench_v2.grade(_frame("m_OCRBench_v2"))
    assert set(res.rows["category"]) == set(ocrbench_v2.TASK_GROUPS)
    assert res.stats["statuses"] == {"ok": 69, "ignored": 2, "needs_wordnet": 0, "reference_error": 0}
    rules = res.stats["rules"]
    for rule in ("vqa", "cn_vqa", "multiple_choice", "case_sensitive", "teds_html", "teds_markdown", "teds_dict",
                 "steds", "kie_f1", "vqa_iou", "iou", "spotting_hmean", "page_ocr", "joined_characters",
                 "counting_regression", "counting_exact match", "formula", "empty", "no_box", "unparsed"):  # fmt: skip
        assert rules.get(rule, 0) > 0, rule
    # not every score is 0 or 1: ANLS, IoU, TEDS, STEDS, h-mean and the text metrics are in between
    assert any(0 < s < 1 for s in res.rows["score"].drop_nulls().to_list())


def test_a_reference_crash_nulls_the_report() -> None:
    # bad_OCRBench_v2_MINI.xlsx: an eval value the reference does not know; at e8e78f05 its
    # evaluate raised "ValueError: No such evaluation method" on this file.
    res = ocrbench_v2.grade(_frame("bad_OCRBench_v2_MINI"))
    assert "not an evaluation method" in res.stats["reference_error"]
    assert all(v is None for v in res.report.row(0))
    assert res.rows["status"].to_list()[-1] == "reference_error"
    assert res.rows["status"].to_list()[:-1] == ["ok", "ok", "ok"]


def test_rows_that_need_wordnet_are_not_ok() -> None:
    # "cat"/"mat"/"on"/"a" stay unmatched on both sides after exact and stem matching:
    # WordNet synonyms could pair them, and WordNet is not in the archive.
    frame = pl.DataFrame([
        _row("full-page OCR en", "['the dog sat on the rug']", "the cat sat on a mat"),
        _row("full-page OCR en", "['the dog sat']", "the dog sat"),
        _row("cognition VQA cn", "['北京']", "北京"),
    ])  # fmt: skip
    res = ocrbench_v2.grade(frame)
    assert res.rows["status"].to_list() == ["needs_wordnet", "ok", "ok"]
    assert res.rows["score"][0] is None
    assert res.stats["needs_wordnet_rows"] == 1 and res.stats["reference_error"] is None
    assert res.stats["incomplete"] == "1 row(s) need WordNet (METEOR's synonym stage), which the archive does not hold: en_text_recognition, English Overall Score not computed"
    report = res.report.to_dicts()[0]
    assert report["en_text_recognition"] is None and report["English Overall Score"] is None
    assert report["cn_visual_text_understanding"] == 1.0 and report["Chinese Overall Score"] == 1.0


@pytest.mark.parametrize(
    ("row", "score"),
    [
        # text grounding: the last in-range box of the prediction against the answer box
        (_row("text grounding en", "[0, 0, 100, 100]", "[0, 0, 50, 100] then (0, 0, 100, 50)"), 0.5),
        # VQA with position: half content, half IoU of the predicted bbox against the bbox column
        (_row("VQA with position en", "['stop']", '{"answer": "stop", "bbox": [0, 0, 10, 10]}', bbox="[0, 0, 10, 10]"), 1.0),
        (_row("VQA with position en", "['stop']", '{"answer": "stop", "bbox": "oops"}', bbox="[0, 0, 10, 10]"), 0.5),
        # spotting: one of two GT words found with a matching box -> P = R = 0.5
        (_row("text spotting en", "['x']", "[[0, 0, 10, 10, 'ab'], [20, 0, 30, 10, 'zz']]",
              bbox="[[0, 0, 10, 0, 10, 10, 0, 10], [20, 0, 30, 0, 30, 10, 20, 10]]", content="['AB', 'cd']"), 0.5),
        # counting by regression: 1 - |8 - 10| / 10
        (_row("text counting en", "['10']", "8 apples", eval="regression"), 0.8),
    ],
)
def test_box_and_number_rules(row: dict, score: float) -> None:
    res = ocrbench_v2.grade(pl.DataFrame([row]))
    assert res.rows["status"][0] == "ok", res.rows["reason"][0]
    assert res.rows["score"][0] == pytest.approx(score, abs=1e-12)


def test_bad_input_names_the_column() -> None:
    frame = pl.DataFrame([_row("math QA en", "['1']", "1")]).drop("bbox")
    with pytest.raises(ValueError, match="'bbox'"):
        ocrbench_v2.grade(frame)
    with pytest.raises(ValueError, match="variant"):
        ocrbench_v2.grade(pl.DataFrame([_row("math QA en", "['1']", "1")]), variant="2024")


def test_registry_entry() -> None:
    for name in ("OCRBench_v2", "OCRBench_v2_MINI"):
        entry = benchmarks.for_dataset(name)
        assert entry is not None and entry.name == "ocrbench_v2" and entry.grading == "rules"
    found = benchmarks.detect("m/m_OCRBench_v2_MINI.xlsx")
    assert found is not None and (found.benchmark.name, found.dataset) == ("ocrbench_v2", "OCRBench_v2_MINI")
    assert benchmarks.get("ocrbench_v2").report == "_score.json"
    assert benchmarks.get("ocrbench_v2").variant_on("2025-07-07") == "classic"
    with pytest.raises(ValueError):
        benchmarks.get("ocrbench_v2").variant_on("2025-07-06")


def test_grade_command_compares_with_the_archives_report(tmp_path: Path) -> None:
    import shutil

    from click.testing import CliRunner
    from gaia_fast.cli import main

    d = tmp_path / "outputs" / "m"
    d.mkdir(parents=True)
    for name in ("m_OCRBench_v2.xlsx", "m_OCRBench_v2_score.json"):
        shutil.copy(DATA / name, d / name)
    r = CliRunner().invoke(main, ["grade", str(tmp_path / "outputs"), "--json", "--report-dir", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    (a,) = json.loads(r.stdout)["archives"]
    assert (a["dataset"], a["benchmark"], a["status"], a["error"]) == ("OCRBench_v2", "ocrbench_v2", "ok", None)
    theirs = json.loads((DATA / "m_OCRBench_v2_score.json").read_text(encoding="utf-8"))
    assert (a["headline_metric"], a["headline"]) == ("English Overall Score", theirs["English Overall Score"])
    assert a["archive_headline"] == theirs["English Overall Score"]
    # a changed cell in the archive's report is found
    theirs["cn_element_parsing"] = 0.5
    (d / "m_OCRBench_v2_score.json").write_text(json.dumps(theirs), encoding="utf-8")
    r = CliRunner().invoke(main, ["grade", str(tmp_path / "outputs"), "--json", "--report-dir", str(tmp_path / "rep2")])
    (a,) = json.loads(r.stdout)["archives"]
    assert a["status"] == "differs" and "cn_element_parsing" in a["error"]


def test_grade_command_says_incomplete_when_rows_need_wordnet(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from gaia_fast.cli import main

    d = tmp_path / "outputs" / "m"
    d.mkdir(parents=True)
    frame = pl.DataFrame([
        _row("full-page OCR en", "['the dog sat on the rug']", "the cat sat on a mat"),
        _row("cognition VQA en", "['red']", "red"),
        _row("cognition VQA cn", "['北京']", "北京"),
    ])  # fmt: skip
    frame.write_excel(d / "m_OCRBench_v2.xlsx")
    # what the archive's report could say (the WordNet-dependent cells are whatever WordNet gave)
    theirs = {"en_text_recognition": 0.3, "en_visual_text_understanding": 1.0, "cn_visual_text_understanding": 1.0,
              "English Overall Score": 0.65, "Chinese Overall Score": 1.0}  # fmt: skip
    (d / "m_OCRBench_v2_score.json").write_text(json.dumps(theirs), encoding="utf-8")
    args = ["grade", str(tmp_path / "outputs"), "--json", "--report-dir"]
    r = CliRunner().invoke(main, [*args, str(tmp_path / "rep")])
    assert r.exit_code == 3, r.output  # incomplete, as needs_judge
    (a,) = json.loads(r.stdout)["archives"]
    assert a["status"] == "incomplete"
    assert "1 row(s) need WordNet" in a["error"] and "en_text_recognition, English Overall Score not computed" in a["error"]
    # a computed cell that disagrees is still a difference
    theirs["cn_visual_text_understanding"] = 0.5
    (d / "m_OCRBench_v2_score.json").write_text(json.dumps(theirs), encoding="utf-8")
    r = CliRunner().invoke(main, [*args, str(tmp_path / "rep2")])
    (a,) = json.loads(r.stdout)["archives"]
    assert a["status"] == "differs" and "cn_visual_text_understanding" in a["error"]
