"""Q-Spatial Bench (QSpatial_plus, QSpatial_scannet): the predicted distance read from the
``\\scalar{}`` / ``\\distance_unit{}`` boxes, in centimetres, within a factor of 2 / 1.5 of
the truth (``QSpatial.evaluate``, its regex path).

Reference: open-compass/VLMEvalKit ``QSpatial`` (``vlmeval/dataset/image_vqa.py``), the same
rule from cfacfdd8 (2024-11-21) to head e8e78f05 (restyled only). ``run.py`` passes no judge
model for these sets, so ``evaluate`` takes its regex path (with ``--judge`` it would ask a
model to extract the value first: not this flow):

* ``parse_prediction``: the last ``scalar{...}`` box (none: IndexError, the value ``1e-8``),
  the mean of the numbers ``\\d+\\.?\\d*`` in it (none: NaN, as NumPy's empty mean), times
  the multiplier of the last ``distance_unit{...}`` box (none: IndexError, ``1e-8``;
  ``get_multiplier``: m 100, cm 1, feet 30.48, inch 2.54, mm 0.1, any other 0);
* the truth is the answer cell's ``(value, unit)`` literal in centimetres; both get ``+1e-8``;
* a row passes delta-2 (delta-1.5) when ``max(pred / gt, gt / pred) < 2`` (``< 1.5``); NaN
  fails;
* the report ``{delta_2, delta_1_point_5}`` (the shares of all rows) then
  ``{type}_delta_2`` / ``{type}_delta_1_point_5`` per ``question_type`` (upstream walks a
  ``set``, so its key order varies run to run; here sorted), written as ``{stem}_score.json``.

Upstream reads the answer with ``eval``; here ``ast.literal_eval`` (the answers are tuple
literals; an answer that is not one is a ``reference_error``). A prediction that is not text
(an empty cell) raises TypeError upstream (``reference_error``, no report).
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str
from gaia_fast.scorers.vlm._replay import rules_only_stats
from gaia_fast.scorers.vlm.judged import _pairwise_sum

__all__ = ["grade", "multiplier", "parse_prediction"]

_EPS = 1e-8
_SCALAR = re.compile(r"scalar{([^}]*)}")
_UNIT = re.compile(r"distance_unit{([^}]*)}")
_NUMBER = re.compile(r"\d+\.?\d*")
_UNITS = (
    (("meters", "meter", "m", "metre", "metres"), 100.0),
    (("centimeters", "centimeter", "cm"), 1.0),
    (("feet", "foot", "ft"), 30.48),
    (("inch", "inches", "in"), 2.54),
    (("mm",), 0.1),
)



#: The variants a registry entry may name (one rule from its first version to head).
VARIANTS = ("classic",)

def multiplier(unit: str) -> float:
    """``QSpatial.get_multiplier``: centimetres per ``unit`` (0.0 for an unknown one)."""
    u = unit.lower()
    return next((m for names, m in _UNITS if u in names), 0.0)


def parse_prediction(response: str) -> float | None:
    """``QSpatial.parse_prediction`` in centimetres (NaN when the last scalar box holds no
    number); None where upstream raises IndexError (no scalar box, or no unit box)."""
    boxes = _SCALAR.findall(response)
    if not boxes:
        return None
    numbers = [float(x) for x in _NUMBER.findall(boxes[-1])]
    value = (
        _pairwise_sum(numbers, 0, len(numbers)) / len(numbers) if numbers else math.nan
    )
    units = _UNIT.findall(response)
    if not units:
        return None
    return value * multiplier(units[-1])


def _ratio(a: float, b: float) -> float:
    """``a / b`` as NumPy divides floats (inf / NaN for a zero divisor)."""
    if b == 0:
        return (
            math.nan
            if a == 0 or math.isnan(a)
            else math.copysign(math.inf, a) * math.copysign(1.0, b)
        )
    return a / b


def _np_max(a: float, b: float) -> float:
    return math.nan if math.isnan(a) or math.isnan(b) else max(a, b)


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a Q-Spatial result table (``answer``, ``question_type``, ``prediction``). Rules
    only. ``rows``: the input plus ``extracted`` (the predicted centimetres, before the
    ``+1e-8``; null where parsing failed), ``truth_cm``, ``score`` (delta-2 pass),
    ``delta_1_point_5``, ``status`` (``ok``, ``unparsed``, ``error``) and ``reason``."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError(
            "qspatial is graded here by its regex path only; it takes no judge"
        )
    if variant not in (None, *VARIANTS):
        raise ValueError(f"qspatial has one rule (variant 'classic'), not {variant!r}")
    for name in ("answer", "question_type", "prediction"):
        if name not in frame.columns:
            raise ValueError(
                f"qspatial: the result table has no {name!r} column (columns: {sorted(frame.columns)})"
            )
    n = frame.height
    kind, pred_cells = pandas_column(frame["prediction"])
    preds = pred_cells.to_list()
    answers = pandas_str(frame["answer"]).to_list()
    qtypes = pandas_str(frame["question_type"]).to_list()
    extracted: list[float | None] = []
    truths: list[float | None] = []
    d2: list[bool | None] = []
    d15: list[bool | None] = []
    status: list[str] = []
    reasons: list[str] = []
    error: str | None = None
    for i in range(n):
        p = preds[i]
        if kind != "object" or p is None:
            error = (
                error
                or f"row {i + 1}: the prediction {p!r} is not text: TypeError upstream in re.findall (no report)"
            )
            extracted.append(None)
            truths.append(None)
            d2.append(None)
            d15.append(None)
            status.append("error")
            reasons.append("error: the prediction is not text")
            continue
        value = parse_prediction(p)
        try:
            lit = ast.literal_eval(answers[i])
            v, unit = lit
            truth = float(v) * multiplier(unit)
        except (
            ValueError,
            TypeError,
            SyntaxError,
            AttributeError,
            MemoryError,
            RecursionError,
        ) as e:
            error = (
                error
                or f"row {i + 1}: the answer {answers[i]!r} is not a (value, unit) literal ({type(e).__name__}) (no report)"
            )
            extracted.append(value)
            truths.append(None)
            d2.append(None)
            d15.append(None)
            status.append("error")
            reasons.append(f"error: answer {answers[i]!r}")
            continue
        pv = (_EPS if value is None else value) + _EPS
        gv = truth + _EPS
        worst = _np_max(_ratio(pv, gv), _ratio(gv, pv))
        extracted.append(value)
        truths.append(truth)
        d2.append(bool(worst < 2.0))
        d15.append(bool(worst < 1.5))
        status.append("unparsed" if value is None else "ok")
        reasons.append(
            "no scalar or unit box: 1e-8 cm"
            if value is None
            else f"{value:g} cm vs {truth:g} cm: ratio {worst:g}"
        )
    output: dict[str, float] = {}
    if error is None and n:
        output["delta_2"] = sum(d2) / n
        output["delta_1_point_5"] = sum(d15) / n
        for qt in sorted(set(qtypes)):
            idx = [i for i in range(n) if qtypes[i] == qt]
            output[f"{qt}_delta_2"] = sum(d2[i] for i in idx) / len(idx)
            output[f"{qt}_delta_1_point_5"] = sum(d15[i] for i in idx) / len(idx)
    report = (
        pl.DataFrame([output], schema={k: pl.Float64 for k in output})
        if output
        else pl.DataFrame()
    )
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.Float64),
        pl.Series("truth_cm", truths, pl.Float64),
        pl.Series("score", [None if x is None else float(x) for x in d2], pl.Float64),
        pl.Series("delta_1_point_5", d15, pl.Boolean),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    scored = [x for x in d2 if x is not None]
    stats = rules_only_stats(
        "qspatial",
        "classic",
        rows,
        input_rows=n,
        tasks=len(scored),
        correct=sum(scored),
        accuracy=output.get("delta_2") if output else None,
        method="rules (scalar / distance_unit boxes in cm; max ratio < 2 and < 1.5)",
        flags={"unparsed": status.count("unparsed")} if "unparsed" in status else {},
        reference_error=error,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
