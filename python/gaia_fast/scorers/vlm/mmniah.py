"""MM-NIAH (MM_NIAH_VAL, MM_NIAH_TEST): ``mmniah.is_correct`` per row, per-category
accuracy (``MMNIAH.evaluate``).

Reference: open-compass/VLMEvalKit ``MMNIAH.evaluate`` (``vlmeval/dataset/image_vqa.py``) and
``is_correct`` / ``VQAEval`` (``vlmeval/dataset/utils/mmniah.py``), the same rule from
5d3cebcf (2024-12-05) to head e8e78f05 (401916c0 only restyled it):

* the prediction and answer cells as pandas loaded them; for ``visual-reasoning`` and
  ``find-image`` rows the answer is ``int(answer)``;
* ``is_correct(answer, prediction)``: ``prediction.strip('.')``; an int answer is right when
  the prediction is all digits equal to it, or (lowered, ``'the answer is'`` and ``*``
  removed, cut at the first ``.`` with commas dropped, stripped) a single letter whose
  ``ord - ord('a')`` equals it (``'the camera is moving left/right'`` read as ``a``/``b``;
  ``none`` and longer texts wrong); any other answer goes to ``VQAEval.evaluate``:
  prediction and answer normalised (newline/tab to space, strip, MM-NIAH's punctuation
  list, ``periodStrip.sub('', s, re.UNICODE)`` — the flag lands in ``count``, number words
  to digits, articles dropped, contractions) and right when the answer occurs as a whole
  word (``\\b...\\b``) in the prediction;
* per category the share right, None where a category has no row, written as
  ``{stem}_score.json`` in the dict's order (count-text, find-image, find-text,
  infer-choose, count-image, visual-reasoning, total). A prediction that is not text
  (NaN), an answer ``int()`` cannot read or an unknown category raises upstream
  (``reference_error``, no report).
"""

from __future__ import annotations

import json
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm.vqa_tables import CONTRACTIONS as _CONTRACTIONS
from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column

__all__ = ["CATEGORIES", "grade", "is_correct", "vqa_match"]

CATEGORIES = (
    "count-text",
    "find-image",
    "find-text",
    "infer-choose",
    "count-image",
    "visual-reasoning",
    "total",
)
_INT_CATEGORIES = ("visual-reasoning", "find-image")

_MANUAL_MAP = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_ARTICLES = ("a", "an", "the")
_PUNCT = (
    ";",
    "/",
    "[",
    "]",
    '"',
    "{",
    "}",
    "(",
    ")",
    "=",
    "+",
    "\\",
    "_",
    "-",
    ">",
    "<",
    "@",
    "`",
    ",",
    "?",
    "!",
)
# '(?!<=\d)' is a typo upstream (a negative lookahead of the text "<=" + digit), kept as is.
_PERIOD_STRIP = re.compile(r"(?!<=\d)(\.)(?!\d)")
_COMMA_STRIP = re.compile(r"(\d)(\,)(\d)")



#: The variants a registry entry may name (one rule from its first version to head).
VARIANTS = ("classic",)

def _punctuation(text: str) -> str:
    out = text
    glued = _COMMA_STRIP.search(text) is not None
    for p in _PUNCT:
        if p + " " in text or " " + p in text or glued:
            out = out.replace(p, "")
        else:
            out = out.replace(p, " ")
    return _PERIOD_STRIP.sub(
        "", out, int(re.UNICODE)
    )  # upstream passes the flag as count (32)


def _digit_article(text: str) -> str:
    words = [_MANUAL_MAP.get(w, w) for w in text.lower().split()]
    words = [w for w in words if w not in _ARTICLES]
    return " ".join(
        str(_CONTRACTIONS.get(w, w)) if isinstance(w, str) else str(w) for w in words
    )


def _normalise(text: str) -> str:
    return _digit_article(
        _punctuation(text.replace("\n", " ").replace("\t", " ").strip())
    )


def vqa_match(response: str, answer: str) -> int:
    """``VQAEval().evaluate(response, answer)`` for a text answer: 1 when the normalised
    answer is a whole word (or phrase) of the normalised response."""
    return (
        1
        if re.search(
            r"\b" + re.escape(_normalise(answer)) + r"\b", _normalise(response)
        )
        else 0
    )


