"""ReasonMap-Plus: a normalised prediction per question type, compared with the answer;
accuracy and difficulty-weighted accuracy, overall and per type (``ReasonMap_Plus.evaluate``).

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/reasonmap_plus.py`` (added 181cd9b0,
2025-10-27; 401916c0 only restyled it):

* ``normalize_prediction(prediction, type)``: ``str(cell).strip()`` (a missing cell is
  ``'nan'``); the last ``\\boxed{...}`` (its ``\\text{}`` parts joined), else the text after the
  last of the answer phrases up to a newline or a sentence end, else the text; then for
  ``torf`` types yes/no words, for ``counting1`` a whole-word A-D, for other ``counting*`` the
  first integer (each tried on that candidate, then on the whole text);
* right: ``torf``: the yes/no word equals ``'yes' if int(answer) == 1 else 'no'``;
  ``counting1``: the letter's position (A=0) equals ``int(answer)``; other ``counting*``:
  ``int(pred) == int(answer)``; any other type: stripped, lower-cased texts equal. An
  exception inside (``int('x')``) makes the row wrong;
* weights per ``difficulty_city`` (easy 1, middle 1.5, hard 2): weighted accuracy = the
  weights of the right rows over all weights;
* the report ``{stem}_metrics.tsv``: ``metric, value, n`` rows ``accuracy``,
  ``weighted_accuracy``, then ``accuracy[type]``, ``weighted_accuracy[type]`` per type (sorted).
  A type that is not text (``.lower()`` raises) or a difficulty outside the three (KeyError)
  crashed upstream: no report here. The weight totals are ``np.sum`` of a generator, which
  NumPy < 2.4 passes to Python's ``sum``; NumPy 2.4 raises TypeError there, so a run with it
  wrote no report at all (this port gives the NumPy < 2.4 one).
"""

from __future__ import annotations

import math
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column
from gaia_fast.scorers.vlm._replay import rules_only_stats

__all__ = ["VARIANTS", "WEIGHTS", "grade", "is_right", "normalize_prediction"]

#: One rule since it was added (``--as-of`` picks ``classic``).
VARIANTS = ("classic",)

WEIGHTS = {"easy": 1.0, "middle": 1.5, "hard": 2.0}
_BOXED = re.compile(r"(?:\\boxed|boxed)\{([^}]*)\}", re.IGNORECASE)
_TEXT = re.compile(r"\\text\{([^}]*)\}", re.IGNORECASE)
_YES = {"yes", "y", "true", "t", "1"}
_NO = {"no", "n", "false", "f", "0"}
_PHRASES = (
    "the final answer is", "final answer is", "the answer is", "answer is", "the correct answer is",
    "correct answer is", "final answer:", "final:", "answer:", "ans:",
)  # fmt: skip


def _strip(s: Any) -> str:
    return ("" if s is None else str(s)).strip()


def _boxed(s: str) -> str | None:
    found = list(_BOXED.finditer(s))
    if not found:
        return None
    raw = found[-1].group(1).strip()
    texts = _TEXT.findall(raw)
    return " ".join(t.strip() for t in texts) if texts else raw


def _after_phrases(s: str) -> str:
    lo = s.lower()
    for ph in _PHRASES:
        if ph in lo:
            part = s[lo.rfind(ph) + len(ph) :].strip()
            return re.split(r"(?:\n|\. |\.$)", part, maxsplit=1)[0].strip()
    return s.strip()


def _yesno(s: Any) -> str | None:
    t = _strip(s).lower()
    return "yes" if t in _YES else "no" if t in _NO else None


def _abcd(s: str) -> str | None:
    m = re.search(r"\b([ABCD])\b", s, flags=re.IGNORECASE)
    return m.group(1).upper() if m else None


def _int(s: str) -> int | None:
    m = re.search(r"[-+]?\d+", s)
    return int(m.group(0)) if m else None


def normalize_prediction(pred: Any, typ: Any) -> str:
    """``reasonmap_plus.normalize_prediction`` (AttributeError for a type that is not text,
    as upstream)."""
    s = _strip(pred)
    if not s:
        return ""
    cand = _boxed(s) or _after_phrases(s)
    t = (typ or "").lower()
    if "torf" in t:
        return _yesno(cand) or _yesno(s) or cand
    if t == "counting1" or "counting1" in t:
        return _abcd(cand) or _abcd(s) or cand
    if t in {"counting2", "counting3"} or t.startswith("counting"):
        num = _int(cand)
        if num is None:
            num = _int(s)
        return str(num) if num is not None else cand
    return cand


