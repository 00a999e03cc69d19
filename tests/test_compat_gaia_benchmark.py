"""``gf.GAIABenchmark``: task lookup and graded evaluation on a synthetic dataset, and
``gf.normalize_answer``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gaia_fast as gf
from gaia_fast.compat.gaia_benchmark import GAIABenchmark

ROWS = [
    {"task_id": "a1", "Question": "Capital of France?", "Level": 1, "Final answer": "Paris", "file_name": ""},
    {"task_id": "b2", "Question": "Name it.", "Level": 2, "Final answer": "Paris", "file_name": "sheet.xlsx"},
    {"task_id": "c3", "Question": "How many?", "Level": 3, "Final answer": "1250", "file_name": "gone.png"},
    {"task_id": "d4", "Question": "Which?", "Level": 2, "Final answer": "red, green, blue", "file_name": ""},
    {"task_id": "e5", "Question": "Hidden", "Level": 1, "Final answer": "?", "file_name": ""},
]


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    split = tmp_path / "GAIA" / "2023" / "validation"
    split.mkdir(parents=True)
    (split / "metadata.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    (split / "sheet.xlsx").write_bytes(b"PK")
    return tmp_path / "GAIA"


def test_lookup_methods(dataset):
    b = gf.GAIABenchmark(dataset)
    assert b.name == "GAIA"
    assert b.get_task_ids() == ["a1", "b2", "c3", "d4", "e5"]
    t = b.get_task("b2")
    assert (t.task_id, t.benchmark, t.question, t.answer, t.level) == ("b2", "GAIA", "Name it.", "Paris", 2)
    assert t.data["subset"] == "validation"
    assert t.data["file_path"] == str((dataset / "2023" / "validation" / "sheet.xlsx").resolve())
    assert b.get_task("c3").data["file_path"] is None  # named but not on disk
    assert "file_path" not in b.get_task("a1").data
    assert b.get_tasks_by_level(2) == ["b2", "d4"]
    assert b.get_tasks_by_level(3) == ["c3"]
    assert b.get_tasks_with_files() == ["b2", "c3"]
    info = b.get_task_info("a1")
    assert info["question"] == "Capital of France?" and info["final_answer"] == "Paris" and info["level"] == 1
    with pytest.raises(KeyError):
        b.get_task("zz")


@pytest.mark.parametrize(
    ("task_id", "answer", "score", "kind"),
    [
        ("a1", "Paris", 1.0, "exact"),
        ("a1", "  Paris ", 1.0, "exact"),
        ("a1", "PARIS", 0.95, "normalized"),  # level 1: case passes at 0.95
        ("b2", "PARIS", 0.9, "normalized"),  # level 2: lowercasing costs 0.1
        ("c3", "$1,250", 0.95, "normalized"),
        ("c3", "1251", None, "close"),
        ("d4", "blue, red, green", 0.9, "reordered"),
        ("d4", "red, green", None, "partial"),
        ("a1", "London", 0.0, "mismatch"),
        ("a1", None, 0.0, "mismatch"),
    ],
)
def test_evaluate_is_the_graded_scorer(dataset, task_id, answer, score, kind):
    b = GAIABenchmark(dataset)
    r = b.evaluate(task_id, answer)
    g = gf.graded_score(answer, b.get_task(task_id).answer, b.get_task(task_id).level)
    assert (r.score, r.score_explanation, r.kind) == (g.score, g.explanation, g.kind)
    assert r.kind == kind
    if score is not None:
        assert r.score == score
    else:
        assert 0.5 <= r.score < 0.95


def test_evaluate_non_str_output_and_hidden_answer(dataset):
    b = GAIABenchmark(dataset)
    assert b.evaluate("c3", 1250).score == 1.0  # str() of the output, as the original does
    with pytest.raises(ValueError, match="no public answer"):
        b.evaluate("e5", "x")


def test_bad_metadata_names_file_and_line(tmp_path):
    split = tmp_path / "2023" / "validation"
    split.mkdir(parents=True)
    (split / "metadata.jsonl").write_text(json.dumps(ROWS[0]) + "\n{not json\n")
    with pytest.raises(Exception, match=r"metadata\.jsonl:2"):
        GAIABenchmark(tmp_path)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The Answer is: 1,927!", "the answer is 1927"),
        ("Café", "caf"),
        ("  - 17 ", " 17"),
        ("a - b", "a  b"),
        ("line1\nline2", "line1 line2"),
        ("x\u00a0y", "x y"),
        ("日本", ""),
        (None, ""),
    ],
)
def test_normalize_answer_matches_the_ts_rule(text, expected):
    assert gf.normalize_answer(text) == expected
    if text is not None:
        from gaia_fast.reference.gaia import js_normalize

        assert js_normalize(text) == expected


def test_normalize_answer_rejects_non_text():
    with pytest.raises(TypeError):
        gf.normalize_answer(17)  # type: ignore[arg-type]
