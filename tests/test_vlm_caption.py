"""COCO captioning (VLMEvalKit ImageCaptionDataset): BLEU-1..4, ROUGE-L and CIDEr natively
and in the pure-Python twin, against vectors computed once by pycocoevalcap 1.2 (its
100 MB wheel is not a test dependency; see tests/data/vlmevalkit_ocr_caption/README.md),
numpy's mean, and a sample of the VILA-1.5 8B archive through the library and the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl
import pytest
from _vlm_cli import grade_one_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gaia_fast import _native, benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.reference import vlm_caption as twin
from gaia_fast.scorers.vlm import caption

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "vlmevalkit_ocr_caption" / "vila_8b"
VECTORS = [json.loads(line) for line in (DATA / "caption_pycocoevalcap.jsonl").read_text(encoding="utf-8").splitlines()]


def _native_scores(preds, refs):
    counts = pl.Series([len(r) for r in refs], dtype=pl.Int64)
    flat = pl.Series([x for r in refs for x in r], dtype=pl.String)
    out = _native.caption_arrow(pl.Series(preds, dtype=pl.String), flat, counts)
    rows = [list(x) for x in zip(*(pl.Series(out[f"bleu_{k}"]).to_list() for k in range(1, 5)))]
    return out, rows, pl.Series(out["rouge_l_rows"]).to_list(), pl.Series(out["cider_rows"]).to_list()


# --------------------------------------------------------------------------------------
# pycocoevalcap's own numbers
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", VECTORS, ids=[c["name"] for c in VECTORS])
def test_native_equals_pycocoevalcap(case):
    out, bleu_rows, rouge_rows, cider_rows = _native_scores(case["predictions"], case["references"])
    assert out["bleu"] == case["bleu"]
    assert bleu_rows == case["bleu_rows"]
    assert out["rouge_l"] == case["rouge_l"] or (math.isnan(out["rouge_l"]) and math.isnan(case["rouge_l"]))
    assert rouge_rows == case["rouge_l_rows"]
    assert out["cider"] == case["cider"]
    if case["cider"] is not None:
        assert cider_rows == case["cider_rows"]


@pytest.mark.parametrize("case", VECTORS, ids=[c["name"] for c in VECTORS])
def test_twin_equals_pycocoevalcap(case):
    p, r = case["predictions"], case["references"]
    assert twin.bleu(p, r) == (case["bleu"], case["bleu_rows"])
    assert twin.rouge_l(p, r) == (case["rouge_l"], case["rouge_l_rows"])
    if case["cider"] is None:
        assert "max()" in case["cider_error"]
        with pytest.raises(ValueError):
            twin.cider(p, r)
    else:
        assert twin.cider(p, r) == (case["cider"], case["cider_rows"])


def test_vectors_cover_the_edges():
    names = {c["name"] for c in VECTORS}
    assert {"identical", "empty prediction", "no reference words", "double spaces"} <= names
    assert len(VECTORS) >= 60


# --------------------------------------------------------------------------------------
# numpy's mean
# --------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64, min_value=-1e12, max_value=1e12), max_size=600))
def test_np_mean_equals_numpy(values):
    np = pytest.importorskip("numpy")
    expected = float(np.mean(np.array(values, dtype=np.float64))) if values else math.nan
    for got in (_native.np_mean(values), twin.np_mean(values)):
        assert got == expected or (math.isnan(got) and math.isnan(expected))


# --------------------------------------------------------------------------------------
# Twin parity on arbitrary text
# --------------------------------------------------------------------------------------

# Words that collide often, separators from every whitespace class Python knows (and
# U+200B, which is not whitespace), and any other character (lone surrogates cannot
# travel through Arrow, which holds UTF-8).
_ANY = st.characters(blacklist_categories=("Cs",))
_WORD = st.one_of(st.sampled_from(["a", "A", "cat", "the", "ς", "Σ", "猫", ""]), st.text(_ANY, max_size=3))
_SEP = st.sampled_from([" ", "  ", "\t", "\n", "\x1c", "\x85", "\u00a0", "\u2028", "\u3000", "\u200b"])


@st.composite
def _sentence(draw, max_words=10):
    words = draw(st.lists(_WORD, max_size=max_words))
    out = draw(st.sampled_from(["", " ", "\u3000"]))
    for w in words:
        out += w + draw(_SEP)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_sentence(12), st.lists(_sentence(6), min_size=1, max_size=4)), min_size=1, max_size=8))
def test_native_equals_twin(rows):
    preds = [p for p, _ in rows]
    refs = [r for _, r in rows]
    out, bleu_rows, rouge_rows, cider_rows = _native_scores(preds, refs)
    assert (out["bleu"], bleu_rows) == twin.bleu(preds, refs)
    assert (out["rouge_l"], rouge_rows) == twin.rouge_l(preds, refs)
    try:
        expected = twin.cider(preds, refs)
    except ValueError:  # no reference word anywhere: max() of nothing, as upstream
        assert out["cider"] is None
    else:
        assert (out["cider"], cider_rows) == expected


# --------------------------------------------------------------------------------------
# The archive sample, library and CLI
# --------------------------------------------------------------------------------------


def _expected() -> dict:
    return json.loads((SAMPLE / "vila_8b_COCO_VAL_score.json").read_text())


def test_grade_sample_equals_vlmevalkit():
    result = caption.grade(read_result_table(SAMPLE / "vila_8b_COCO_VAL.xlsx"))
    assert result.report.row(0, named=True) == _expected()
    rows = result.rows
    assert rows.height == 300
    assert {"prediction", "bleu_1", "bleu_4", "rouge_l", "cider", "score", "status", "reason"} <= set(rows.columns)
    assert rows["status"].unique().to_list() == ["ok"]
    # The mean per-row CIDEr is the corpus CIDEr (pycocoevalcap's mean over images).
    assert twin.np_mean(rows["cider"].to_list()) == pytest.approx(_expected()["CIDEr"], rel=1e-12)
    assert result.stats["reference_error"] is None


def test_twin_report_equals_vlmevalkit_on_sample():
    frame = read_result_table(SAMPLE / "vila_8b_COCO_VAL.xlsx")
    import ast

    refs = [ast.literal_eval(a) for a in frame["answer"]]
    assert twin.caption_scores(frame["prediction"].fill_null("nan").to_list(), refs) == _expected()


def test_cli_one_file_auto(tmp_path, monkeypatch):
    rows = grade_one_file(SAMPLE / "vila_8b_COCO_VAL.xlsx", tmp_path, monkeypatch)
    # Byte for byte what VLMEvalKit's dump() writes.
    assert (tmp_path / "vila_8b_COCO_VAL_score.json").read_bytes() == (SAMPLE / "vila_8b_COCO_VAL_score.json").read_bytes()
    assert rows.height == 300 and "cider" in rows.columns


def test_detect():
    found = benchmarks.detect("outputs/vila_8b/vila_8b_COCO_VAL.xlsx")
    assert found is not None and found.benchmark.name == "coco-caption" and found.dataset == "COCO_VAL"
    assert found.benchmark.report == "_score.json"
    assert benchmarks.detect("vila_8b_COCO_VAL_score.json") is None


# --------------------------------------------------------------------------------------
# Where the reference raises
# --------------------------------------------------------------------------------------


def _frame(preds, answers):
    return pl.DataFrame({"index": [str(i) for i in range(len(preds))], "prediction": preds, "answer": answers})


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ("[]", "empty list"),
        ("('a cat',)", "not a list"),
        ("['a', 3]", "reference 1 is a int"),
        ("not a literal", "not a Python literal"),
        (None, "empty"),
    ],
)
def test_bad_answer_is_a_reference_error(answer, why):
    result = caption.grade(_frame(["a cat", "a dog"], ["['a cat']", answer]))
    rows = result.rows
    assert rows["status"].to_list() == ["ok", "bad_answer"]
    assert why in rows["reason"][1]
    assert rows["score"][1] is None and rows["score"][0] is not None
    assert result.report.row(0) == (None, None, None)
    assert "row 1" in result.stats["reference_error"]


def test_no_reference_word_is_a_reference_error():
    result = caption.grade(_frame(["a cat"], ["['  ']"]))
    assert result.report.row(0) == (None, None, None)
    assert "max()" in result.stats["reference_error"]


def test_missing_prediction_reads_nan():
    result = caption.grade(_frame([None], ["['nan']"]))
    assert result.report["Bleu"][0].to_list()[0] == pytest.approx(100.0)
    assert result.rows["rouge_l"][0] == 100.0


def test_bad_variant_and_columns():
    with pytest.raises(ValueError, match="unknown caption variant"):
        caption.grade(_frame(["a"], ["['a']"]), variant="2099")
    with pytest.raises(ValueError, match="no 'answer' column"):
        caption.grade(pl.DataFrame({"prediction": ["a"]}))
