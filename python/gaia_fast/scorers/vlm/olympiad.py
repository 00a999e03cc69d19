"""OlympiadBench: extract → judge → report (``specs/vlmevalkit.md`` §5).

``grade(frame)`` re-grades a VLMEvalKit OlympiadBench result table (``prediction``,
``source``, ``final_answer``, ``answer_type``, ``error``, …):

* extraction (§5.1): the last ``So the final answer is …`` (``所以最终答案是…`` for sources
  whose name holds ``zh``), stripped, else the whole prediction; a null prediction reads as
  ``nan``;
* the judge: ``variant="openbmb"`` (default) is the benchmark authors' ``MathJudger``
  (§5.9) on ``final_answer[0]``; ``variant="vlmevalkit"`` is VLMEvalKit's port with its row
  glue (``final_answer`` cell ``[2:-2]``, §5.2) and its structural-only expression test
  (§5.6); both take the per-row precision from the ``error`` column and skip it for
  ``Tuple`` answers;
* the report (§5.7): per source, zh/en × maths/physics, maths, physics, ``AVG``, in
  percent, not rounded.

Native code decides what needs no computer algebra; SymPy runs in worker processes with a
hard per-pair timeout (see :mod:`gaia_fast.math.olympiad`).
"""

from __future__ import annotations

import ast
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import polars as pl

import gaia_fast._native as _nat
from gaia_fast.math.olympiad import (
    DEFAULT_TIMEOUT,
    Decision,
    judge_many,
    olympiad_equal,
)
from gaia_fast.math.pool import SympyPool
from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm.olympiad_tables import REPORT_COLUMNS, SOURCES, VARIANTS

__all__ = [
    "REPORT_COLUMNS",
    "extract_answer",
    "grade",
    "olympiad_equal",
    "openbmb_gt",
    "report",
]


_INPUTS = ("prediction", "source", "final_answer", "answer_type", "error")

#: Why a row has no score (the reference raised there) and the reason text for it.
_CRASH_REASONS = {
    "no_source": "source is NaN: the reference raises TypeError ('zh' in NaN)",
    "no_answer": "final_answer is NaN: the reference raises TypeError (slicing NaN)",
    "bad_precision": "error cell is not a float: the reference raises ValueError",
    "index_error": "precision list shorter than the answer's pieces: the reference raises IndexError",
}
_PATH_REASONS = {
    "preprocess_error": "native: unbalanced \\boxed{ in an answer (preprocessing raises) -> not equal",
    "identical": "native: identical after preprocessing",
    "length_mismatch": "native: different numbers of answer pieces",
    "pairing": "native: every piece paired by string/number/fraction rules",
    "sympy": "sympy: piece pairing needed SymPy",
}


def extract_answer(prediction: str | None, is_chinese: bool = False) -> str:
    """VLMEvalKit/OpenBMB ``extract_answer`` (§5.1); ``None`` reads as ``nan``."""
    return _nat.olympiad_extract(prediction, is_chinese)


def openbmb_gt(cell: object) -> str | None:
    """``final_answer[0]`` for the ``openbmb`` judge, from a list or a table cell.

    A cell that is a Python list literal whose ``str()`` gives the cell back (VLMEvalKit's
    ``str(list)`` form, backslashes doubled) is read with ``ast.literal_eval``; any other
    cell is taken as ``"['" + answers + "']"`` written out without escaping: ``[2:-2]``, cut
    at the first ``', '``. ``None`` for a null cell or an empty list.
    """
    if cell is None:
        return None
    if isinstance(cell, pl.Series):
        cell = cell.to_list()
    if isinstance(cell, (list, tuple)):
        return None if not cell or cell[0] is None else str(cell[0])
    text = str(cell)
    inner = text[2:-2]
    if text.startswith("['") and text.endswith("']") and "\\" not in text and "'" not in inner and '"' not in inner:
        return inner  # a one-answer list either way
    if "[" in text:
        try:
            with warnings.catch_warnings():  # invalid escapes such as "\\f" in raw cells
                warnings.simplefilter("ignore")
                value = ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            value = None
        if isinstance(value, list) and value and str(value) == text:
            return str(value[0])
    return inner.split("', '")[0]


def report(rows: Iterable[tuple[str | None, bool | None]]) -> dict[str, float | None]:
    """The OlympiadBench score table (§5.7) from ``(source, score)`` pairs, in column order.

    A null score counts as not correct. A column whose group has no rows is ``None`` where
    the reference raises ZeroDivisionError (see :func:`gaia_fast.reference.vlm_olympiad.report`).
    """
    rows = list(rows)
    count = Counter(s for s, _ in rows)
    hits = Counter(s for s, ok in rows if ok)

    def pct(names: Sequence[str], total: int | None = None) -> float | None:
        t = sum(count[n] for n in names) if total is None else total
        return None if t == 0 else 100 * sum(hits[n] for n in names) / t

    out: dict[str, float | None] = {name: pct([name]) for name in SOURCES}
    for lang in ("zh", "en"):
        for subject in ("maths", "physics"):
            out[f"{lang}_{subject}"] = pct([n for n in SOURCES if lang in n and subject in n])
    for subject in ("maths", "physics"):
        out[subject] = pct([n for n in SOURCES if subject in n])
    out["AVG"] = pct(SOURCES, len(rows))
    return out


