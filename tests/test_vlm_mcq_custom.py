"""MedQ-Bench MCQ, MedQ-DEG-Bench and VisuLogic (``scorers/vlm/mcq_custom.py``) against the
reports VLMEvalKit's own evaluate wrote for the same archives (see
``tests/data/vlmevalkit_mcq_families/README.md``), cell by cell."""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.io.writers import write_report
from gaia_fast.scorers.vlm import mcq_custom

DATA = Path(__file__).parent / "data" / "vlmevalkit_mcq_families"
EXPECTED = DATA / "expected"


def _grade(dataset: str):
    entry = benchmarks.for_dataset(dataset)
    assert entry is not None and entry.module == "gaia_fast.scorers.vlm.mcq_custom"
    return entry, mcq_custom.grade(read_result_table(DATA / f"m_{dataset}.xlsx"), **entry.options)


@pytest.mark.parametrize("dataset", ["MedqbenchMCQ_dev", "MedQDEGBench_good_dev"])
def test_score_json_matches_vlmevalkit(dataset, tmp_path):
    entry, result = _grade(dataset)
    assert entry.report == "_score.json"
    path = tmp_path / f"m_{dataset}{entry.report}"
    write_report(result.report, path)
    ours = json.loads(path.read_text(encoding="utf-8"))
    theirs = json.loads((EXPECTED / f"m_{dataset}_score.json").read_text(encoding="utf-8"))
    assert list(ours) == list(theirs)
    assert ours == theirs  # every value, exactly (ints stay ints)
    assert result.rows.height == read_result_table(DATA / f"m_{dataset}.xlsx").height


def test_visulogic_matches_vlmevalkit():
    _, result = _grade("VisuLogic")
    theirs = pl.read_csv(EXPECTED / "m_VisuLogic_exact_matching_acc.csv", infer_schema_length=0)
    assert result.report.columns == theirs.columns
    for a, b in zip(result.report.iter_rows(), theirs.iter_rows()):
        assert a[0] == b[0] and a[1] == int(b[1]) and a[2] == int(b[2]) and a[3] == float(b[3])
    assert result.stats.get("reference_error") is None


def test_visulogic_missing_category_is_the_reference_error():
    frame = read_result_table(DATA / "m_VisuLogic.xlsx")
    result = mcq_custom.grade(frame.filter(pl.col("category") != "Other"), benchmark="visulogic")
    assert "ZeroDivisionError" in result.stats["reference_error"]
    assert result.report.filter(pl.col("category") == "Other")["acc"][0] is None


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("Answer: \\boxed{B}", "B"),
        ("\\boxed{A} then \\boxed{\\text{C}}", "C"),
        ("Answer: \\boxed{$LETTER}", "Z"),  # a template: the whole text, no phrase
        ("The answer is: d.", "D"),
        ("(A)\nbecause", "A"),
        ("I choose B.", "B"),
        ("x", "Z"),
    ],
)
def test_visulogic_answer(text, letter):
    assert mcq_custom.visulogic_answer(text)[0] == letter


@pytest.mark.parametrize(
    ("pred", "letters", "out"),
    [
        ("b", "ABCD", "B"),
        ("B. Moderate", "ABCD", "B"),
        ("option C, I think", "ABCD", "C"),
        ("I pick D here", "ABCD", "D"),
        ("E", "ABCD", "E"),  # not a letter of the set: the prediction itself
        ("E", "ABCDE", "E"),
        ("none of these", "ABCD", "none of these"),
        (None, "ABCD", None),
        (float("nan"), "ABCD", None),
    ],
)
def test_medq_letter(pred, letters, out):
    assert mcq_custom.medq_letter(pred, letters) == out


def test_no_judge_no_variant():
    frame = read_result_table(DATA / "m_VisuLogic.xlsx")
    with pytest.raises(ValueError, match="no judge"):
        mcq_custom.grade(frame, benchmark="visulogic", judge=lambda p: "A")
    with pytest.raises(ValueError, match="single rule"):
        mcq_custom.grade(frame, benchmark="visulogic", variant="classic")
    assert not math.isnan(_grade("VisuLogic")[1].stats["accuracy"])


@pytest.mark.parametrize("dataset", ["PuzzleVQA", "VisualPuzzles"])
def test_puzzles_match_vlmevalkit(dataset):
    _, result = _grade(dataset)
    theirs = pl.read_csv(EXPECTED / f"m_{dataset}_exact_matching_acc.csv", infer_schema_length=0)
    assert result.report.columns == theirs.columns
    assert result.report.height == theirs.height
    for a, b in zip(result.report.iter_rows(named=True), theirs.iter_rows(named=True)):
        for c in theirs.columns:
            if c in ("tot", "hit"):
                assert a[c] == int(b[c]), (c, a, b)
            elif c == "acc":
                assert a[c] == float(b[c]), (c, a, b)
            else:
                assert a[c] == b[c], (c, a, b)
    assert result.stats.get("reference_error") is None


def test_puzzlevqa_answer_outside_the_options_is_the_reference_error():
    frame = read_result_table(DATA / "m_PuzzleVQA.xlsx")
    bad = frame.with_columns(pl.when(pl.int_range(pl.len()) == 3).then(pl.lit("nowhere")).otherwise(pl.col("answer")).alias("answer"))
    result = mcq_custom.grade(bad, benchmark="puzzlevqa")
    assert "row 5" in result.stats["reference_error"]
    assert result.rows["status"][3] == "error" and result.rows["score"][3] is None
    assert result.rows.height == frame.height


