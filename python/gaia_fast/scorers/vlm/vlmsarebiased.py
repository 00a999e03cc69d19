"""VLMs Are Biased (vlms_are_biased_main): exact or digit-only match of the prediction with
``ground_truth`` and with ``expected_bias``; accuracy and bias ratio, overall and per topic
(``VLMsAreBiased.evaluate``).

Reference: open-compass/VLMEvalKit ``vlms_are_biased_process_results`` /
``vlms_are_biased_aggregate_by_topic`` (``vlmeval/dataset/utils/vlmsarebiased.py``, added
6410ee64, 2026-02-03; 401916c0 only restyled it):

* ``str(cell).strip()`` of ``prediction``, ``ground_truth``, ``expected_bias`` (a missing
  column is ``''``, a missing cell ``'nan'``), each lower-cased, ``{}`` stripped from the ends,
  stripped again; right when prediction equals the truth, biased when it equals the expected
  bias; when neither, the texts' digits (``str.isdigit``) are compared instead, where the
  prediction and the other side have any;
* ``{stem}_metrics.json``: ``overall_acc``, ``macro_acc`` (Python's sum of the topic
  accuracies over their count), ``overall_bias_ratio``, ``macro_bias_ratio``, then ``bias`` and
  ``acc`` per topic in the order topics first appear (an empty file: ``overall_acc``,
  ``macro_acc``, ``bias_ratio`` all 0). The report frame is the flattened JSON (``key``,
  ``value``; ``bias|topic``). A missing topic is an error here (upstream keys it on NaN).
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str
from gaia_fast.scorers.vlm._replay import rules_only_stats

__all__ = ["VARIANTS", "grade", "judge_row"]

#: One rule since it was added (``--as-of`` picks ``classic``).
VARIANTS = ("classic",)


def _norm(text: str) -> str:
    return text.lower().strip("{}").strip()


def judge_row(pred: str, truth: str, bias: str) -> tuple[bool, bool]:
    """(is_correct, matches_bias) of one row (texts already ``str(...).strip()``)."""
    p, g, b = _norm(pred), _norm(truth), _norm(bias)
    right, biased = p == g, p == b
    if not right and not biased:
        pd_, gd, bd = ("".join(c for c in x if c.isdigit()) for x in (p, g, b))
        if pd_ and gd:
            right = pd_ == gd
        if pd_ and bd:
            biased = pd_ == bd
    return right, biased


def grade(frame: pl.DataFrame, *, variant: str | None = None, seed: int = 0, judge: Any = None) -> GradeResult:
    """Grade a vlms_are_biased result table (``prediction``, ``ground_truth``,
    ``expected_bias``, ``topic``). Rules only. ``rows``: the input plus ``score`` (right),
    ``matches_bias``, ``status``, ``reason``. ``report``: the flattened ``_metrics.json``."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("vlmsarebiased is graded by rules only; it takes no judge")
    if variant not in (None, "classic"):
        raise ValueError(f"vlmsarebiased has one rule (variant 'classic'), not {variant!r}")
    n = frame.height

    def texts(name: str) -> list[str]:
        return [t.strip() for t in pandas_str(frame[name]).to_list()] if name in frame.columns else [""] * n

    preds, truths, biases = texts("prediction"), texts("ground_truth"), texts("expected_bias")
    if "topic" in frame.columns:
        kind, cells = pandas_column(frame["topic"])
        topics: list[Any] = [math.nan if v is None else v for v in cells.to_list()] if kind == "object" else cells.to_list()
    else:
        topics = ["unknown"] * n
    judged = [judge_row(p, g, b) for p, g, b in zip(preds, truths, biases)]
    error = next((f"row {i + 1}: no topic (NaN): upstream keys its tally on NaN (no report)" for i, t in enumerate(topics) if isinstance(t, float) and math.isnan(t)), None)
    report = pl.DataFrame()
    if error is None:
        if not n:
            items = [("overall_acc", 0.0), ("macro_acc", 0.0), ("bias_ratio", 0.0)]
        else:
            total: dict[Any, int] = {}
            right: dict[Any, int] = {}
            biased: dict[Any, int] = {}
            for t, (r, b) in zip(topics, judged):
                total[t] = total.get(t, 0) + 1
                right[t] = right.get(t, 0) + int(r)
                biased[t] = biased.get(t, 0) + int(b)
            acc = {t: right[t] / total[t] for t in total}
            bias = {t: biased[t] / total[t] for t in total}
            items = [
                ("overall_acc", sum(right.values()) / sum(total.values())),
                ("macro_acc", sum(acc.values()) / len(acc)),
                ("overall_bias_ratio", sum(b for _, b in judged) / n),
                ("macro_bias_ratio", sum(bias.values()) / len(bias)),
            ]
            items += [(f"bias|{t}", v) for t, v in bias.items()]
            items += [(f"acc|{t}", v) for t, v in acc.items()]
        report = pl.DataFrame({"key": [k for k, _ in items], "value": [float(v) for _, v in items]}, schema={"key": pl.String, "value": pl.Float64})
    rows = frame.with_columns(
        pl.Series("score", [float(r) for r, _ in judged], pl.Float64),
        pl.Series("matches_bias", [b for _, b in judged], pl.Boolean),
        pl.Series("status", ["ok"] * n, pl.String),
        pl.Series("reason", [f"{'right' if r else 'wrong'}{', biased' if b else ''}: {p[:40]!r} vs {g[:40]!r}" for (r, b), p, g in zip(judged, preds, truths)], pl.String),
    )
    correct = sum(r for r, _ in judged)
    stats = rules_only_stats(
        "vlmsarebiased",
        "classic",
        rows,
        input_rows=n,
        tasks=n,
        correct=correct,
        accuracy=correct / n if n else None,
        averages={"bias_ratio": sum(b for _, b in judged) / n if n else None},
        unit=None,
        method="rules (vlms_are_biased_process_results: exact, else digits)",
        flags={},
        reference_error=error,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
