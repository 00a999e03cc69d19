"""CRPE (CRPE_EXIST, CRPE_RELATION): ``crpe.is_correct`` per row, per-category accuracy
(``CRPE.evaluate``).

Reference: open-compass/VLMEvalKit ``CRPE.evaluate`` (``vlmeval/dataset/image_vqa.py``) and
``is_correct`` (``vlmeval/dataset/utils/crpe.py``, unchanged from 5803732d to head e8e78f05):

* ``is_correct(str(answer), str(prediction))`` (pandas' ``str``: ``'nan'`` for an empty
  cell): a one-character prediction, or one starting with ``A``-``D``, is right when its
  first character equals the answer's; any other is right when ``answer[4:].lower()`` (the
  option text after ``"A. "``...) is a substring of ``prediction.lower()``;
* variant ``classic`` (5803732d, 2024-09-13): each row counts once for its ``category``;
* variant ``2025-09`` (228ef45c, 2025-09-08, to head): rows in consecutive groups of four
  (``assert len % 4 == 0``), a group right when all four rows are; the group counts for the
  category of the row the check stopped at (the first wrong one, else the fourth);
* the report ``{exist, subject, predicate, object, total}`` of ``score / num`` (None where
  a category has no row), written as ``{stem}_score.json``. A category outside these
  raises KeyError upstream (``reference_error``, no report).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_str

__all__ = ["CATEGORIES", "VARIANTS", "grade", "is_correct"]

CATEGORIES = ("exist", "subject", "predicate", "object", "total")
VARIANTS = ("classic", "2025-09")


def is_correct(answer: str, prediction: str) -> bool:
    """``crpe.is_correct(answer, prediction)`` (upstream's first argument is the truth).
    IndexError where upstream's indexing raises (an empty text)."""
    if len(prediction) == 1:
        return prediction[0] == answer[0]
    if prediction[0] in ("A", "B", "C", "D"):
        return prediction[0] == answer[0]
    return answer[4:].lower() in prediction.lower()


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a CRPE result table (``answer``, ``category``, ``prediction``). Rules only.
    ``rows``: the input plus ``score`` (the row's ``is_correct``; None for a row of a group
    the check stopped before), ``status`` (``ok``, ``unchecked``, ``error``), ``reason``
    and ``group`` (the row's group under ``2025-09``). ``report``: one row, the five
    categories."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("crpe is graded by rules only; it takes no judge")
    variant = variant or "2025-09"
    if variant not in VARIANTS:
        raise ValueError(
            f"crpe: unknown variant {variant!r} (known: {', '.join(VARIANTS)})"
        )
    for name in ("answer", "category", "prediction"):
        if name not in frame.columns:
            raise ValueError(
                f"crpe: the result table has no {name!r} column (columns: {sorted(frame.columns)})"
            )
    n = frame.height
    answers = pandas_str(frame["answer"]).to_list()
    preds = pandas_str(frame["prediction"]).to_list()
    cats = pandas_str(frame["category"]).to_list()
    scores: list[float | None] = [None] * n
    status = ["unchecked"] * n
    reasons = ["not checked: an earlier row of its group of four was wrong"] * n
    groups: list[int | None] = [None] * n
    score = dict.fromkeys(CATEGORIES, 0)
    num = dict.fromkeys(CATEGORIES, 0)
    error: str | None = None

    current = [0]

    def check(i: int) -> bool:
        current[0] = i
        ok = is_correct(answers[i], preds[i])
        scores[i] = 1.0 if ok else 0.0
        status[i] = "ok"
        reasons[i] = (
            f"{'right' if ok else 'wrong'}: {preds[i][:40]!r} vs answer {answers[i][:40]!r}"
        )
        return ok

    def count(cat: str, ok: bool, where: str) -> str | None:
        if cat not in score:
            return f"{where}: category {cat!r} is none of {', '.join(CATEGORIES[:-1])}: KeyError upstream (no report)"
        if ok:
            score[cat] += 1
            score["total"] += 1
        num[cat] += 1
        num["total"] += 1
        return None

    try:
        if variant == "classic":
            for i in range(n):
                error = count(cats[i], check(i), f"row {i + 1}")
                if error:
                    status[i] = "error"
                    break
        else:
            if n % 4:
                error = f"{n} rows is not a multiple of 4: AssertionError upstream (no report)"
            else:
                for g, start in enumerate(range(0, n, 4)):
                    last = start
                    ok = True
                    for j in range(4):
                        last = start + j
                        groups[last] = g
                        if not check(last):
                            ok = False
                            break
                    for j in range(4):
                        groups[start + j] = g
                    error = count(cats[last], ok, f"row {last + 1}")
                    if error:
                        status[last] = "error"
                        break
    except IndexError:
        bad = current[0]
        status[bad] = "error"
        reasons[bad] = "error: IndexError in is_correct"
        error = f"row {bad + 1}: an empty answer or prediction text: IndexError upstream in is_correct (no report)"
    output: dict[str, float | None] = {}
    if error is None:
        output = {c: (score[c] / num[c] if num[c] else None) for c in CATEGORIES}
    report = (
        pl.DataFrame([output], schema={k: pl.Float64 for k in output})
        if output
        else pl.DataFrame()
    )
    rows = frame.with_columns(
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
        pl.Series("group", groups, pl.Int64),
    )
    stats: dict[str, Any] = {
        "benchmark": "crpe",
        "variant": variant,
        "rows": n,
        "tasks": num["total"],
        "correct": float(score["total"]),
        "accuracy": output.get("total") if output else None,
        "decided": {"rules": num["total"], "recorded": 0, "live": 0, "undecided": 0},
        "decided_unit": "rows" if variant == "classic" else "groups of four rows",
        "method": "rules (crpe.is_correct)"
        + ("" if variant == "classic" else "; a group of four right when all are"),
        "archive_method": None,
        "matches_archive": True,
        "flags": {},
        "status": dict(sorted(rows.group_by("status").len().iter_rows())),
        "judge": False,
        "reference_error": error,
    }
    return GradeResult(rows=rows, report=report, stats=stats)
