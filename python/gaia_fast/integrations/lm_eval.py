"""gaia-fast filters and metrics for lm-evaluation-harness (``lm-eval``; extra
``gaia-fast[lm-eval]``).

Importing this module registers them with the harness; a task YAML then names them::

    filter_list:
      - name: final-answer
        filter:
          - function: gaia_final_answer      # or: boxed, vlmeval_mcq
          - function: take_first
    metric_list:
      - metric: gaia_exact                   # or: gaia_graded, olympiad_equal
        aggregation: mean
        higher_is_better: true

Run from Python after ``import gaia_fast.integrations.lm_eval``, or from the ``lm_eval`` CLI
with a ``utils.py`` beside the YAML that imports it.

Filters (each maps every response of every document):

- ``gaia_final_answer``: the text after the last ``FINAL ANSWER:`` (any case; GAIA's prompt
  template), stripped; a response without the marker is kept whole, stripped.
- ``boxed``: the content of the last ``\\boxed{…}`` (balanced braces, as
  ``gf.vlm.extract_boxed``), or ``""`` when there is none.
- ``vlmeval_mcq``: VLMEvalKit's ``can_infer`` letter (``variant=`` as the filter's
  argument, default ``classic``) from the document's option columns ``A``, ``B``, … (or a
  ``choices`` list), ``"Z"`` when no option can be told; ``""`` for a document without options.

Metrics (``references``/``predictions`` of one document, the harness's convention):

- ``gaia_exact``: 1.0 when the GAIA leaderboard's ``question_scorer`` accepts the answer.
- ``gaia_graded``: gaia-fast's graded 0–1 score.
- ``olympiad_equal``: OlympiadBench's equivalence (``gf.math.olympiad_equal``; SymPy in
  worker processes, with its hard per-item timeout).
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from typing import Any

from lm_eval.api.filter import Filter
from lm_eval.api.registry import register_filter, register_metric

from gaia_fast.scorers.gaia import graded_score, last_final_answer, question_scorer

__all__ = ["BoxedFilter", "GaiaFinalAnswerFilter", "VlmevalMcqFilter", "gaia_exact", "gaia_graded", "olympiad_equal"]

#: What follows the last ``FINAL ANSWER:`` marker, stripped (the whole text without one).
final_answer = last_final_answer


def _map(resps: Iterable[Any], fn) -> list[list[Any]]:
    return [[fn(r) if isinstance(r, str) else r for r in rs] for rs in resps]


@register_filter("gaia_final_answer")
class GaiaFinalAnswerFilter(Filter):
    """GAIA's ``FINAL ANSWER: …`` template."""

    def apply(self, resps, docs):
        return _map(resps, final_answer)


@register_filter("boxed")
class BoxedFilter(Filter):
    """The last ``\\boxed{…}``."""

    def apply(self, resps, docs):
        from gaia_fast.scorers.vlm.physics import extract_boxed

        def last(text: str) -> str:
            found = extract_boxed(text)
            return found[-1] if found else ""

        return _map(resps, last)


@register_filter("vlmeval_mcq")
class VlmevalMcqFilter(Filter):
    """VLMEvalKit's multiple-choice letter."""

    def __init__(self, variant: str = "classic", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.variant = variant

    @staticmethod
    def _choices(doc: dict[str, Any]) -> dict[str, str]:
        listed = doc.get("choices")
        if isinstance(listed, (list, tuple)):
            return {string.ascii_uppercase[i]: str(c) for i, c in enumerate(listed) if c is not None}
        return {k: str(doc[k]) for k in string.ascii_uppercase if doc.get(k) is not None and str(doc[k]) != "nan"}

    def apply(self, resps, docs):
        from gaia_fast.scorers.vlm.mcq import can_infer

        out = []
        for rs, doc in zip(resps, docs):
            choices = self._choices(doc)
            out.append([(can_infer(r, choices, variant=self.variant) or "Z") if choices and isinstance(r, str) else ("" if not choices else r) for r in rs])
        return out


def _pair(references: list[Any], predictions: list[Any]) -> tuple[str | None, str]:
    (truth,), (pred,) = references, predictions
    if isinstance(pred, (list, tuple)) and len(pred) == 1:  # a filter chain without take_first
        (pred,) = pred
    return pred, str(truth)


@register_metric(metric="gaia_exact", higher_is_better=True, output_type="generate_until", aggregation="mean")
def gaia_exact(references: list[Any], predictions: list[Any], **kwargs: Any) -> float:
    pred, truth = _pair(references, predictions)
    return 1.0 if question_scorer(pred, truth) else 0.0


@register_metric(metric="gaia_graded", higher_is_better=True, output_type="generate_until", aggregation="mean")
def gaia_graded(references: list[Any], predictions: list[Any], level: int | None = None, **kwargs: Any) -> float:
    pred, truth = _pair(references, predictions)
    return graded_score(pred, truth, level).score


@register_metric(metric="olympiad_equal", higher_is_better=True, output_type="generate_until", aggregation="mean")
def olympiad_equal(references: list[Any], predictions: list[Any], precision: float = 1e-8, **kwargs: Any) -> float:
    from gaia_fast.math.olympiad import olympiad_equal as equal

    pred, truth = _pair(references, predictions)
    return 1.0 if equal(pred or "", truth, precision=precision) else 0.0
