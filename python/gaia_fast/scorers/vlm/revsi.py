"""ReVSI: the first word of the prediction matched against the ground truth (multiple
choice) or scored by mean relative accuracy (numbers); extract -> score -> aggregate
(``ReVSI.evaluate``).

Reference: open-compass/VLMEvalKit ``ReVSI.evaluate`` (``vlmeval/dataset/revsi.py``,
0bfa830f, 2026-06-29, to head e8e78f05; unchanged but for import order):

* the answer is ``str(prediction).strip().split(" ")[0].rstrip(".").strip()`` (``'nan'``
  for an empty cell); the truth ``str(ground_truth)``;
* a ``MCQ_QUESTION_TYPES`` row is right when both are equal ignoring case;
* a ``NQ_QUESTION_TYPES`` row scores ``_mean_relative_accuracy(float(pred), float(gt),
  0.5, 0.95, 0.05)``: the share of thresholds ``c`` in ``np.linspace(0.5, 0.95,
  int((0.95 - 0.5) / 0.05 + 2))`` with ``|pred - gt| / gt <= 1 - c``. ``int()`` of
  10.999999999999998 is 10, so there are ten thresholds (0.5 ... 0.95), not eleven; a
  value ``float()`` cannot read, or ``gt == 0``, scores 0.0;
* a row of any other type keeps the previous row's score (the loop's variable carries
  over; the first row of such a type raises NameError upstream: ``reference_error``);
* per ``question_type`` (groupby: sorted, empty types dropped) the mean as pandas adds it,
  then the four families' sub-types merged into one mean each (``np.mean`` of the present
  sub-means, appended in that order), then ``overall_accuracy`` = the plain mean of the
  values left.

``evaluate`` returns that dict and writes no file (``run.py`` keeps it in the run's
``status.json``); the report here is that dict as one row (written as
``{stem}_revsi_metrics.json``).
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._replay import rules_only_stats
from gaia_fast.scorers.vlm.judged import _pairwise_sum

__all__ = ["MCQ_QUESTION_TYPES", "NQ_QUESTION_TYPES", "first_word", "grade", "mean_relative_accuracy"]

NQ_QUESTION_TYPES = (
    "object_counting_single", "object_counting_multiple", "object_abs_distance", "object_size_estimation",
    "room_size_estimation_single", "room_size_estimation_multiple",
)
MCQ_QUESTION_TYPES = (
    "object_rel_direction_forward_easy", "object_rel_direction_backward_easy", "object_rel_direction_forward_hard",
    "object_rel_direction_backward_hard", "object_rel_distance_closest", "object_rel_distance_farthest", "route_planning",
)
_MERGED = (
    ("object_rel_direction_accuracy", ("object_rel_direction_forward_easy_accuracy", "object_rel_direction_backward_easy_accuracy",
                                       "object_rel_direction_forward_hard_accuracy", "object_rel_direction_backward_hard_accuracy")),
    ("object_rel_distance_accuracy", ("object_rel_distance_closest_accuracy", "object_rel_distance_farthest_accuracy")),
    ("object_counting_accuracy", ("object_counting_single_accuracy", "object_counting_multiple_accuracy")),
    ("room_size_estimation_accuracy", ("room_size_estimation_single_accuracy", "room_size_estimation_multiple_accuracy")),
)



#: The variants a registry entry may name (one rule).
VARIANTS = ("classic",)

def _linspace(start: float, stop: float, num: int) -> list[float]:
    """``np.linspace(start, stop, num)`` as NumPy computes it: ``i * step + start``, the last
    point set to ``stop``."""
    if num == 1:
        return [start]
    step = (stop - start) / (num - 1)
    return [i * step + start for i in range(num - 1)] + [stop]


_THRESHOLDS = _linspace(0.5, 0.95, int((0.95 - 0.5) / 0.05 + 2))


def mean_relative_accuracy(pred: float, target: float) -> float:
    """``_mean_relative_accuracy(pred, target, 0.5, 0.95, 0.05)``; ZeroDivisionError when
    ``target == 0`` (as Python's float division raises)."""
    rel = abs(pred - target) / target
    return sum(1 for c in _THRESHOLDS if rel <= (1 - c)) / len(_THRESHOLDS)


def first_word(prediction: str | None) -> str:
    """The answer ``evaluate`` reads: the first space-separated word, trailing dots cut."""
    text = "nan" if prediction is None else prediction
    return text.strip().split(" ")[0].rstrip(".").strip()


def _np_mean(values: list[float]) -> float:
    return _pairwise_sum(list(values), 0, len(values)) / len(values)


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a ReVSI result table (``index``, ``question_type``, ``ground_truth``,
    ``prediction``). Rules only (``judge`` must be None). ``rows``: the input plus
    ``extracted`` (the first word), ``score`` (the row's accuracy), ``status`` (``ok``;
    ``carried`` for a row of an unknown type, which takes the previous row's score as
    upstream; ``error`` where upstream raises) and ``reason``. ``report``: one row, the
    ``evaluate`` dict's keys in its order."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("revsi is graded by rules only; it takes no judge")
    if variant not in (None, "classic"):
        raise ValueError(f"revsi has one rule (variant 'classic'), not {variant!r}")
    for name in ("question_type", "ground_truth", "prediction"):
        if name not in frame.columns:
            raise ValueError(f"revsi: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    qtypes = frame["question_type"].cast(pl.String).to_list()
    gts = ["nan" if g is None else g for g in frame["ground_truth"].cast(pl.String).to_list()]
    preds = frame["prediction"].cast(pl.String).to_list()
    n = frame.height
    extracted: list[str] = []
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    error: str | None = None
    last: float | None = None
    for i in range(n):
        word = first_word(preds[i])
        extracted.append(word)
        qt = qtypes[i]
        if qt in MCQ_QUESTION_TYPES:
            last = 1.0 if word.lower() == gts[i].lower() else 0.0
            reasons.append(f"multiple choice: {word!r} vs {gts[i]!r}")
            status.append("ok")
        elif qt in NQ_QUESTION_TYPES:
            try:
                last = mean_relative_accuracy(float(word), float(gts[i]))
                reasons.append(f"mean relative accuracy of {word} against {gts[i]}: {last:g}")
            except (ValueError, ZeroDivisionError) as e:
                last = 0.0
                reasons.append(f"0.0: {type(e).__name__} ({word!r} vs {gts[i]!r})")
            status.append("ok")
        elif last is None:
            status.append("error")
            reasons.append(f"error: question_type {qt!r} is neither kind and no row before it: NameError upstream")
            error = error or f"row {i + 1}: question_type {qt!r} is neither multiple choice nor numeric and is the first such row: NameError upstream (no report)"
        else:
            status.append("carried")
            reasons.append(f"question_type {qt!r} is neither kind: the previous row's accuracy {last:g} is kept, as upstream")
        scores.append(last if status[-1] != "error" else None)
    output: dict[str, float] = {}
    if error is None:
        groups: dict[str, list[float]] = {}
        for qt, s in zip(qtypes, scores):
            if qt is not None and s is not None:
                groups.setdefault(qt, []).append(s)
        for qt in sorted(groups):
            output[f"{qt}_accuracy"] = _np_mean(groups[qt])
        for name, keys in _MERGED:
            vals = [output.pop(k) for k in keys if k in output]
            if vals:
                output[name] = _np_mean(vals)
        total = 0.0
        for v in output.values():
            total += v
        output["overall_accuracy"] = total / len(output) if output else 0.0
    report = pl.DataFrame([output], schema={k: pl.Float64 for k in output}) if output else pl.DataFrame()
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    scored = [s for s in scores if s is not None]
    stats = rules_only_stats(
        "revsi",
        "classic",
        rows,
        input_rows=n,
        tasks=len(scored),
        correct=sum(scored),
        accuracy=output.get("overall_accuracy", math.nan),
        method="rules (first word; exact letter or mean relative accuracy)",
        flags={"carried": status.count("carried")} if "carried" in status else {},
        reference_error=error,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
