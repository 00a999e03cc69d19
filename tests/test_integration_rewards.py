"""Reward functions in trl's GRPO convention: ``f(completions, prompts=..., **columns) ->
list[float | None]``, for plain and conversational completions, equal to gaia-fast's own
scorers row by row."""

from __future__ import annotations

import inspect

import pytest

import gaia_fast as gf
from gaia_fast.integrations.rewards import boxed_math_reward, completion_texts, gaia_reward, mcq_reward

ROWS = [
    ("Reasoning...\nFINAL ANSWER: 42.0", "42", 1),
    ("final answer: $1,250", "1250", 1),
    ("FINAL ANSWER: blue, red, green", "red, green, blue", 2),
    ("FINAL ANSWER: PARIS", "Paris", 2),
    ("FINAL ANSWER: 17000", "17", 1),
    ("no marker, just London", "London", 3),
    ("FINAL ANSWER: anything", "?", 1),
    ("FINAL ANSWER: x", None, 1),
]


def conversational(text: str) -> list[dict]:
    return [{"role": "assistant", "content": text}]


@pytest.mark.parametrize("as_chat", [False, True])
@pytest.mark.parametrize("graded", [False, True])
def test_gaia_reward_equals_the_scorers(as_chat, graded):
    completions = [conversational(c) if as_chat else c for c, _, _ in ROWS]
    truths = [t for _, t, _ in ROWS]
    levels = [lv for _, _, lv in ROWS]
    fn = gaia_reward(graded=graded)
    got = fn(completions, prompts=["q"] * len(ROWS), answer=truths, level=levels, task_id=list(range(len(ROWS))))
    assert fn.__name__ == ("gaia_graded_reward" if graded else "gaia_exact_reward")
    assert len(got) == len(ROWS) and all(v is None or isinstance(v, float) for v in got)
    for (text, truth, level), value in zip(ROWS, got):
        if truth is None or truth == "?":
            assert value is None
            continue
        answer = gf.scorers.gaia.last_final_answer(text)
        want = gf.graded_score(answer, truth, level).score if graded else float(gf.question_scorer(answer, truth))
        assert value == want, (text, truth)
    assert 0 < sum(v for v in got if v) < len(ROWS)


def test_reward_signature_is_trls():
    for fn in (gaia_reward(), mcq_reward(), boxed_math_reward()):
        params = inspect.signature(fn).parameters
        assert list(params)[0] == "completions" and any(p.kind is p.VAR_KEYWORD for p in params.values())


def test_missing_column_names_what_is_there():
    with pytest.raises(KeyError, match=r"column 'answer'.*columns given: level, prompts"):
        gaia_reward()(["x"], prompts=["q"], level=[1])
    with pytest.raises(ValueError, match="2 values in column 'gold' for 1 completions"):
        gaia_reward("gold")(["x"], gold=["a", "b"])


def test_mcq_reward():
    completions = ["The answer is B", conversational("I pick cat"), "no idea", "B"]
    got = mcq_reward()(completions, answer=["B", "B", "C", None], A=["cat"] * 4, B=["dog"] * 4, C=["bird"] * 4)
    texts = completion_texts(completions)
    want = [float(gf.vlm.can_infer(t, {"A": "cat", "B": "dog", "C": "bird"}) == a) for t, a in zip(texts[:3], ["B", "B", "C"])]
    assert got == [*want, None] and got[0] == 1.0 and got[1] == 0.0
    listed = mcq_reward()(["(A) yes"], answer=["A"], choices=[["yes", "no"]])
    assert listed == [1.0]


def test_boxed_math_reward():
    got = boxed_math_reward()([r"so \boxed{\frac{x^2-1}{x-1}}", r"\boxed{2} then \boxed{3}", "no box", "x"], answer=["x+1", "3", "1", None])
    assert got == [1.0, 1.0, 0.0, None]


def test_completion_texts_rejects_other_shapes():
    assert completion_texts([[{"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]]) == ["ab"]
    with pytest.raises(TypeError):
        completion_texts([42])
