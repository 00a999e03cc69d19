"""Audits of a GAIA archive, as Polars expressions that run inside the grade's streaming
plan (no Python loop over rows):

* **templates** left in answers (``FINAL ANSWER: x``, ``Final answer: x``,
  ``<answer>x</answer>``, a number with a trailing period): counted, shown, and with
  ``--strip-template`` graded as the template meant (:func:`strip_template`);
* **truth conflicts**: the archive's own truth against the metadata's;
* **the framework's own verdict** against the official rule: agreements and every
  disagreement, with the scorer's explanation of the official decision;
* **the question join**: an archive without task ids gets them from the metadata's
  question text, exact first, then with whitespace normalised (:func:`question_join`).

Each function returns data; the command prints it.
"""

from __future__ import annotations

from typing import Any

import polars as pl

__all__ = [
    "DUPLICATES",
    "TEMPLATE_KINDS",
    "keep_expr",
    "question_join",
    "strip_template",
    "template_flags",
    "verdict_rows",
]

#: Rerun policies (``--duplicates``): which row of a task id that occurs more than once
#: is graded. ``all`` grades every row (the library's default, today's behaviour).
DUPLICATES = ("last", "first", "any-correct", "all")

# ``(?s)`` so that an answer spanning lines is kept whole; the greedy ``.*`` before the
# marker takes the last marker (agents restate the template while reasoning).
_FINAL_ANSWER = r"(?is)^.*\bfinal\s+answer\s*:\s*(.*?)\s*$"
_ANSWER_TAG = r"(?is)^.*<answer>\s*(.*?)\s*</answer>"
_NUMBER_PERIOD = r"^\s*([-+]?[$]?[0-9][0-9,]*(?:\.[0-9]+)?%?)\.\s*$"

#: Template kinds, in the order :func:`strip_template` applies them.
TEMPLATE_KINDS = ("answer_tag", "final_answer", "number_period")


#: The pattern that finds each template kind in an answer.
_TEMPLATE_PATTERNS = {"answer_tag": r"(?is)<answer>.*</answer>", "final_answer": r"(?i)\bfinal\s+answer\s*:", "number_period": _NUMBER_PERIOD}
#: Any of them (each a group with its own flags).
_ANY_TEMPLATE = "|".join(f"(?:{p})" for p in _TEMPLATE_PATTERNS.values())


def template_flags(pred: pl.Expr) -> dict[str, pl.Expr]:
    """One Boolean expression per template kind (null prediction: False)."""
    return {k: pred.str.contains(p).fill_null(False) for k, p in _TEMPLATE_PATTERNS.items()}


def maybe_template(pred: pl.Expr) -> pl.Expr:
    """A cheap superset of :func:`template_flags` (a literal search and one end-anchored
    pattern): the exact patterns then run only on the rows it passes. ``(?i)`` folds the long
    s (U+017F) to ``s``, the only non-ASCII letter that folds into these words."""
    return (pred.str.contains_any(["final", "<answer>", "<an\u017fwer>"], ascii_case_insensitive=True) | pred.str.contains(r"\.\s*\z")).fill_null(False)


def template_counts(pred: pl.Expr) -> list[pl.Expr]:
    """Aggregates ``template_<kind>`` and ``template_any``. (Filtering by
    :func:`maybe_template` first measured slower here: each aggregate re-runs the filter.)"""
    flags = template_flags(pred)
    # ``any``: one pattern, the three as alternatives (a row matches it exactly when it
    # matches one of them); the engine does not share the flags between aggregates, so
    # ``any_horizontal`` of them ran each pattern a second time.
    return [e.sum().alias(f"template_{k}") for k, e in flags.items()] + [pred.str.contains(_ANY_TEMPLATE).fill_null(False).sum().alias("template_any")]


