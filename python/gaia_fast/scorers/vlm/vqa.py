"""Open VQA (VLMEvalKit ``ImageVQADataset``): ChartQA, TextVQA, OCRVQA, GQA, DocVQA and
InfoVQA, and the two datasets that call the same ``process_line`` from their own
``evaluate``: VizWiz (``vqa_score`` on the ``answers`` column) and PlotQA
(``relaxed_accuracy``), laid out as extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/image_vqa.py`` (``evaluate``) and
``vlmeval/dataset/utils/vqa_eval.py`` (``process_line``, ``hit_calculate``). Each row's
reference answers are the ``answer`` cell, or the list it spells (``['a', 'b', ...]``,
which upstream ``eval``s). By dataset:

* TextVQA, ``vqa_score``: prediction and answers go through ``process_answer``
  (punctuation, number words, articles, contractions); answer *k* scores
  ``min(1, m_k / 3)`` where ``m_k`` counts the *other* answers equal to the prediction; the
  row's hit is the mean of these.
* ChartQA, ``relaxed_accuracy``: numbers within 5 % (``50%`` reads as 0.5), other text equal
  ignoring case; the row's hit is its best answer.
* OCRVQA, ``accuracy``: equal after ``strip().lower()``, best answer. GQA (from 2024-09):
  the same test, averaged over the answers (GQA is in no ``hit_calculate`` list).
* DocVQA, InfoVQA, ``anls``: ``1 - edit distance / max length``, 0 under 0.5.
* VizWiz (de267d1c, 2024-11-25): TextVQA's rule on ``str(answers)``; PlotQA (db3787da,
  2026-02-23): ChartQA's rule with head's argument order (variant ``2025-09``). Both
  report ``Overall`` only.

The report (``{model}_{dataset}_acc.csv``) is one row: with a ``split`` column each split
then ``Overall``, otherwise ``Overall`` then each ``category``; every value is
``np.mean(hits) * 100``, unrounded (the reference's ``ret.round(2)`` discards its result).
The reference lists splits in ``set`` order, which changes from run to run; here they are
sorted.

Variants (``--variant``):

* ``classic`` (default; 2024-03-27 … 2025-05-12, which wrote the VILA-1.5 tree of
  2024-07-27 and most archives): ``process_punctuation``'s ``(?!<=\\d)(\\.)(?!\\d)``, and
  ChartQA calls ``relaxed_correctness(prediction, answer)``: the relative change divides
  by the *prediction*, and a prediction of 0 is compared as text.
* ``2025-05`` (928a95b0, 2025-05-13): a ``.`` after a digit stays (TextVQA).
* ``2025-09`` (677e30a5, 2025-09-01, still at head): ChartQA divides by the answer.

Cells are read as VLMEvalKit's ``load()`` reads them (pandas): empty cells and the texts
pandas takes for NaN (``None``, ``N/A``, ``nan``...) become ``"nan"`` in ``prediction`` and
``answer``, and a column pandas reads as numbers is the ``str`` of those numbers (all
predictions numeric with one empty cell: ``"12"`` reads ``"12.0"``; see
:mod:`gaia_fast.scorers.vlm._pandas`). Scoring is native over the Arrow columns on all cores; an answer cell that
holds a ``[`` but is not the plain list form ``repr`` writes goes to Python's literal
parser (``ast.literal_eval``; an expression only ``eval`` makes a list of is read as one
answer).
"""

from __future__ import annotations

import ast
import math
import warnings
from typing import Any, NamedTuple

import polars as pl

from gaia_fast import _native
from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_str
from gaia_fast.scorers.vlm.omni3d import PANDAS_NA

__all__ = [
    "BENCHMARKS",
    "DEFAULT_VARIANT",
    "RULES",
    "VARIANTS",
    "RowDecision",
    "anls_compute",
    "decide",
    "grade",
    "np_mean",
    "parse_answers",
    "process_answer",
    "relaxed_correctness",
]

#: ``grade(benchmark=...)`` names -> ``process_line`` method (with its ``hit_calculate``).
BENCHMARKS = {
    "textvqa": "vqa_score",
    "chartqa": "relaxed_accuracy",
    "ocrvqa": "accuracy",
    "gqa": "accuracy_mean",
    "docvqa": "anls",
    "infovqa": "anls",
    # Their own evaluate, the same process_line: VizWiz (the ``answers`` column, mean of
    # the matches) and PlotQA (max); both report Overall only.
    "vizwiz": "vqa_score",
    "plotqa": "relaxed_accuracy",
}
#: Benchmarks whose answers are the ``answers`` column.
_ANSWERS_COLUMN = frozenset({"vizwiz"})
#: Benchmarks whose report is ``Overall`` alone (split and category columns are ignored).
_OVERALL_ONLY = frozenset({"vizwiz", "plotqa"})
VARIANTS: tuple[str, ...] = tuple(_native.VQA_VARIANTS)
RULES: tuple[str, ...] = tuple(_native.VQA_RULES)
DEFAULT_VARIANT = "classic"

