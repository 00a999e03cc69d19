"""Omni3DBench: ``<ans>`` extraction → per-row rule by ``answer_type`` → the four-number
report, reproducing VLMEvalKit 50c954aa ``Omni3DBench_acc`` (identical logic in the DCVLR
fork 9dc79b90). Spec: ``specs/vlmevalkit.md`` §3.

* Extraction: ``prediction.split('<ans>')[1].split('</ans>')[0]`` when the prediction holds
  ``<ans>`` (case-sensitive, no trimming), else the whole prediction.
* ``int`` rows (count): Python ``int()`` of the answer; failure is wrong; else compared with
  ``int(gt)``. ``str`` rows: truth exactly ``yes``/``no`` → substring test on the lowercased
  answer (``true``/``false`` also count); any other truth → lowercased answer ``==`` truth.
  ``float`` rows: Mean Relative Accuracy with the thresholds 0.5, 0.45, …, 0.05 (strict
  ``|g - p| / g < θ``, divided by ``g`` itself, IEEE doubles, summed in threshold order).
  Any other ``answer_type`` is counted nowhere.
* Where the reference raises (MRA truth 0 with a parseable prediction, a count truth that is
  no int literal, a missing prediction) the row gets a status and no score; the report is
  computed without those rows and ``stats`` says the reference would have stopped.

Scalar functions are native (Rust), strings holding lone surrogates included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import polars as pl

from gaia_fast import _native
from gaia_fast.scorers.vlm.omni3d_tables import REPORT_COLUMNS, THRESHOLDS
from gaia_fast.scorers.vlm import GradeResult

__all__ = [
    "BUCKETS",
    "REPORT_COLUMNS",
    "STATUSES",
    "THRESHOLDS",
    "RowDecision",
    "decide",
    "extract_answer",
    "grade",
    "mra",
    "omni3d_score",
    "report",
    "score_columns",
]

BUCKETS: tuple[str, ...] = tuple(_native.OMNI3D_BUCKETS)
STATUSES: tuple[str, ...] = tuple(_native.OMNI3D_STATUSES)

#: Report column of each bucket.
_COLUMN_OF = dict(zip(("yes_no", "multiple_choice", "count", "mra"), REPORT_COLUMNS))

#: The exception the reference raises on a row with this status (no-score rows only).
_CRASH = {"no_prediction": "TypeError", "gt_zero": "ZeroDivisionError", "bad_truth": "ValueError", "no_truth": "ValueError"}

VARIANTS = (None, "vlmevalkit", "dcvlr")

#: Cell texts pandas' ``read_csv``/``read_excel`` read as NaN by default (pandas ≥ 2.1),
#: which is how VLMEvalKit's ``load()`` reads a result table: with ``pandas_na=True`` such
#: cells count as missing, as they did upstream (a bare prediction ``None`` or ``N/A``
#: makes the reference raise).
PANDAS_NA = (
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
)


def extract_answer(prediction: str) -> str:
    """The answer the reference reads from a raw prediction (the text after the first
    ``<ans>``, cut at the next ``<ans>`` or ``</ans>``; the whole text without a tag)."""
    return _native.omni3d_extract(prediction)


def omni3d_score(prediction: str | None, gt: str | None, answer_type: str | None) -> float | None:
    """The reference's score for one row in its bucket: 1.0/0.0 (count, yes/no, multiple
    choice) or k/10 for MRA (k thresholds passed). ``None`` when the row is ignored
    (``answer_type`` not ``int``/``str``/``float``) or the reference raises on it
    (``gt == 0`` in MRA, ``int("3.0")`` as a count truth, a missing prediction). ``None``
    for ``gt``/``answer_type`` is a NaN cell, scored as upstream scores NaN."""
    return _native.omni3d_score(prediction, gt, answer_type)


def mra(predictions: Sequence[str | None], gts: Sequence[str | None]) -> float | None:
    """Mean Relative Accuracy of raw model outputs (tags extracted as the reference does)
    against truths: every pair is a ``float`` row. ``None`` for no pairs or where the
    reference raises (a truth of 0 with a parseable prediction, a truth that is no float
    literal, a missing prediction)."""
    return _native.omni3d_mra(predictions, gts)


class RowDecision(NamedTuple):
    """One row's decision: ``bucket`` (None when ignored or the prediction is missing),
    ``score``, ``thresholds_passed`` (MRA rows), ``status`` and a one-line ``reason``."""

    bucket: str | None
    score: float | None
    thresholds_passed: int | None
    status: str
    reason: str


def decide(prediction: str | None, gt: str | None, answer_type: str | None) -> RowDecision:
    """:func:`omni3d_score` with the bucket, status and the reason for the decision."""
    return RowDecision(*_native.omni3d_decide(prediction, gt, answer_type))


def _string_column(frame: pl.DataFrame, name: str, pandas_na: bool) -> pl.Series:
    col = frame.get_column(name)
    if col.dtype != pl.String:
        # Cells are text in a VLMEvalKit table; numbers read as numbers become their text.
        col = col.cast(pl.String)
    if pandas_na:
        col = col.set(col.is_in(PANDAS_NA).fill_null(False), None)
    return col


def score_columns(
    predictions: pl.Series, gts: pl.Series, answer_types: pl.Series, *, explain: bool = True
) -> pl.DataFrame:
    """Score three string columns natively (all cores, GIL released). Columns:
    ``extracted``, ``bucket``, ``score``, ``thresholds_passed``, ``status`` and, with
    ``explain``, ``reason``."""
    out = _native.omni3d_score_arrow(predictions, gts, answer_types, explain)
    # Zero-copy imports; bucket and status arrive dictionary-encoded (Categorical).
    return pl.DataFrame([pl.Series(col).alias(name) for name, col in out.items()])


def report(scored: pl.DataFrame) -> pl.DataFrame:
    """The reference's one-row report from scored rows (``bucket``, ``score``,
    ``thresholds_passed``): accuracies as fractions, ``None`` for an empty bucket; MRA as
    ``s += c_θ / N`` in threshold order, then ``s / 10``. Rows without a score (ignored,
    or where the reference raises) are left out."""
    # A handful of (bucket, score, thresholds) combinations: count them, then do the
    # reference's arithmetic on the counts.
    combos = (
        scored.filter(pl.col("score").is_not_null() & pl.col("bucket").is_not_null())
        .group_by("bucket", "score", "thresholds_passed")
        .len()
    )
    by_bucket: dict[str, dict[str, int]] = {}
    for bucket, score, passed, n in combos.iter_rows():
        row = by_bucket.setdefault(str(bucket), {"n": 0, "correct": 0, **{f"c{i}": 0 for i in range(len(THRESHOLDS))}})
        row["n"] += n
        row["correct"] += n if score == 1.0 else 0
        for i in range(passed or 0):
            row[f"c{i}"] += n
    values: dict[str, float | None] = {}
    for bucket, column in _COLUMN_OF.items():
        row = by_bucket.get(bucket)
        if row is None:
            values[column] = None
        elif bucket == "mra":
            total = 0.0
            for i in range(len(THRESHOLDS)):
                total += row[f"c{i}"] / row["n"]
            values[column] = total / len(THRESHOLDS)
        else:
            values[column] = row["correct"] / row["n"]
    return pl.DataFrame({c: [values[c]] for c in REPORT_COLUMNS}, schema={c: pl.Float64 for c in REPORT_COLUMNS})


def grade(
    frame: pl.DataFrame | pl.LazyFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Callable[[str], str] | None = None,
    prediction: str = "prediction",
    answer: str = "answer",
    answer_type: str = "answer_type",
    explain: bool = True,
    pandas_na: bool = False,
) -> GradeResult:
    """Grade a VLMEvalKit Omni3DBench result table (``{model}_Omni3DBench.xlsx/.tsv``).

    ``rows``: every input row in order, plus ``extracted``, ``bucket``, ``score``,
    ``thresholds_passed``, ``status`` and ``reason``. ``report``: the reference's one-row
    table (four columns, fractions, null for an empty bucket). ``stats``: counts by status
    and bucket, and ``reference_error``: the exception the reference would have stopped
    with on the first such row (``None`` when it runs through), with that row's index.

    ``variant``: ``None``/``"vlmevalkit"``/``"dcvlr"`` (the logic is identical). Omni3DBench
    has no judge and no random fallback: ``judge`` and ``seed`` are accepted and unused.
    ``pandas_na=True`` treats the cell texts pandas reads as NaN (:data:`PANDAS_NA`) as
    missing, for tables read without that conversion (e.g. all columns as strings).
    """
    del seed, judge  # no judge, no random fallback in this benchmark
    if variant not in VARIANTS:
        raise ValueError(f"unknown Omni3DBench variant {variant!r}; expected one of 'vlmevalkit', 'dcvlr'")
    if isinstance(frame, pl.LazyFrame):
        frame = frame.collect()
    if not isinstance(frame, pl.DataFrame):
        raise TypeError(f"grade() takes a polars DataFrame or LazyFrame, not {type(frame).__name__}")
    missing = [c for c in (prediction, answer, answer_type) if c not in frame.columns]
    if missing:
        raise ValueError(f"Omni3DBench table lacks column(s) {missing}; has {frame.columns}")
    scored = score_columns(
        _string_column(frame, prediction, pandas_na),
        _string_column(frame, answer, pandas_na),
        _string_column(frame, answer_type, pandas_na),
        explain=explain,
    )
    rows = frame.with_columns(scored.get_columns())
    table = report(scored)
    status_counts = {str(k): v for k, v in scored.group_by("status").len().iter_rows()}
    bucket_counts = {str(k): v for k, v in scored.filter(pl.col("bucket").is_not_null()).group_by("bucket").len().iter_rows()}
    crashed = scored.select("score", "status").with_row_index("row").filter(
        pl.col("score").is_null() & (pl.col("status") != "ignored")
    )
    reference_error: dict[str, Any] | None = None
    if crashed.height:
        first = crashed.row(0, named=True)
        status = str(first["status"])
        reference_error = {"row": first["row"], "status": status, "error": _CRASH[status]}
    stats: dict[str, Any] = {
        "rows": frame.height,
        "status": {s: status_counts.get(s, 0) for s in STATUSES},
        "bucket": {b: bucket_counts.get(b, 0) for b in BUCKETS},
        "scored": scored.height - crashed.height - status_counts.get("ignored", 0),
        "crashed": crashed.height,
        "reference_error": reference_error,
        "variant": variant or "vlmevalkit",
        "pandas_na": pandas_na,
    }
    return GradeResult(rows=rows, report=table, stats=stats)
