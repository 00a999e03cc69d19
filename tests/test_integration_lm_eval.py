"""gaia-fast filters and metrics in a real ``lm_eval.simple_evaluate`` run on a local task,
offline: the harness's dummy model, and a model that answers each document as written."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import gaia_fast as gf

pytest.importorskip("lm_eval", reason="lm-eval is not installed (extra gaia-fast[lm-eval])")

import lm_eval  # noqa: E402
from lm_eval.api.model import LM  # noqa: E402
from lm_eval.tasks import TaskManager  # noqa: E402

import gaia_fast.integrations.lm_eval as gle  # noqa: E402

DOCS = [
    {"question": "How many?", "answer": "42", "response": "Let me think.\nFINAL ANSWER: 42.0"},
    {"question": "Cost?", "answer": "1250", "response": "final answer: $1,250"},
    {"question": "Colours?", "answer": "red, green, blue", "response": "FINAL ANSWER: blue, red, green"},
    {"question": "Bird?", "answer": "Sea Gull", "response": "Final Answer: seagull"},
    {"question": "Count?", "answer": "17", "response": "I think FINAL ANSWER: 1 and then FINAL ANSWER: 17000"},
    {"question": "None?", "answer": "x", "response": "no marker here"},
]

MATH = [
    {"question": "Simplify", "answer": "x+1", "response": r"so \boxed{\frac{x^2-1}{x-1}}"},
    {"question": "Half", "answer": r"\frac{1}{2}", "response": r"\boxed{0.5} or \boxed{0.25}"},
    {"question": "None", "answer": "3", "response": "three"},
]

MCQ = [
    {"question": "Pick", "A": "cat", "B": "dog", "C": "bird", "answer": "B", "response": "The answer is B"},
    {"question": "Pick", "A": "cat", "B": "dog", "C": "bird", "answer": "A", "response": "I would say dog."},
    {"question": "Pick", "A": "cat", "B": "dog", "C": "bird", "answer": "C", "response": "no idea"},
]


class Scripted(LM):
    """Answers each document with its ``response`` field."""

    def generate_until(self, requests, disable_tqdm: bool = False):
        return [r.doc["response"] for r in requests]

    def loglikelihood(self, requests, disable_tqdm: bool = False):  # pragma: no cover - not used
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):  # pragma: no cover - not used
        raise NotImplementedError


def write_task(folder: Path, name: str, docs: list[dict], filters: list[str], metrics: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / f"{name}.jsonl"
    data.write_text("".join(json.dumps(d) + "\n" for d in docs))
    filter_yaml = "".join(f"      - function: {f}\n" for f in [*filters, "take_first"])
    metric_yaml = "".join(f"  - metric: {m}\n    aggregation: mean\n    higher_is_better: true\n" for m in metrics)
    (folder / f"{name}.yaml").write_text(
        f"task: {name}\n"
        "dataset_path: json\n"
        f"dataset_kwargs:\n  data_files:\n    test: {data}\n"
        "test_split: test\n"
        "output_type: generate_until\n"
        'doc_to_text: "{{question}}"\n'
        'doc_to_target: "{{answer}}"\n'
        "generation_kwargs:\n  until: []\n"
        f"filter_list:\n  - name: gf\n    filter:\n{filter_yaml}"
        f"metric_list:\n{metric_yaml}"
    )


@pytest.fixture(autouse=True)
def offline(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-cache"))


def run(tmp_path: Path, name: str, docs, filters, metrics, model) -> dict:
    write_task(tmp_path / "tasks", name, docs, filters, metrics)
    out = lm_eval.simple_evaluate(model=model, tasks=[name], task_manager=TaskManager(include_path=str(tmp_path / "tasks")), log_samples=True)
    return out


def test_gaia_final_answer_filter_and_metrics(tmp_path):
    out = run(tmp_path, "gf_gaia", DOCS, ["gaia_final_answer"], ["gaia_exact", "gaia_graded"], Scripted())
    samples = sorted(out["samples"]["gf_gaia"], key=lambda s: s["doc_id"])
    expected_answers = ["42.0", "$1,250", "blue, red, green", "seagull", "17000", "no marker here"]
    assert [s["filtered_resps"][0] for s in samples] == expected_answers
    for s, doc, ans in zip(samples, DOCS, expected_answers):
        assert s["gaia_exact"] == (1.0 if gf.question_scorer(ans, doc["answer"]) else 0.0)
        assert s["gaia_graded"] == gf.graded_score(ans, doc["answer"]).score
    res = out["results"]["gf_gaia"]
    exact = [1.0 if gf.question_scorer(a, d["answer"]) else 0.0 for a, d in zip(expected_answers, DOCS)]
    assert res["gaia_exact,gf"] == pytest.approx(sum(exact) / len(exact))
    assert 0 < sum(exact) < len(exact)


def test_with_the_harness_dummy_model(tmp_path):
    from lm_eval.models.dummy import DummyLM

    out = run(tmp_path, "gf_dummy", DOCS, ["gaia_final_answer"], ["gaia_exact"], DummyLM())
    samples = out["samples"]["gf_dummy"]
    assert len(samples) == len(DOCS)
    assert all(s["filtered_resps"][0] == "lol" and s["gaia_exact"] == 0.0 for s in samples)
    assert out["results"]["gf_dummy"]["gaia_exact,gf"] == 0.0


def test_boxed_filter_and_olympiad_metric(tmp_path):
    out = run(tmp_path, "gf_math", MATH, ["boxed"], ["olympiad_equal"], Scripted())
    samples = sorted(out["samples"]["gf_math"], key=lambda s: s["doc_id"])
    assert [s["filtered_resps"][0] for s in samples] == [r"\frac{x^2-1}{x-1}", "0.25", ""]
    got = [s["olympiad_equal"] for s in samples]
    want = [1.0 if gf.math.olympiad_equal(s["filtered_resps"][0], d["answer"]) else 0.0 for s, d in zip(samples, MATH)]
    assert got == want and got[0] == 1.0 and got[2] == 0.0


def test_vlmeval_mcq_filter(tmp_path):
    out = run(tmp_path, "gf_mcq", MCQ, ["vlmeval_mcq"], ["exact_match"], Scripted())
    samples = sorted(out["samples"]["gf_mcq"], key=lambda s: s["doc_id"])
    letters = [s["filtered_resps"][0] for s in samples]
    assert letters == [gf.vlm.can_infer(d["response"], {k: d[k] for k in "ABC"}) or "Z" for d in MCQ]
    assert letters[0] == "B" and letters[2] == "Z"
    assert math.isclose(out["results"]["gf_mcq"]["exact_match,gf"], sum(le == d["answer"] for le, d in zip(letters, MCQ)) / 3)


def test_final_answer_rule():
    assert gle.final_answer("a FINAL ANSWER: x FINAL ANSWER:  y ") == "y"
    assert gle.final_answer("  plain  ") == "plain"
    assert gle.final_answer("Final   answer : 3") == "3"
