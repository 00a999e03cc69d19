"""CC-OCR (``CCOCRDataset``): the archives in ``tests/data/vlmevalkit_ocr_families/`` were graded
by VLMEvalKit's own ``CCOCRDataset.evaluate`` (commits in that folder's README); gaia-fast
grades the same files and every cell of the ``_acc.csv`` report, every sub-dataset summary
and every per-image KIE accuracy the reference lists must be equal."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

pytest.importorskip("zss")
pytest.importorskip("apted")
pytest.importorskip("nltk")
pytest.importorskip("lxml")
pytest.importorskip("json_repair")

from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import ccocr

DATA = Path(__file__).parent / "data" / "vlmevalkit_ocr_families"
STEMS = ("m_CCOCR", "m_CCOCR_Kie_Cord", "m_CCOCR_Kie_Poie", "m_CCOCR_DocParsing_FormulaHandwriting")


def _frame(stem: str) -> pl.DataFrame:
    return read_result_table(DATA / f"{stem}.xlsx")


@pytest.mark.parametrize("stem", STEMS)
def test_report_and_summaries_equal_the_reference(stem: str) -> None:
    res = ccocr.grade(_frame(stem))
    assert res.stats["reference_error"] is None
    theirs = pl.read_csv(DATA / f"{stem}_acc.csv", infer_schema_length=0)
    assert res.report.columns == theirs.columns
    for c in theirs.columns:
        assert res.report[c][0] == float(theirs[c][0]), (stem, c)
    comp = json.loads((DATA / f"{stem}_comprehensive_eval.json").read_text(encoding="utf-8"))
    assert list(res.stats["sub_datasets"]) == list(comp["summaries"])
    assert res.stats["sub_datasets"] == comp["summaries"]  # every value, exactly
    # per image: the reference lists each KIE image whose nTED accuracy is below 1
    rows = res.rows
    for key, result in comp["results"].items():
        errors = result["evaluation"].get("acc_error_info")
        if errors is None:
            continue
        sub = rows.filter(pl.col("sub_dataset") == key)
        for name, score in zip(sub["image_name"].to_list(), sub["score"].to_list()):
            if name in errors:
                assert score == errors[name]["acc"], (key, name)
            else:
                assert score == 1.0, (key, name)


def test_rows_account_for_every_input() -> None:
    frame = _frame("m_CCOCR")
    res = ccocr.grade(frame)
    assert res.rows.height == frame.height
    st = res.rows["status"].to_list()
    assert st.count("superseded") == 1  # fr_5 appears twice in its sub-dataset; the later row wins
    assert res.stats["rules"]["fail_msg"] == 4
    assert res.stats["rules"]["kie_unparsed"] == 2  # "not json at all" and an unclosed ```json fence
    ic = res.rows.filter(pl.col("sub_dataset") == "multi_scene_ocr_scene_text_IC15")
    assert set(ic["rule"].to_list()) == {"ocr_word", "fail_msg"}
    zh = res.rows.filter(pl.col("sub_dataset") == "multi_scene_ocr_document_text_zh_doc")
    assert set(zh["rule"].to_list()) == {"ocr_char"}


def test_older_variants_raise_where_the_reference_raised() -> None:
    # 9cc14cd0 and 0c158ff1: json.loads of a Python-literal answer raised JSONDecodeError.
    res = ccocr.grade(_frame("m_CCOCR_Kie_Poie"), variant="2025-07")
    assert "json.loads" in res.stats["reference_error"]
    assert res.report.to_dicts() == [{"kie": None, "total": None}]
    assert set(res.rows["status"]) == {"reference_error"}
    # 0c158ff1: an empty prediction cell reached pred.replace as NaN (AttributeError).
    res = ccocr.grade(_frame("m_CCOCR_DocParsing_FormulaHandwriting"), variant="2025-06")
    assert "not text" in res.stats["reference_error"]
    # ... the same file from d35dd654 on: "nan" is scored (the reference's 0.5).
    assert ccocr.grade(_frame("m_CCOCR_DocParsing_FormulaHandwriting"), variant="2025-07").report["total"][0] == 0.5
    # Strict-JSON answers: the older variants give the head's numbers (0c158ff1 and 9cc14cd0
    # wrote the same _comprehensive_eval.json as e8e78f05 for these files).
    for stem in ("m_CCOCR", "m_CCOCR_Kie_Cord"):
        head = ccocr.grade(_frame(stem))
        for v in ("2025-07", "2025-06"):
            assert ccocr.grade(_frame(stem), variant=v).report.equals(head.report)


def test_reference_crashes_are_statuses_not_exceptions() -> None:
    base = {"question": "q", "category": "doc_parsing", "split": "s", "image_name": "a"}
    both_empty = pl.DataFrame([{**base, "l2-category": "formula", "answer": " ", "prediction": "```latex```"}])
    res = ccocr.grade(both_empty)
    assert "divides by zero" in res.stats["reference_error"] and res.rows["status"][0] == "reference_error"
    unknown_op = pl.DataFrame([{**base, "l2-category": "poem", "answer": "x", "prediction": "x"}])
    assert "unsupported op" in ccocr.grade(unknown_op).stats["reference_error"]
    empty_kie = pl.DataFrame([{**base, "category": "kie", "l2-category": "k", "answer": "{}", "prediction": "{}"}])
    # numpy's 0/0 inside cal_acc is nan and max(0, nan) is 0: a score, not an error (checked
    # against the reference's cal_acc({}, {}) at e8e78f05)
    res = ccocr.grade(empty_kie)
    assert res.stats["reference_error"] is None and res.rows["score"][0] == 0.0
    other = pl.DataFrame([{**base, "category": "vqa", "l2-category": "k", "answer": "x", "prediction": "x"}])
    res = ccocr.grade(other)
    assert res.rows["status"][0] == "skipped" and res.report.to_dicts() == [{"total": 0}]
    with pytest.raises(ValueError, match="l2-category"):
        ccocr.grade(both_empty.drop("l2-category"))


def test_units() -> None:
    assert ccocr.ocr_tokens("Hello\tWORLD ### x", word_level=True) == ["hello", "world", "x"]
    assert ccocr.ocr_tokens("a b-c", word_level=True, alphanum_only=True) == ["a", "bc"]
    assert ccocr.ocr_tokens("中 文", word_level=False) == ["中", "文"]
    assert ccocr.kie_accuracy({"a": "x"}, {"a": "x"}) == 1.0
    assert ccocr.kie_accuracy({}, {"a": "xy"}) == 0


def test_registry_maps_every_ccocr_name() -> None:
    rows = [json.loads(x) for x in (Path(__file__).parent / "data" / "vlmevalkit_datasets.jsonl").read_text().splitlines()]
    names = [r["name"] for r in rows if r["class"] == "CCOCRDataset"]
    assert len(names) == 40
    for name in names:
        b = benchmarks.for_dataset(name)
        assert b is not None and b.module == "gaia_fast.scorers.vlm.ccocr", name
    assert benchmarks.get("ccocr").variant_on("2025-06-20") == "2025-06"
    assert benchmarks.get("ccocr").variant_on("2026-05-01") == "2026-04"


def test_first_version_grades_the_file_as_one_dataset() -> None:
    # 14385c59 on the KIE-only file: every image name of the three KIE splits pooled
    theirs = json.loads((DATA / "m_CCOCR_Kie_Cord_eval_14385c59.json").read_text(encoding="utf-8"))
    res = ccocr.grade(_frame("m_CCOCR_Kie_Cord"), variant="2024-12")
    assert res.stats["reference_error"] is None  # KIE reads neither the split nor the l2-category
    assert res.report.to_dicts() == [theirs["evaluation"]["summary"]]
    # several categories: upstream pops an arbitrary one (its two runs on m_CCOCR differed)
    assert "arbitrary" in ccocr.grade(_frame("m_CCOCR"), variant="2024-12").stats["reference_error"]
    # the 14385c59 run itself raised on these two files
    assert "json.loads" in ccocr.grade(_frame("m_CCOCR_Kie_Poie"), variant="2024-12").stats["reference_error"]
    assert "not text" in ccocr.grade(_frame("m_CCOCR_DocParsing_FormulaHandwriting"), variant="2024-12").stats["reference_error"]