@pytest.mark.parametrize(
    ("text", "out"),
    [("Answer: b", "b"), ("answer: A. Final Answer: C", "C"), ("ANSWER : D!", "D"), ("answer: Bx", "Z"), ("no", "Z"), (None, None), (3.0, None)],
)
def test_answer_colon(text, out):
    assert mcq_custom.answer_colon(text) == out


def test_option_letter():
    assert mcq_custom.option_letter("['1', 2, 'red']", "2") == "B"
    assert mcq_custom.option_letter("['1', 2, 'red']", " red ") == "C"
    assert mcq_custom.option_letter("['1']", "9") is None
    assert mcq_custom.option_letter("not a list", "1") is None


def _keys(obj):
    return {k: _keys(v) for k, v in obj.items()} if isinstance(obj, dict) else None


@pytest.mark.parametrize(("variant", "commit"), [("2024-09", "5b288984"), ("2025-10", "55fba747"), ("2026-06", "e8e78f05")])
def test_mme_realworld_rating_matches_vlmevalkit(variant, commit, tmp_path):
    entry = benchmarks.for_dataset("MME-RealWorld")
    assert entry.report == "_rating.json"
    frame = read_result_table(DATA / "m_MME-RealWorld.xlsx")
    result = mcq_custom.grade(frame, variant=variant, **entry.options)
    assert result.stats["reference_error"] is None
    path = tmp_path / "rating.json"
    write_report(result.report, path)
    ours = json.loads(path.read_text(encoding="utf-8"))
    theirs = json.loads((EXPECTED / f"m_MME-RealWorld_rating.{commit}.json").read_text(encoding="utf-8"))
    assert _keys(ours) == _keys(theirs) and json.dumps(_keys(ours)) == json.dumps(_keys(theirs))  # same keys, same order
    assert ours == theirs  # every number (an empty subtask's Avg is 0 upstream, 0.0 here: equal values)


def test_mme_realworld_eras():
    entry = benchmarks.get("mme-realworld")
    assert [entry.variant_on(d) for d in ("2024-09-11", "2025-09-12", "2025-10-29", "2026-06-17")] == ["2024-09", "2025-09", "2025-10", "2026-06"]
    frame = read_result_table(DATA / "m_MME-RealWorld.xlsx")
    with pytest.raises(ValueError, match="raised on every file"):
        mcq_custom.grade(frame, benchmark="mme-realworld", variant="2025-09")
    with pytest.raises(ValueError, match="raised on every file"):
        mcq_custom.grade(frame.with_columns(pl.lit("[]").alias("target_instances")), benchmark="mme-realworld", variant="2025-09")
    # 2024-09: an index outside 0..n-1 makes upstream append a row and fail.
    shifted = frame.with_columns((pl.col("index").cast(pl.Int64) + 1000).alias("index"))
    assert "not a row label" in mcq_custom.grade(shifted, benchmark="mme-realworld", variant="2024-09").stats["reference_error"]
    # A prediction that is not text: upstream raises.
    nan = frame.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(None).otherwise(pl.col("prediction")).alias("prediction"))
    res = mcq_custom.grade(nan, benchmark="mme-realworld")
    assert "not text" in res.stats["reference_error"] and set(res.rows["status"].to_list()) == {"error"}


@pytest.mark.parametrize(
    ("text", "variant", "out"),
    [("Best answer: D", "2025-10", "B"), ("Best answer: D", "2026-06", "D"), ("", "2026-06", "A"), ("(c)", "2026-06", "C"), ("x " * 12, "2026-06", "")],
)
def test_extract_characters_regex(text, variant, out):
    assert mcq_custom.extract_characters_regex(text, variant) == out


def test_a4bench_matches_vlmevalkit():
    _, result = _grade("A4Bench")
    theirs = pl.read_csv(EXPECTED / "m_A4Bench_acc.csv", infer_schema_length=0)
    assert result.report.columns == theirs.columns == ["Accuracy"]
    assert result.report["Accuracy"][0] == float(theirs["Accuracy"][0])
    assert result.stats["reference_error"] is None


def test_a4bench_free_text_is_the_reference_error():
    frame = read_result_table(DATA / "m_A4Bench.xlsx")
    bad = frame.with_columns(pl.when(pl.int_range(pl.len()) == 2).then(pl.lit("A and C")).otherwise(pl.col("prediction")).alias("prediction"))
    result = mcq_custom.grade(bad, benchmark="a4bench")
    assert "row 4" in result.stats["reference_error"] and result.rows["status"][2] == "error"
    assert mcq_custom.a4bench_match("['B', 'A']", "('A', 'B')") is True
    assert mcq_custom.a4bench_match("['A', 1]", "['A', 1]") is None  # unsortable: upstream raises


def test_omniearth_matches_vlmevalkit():
    _, result = _grade("OmniEarth-Bench")
    theirs = pl.read_csv(EXPECTED / "m_OmniEarth-Bench_acc.csv", infer_schema_length=0)
    assert result.report.columns == theirs.columns
    assert len(theirs.columns) > 9  # Overall macro sums more than 8 values: NumPy's pairwise order
    assert [float(v) for v in theirs.row(0)] == list(result.report.row(0))
    assert result.stats["reference_error"] is None


@pytest.mark.parametrize(
    ("text", "out"),
    [("The answer is (B)", "B"), ("Based on the image, C", "ABCDEG"), ("none", ""), ("a c", ""), ("A C", "AC"), ("Best answer: D", "ABDE")],
)
def test_omniearth_letters(text, out):
    assert mcq_custom.omniearth_letters(text) == out
