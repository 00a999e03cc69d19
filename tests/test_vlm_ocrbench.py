"""OCRBench (VLMEvalKit OCRBench.evaluate): the hit rule natively and in the pure-Python
twin, the report, the archive's own `_score.json` of VILA-1.5 8B through the library and
the CLI (one file and a tree)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from _vlm_cli import grade_one_file
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gaia_fast import benchmarks
from gaia_fast.cli import main
from gaia_fast.io.vlm import read_result_table
from gaia_fast.reference import vlm_ocrbench as twin
from gaia_fast.scorers.vlm import ocrbench

SAMPLE = Path(__file__).parent / "data" / "vlmevalkit_ocr_caption" / "vila_8b"
HME = twin.HME


def _expected() -> dict:
    return json.loads((SAMPLE / "vila_8b_OCRBench_score.json").read_text())


# --------------------------------------------------------------------------------------
# The rule: upstream's edge cases
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prediction", "answers", "category", "hit"),
    [
        ('The word "Centre" is written.', ["CENTRE"], "Regular Text Recognition", 0),
        ("The word is centrie.", ["CENTRE"], "Regular Text Recognition", None),
        ("first\nsecond", ["FIRST SECOND"], "Scene Text-centric VQA", 0),
        ("abc", ["zzz", " ABC\t"], "Doc-oriented VQA", 1),
        ("abc", [], "Doc-oriented VQA", None),
        # An answer that normalises to nothing is in every prediction.
        ("anything", ["  \n "], "Key Information Extraction", 0),
        # Handwritten math: case kept, spaces and newlines dropped, other whitespace kept.
        ("x ^ { 2 }\n+ 1", ["x^{2}+1"], HME, 0),
        ("X^{2}", ["x^{2}"], HME, None),
        ("a\tb", ["ab"], HME, None),
        ("a\tb", ["a\tb"], HME, 0),
        # Case folding is Python's: İ lowers to i + combining dot, final sigma.
        ("İstanbul", ["i̇stanbul"], "Regular Text Recognition", 0),
        ("ΟΔΟΣ", ["οδος"], "Regular Text Recognition", 0),
        ("ΟΔΟΣ", ["οδοσ"], "Regular Text Recognition", None),
        # Python strip: U+001C and U+3000 are whitespace; U+200B is not.
        ("x", ["\x1cx\u3000"], "Regular Text Recognition", 0),
        ("x", ["\u200bx"], "Regular Text Recognition", None),
    ],
)
def test_rule_cases(prediction, answers, category, hit):
    assert twin.ocrbench_hit(prediction, answers, category) == hit
    assert ocrbench.ocrbench_hit(prediction, answers, category) == hit


_ANY = st.characters(blacklist_categories=("Cs",))
_TEXT = st.text(st.one_of(_ANY, st.sampled_from(list(" \n\t\x1cAaΣσςİi\u0307\u3000x"))), max_size=12)


@settings(max_examples=400, deadline=None)
@given(_TEXT, st.lists(_TEXT, max_size=4), st.sampled_from([HME, "Regular Text Recognition", "other"]))
@example("ΑΣ b", ["ας"], "other")
@example(" a \n b ", ["a  b"], "other")
def test_native_equals_twin(prediction, answers, category):
    # Substrings of the prediction make hits likely.
    answers = answers + [prediction[1:4]]
    assert ocrbench.ocrbench_hit(prediction, answers, category) == twin.ocrbench_hit(prediction, answers, category)


# --------------------------------------------------------------------------------------
# The archive: report and rows
# --------------------------------------------------------------------------------------


def test_grade_equals_archive():
    frame = read_result_table(SAMPLE / "vila_8b_OCRBench.xlsx")
    result = ocrbench.grade(frame)
    assert result.report.row(0, named=True) == _expected()
    assert list(result.report.columns) == list(_expected())
    rows = result.rows
    assert rows.height == 1000
    assert {"prediction", "extracted", "rule", "score", "status", "reason"} <= set(rows.columns)
    assert int(rows["score"].sum()) == _expected()["Final Score"] == result.stats["correct"]
    hit = rows.filter(pl.col("score") == 1.0).row(0, named=True)
    assert hit["extracted"] is not None and hit["reason"].startswith("answer ")
    assert set(rows.filter(pl.col("category") == HME)["rule"]) == {"handwritten-math"}


def test_twin_report_equals_archive():
    import ast

    frame = read_result_table(SAMPLE / "vila_8b_OCRBench.xlsx")
    got = twin.ocrbench_report(
        frame["prediction"].fill_null("nan").to_list(),
        [ast.literal_eval(a) for a in frame["answer"]],
        frame["category"].to_list(),
    )
    assert got == _expected()


def test_cli_one_file_auto(tmp_path, monkeypatch):
    rows = grade_one_file(SAMPLE / "vila_8b_OCRBench.xlsx", tmp_path, monkeypatch)
    assert (tmp_path / "vila_8b_OCRBench_score.json").read_bytes() == (SAMPLE / "vila_8b_OCRBench_score.json").read_bytes()
    assert rows.height == 1000 and "extracted" in rows.columns


def test_cli_forced_benchmark_and_acc_path(tmp_path):
    r = CliRunner().invoke(
        main,
        ["grade", str(SAMPLE / "vila_8b_OCRBench.xlsx"), "--benchmark", "ocrbench", "--acc", str(tmp_path / "r.json"), "--json"],
        catch_exceptions=False,
    )
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "r.json").read_text()) == _expected()


def test_cli_tree_writes_both_score_json(tmp_path):
    root = tmp_path / "outputs" / "vila_8b"
    root.mkdir(parents=True)
    for name in ("vila_8b_OCRBench.xlsx", "vila_8b_OCRBench_score.json", "vila_8b_COCO_VAL.xlsx", "vila_8b_COCO_VAL_score.json"):
        shutil.copy(SAMPLE / name, root)
    reports = tmp_path / "reports"
    r = CliRunner().invoke(main, ["grade", str(tmp_path / "outputs"), "--json", "--report-dir", str(reports)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    payload = json.loads(r.stdout)
    archives = {a["dataset"]: a for a in payload["archives"]}
    assert set(archives) == {"OCRBench", "COCO_VAL"}
    for dataset, bench in (("OCRBench", "ocrbench"), ("COCO_VAL", "coco-caption")):
        a = archives[dataset]
        assert (a["benchmark"], a["status"], a["variant"]) == (bench, "ok", "classic")
        assert Path(a["report"]) == reports / "vila_8b" / f"vila_8b_{dataset}_score.json"
        assert Path(a["report"]).read_bytes() == (SAMPLE / f"vila_8b_{dataset}_score.json").read_bytes()
    skipped = {Path(s["path"]).name for s in payload["skipped_files"]}
    assert {"vila_8b_OCRBench_score.json", "vila_8b_COCO_VAL_score.json"} <= skipped


@pytest.mark.parametrize(
    ("name", "bench"),
    [("vila_8b_OCRBench.xlsx", "ocrbench"), ("m_OCRBench_MINI.tsv", "ocrbench")],
)
def test_detect(name, bench):
    found = benchmarks.detect(name)
    assert found is not None and found.benchmark.name == bench


def test_ocrbench_v2_is_not_ocrbench():
    found = benchmarks.detect("m_OCRBench_v2.xlsx")
    assert found is not None and found.benchmark.name == "ocrbench_v2"
    assert benchmarks.unsupported("m_OCRBench_v2.xlsx", listed_only=True) is None


# --------------------------------------------------------------------------------------
# Where the reference raises or reads oddly
# --------------------------------------------------------------------------------------


def _frame(preds, answers, cats):
    return pl.DataFrame({"prediction": preds, "answer": answers, "category": cats})


def test_string_answer_is_iterated_by_character():
    # eval("'xyz'") is a str: upstream's loop takes its characters as the answers.
    result = ocrbench.grade(_frame(["only z here"], ["'qz'"], ["Doc-oriented VQA"]))
    assert result.rows["extracted"].to_list() == ["z"]
    assert result.report["Doc-oriented VQA"][0] == 1


def test_non_string_answer_after_a_hit_is_fine():
    result = ocrbench.grade(_frame(["abc", "abc"], ["['abc', 3]", "['zzz', 3]"], ["Doc-oriented VQA"] * 2))
    assert result.rows["status"].to_list() == ["ok", "bad_answer"]
    assert result.rows["score"].to_list() == [1.0, None]
    assert "answer 1 is a int" in result.rows["reason"][1]
    assert result.stats["reference_error"] and result.report["Final Score"][0] is None


@pytest.mark.parametrize("answer", ["[unparsed", None, "42"])
def test_bad_answer_cells(answer):
    result = ocrbench.grade(_frame(["abc"], [answer], ["Doc-oriented VQA"]))
    assert result.rows["status"].to_list() == ["bad_answer"]
    assert result.report.row(0) == (None,) * 7


def test_unknown_category_hit_raises_upstream_miss_does_not():
    miss = ocrbench.grade(_frame(["abc"], ["['zzz']"], ["Other"]))
    assert miss.stats["reference_error"] is None and miss.report["Final Score"][0] == 0
    hit = ocrbench.grade(_frame(["abc"], ["['abc']"], ["Other"]))
    assert hit.rows["status"].to_list() == ["unknown_category"]
    assert "KeyError" in hit.stats["reference_error"]


def test_missing_prediction_reads_nan():
    result = ocrbench.grade(_frame([None], ["['NaN']"], ["Regular Text Recognition"]))
    assert result.report["Text Recognition"][0] == 1


def test_bad_variant_and_columns():
    with pytest.raises(ValueError, match="unknown OCRBench variant"):
        ocrbench.grade(_frame(["a"], ["['a']"], [HME]), variant="x")
    with pytest.raises(ValueError, match="no 'category' column"):
        ocrbench.grade(pl.DataFrame({"prediction": ["a"], "answer": ["['a']"]}))
