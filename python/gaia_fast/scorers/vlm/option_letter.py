"""SIUO_MCQ and M3oralBench: one option letter read from the prediction by regex, compared
with the answer; percentages per group (``SIUOMCQDataset.evaluate``,
``M3oralBenchDataset.evaluate``).

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/siuo_mcq.py`` and
``vlmeval/dataset/m3oralbench.py`` (both added 6e7e372d, 2026-03-23; 401916c0 only restyled
them; each file has its own identical ``_extract_option``):

* ``_extract_option(pred)``: ``s = str(pred or "")`` (a missing prediction is NaN, so
  ``"nan"``; a prediction cell pandas read as the number 0 is ``""``); the last
  ``\\boxed{X}`` (A-Z), else the last ``(X)``, else the last whole-word ``A``-``G`` of
  ``s.upper()``, else ``""``;
* the answer is ``str(answer).strip().upper()``; a row is right when they are equal;
* ``Overall`` = ``round(mean(correct) * 100, 2)`` (NumPy's round), then for SIUO one column
  per ``category`` (sorted), for M3oralBench ``task_{task_type}`` then ``foundation_{category}``
  (each sorted), the same percentage; ``{stem}_score.csv``. Groups are the cells as pandas
  read them (sorted by value); a missing group cell is an error here (upstream's ``sorted``
  of NaN beside text raises, and NaN groups match no row).
"""

from __future__ import annotations

import math
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str
from gaia_fast.scorers.vlm._replay import rules_only_stats

__all__ = ["BENCHMARKS", "VARIANTS", "extract_option", "grade"]

#: One rule since it was added (``--as-of`` picks ``classic``).
VARIANTS = ("classic",)

BENCHMARKS = ("siuo_mcq", "m3oralbench")
_GROUPS = {"siuo_mcq": (("category", "{}"),), "m3oralbench": (("task_type", "task_{}"), ("category", "foundation_{}"))}


def extract_option(pred: Any) -> str:
    """``_extract_option`` of a prediction cell as pandas holds it."""
    s = str(pred or "")
    boxed = re.findall(r"\\boxed\{\s*([A-Z])\s*\}", s)
    if boxed:
        return boxed[-1]
    m = re.findall(r"\(([A-Z])\)", s)
    if m:
        return m[-1]
    m = re.findall(r"\b([A-G])\b", s.upper())
    return m[-1] if m else ""


def _cells(series: pl.Series) -> list[Any]:
    kind, cells = pandas_column(series)
    values = cells.to_list()
    return [math.nan if v is None else v for v in values] if kind == "object" else values


def _pct(correct: int, total: int) -> float:
    """``round(mean * 100, 2)`` with NumPy's round (scale, half to even, unscale)."""
    if not total:
        return 0.0
    return float(round(correct / total * 100 * 100.0)) / 100.0


def grade(frame: pl.DataFrame, *, benchmark: str = "siuo_mcq", variant: str | None = None, seed: int = 0, judge: Any = None) -> GradeResult:
    """Grade a SIUO_MCQ / M3oralBench result table (``answer``, ``prediction``, and the
    group columns when present). Rules only. ``rows``: the input plus ``extracted``,
    ``score``, ``status``, ``reason``. ``report``: the one-row ``_score.csv``."""
    frame = _check_frame(frame)
    if benchmark not in BENCHMARKS:
        raise ValueError(f"unknown benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    if judge is not None:
        raise ValueError(f"{benchmark} is graded by rules only; it takes no judge")
    if variant not in (None, "classic"):
        raise ValueError(f"{benchmark} has one rule (variant 'classic'), not {variant!r}")
    for name in ("answer", "prediction"):
        if name not in frame.columns:
            raise ValueError(f"{benchmark}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    extracted = [extract_option(p) for p in _cells(frame["prediction"])]
    answers = [a.strip().upper() for a in pandas_str(frame["answer"]).to_list()]
    right = [int(e == a) for e, a in zip(extracted, answers)]
    report_cols: dict[str, float] = {"Overall": _pct(sum(right), n)}
    error: str | None = None
    for column, name in _GROUPS[benchmark]:
        if column not in frame.columns:
            continue
        values = _cells(frame[column])
        if any(isinstance(v, float) and math.isnan(v) for v in values):
            error = f"{column}: a missing cell (NaN): upstream's sorted() raises or its group matches no row (no report)"
            break
        try:
            groups = sorted(set(values))
        except TypeError:
            error = f"{column}: values of mixed types cannot be sorted: TypeError upstream (no report)"
            break
        for g in groups:
            members = [r for r, v in zip(right, values) if v == g]
            report_cols[name.format(g)] = _pct(sum(members), len(members))
    report = pl.DataFrame() if error else pl.DataFrame([report_cols], schema={k: pl.Float64 for k in report_cols})
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", [float(r) for r in right], pl.Float64),
        pl.Series("status", ["ok"] * n, pl.String),
        pl.Series("reason", [f"{'right' if r else 'wrong'}: read {e!r} vs answer {a!r}" for r, e, a in zip(right, extracted, answers)], pl.String),
    )
    stats = rules_only_stats(
        benchmark,
        "classic",
        rows,
        input_rows=n,
        tasks=n,
        correct=sum(right),
        accuracy=sum(right) / n if n else None,
        unit=None,
        method="rules (_extract_option: boxed, (X), last whole-word A-G)",
        flags={"no_letter": extracted.count("")},
        reference_error=error,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
