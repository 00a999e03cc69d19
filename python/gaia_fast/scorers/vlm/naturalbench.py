"""NaturalBench (NaturalBenchDataset): ``naturalbench.extract_answer`` per row, ``get_scores``
over groups of four (``NaturalBenchDataset.evaluate``).

Reference: open-compass/VLMEvalKit ``NaturalBenchDataset.evaluate``
(``vlmeval/dataset/image_mcq.py``) with ``extract_answer`` / ``get_scores``
(``vlmeval/dataset/utils/naturalbench.py``), added in 7485d622 (2024-11-09):

* the result rows are sorted by ``index`` (as pandas reads it: numbers when the column is
  numeric); ``str()`` of each prediction in that order;
* the task types are ``str()`` of the dataset TSV's ``type`` column *in the TSV's order*
  (``self.data``, not sorted). The result file is the dataset's rows in that same order
  with ``prediction`` added (``infer_data_job`` dumps ``dataset.data``), so the types are
  the result file's ``type`` column as stored, unsorted;
* ``assert len(...) == 1900 * 4``: any other row count is an AssertionError upstream (no
  report); here every row gets status ``error`` and ``stats["reference_error"]`` says so;
* ``extract_answer(prediction, type)``: for ``yes_no`` the first whole word (``\\b``,
  case-insensitive) of ``yes`` / ``no``, for ``multiple_choice`` of ``A`` / ``B``: 1 for
  yes/A, 0 for no/B, -1 for neither; any other type raises ValueError upstream (no report);
* groups are consecutive sorted rows ``4i .. 4i+3`` = ``q0_i0, q0_i1, q1_i0, q1_i1``; the
  right answers are 1, 0, 0, 1 (the ``answer`` column is read but never used).
  ``get_scores``: Q_Acc (question pairs right / 2n), I_Acc (image pairs / 2n), Acc (rows
  right / 4n), G_Acc (groups with both question and both image pairs right / n);
* the report is ``Metric, Score`` rows. Variant ``2024-11`` (7485d622) names the metrics
  ``question_score, image_score, binary_score, group_score`` and writes ``NaturalBench_acc.csv``
  in the working directory; ``2024-12`` (5316c5f1, 2024-12-17, to head) names them ``Q_Acc,
  I_Acc, Acc, G_Acc``; from 9cc14cd0 (2025-09-12) the report is ``{stem}_acc.csv`` beside the
  result file (same content).

Rows sharing an ``index`` are an error here: pandas' default sort is not stable, so which
of them upstream put first is not known.
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

__all__ = ["EXPECTED", "METRICS", "ROWS", "VARIANTS", "extract_answer", "grade"]

VARIANTS = ("2024-11", "2024-12")
#: The report's metric names per variant (get_scores' keys, in its order).
METRICS = {
    "2024-11": ("question_score", "image_score", "binary_score", "group_score"),
    "2024-12": ("Q_Acc", "I_Acc", "Acc", "G_Acc"),
}
#: The row count upstream asserts (1900 groups of four).
ROWS = 1900 * 4
#: The right extraction of q0_i0, q0_i1, q1_i0, q1_i1.
EXPECTED = (1, 0, 0, 1)
_POSITIONS = ("q0_i0", "q0_i1", "q1_i0", "q1_i1")
_WORDS = {"yes_no": ("yes", "no"), "multiple_choice": ("A", "B")}
_PATTERNS = {w: re.compile(r"\b" + re.escape(w) + r"\b", re.IGNORECASE) for pair in _WORDS.values() for w in pair}


def extract_answer(output: str, task_type: str = "yes_no") -> int:
    """``naturalbench.extract_answer``: 1 (yes / A first), 0 (no / B first) or -1 (neither).
    ValueError for a task type other than ``yes_no`` / ``multiple_choice`` (as upstream)."""
    if task_type not in _WORDS:
        raise ValueError(f"Task type {task_type} not supported. Must be 'yes_no' or 'multiple_choice'.")
    first, second = _WORDS[task_type]
    m1, m2 = _PATTERNS[first].search(output), _PATTERNS[second].search(output)
    if m1 is None and m2 is None:
        return -1
    if m1 is not None and m2 is not None:
        return 1 if m1.start() < m2.start() else 0
    return 0 if m1 is None else 1


def _group_scores(r: list[int]) -> tuple[int, int, int, int]:
    """(question pairs, image pairs, rows, group) right for one group (get_scores' helpers)."""
    image = int(r[0] == 1 and r[2] == 0) + int(r[3] == 1 and r[1] == 0)
    question = int(r[0] == 1 and r[1] == 0) + int(r[3] == 1 and r[2] == 0)
    binary = int(r[0] == 1) + int(r[1] == 0) + int(r[2] == 0) + int(r[3] == 1)
    return question, image, binary, int(question == 2 and image == 2)


def _sort_order(frame: pl.DataFrame) -> tuple[list[int], str | None]:
    """The row positions in ``data.sort_values(by='index')`` order, and an error when ties
    make that order unknown."""
    kind, cells = pandas_column(frame["index"])
    values = cells.to_list()
    if kind == "object":
        keys = [(v is None, "" if v is None else v) for v in values]  # NaN last
    elif kind == "float":
        keys = [(math.isnan(v), 0.0 if math.isnan(v) else v) for v in values]
    else:
        keys = [(False, v) for v in values]
    order = sorted(range(len(values)), key=lambda i: keys[i])
    seen: dict[Any, int] = {}
    for i in order:
        if keys[i] in seen:
            return order, (
                f"rows {seen[keys[i]] + 1} and {i + 1} share the index {frame['index'][i]!r}: pandas' sort is not "
                "stable, so which one upstream scored first is not known (no report)"
            )
        seen[keys[i]] = i
    return order, None


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a NaturalBench result table (``index``, ``answer``, ``type``, ``prediction``, in
    the dataset's order). Rules only. ``rows``: the input plus ``group`` (0-based, in index
    order), ``position`` (``q0_i0`` ...), ``extracted`` (1, 0, -1), ``expected``, ``score``
    (1.0 when extracted == expected), ``status`` and ``reason``. ``report``: ``Metric, Score``."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("naturalbench is graded by rules only; it takes no judge")
    variant = variant or "2024-12"
    if variant not in VARIANTS:
        raise ValueError(f"naturalbench: unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    for name in ("index", "answer", "type", "prediction"):
        if name not in frame.columns:
            raise ValueError(
                f"naturalbench: the result table has no {name!r} column (columns: {sorted(frame.columns)})"
            )
    n = frame.height
    types = pandas_str(frame["type"]).to_list()  # the TSV's order = the file's order
    preds = pandas_str(frame["prediction"]).to_list()
    groups: list[int | None] = [None] * n
    positions: list[str | None] = [None] * n
    extracted: list[int | None] = [None] * n
    expected: list[int | None] = [None] * n
    scores: list[float | None] = [None] * n
    status = ["error"] * n
    reasons: list[str] = [""] * n
    error: str | None = None
    order, tie = _sort_order(frame)
    if n != ROWS:
        error = f"{n} rows, not {ROWS}: AssertionError upstream (no report)"
    elif tie:
        error = tie
    else:
        for k, i in enumerate(order):
            t = types[k]
            if t not in _WORDS:
                error = (
                    f"row {k + 1} of the dataset order has type {t!r} (neither yes_no nor multiple_choice): "
                    "ValueError upstream in extract_answer (no report)"
                )
                status[i], reasons[i] = "error", error
                break
            got = extract_answer(preds[i], t)
            want = EXPECTED[k % 4]
            groups[i], positions[i], extracted[i], expected[i] = k // 4, _POSITIONS[k % 4], got, want
            scores[i] = 1.0 if got == want else 0.0
            status[i] = "ok"
            reasons[i] = f"{'right' if got == want else 'wrong'}: {t} read {got} (wanted {want}) from {preds[i][:40]!r}"
    if error is not None:
        for i in range(n):
            if status[i] == "error" and not reasons[i]:
                reasons[i] = error
            elif status[i] == "ok":
                status[i] = "unchecked"
        report = pl.DataFrame()
        totals = None
    else:
        q = im = b = g = 0
        for start in range(0, n, 4):
            r = [extracted[order[start + j]] for j in range(4)]
            dq, di, db, dg = _group_scores(r)  # type: ignore[arg-type]
            q, im, b, g = q + dq, im + di, b + db, g + dg
        groups_n = n // 4
        totals = (q / float(groups_n * 2), im / float(groups_n * 2), b / float(groups_n * 4), g / groups_n)
        report = pl.DataFrame(
            {"Metric": list(METRICS[variant]), "Score": list(totals)}, schema={"Metric": pl.String, "Score": pl.Float64}
        )
    rows = frame.with_columns(
        pl.Series("group", groups, pl.Int64),
        pl.Series("position", positions, pl.String),
        pl.Series("extracted", extracted, pl.Int64),
        pl.Series("expected", expected, pl.Int64),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    right = sum(s for s in scores if s is not None)
    stats = rules_only_stats(
        "naturalbench",
        variant,
        rows,
        input_rows=n,
        tasks=n if totals is not None else 0,
        correct=right if totals is not None else 0,
        accuracy=None if totals is None else totals[2],
        averages={"group_accuracy": None if totals is None else totals[3]},
        unit=None,
        method="rules (naturalbench.extract_answer, get_scores over groups of four)",
        flags={"no_answer": sum(1 for x in extracted if x == -1)},
        reference_error=error,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