def strip_template(pred: pl.Expr) -> pl.Expr:
    """The answer the template meant: the inside of the last ``<answer>…</answer>``, then
    the text after the last ``FINAL ANSWER:`` (any case), then a number without its
    trailing period. An answer with no template is returned unchanged."""
    a = pl.coalesce(pred.str.extract(_ANSWER_TAG, 1), pred)
    b = pl.coalesce(a.str.extract(_FINAL_ANSWER, 1), a)
    return pl.coalesce(b.str.extract(_NUMBER_PERIOD, 1), b)


def normalise_ws(q: pl.Expr) -> pl.Expr:
    """Whitespace runs as one space, ends stripped (the second try of the question join)."""
    return q.str.replace_all(r"\s+", " ").str.strip_chars()


def question_join(question: str, meta: pl.DataFrame) -> tuple[pl.Expr, pl.Expr]:
    """(task id, how) expressions for an archive without task ids: the metadata task whose
    question is exactly the row's, else the one equal once whitespace is normalised;
    ``how`` is ``"question"``, ``"question-normalised"`` or null (no match). A question
    that two metadata tasks share matches the first of them (metadata order)."""
    m = meta.filter(pl.col("question").is_not_null()).select("task_id", "question")
    exact = m.unique("question", keep="first", maintain_order=True)
    norm = m.with_columns(normalise_ws(pl.col("question")).alias("question")).unique("question", keep="first", maintain_order=True)
    q = pl.col(question)
    by_exact = q.replace_strict(exact.get_column("question"), exact.get_column("task_id"), default=None, return_dtype=pl.String)
    by_norm = normalise_ws(q).replace_strict(norm.get_column("question"), norm.get_column("task_id"), default=None, return_dtype=pl.String)
    tid = pl.coalesce(by_exact, by_norm)
    how = (
        pl.when(by_exact.is_not_null())
        .then(pl.lit("question"))
        .when(by_norm.is_not_null())
        .then(pl.lit("question-normalised"))
        .otherwise(pl.lit(None, pl.String))
    )
    return tid, how


def keep_expr(mode: str, row: str, correct: pl.Expr, key: str = "task_id") -> pl.Expr:
    """Which rows ``--duplicates mode`` grades (``row``: the archive order; ``key``: what
    makes two rows the same task, the task id, or the question text of an archive without
    task ids). Rows without a key are all kept (nothing says they are reruns of one task)."""
    k = pl.col(key)
    r = pl.col(row)
    if mode == "last":
        pick = r.max().over(key)
    elif mode == "first":
        pick = r.min().over(key)
    elif mode == "any-correct":
        # The first correct row of the task, else its last row.
        pick = pl.coalesce(r.filter(correct).min().over(key), r.max().over(key))
    else:
        raise ValueError(f"duplicates: expected one of {', '.join(DUPLICATES)}, got {mode!r}")
    return k.is_null() | (r == pick)


def rerun_counts(key: str) -> list[pl.Expr]:
    """(keys that occur more than once, rows beyond the first of each key) as aggregates."""
    k = pl.col(key).drop_nulls()
    return [
        (k.value_counts().struct.field("count") > 1).sum().alias("rerun_keys"),
        (k.len() - k.n_unique()).alias("rerun_rows"),
    ]


def verdict_rows(rows: pl.DataFrame, scorer: str) -> pl.DataFrame:
    """The disagreement rows with the explanation of the official decision (scored again
    with ``explain``; these rows are few)."""
    if not rows.height:
        return rows.with_columns(pl.lit(None, pl.String).alias("reason"))
    from gaia_fast.frame import _score_columns

    levels = rows.get_column("level") if "level" in rows.columns else None
    cols = _score_columns(
        rows.get_column("prediction"),
        rows.get_column("truth"),
        scorer,
        number_tolerance=None,
        placeholder_is_missing=True,
        explain=True,
        levels=levels,
    )
    reason = cols.get("reason")
    out = rows
    if reason is not None:
        out = out.with_columns(pl.Series("reason", reason).cast(pl.String))
    return out


def summary_of(counts: dict[str, Any]) -> dict[str, Any]:
    """Counts with None as 0."""
    return {k: int(v or 0) for k, v in counts.items()}
