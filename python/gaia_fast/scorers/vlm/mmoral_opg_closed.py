"""MMOral_OPG_CLOSED: ``get_single_choice_prediction`` per row, accuracy per main category
(``MMOral_OPG_CLOSED.evaluate``).

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/mmoral_opg_closed.py`` and
``get_single_choice_prediction`` (``vlmeval/dataset/utils/mmoral_opg.py``), added a3656d48,
2026-03-27, the same at head e8e78f05:

* ``str()`` of prediction and answer; the prediction stripped of ``, . ! ? ; : '`` at its ends
  (one character kind after the other) and padded with spaces; candidates: the letters in
  ``(X)``, else those as `` X `` / `` X.`` / `` X,``, else those whose option text
  (``str(option1..4)``) occurs; the candidate found first (`` X ``, else ``(X)``, else its option
  text) wins; when no candidate is found, or none by those three searches, upstream draws
  ``random.choice('ABCD')`` unseeded: such a row cannot be reproduced, so it gets status
  ``random`` and the file no report;
* right when the letter equals the answer text; one tally counts each row for each of
  ``Teeth, Patho, HisT, Jaw, SumRec`` its ``category`` contains (a substring test), for the
  category itself, for it with ``,`` as ``_``, and for ``Overall`` (so a row of category
  ``Jaw`` counts three times under Jaw, as upstream);
* the report ``{stem}_acc.csv``: ``Category, tot, acc`` (``acc`` = right / tot * 100, 0 with no
  rows), sorted by category. A category that is not text (NaN) raises upstream (no report).
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str
from gaia_fast.scorers.vlm._replay import rules_only_stats

__all__ = ["MAIN_CATEGORIES", "VARIANTS", "grade", "single_choice"]

#: One rule since it was added (``--as-of`` picks ``classic``).
VARIANTS = ("classic",)

MAIN_CATEGORIES = ("Teeth", "Patho", "HisT", "Jaw", "SumRec")
_CHOICES = ("A", "B", "C", "D")


def single_choice(response: str, options: dict[str, str]) -> str | None:
    """``get_single_choice_prediction`` without its random fallback: the letter, or None
    where upstream draws one at random."""
    for char in (",", ".", "!", "?", ";", ":", "'"):
        response = response.strip(char)
    response = " " + response + " "
    candidates = [c for c in _CHOICES if f"({c})" in response]
    if not candidates:
        candidates = [c for c in _CHOICES if f" {c} " in response or f" {c}." in response or f" {c}," in response]
    if not candidates:
        candidates = [c for c in _CHOICES if options[c] in response]
    positions: dict[str, int] = {}
    for c in candidates:
        pos = response.find(f" {c} ")
        if pos == -1:
            pos = response.find(f"({c})")
        if pos == -1:
            pos = response.find(options[c])
        if pos != -1:
            positions[c] = pos
    if positions:
        return min(positions.items(), key=lambda x: x[1])[0]
    return None


def grade(frame: pl.DataFrame, *, variant: str | None = None, seed: int = 0, judge: Any = None) -> GradeResult:
    """Grade an MMOral_OPG_CLOSED result table (``answer``, ``prediction``, ``option1`` ..
    ``option4``, ``category``). Rules only. ``rows``: the input plus ``extracted``, ``score``,
    ``status`` (``ok``, ``random``, ``error``), ``reason``. ``report``: ``Category, tot, acc``."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("mmoral_opg_closed is graded by rules only; it takes no judge")
    if variant not in (None, "classic"):
        raise ValueError(f"mmoral_opg_closed has one rule (variant 'classic'), not {variant!r}")
    need = ("answer", "prediction", "option1", "option2", "option3", "option4")
    for name in need:
        if name not in frame.columns:
            raise ValueError(f"mmoral_opg_closed: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    preds, answers = pandas_str(frame["prediction"]).to_list(), pandas_str(frame["answer"]).to_list()
    opts = [pandas_str(frame[f"option{k}"]).to_list() for k in range(1, 5)]
    if "category" in frame.columns:
        kind, cells = pandas_column(frame["category"])
        cats: list[Any] = [math.nan if v is None else v for v in cells.to_list()] if kind == "object" else cells.to_list()
    else:
        cats = ["unknown"] * n
    extracted: list[str | None] = [None] * n
    scores: list[float | None] = [None] * n
    status = ["ok"] * n
    reasons = [""] * n
    error: str | None = None
    bad = next((i for i, c in enumerate(cats) if not isinstance(c, str)), None)
    if bad is not None:
        error = f"row {bad + 1}: category {cats[bad]!r} is not text: TypeError upstream ('in' on it) (no report)"
    for i in range(n):
        letter = single_choice(preds[i], {c: opts[k][i] for k, c in enumerate(_CHOICES)})
        extracted[i] = letter
        if letter is None:
            status[i], reasons[i] = "random", "upstream drew a random letter (unseeded random.choice): not reproducible"
            continue
        ok = letter == answers[i]
        scores[i] = 1.0 if ok else 0.0
        reasons[i] = f"{'right' if ok else 'wrong'}: read {letter} vs answer {answers[i]!r}"
    if bad is not None:
        status[bad], reasons[bad] = "error", error or ""
    drawn = status.count("random")
    if error is None and drawn:
        error = f"{drawn} row(s) fell back to upstream's unseeded random.choice (first: row {status.index('random') + 1}): the report cannot be reproduced"
    report = pl.DataFrame()
    if error is None:
        tot: dict[str, int] = {}
        right: dict[str, int] = {}
        for i in range(n):
            # upstream's one tally takes each main category the text contains, the category,
            # its ',' -> '_' form and Overall: a row whose category is 'Jaw' counts 3 times for Jaw
            keys = [m for m in MAIN_CATEGORIES if m in cats[i]] + [cats[i], cats[i].replace(",", "_"), "Overall"]
            for key in keys:
                tot[key] = tot.get(key, 0) + 1
                right[key] = right.get(key, 0) + int(scores[i] == 1.0)
        names = sorted((*MAIN_CATEGORIES, "Overall"))
        report = pl.DataFrame(
            {
                "Category": names,
                "tot": [tot.get(c, 0) for c in names],
                "acc": [right[c] / tot[c] * 100 if tot.get(c, 0) > 0 else 0.0 for c in names],
            },
            schema={"Category": pl.String, "tot": pl.Int64, "acc": pl.Float64},
        )
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    decided = [i for i in range(n) if status[i] == "ok"]
    correct = sum(scores[i] for i in decided)  # type: ignore[misc]
    stats = rules_only_stats(
        "mmoral_opg_closed",
        "classic",
        rows,
        input_rows=n,
        tasks=len(decided),
        correct=correct,
        accuracy=correct / len(decided) if decided else None,
        unit=None,
        method="rules (get_single_choice_prediction)",
        flags={"random_fallback": drawn} if drawn else {},
        reference_error=error,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