def is_correct(answer: Any, response: str) -> float:
    """``mmniah.is_correct(answer, response)``: truthy when right. Raises as upstream does
    (AttributeError for a response that is not text, for instance)."""
    response = response.strip(".")
    if isinstance(answer, int) and not isinstance(answer, bool):
        if response.isdigit():
            return int(int(response) == answer)
        response = response.lower().replace("the answer is", "").replace("*", "")
        if response.find(".") != -1:
            response = response.split(".")[0].replace(",", "").strip()
        response = response.strip()
        if response == "none":
            return 0
        if "the camera is moving left" in response:
            response = "a"
        elif "the camera is moving right" in response:
            response = "b"
        if len(response) != 1:
            return 0
        return float((ord(response) - ord("a")) == answer)
    if isinstance(
        answer, list
    ):  # unreachable from a result file (cells are never lists); kept for the API
        try:
            parsed = json.loads(response.replace("json", "").replace("```", "").strip())
            if isinstance(parsed, dict):
                parsed = sum(list(parsed.values()), start=[])  # noqa: RUF017 - as upstream (its TypeErrors too)
        except Exception:  # noqa: BLE001 - upstream's bare except: any failure scores 0
            return 0
        if not isinstance(parsed, (list, tuple)):
            return 0
        return sum(r == a for r, a in zip(parsed, answer)) / len(answer)
    if isinstance(answer, bool) or not isinstance(answer, str):
        raise AttributeError(f"{answer!r} has no 'replace'")  # noqa: TRY004 - as upstream
    return vqa_match(response, answer)


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade an MM-NIAH result table (``answer``, ``category``, ``prediction``). Rules only.
    ``rows``: the input plus ``score`` (1.0/0.0), ``status`` (``ok``; ``error`` at the row
    upstream fails on; ``unchecked`` after it) and ``reason``. ``report``: one row, the
    seven keys."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("mmniah is graded by rules only; it takes no judge")
    if variant not in (None, *VARIANTS):
        raise ValueError(f"mmniah has one rule (variant 'classic'), not {variant!r}")
    for name in ("answer", "category", "prediction"):
        if name not in frame.columns:
            raise ValueError(
                f"mmniah: the result table has no {name!r} column (columns: {sorted(frame.columns)})"
            )
    n = frame.height
    answers = _cells(frame["answer"])
    preds = _cells(frame["prediction"])
    _, cat_cells = pandas_column(frame["category"])
    cats = cat_cells.to_list()
    scores: list[float | None] = [None] * n
    status = ["unchecked"] * n
    reasons = ["not checked: upstream stopped at an earlier row"] * n
    score = dict.fromkeys(CATEGORIES, 0)
    num = dict.fromkeys(CATEGORIES, 0)
    error: str | None = None
    for i in range(n):
        cat = cats[i]
        try:
            ans = int(answers[i]) if cat in _INT_CATEGORIES else answers[i]
            ok = is_correct(ans, preds[i])
            if cat not in score:
                raise KeyError(cat)
        except (AttributeError, ValueError, TypeError, KeyError, OverflowError) as e:
            status[i] = "error"
            reasons[i] = f"error: {type(e).__name__}: {e}"
            error = f"row {i + 1}: {type(e).__name__} upstream ({e}; answer {answers[i]!r}, category {cat!r}) (no report)"
            break
        scores[i] = 1.0 if ok else 0.0
        status[i] = "ok"
        reasons[i] = (
            f"{'right' if ok else 'wrong'} ({'index' if isinstance(ans, int) else 'whole-word match'})"
        )
        if ok:
            score[cat] += 1
            score["total"] += 1
        num[cat] += 1
        num["total"] += 1
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
    )
    stats: dict[str, Any] = {
        "benchmark": "mmniah",
        "variant": "classic",
        "rows": n,
        "tasks": num["total"],
        "correct": float(score["total"]),
        "accuracy": output.get("total") if output else None,
        "decided": {"rules": num["total"], "recorded": 0, "live": 0, "undecided": 0},
        "decided_unit": "rows",
        "method": "rules (mmniah.is_correct: option index or whole-word VQA match)",
        "archive_method": None,
        "matches_archive": True,
        "flags": {},
        "status": dict(sorted(rows.group_by("status").len().iter_rows())),
        "judge": False,
        "reference_error": error,
    }
    return GradeResult(rows=rows, report=report, stats=stats)


def _cells(series: pl.Series) -> list[Any]:
    """The cells as pandas holds them after ``data.iloc[i]``: texts (NaN as ``float('nan')``),
    or Python ints / floats / bools for a numeric column."""
    kind, cells = pandas_column(series)
    if kind == "object":
        return [float("nan") if v is None else v for v in cells.to_list()]
    return cells.to_list()
