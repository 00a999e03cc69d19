"""VCR (English): the archives in ``tests/data/vlmevalkit_ocr_families/`` were graded by
VLMEvalKit's own ``VCRDataset.evaluate`` at e8e78f05 (README there: spaCy's English rules
tokenizer, the rouge metric over rouge_score); gaia-fast grades the same files and the report
(Exact_Match, Jaccard, and every blank's details) must be equal."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

pytest.importorskip("spacy")
pytest.importorskip("numpy")

from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import vcr

DATA = Path(__file__).parent / "data" / "vlmevalkit_ocr_families"


@pytest.mark.parametrize(("stem", "report"), [("m_VCR_EN_EASY_100", "_en_easy_score.json"), ("m_VCR_EN_HARD_100", "_en_hard_score.json")])
def test_report_equals_the_reference(stem: str, report: str) -> None:
    res = vcr.grade(read_result_table(DATA / f"{stem}.xlsx"))
    theirs = json.loads((DATA / f"{stem}{report}").read_text(encoding="utf-8"))
    ours = res.report.to_dicts()[0]
    assert ours["Exact_Match"] == theirs["Exact_Match"] and ours["Jaccard"] == theirs["Jaccard"]
    # every blank: the same keys in the same order and the same values (json text equal)
    assert json.dumps(res.stats["predictions"]) == json.dumps(theirs["Predictions"])
    assert ours["Predictions"] == theirs["Predictions"]
    assert benchmarks.for_dataset(stem[2:]).report == report


def test_rows_and_rules() -> None:
    res = vcr.grade(read_result_table(DATA / "m_VCR_EN_EASY_100.xlsx"))
    assert res.rows.height == 24
    assert res.stats["rules"] == {"matched": 18, "refused": 6}
    refused = res.rows.filter(pl.col("rule") == "refused")
    assert refused["score"].to_list() == [0.0] * 6


def test_best_match_and_crashes() -> None:
    m = vcr.best_match("didn't agree", "Assistant: Dr. Smith didn't agree at all")
    assert m["exact_match"] == 1.0 and m["max_sim_string"] == "did n't agree" and m["rouge1"] == 1.0
    assert vcr.best_match("zebra", "no overlap here")["max_sim_string"] == ""
    bad = pl.DataFrame({"answer": ["['a b']", "not a list"], "prediction": ["a b", "x"]})
    res = vcr.grade(bad)
    assert "not a list literal" in res.stats["reference_error"] and res.report["Jaccard"][0] is None
    with pytest.raises(ValueError, match="only English"):
        vcr.grade(bad, language="zh")


def test_registry() -> None:
    for name in ("VCR_EN_EASY_500", "VCR_EN_EASY_100", "VCR_EN_EASY_ALL", "VCR_EN_HARD_500", "VCR_EN_HARD_100", "VCR_EN_HARD_ALL"):
        assert benchmarks.for_dataset(name).module == "gaia_fast.scorers.vlm.vcr"
    assert benchmarks.for_dataset("VCR_ZH_EASY_500") is None