def is_right(answer: Any, pred: str, typ: Any) -> bool:
    """``_score_one``'s verdict (an exception inside is a wrong row, as upstream's ``except``)."""
    tlo = (typ or "").lower()
    try:
        if "torf" in tlo:
            return _yesno(pred) == ("yes" if int(answer) == 1 else "no")
        if tlo == "counting1" or "counting1" in tlo:
            letter = _abcd(pred)
            return letter is not None and {"A": 0, "B": 1, "C": 2, "D": 3}[letter] == int(answer)
        if tlo in {"counting2", "counting3"} or tlo.startswith("counting"):
            return int(str(pred)) == int(answer)
        return _strip(answer).lower() == _strip(pred).lower()
    except Exception:  # noqa: BLE001 - upstream's bare except: the row is wrong
        return False


def _cells(series: pl.Series) -> list[Any]:
    kind, cells = pandas_column(series)
    values = cells.to_list()
    return [math.nan if v is None else v for v in values] if kind == "object" else values


def grade(frame: pl.DataFrame, *, variant: str | None = None, seed: int = 0, judge: Any = None) -> GradeResult:
    """Grade a ReasonMap-Plus result table (``answer``, ``prediction``, ``type``,
    ``difficulty_city``). Rules only. ``rows``: the input plus ``extracted``, ``score``,
    ``weight``, ``status``, ``reason``. ``report``: ``metric, value, n`` rows."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("reasonmap_plus is graded by rules only; it takes no judge")
    if variant not in (None, "classic"):
        raise ValueError(f"reasonmap_plus has one rule (variant 'classic'), not {variant!r}")
    for name in ("answer", "prediction", "type", "difficulty_city"):
        if name not in frame.columns:
            raise ValueError(f"reasonmap_plus: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    answers, preds = _cells(frame["answer"]), _cells(frame["prediction"])
    types, diffs = _cells(frame["type"]), _cells(frame["difficulty_city"])
    extracted: list[str | None] = [None] * n
    right: list[int] = [0] * n
    status = ["unchecked"] * n
    reasons = ["not checked: VLMEvalKit stopped at an earlier row"] * n
    error: str | None = None
    # (t or "").lower() raises for a type cell that is a number or NaN (normalize_prediction or
    # _score_one, both outside upstream's try): no report
    bad_type = next((i for i in range(n) if types[i] and not isinstance(types[i], str)), None)
    if bad_type is not None:
        error = f"row {bad_type + 1}: type {types[bad_type]!r} is not text: AttributeError upstream (no report)"
        status[bad_type], reasons[bad_type] = "error", error
    else:
        extracted = [normalize_prediction(p, t) for p, t in zip(preds, types)]
        bad = next((i for i in range(n) if not isinstance(diffs[i], str) or diffs[i] not in WEIGHTS), None)
        for i in range(n):
            right[i] = int(is_right(answers[i], extracted[i], types[i]))  # type: ignore[arg-type]
            status[i] = "ok"
            reasons[i] = f"{'right' if right[i] else 'wrong'}: {types[i]} read {extracted[i]!r} vs answer {answers[i]!r}"
        if bad is not None:
            error = f"row {bad + 1}: difficulty_city {diffs[bad]!r} is none of easy, middle, hard: KeyError upstream (no report)"
            status[bad], reasons[bad] = "error", error
    report = pl.DataFrame()
    if error is None and n:
        rows_out: list[tuple[str, float, int]] = []

        def add(label: str, members: list[int]) -> None:
            total = sum(WEIGHTS[diffs[i]] for i in members)
            weighted = sum(WEIGHTS[diffs[i]] * right[i] for i in members)
            rows_out.append((f"accuracy{label}", sum(right[i] for i in members) / len(members), len(members)))
            rows_out.append((f"weighted_accuracy{label}", weighted / total, len(members)))

        add("", list(range(n)))
        by_type: dict[Any, list[int]] = {}
        for i, t in enumerate(types):
            by_type.setdefault(t, []).append(i)
        for t in sorted(by_type):
            add(f"[{t}]", by_type[t])
        report = pl.DataFrame(
            {"metric": [r[0] for r in rows_out], "value": [r[1] for r in rows_out], "n": [r[2] for r in rows_out]},
            schema={"metric": pl.String, "value": pl.Float64, "n": pl.Int64},
        )
    elif error is None:
        report = pl.DataFrame({"metric": ["accuracy"], "value": [0.0], "n": [0]}, schema={"metric": pl.String, "value": pl.Float64, "n": pl.Int64})
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", [float(r) if s == "ok" else None for r, s in zip(right, status)], pl.Float64),
        pl.Series("weight", [WEIGHTS.get(d) if isinstance(d, str) else None for d in diffs], pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    ok = error is None
    stats = rules_only_stats(
        "reasonmap_plus",
        "classic",
        rows,
        input_rows=n,
        tasks=n if ok else 0,
        correct=sum(right) if ok else 0,
        accuracy=(sum(right) / n if n else None) if ok else None,
        unit=None,
        method="rules (ReasonMap_Plus normalize_prediction and _score_one)",
        flags={},
        reference_error=error,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