_REASON = {
    "vqa_match": "vqa_match: the normalised prediction equals {m} answer(s); each answer scores min(1, matches among the others / 3)",
    "vqa_none": "vqa_none: the normalised prediction equals no answer",
    "exact": "exact: equal to {m} answer(s) after strip and lower",
    "differ": "differ: equal to no answer after strip and lower",
    "number_close": "number_close: both numbers, within 5%",
    "number_far": "number_far: both numbers, more than 5% apart for every answer",
    "text_equal": "text_equal: equal to an answer ignoring case (not both numbers)",
    "text_differ": "text_differ: equal to no answer ignoring case (not both numbers)",
    "anls": "anls: similarity 1 - distance/length at or above 0.5",
    "anls_below": "anls_below: similarity under 0.5 for every answer (score 0)",
    "no_answers": "no_answers: the answer cell is an empty list",
}


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown open-VQA variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")


def _method(benchmark: str) -> str:
    method = BENCHMARKS.get(benchmark.lower()) if isinstance(benchmark, str) else None
    if method is None:
        raise ValueError(f"unknown open-VQA benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    return method


def process_answer(text: str, variant: str = DEFAULT_VARIANT) -> str:
    """VLMEvalKit ``process_answer`` (TextVQA's normalisation of answers and predictions)."""
    _check_variant(variant)
    return _native.vqa_process_answer(text, variant)


def relaxed_correctness(target: str, prediction: str) -> tuple[bool, str]:
    """``relaxed_correctness(target, prediction)``: (correct, rule). Note the order: the
    classic ChartQA flow passes the model's prediction as ``target``."""
    return _native.vqa_relaxed_correctness(target, prediction)


def anls_compute(groundtruth: str, prediction: str) -> float:
    """``anls_compute``: the normalised edit distance (0.0 = equal)."""
    return _native.vqa_anls_compute(groundtruth, prediction)


def np_mean(values: list[float]) -> float:
    """``np.mean`` of float64 values, summed pairwise as numpy does; NaN when empty."""
    return _native.np_mean([float(v) for v in values])


def _literal_list(answer: str) -> list[Any] | None:
    try:
        with warnings.catch_warnings():
            # Invalid escapes ("\d") warn at parse time; the cell is data, not code.
            warnings.simplefilter("ignore")
            value = ast.literal_eval(answer)
    except Exception:  # noqa: BLE001 - upstream's istype() treats every failure as "not a list"
        return None
    return value if isinstance(value, list) else None


def parse_answers(answer: str) -> list[Any]:
    """The row's reference answers: the list ``answer`` spells, else ``[answer]``."""
    kind, items = _native.vqa_parse_answers(answer)
    if kind == "list":
        return items
    if kind == "single":
        return [answer]
    value = _literal_list(answer)
    return [answer] if value is None else value


class RowDecision(NamedTuple):
    """One row: ``hit`` (what ``hit_calculate`` gives it; None where the reference raises),
    ``rule``, ``extracted`` (the prediction as the method reads it), ``matched`` (answers
    it matched), ``status`` (``ok``, ``no_answers``, ``reference_error``) and ``reason``."""

    hit: float | None
    rule: str | None
    extracted: str | None
    matched: int
    status: str
    reason: str


def _reason(rule: str, matched: int) -> str:
    return _REASON[rule].format(m=matched)


def _accuracy_with_bytes(prediction: str, answers: list[Any], method: str, variant: str) -> RowDecision:
    """``accuracy`` over a list holding bytes literals: ``bytes.strip().lower()`` works
    upstream and never equals the text, so those answers match nothing."""
    matches = [0.0 if isinstance(a, bytes) else _native.vqa_score_row(prediction, [a], method, variant)[0] for a in answers]
    k = int(sum(matches))
    hit = max(matches) if method == "accuracy" else np_mean(matches)
    extracted = _native.vqa_score_row(prediction, [], method, variant)[2]
    rule = "exact" if k else "differ"
    return RowDecision(hit, rule, extracted, k, "ok", _reason(rule, k))


def decide(prediction: str, answer: str, benchmark: str = "textvqa", variant: str = DEFAULT_VARIANT) -> RowDecision:
    """Score one row of ``benchmark`` (``prediction`` and ``answer`` are the cells' text)."""
    method = _method(benchmark)
    _check_variant(variant)
    answers = parse_answers(answer)
    if not all(isinstance(a, str) for a in answers):
        if method == "relaxed_accuracy":
            answers = [str(a) for a in answers]  # relaxed_correctness str()s its arguments
        elif method.startswith("accuracy") and all(isinstance(a, (str, bytes)) for a in answers):
            return _accuracy_with_bytes(prediction, answers, method, variant)
        else:
            bad = next(a for a in answers if not isinstance(a, str))
            exc = "TypeError" if isinstance(bad, bytes) else "AttributeError"
            why = f"answer list holds {type(bad).__name__} {bad!r}: the reference's string methods raise {exc} on it"
            return RowDecision(None, None, None, 0, "reference_error", why)
    hit, rule, extracted, matched = _native.vqa_score_row(prediction, answers, method, variant)
    if rule == "no_answers":
        if method in ("vqa_score", "accuracy_mean"):
            return RowDecision(math.nan, rule, extracted, 0, "no_answers", _reason(rule, 0) + " (np.mean of nothing: NaN)")
        return RowDecision(None, rule, extracted, 0, "reference_error", _reason(rule, 0) + " (np.max/np.min raise ValueError upstream)")
    return RowDecision(hit, rule, extracted, matched, "ok", _reason(rule, matched))


# --------------------------------------------------------------------------------------
# grade
# --------------------------------------------------------------------------------------


def _text(series: pl.Series) -> pl.Series:
    return series if series.dtype == pl.String else series.cast(pl.String)


def _as_pandas_str(series: pl.Series, pandas_na: bool) -> pl.Series:
    """``str(x)`` of each cell as pandas read it: a NaN cell is ``"nan"``, and a column
    pandas reads as numbers gives their ``str`` (``"12.0"`` in a float column)."""
    if not pandas_na:  # the cells as written, no pandas reading
        return _text(series).fill_null("nan")
    return pandas_str(_text(series))


def _as_pandas_key(series: pl.Series, pandas_na: bool) -> pl.Series:
    """A grouping column as pandas read it: NaN cells are null."""
    col = _text(series)
    if pandas_na:
        col = col.set(col.is_in(PANDAS_NA).fill_null(False), None)
    return col


def _report(hits: pl.Series, split: pl.Series | None, category: pl.Series | None, crashed: str | None) -> tuple[pl.DataFrame, str | None]:
    """The one-row ``_acc.csv`` report and the reference's error, if it raises."""
    values: dict[str, float | None] = {}
    error = crashed

    def mean(mask: pl.Series | None) -> float:
        sub = hits if mask is None else hits.filter(mask)
        return np_mean(sub.to_list()) * 100

    if split is not None:
        keys = split.drop_nulls().unique().sort().to_list()
        for sp in keys:
            values[sp] = mean((split == sp).fill_null(False))
        if split.null_count():
            values["nan"] = math.nan  # NaN == NaN is False upstream: the split has no row
        values["Overall"] = mean(None)
    else:
        values["Overall"] = mean(None)
        if category is not None:
            if category.null_count():
                error = error or "a missing category: sorting the categories raises TypeError upstream"
            for c in category.drop_nulls().unique().sort().to_list():
                values[c] = mean((category == c).fill_null(False))
    if error is not None:
        values = dict.fromkeys(values)
    report = pl.DataFrame({c: [v] for c, v in values.items()}, schema={c: pl.Float64 for c in values})
    return report, error


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "textvqa",
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    pandas_na: bool = True,
) -> GradeResult:
    """Grade a VLMEvalKit open-VQA result table (``{model}_{ChartQA_TEST,TextVQA_VAL,
    OCRVQA_TESTCORE,DocVQA_VAL,...}.xlsx``).

    Needs ``prediction`` and ``answer``; ``split`` (ChartQA) or ``category`` (OCRVQA), when
    present, make the report's columns.

    ``rows``: every input row in order, plus ``extracted`` (the prediction as the method
    reads it: normalised for TextVQA, stripped for ChartQA/OCRVQA/GQA, lowercased with
    whitespace collapsed for ANLS), ``rule`` (:data:`RULES`), ``score`` (the row's hit:
    0..1; NaN for TextVQA/GQA with an empty answer list; null where the reference raises),
    ``matched`` (answers it matched), ``status`` (``ok``, ``no_answers``,
    ``reference_error``) and ``reason``. ``report``: the dataset's ``_acc.csv``.
    ``stats``: counts, rule counts, the variant, the method, and ``reference_error`` where
    the reference would raise on the table (the report's values are then null).

    ``variant``: ``"classic"`` (default), ``"2025-05"`` or ``"2025-09"``. ``pandas_na``
    (default True) reads the cell texts pandas takes for NaN as ``"nan"``, as upstream.
    There is no judge step; ``seed`` is unused (no random draw).
    """
    frame = _check_frame(frame)
    method = _method(benchmark)
    bench = benchmark.lower()
    if judge is not None:
        raise ValueError(f"{bench}: the open-VQA evaluation has no judge step")
    # PlotQA exists only with head's argument order; the others default to classic.
    variant = ("2025-09" if bench == "plotqa" else DEFAULT_VARIANT) if variant is None else variant
    _check_variant(variant)
    answer_col = "answers" if bench in _ANSWERS_COLUMN else "answer"
    for name in ("prediction", answer_col):
        if name not in frame.columns:
            raise ValueError(f"{bench}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")

    pred = _as_pandas_str(frame["prediction"], pandas_na)
    answer = _as_pandas_str(frame[answer_col], pandas_na)
    out = _native.vqa_score_arrow(pred, answer, method, variant)
    scored = pl.DataFrame([pl.Series(col).alias(name) for name, col in out.items()])
    codes = scored["rule"]
    rule = codes.replace_strict(list(range(len(RULES))), list(RULES), return_dtype=pl.String)
    hit = scored["hit"]
    extracted = scored["extracted"].cast(pl.String)
    matched = scored["matched"].cast(pl.Int64)
    status = pl.Series("status", ["ok"] * frame.height, pl.String)
    reason = pl.DataFrame({"rule": rule, "matched": matched}).select(
        pl.col("rule")
        .replace_strict(_REASON, default=None, return_dtype=pl.String)
        .str.replace_all("{m}", pl.col("matched").cast(pl.String), literal=True)
    )["rule"]

    # Answer cells the native reader left to Python's literal parser, and empty answer
    # lists (where the reference's behaviour depends on the method): few, one by one.
    fallback = (codes.is_null() | (rule == "no_answers")).fill_null(True).arg_true().to_list()
    literal_rows = int(codes.null_count())
    if fallback:
        h, r, e, m, s, why = hit.to_list(), rule.to_list(), extracted.to_list(), matched.to_list(), status.to_list(), reason.to_list()
        p_list, a_list = pred.to_list(), answer.to_list()
        for i in fallback:
            d = decide(p_list[i], a_list[i], bench, variant)
            h[i], r[i], e[i], m[i], s[i], why[i] = d.hit, d.rule, d.extracted, d.matched, d.status, d.reason
        hit = pl.Series("hit", h, pl.Float64)
        rule, extracted = pl.Series("rule", r, pl.String), pl.Series("extracted", e, pl.String)
        matched, status, reason = pl.Series("matched", m, pl.Int64), pl.Series("status", s, pl.String), pl.Series("reason", why, pl.String)

    crashed = None
    bad = (status == "reference_error").arg_true()
    if bad.len():
        i = bad[0]
        crashed = f"row {i}: {reason[i]}"
    split = _as_pandas_key(frame["split"], pandas_na) if "split" in frame.columns and bench not in _OVERALL_ONLY else None
    category = (
        _as_pandas_key(frame["category"], pandas_na)
        if split is None and "category" in frame.columns and bench not in _OVERALL_ONLY
        else None
    )
    report, error = _report(hit.fill_null(math.nan), split, category, crashed)

    rows = frame.with_columns(
        extracted.alias("extracted"),
        rule.alias("rule"),
        hit.alias("score"),
        matched.alias("matched"),
        status.alias("status"),
        reason.alias("reason"),
    )
    n = frame.height
    overall = report["Overall"][0] if "Overall" in report.columns else None
    stats: dict[str, Any] = {
        "benchmark": bench,
        "method": method,
        "variant": variant,
        "rows": n,
        "overall": overall,
        "rules": dict(sorted((k, v) for k, v in pl.DataFrame({"rule": rule}).group_by("rule").len().iter_rows() if k is not None)),
        "statuses": dict(sorted(pl.DataFrame({"status": status}).group_by("status").len().iter_rows())),
        "literal_rows": literal_rows,
        "reference_error": error,
        "crashed_rows": int((status == "reference_error").sum()),
    }
    return GradeResult(rows=rows, report=report, stats=stats)