def _column(frame: pl.DataFrame, name: str) -> pl.Series:
    if name not in frame.columns:
        return pl.Series(name, [None] * frame.height, dtype=pl.String)
    col = frame[name]
    if col.dtype == pl.String:
        return col
    if isinstance(col.dtype, pl.List) and name == "final_answer":
        return col
    return col.cast(pl.String)


def _precision(answer_type: str | None, error: str | None, variant: str) -> float | list[float] | None:
    """The row's precision argument (§5.2), as the native row glue computes it."""
    if answer_type is not None and "Tuple" in answer_type:
        return None
    if variant == "vlmevalkit":
        if error is None or error == "nan":  # a NaN cell: the judge's default precision
            return None
    elif not error:
        return None
    if "," in error:  # per-piece precisions; an empty piece takes the default
        return [float(p) if p else 1e-8 for p in error.split(",")]
    return float(error)


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    timeout: float = DEFAULT_TIMEOUT,
    pool: SympyPool | None = None,
    **family_options: Any,
) -> GradeResult:
    """Grade an OlympiadBench result table (see the module docstring).

    ``variant``: ``"openbmb"`` (default) or ``"vlmevalkit"``. ``seed`` and ``judge`` are
    unused: the rule-based judge is deterministic and needs no LLM (VLMEvalKit's optional
    API judge, §5.8, is not reproduced). ``timeout``: seconds per SymPy pair.

    Rows: every input row in order plus ``extracted``, ``score`` (null where the reference
    raises), ``status`` (``ok``, ``timeout``, ``worker_error``, or why the reference raises:
    ``no_source``, ``no_answer``, ``bad_precision``, ``index_error``) and ``reason``.
    """
    variant = variant or "openbmb"
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} for olympiadbench; expected one of {VARIANTS}")
    if family_options:
        raise TypeError(f"unknown option(s) for olympiadbench: {', '.join(sorted(family_options))}")
    del seed
    if isinstance(frame, pl.LazyFrame):
        frame = frame.collect()
    cols = {name: _column(frame, name) for name in _INPUTS}
    answers = cols["final_answer"]
    gt_given = variant == "openbmb"
    if gt_given:
        answers = pl.Series("final_answer", [openbmb_gt(c) for c in answers], dtype=pl.String)
    elif isinstance(answers.dtype, pl.List):  # a real list: the cell text is its str()
        answers = pl.Series("final_answer", [None if c is None else str(c.to_list()) for c in answers], dtype=pl.String)
    native = _nat.olympiad_grade_arrow(
        cols["prediction"], cols["source"], answers, cols["answer_type"], cols["error"], variant, gt_given
    )
    extracted = pl.Series(native["extracted"]).alias("extracted").cast(pl.String)
    gts = pl.Series(native["gt"]).alias("gt").cast(pl.String)
    scores = pl.Series(native["score"]).alias("score").to_list()
    status = pl.Series(native["status"]).alias("status").cast(pl.String).to_list()
    path = pl.Series(native["path"]).alias("path").cast(pl.String).to_list()

    pending = [i for i, s in enumerate(status) if s == "pending"]
    stats: dict[str, Any] = {"variant": variant, "rows": frame.height}
    if pending:
        at, err = cols["answer_type"], cols["error"]
        ex, gl = extracted.to_list(), gts.to_list()
        decisions: list[Decision] = judge_many(
            [ex[i] for i in pending],
            [gl[i] for i in pending],
            [_precision(at[i], err[i], variant) for i in pending],
            variant,
            pool=pool,
            timeout=timeout,
            stats=stats,
        )
        for i, d in zip(pending, decisions):
            scores[i] = d.equal
            status[i] = d.status
            path[i] = d.path
    by_status_reason = {
        **_CRASH_REASONS,
        "timeout": "sympy: a pair ran out of time and counts as not equal",
        "worker_error": "sympy: a worker died on a pair, which counts as not equal",
    }
    decided = pl.DataFrame({"status": status, "path": path}, schema={"status": pl.String, "path": pl.String})
    path_text = pl.col("path").fill_null("")
    reasons = decided.select(
        pl.col("status")
        .replace_strict(by_status_reason, default=None)
        .fill_null(path_text.replace_strict(_PATH_REASONS, default=path_text))
        .alias("reason")
    ).to_series()
    rows = frame.with_columns(
        extracted,
        pl.Series("score", scores, dtype=pl.Boolean),
        decided.get_column("status"),
        reasons,
    )
    src = cols["source"].to_list()
    table = report(zip(src, scores))
    rep = pl.DataFrame({k: [v] for k, v in table.items()}, schema={k: pl.Float64 for k in REPORT_COLUMNS})
    by_status = Counter(status)
    by_path = Counter(p for p in path if p is not None)
    crashed = sum(by_status[s] for s in _CRASH_REASONS)
    stats.update(
        by_status=dict(by_status),
        by_path=dict(by_path),
        decided_native=sum(by_path[p] for p in ("preprocess_error", "identical", "length_mismatch", "pairing")),
        decided_sympy=by_path["sympy"],
        correct=sum(1 for s in scores if s),
        reference_would_raise=crashed,
    )
    empty = [k for k, v in table.items() if v is None]
    if empty:
        stats["report_error"] = "ZeroDivisionError: no rows for " + ", ".join(empty)
    if crashed:
        stats["report_note"] = "rows where the reference raises count as not correct"
    if judge is not None:
        stats["judge"] = "unused: OlympiadBench's rule-based judge needs no LLM"
    return GradeResult(rows=rows, report=rep, stats=stats)
