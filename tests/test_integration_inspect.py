"""The Inspect scorers in a real ``inspect_ai.eval`` run (Inspect's mock model, offline),
and against ``inspect_evals``' own GAIA scorer on the GAIA conformance vectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gaia_fast as gf

pytest.importorskip("inspect_ai", reason="inspect-ai is not installed (extra gaia-fast[inspect])")

from inspect_ai import Task, eval  # noqa: E402
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.solver import generate  # noqa: E402

from gaia_fast.integrations.inspect_ai import gaia_scorer, graded_scorer, lenient_scorer  # noqa: E402

DATA = Path(__file__).parent / "data"

CASES = [
    ("How many?", "42", "42.0", 1),
    ("Cost?", "1250", "$1,250", 1),
    ("Colours?", "red, green, blue", "blue, red, green", 2),
    ("Bird?", "Sea Gull", "seagull", 2),
    ("City?", "Paris", "PARIS", 2),
    ("Count?", "17", "17000", 1),
    ("Which?", "apple; pear", "Apple, Pear", 3),
    ("Empty?", "x", "", 1),
]


def _output(text: str) -> ModelOutput:
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    out.usage = ModelUsage(input_tokens=5, output_tokens=3, total_tokens=8)
    return out


def test_eval_scores_every_sample_as_gaia_fast_does(tmp_path):
    samples = [Sample(input=q, target=t, id=i, metadata={"level": lv}) for i, (q, t, _, lv) in enumerate(CASES)]
    model = get_model("mockllm/model", custom_outputs=[_output(a) for _, _, a, _ in CASES])
    task = Task(dataset=samples, solver=generate(), scorer=[gaia_scorer(), lenient_scorer(), graded_scorer()])
    (log,) = eval(task, model=model, log_dir=str(tmp_path), display="none", max_samples=1)
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == len(CASES)
    for s in log.samples:
        answer, truth, level = s.output.completion, s.target, s.metadata["level"]
        assert isinstance(truth, str)
        got = s.scores
        assert got["gaia_scorer"].value == ("C" if gf.question_scorer(answer, truth) else "I")
        assert got["gaia_scorer"].explanation == gf.official_explained(answer, truth)[1]
        assert got["lenient_scorer"].value == ("C" if gf.lenient_match(answer, truth) else "I")
        g = gf.graded_score(answer, truth, level)
        assert (got["graded_scorer"].value, got["graded_scorer"].explanation, got["graded_scorer"].metadata) == (g.score, g.explanation, {"kind": g.kind})
    # The run's metric is the mean decision.
    correct = sum(gf.question_scorer(a, t) for _, t, a, _ in CASES)
    metrics = {(sc.name, m.name): m.value for sc in log.results.scores for m in sc.metrics.values()}
    assert metrics[("gaia_scorer", "accuracy")] == pytest.approx(correct / len(CASES))
    assert 0 < correct < len(CASES)


def test_same_decisions_as_inspect_evals_gaia_scorer():
    ie = pytest.importorskip("inspect_evals.gaia.scorer", reason="inspect-evals is not installed")
    rows = [json.loads(x) for x in (DATA / "gaia_official.jsonl").read_text().splitlines()]
    compared = 0
    for r in rows:
        pred, truth = r["prediction"], r["truth"]
        if pred is None or truth is None:
            continue  # inspect_evals' scorer raises on None
        theirs, explanation = ie.question_scorer(model_answer=pred, ground_truth=truth)
        assert gf.question_scorer(pred, truth) == theirs, (pred, truth)
        compared += 1
    assert compared > 19000
