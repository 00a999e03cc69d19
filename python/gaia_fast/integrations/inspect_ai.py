"""gaia-fast scorers for Inspect (``inspect-ai``; extra ``gaia-fast[inspect]``).

::

    from inspect_ai import Task, eval
    from gaia_fast.integrations.inspect_ai import gaia_scorer, graded_scorer, lenient_scorer

    Task(dataset=..., solver=..., scorer=gaia_scorer())              # the leaderboard's rule
    Task(dataset=..., solver=..., scorer=[gaia_scorer(), graded_scorer()])

Each scorer reads the model's whole completion (``state.output.completion``, as
``inspect_evals``' GAIA scorer does) against ``target.text`` and returns an Inspect
``Score``: ``CORRECT``/``INCORRECT`` for ``gaia_scorer`` (the same decision as
``gf.question_scorer``) and ``lenient_scorer`` (``gf.lenient_match``), the 0-1 grade for
``graded_scorer`` (``gf.graded_score``, with its band in ``metadata["kind"]``). The
explanation is gaia-fast's reason for the decision. Metrics: accuracy and its standard error.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState

from gaia_fast import _native
from gaia_fast.scorers.gaia import graded_score, official_explained

__all__ = ["gaia_scorer", "graded_scorer", "lenient_scorer"]


def _level(state: TaskState, level_key: str | None) -> int | None:
    if level_key is None:
        return None
    v: Any = (state.metadata or {}).get(level_key)
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.isdigit():
        return int(v)
    return None


@scorer(metrics=[accuracy(), stderr()])
def gaia_scorer() -> Scorer:
    """The GAIA leaderboard's ``question_scorer`` on the completion."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion
        ok, reason = official_explained(answer, target.text)
        return Score(value=CORRECT if ok else INCORRECT, answer=answer, explanation=reason)

    return score


@scorer(metrics=[accuracy(), stderr()])
def lenient_scorer() -> Scorer:
    """The TypeScript agents' bidirectional-substring rule (``gf.lenient_match``)."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion
        ok = _native.lenient_match(answer, target.text)
        return Score(value=CORRECT if ok else INCORRECT, answer=answer, explanation=_native.lenient_reason(answer, target.text))

    return score


@scorer(metrics=[accuracy(), stderr()])
def graded_scorer(level_key: str | None = "level") -> Scorer:
    """gaia-fast's graded 0-1 score; the task's level (for the case rule) is read from the
    sample's metadata under ``level_key``."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion
        g = graded_score(answer, target.text, _level(state, level_key))
        return Score(value=g.score, answer=answer, explanation=g.explanation, metadata={"kind": g.kind})

    return score
