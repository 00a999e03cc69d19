"""GSM8K-V: the number read from the prediction by a cascade of regular expressions,
right within 1e-3 (or 1e-6 relative) of the answer (``evaluate_gsm8k_v``).

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/utils/gsm8k_v.py`` (d7d55658,
2025-11-03; 401916c0 only changed imports and a bare ``except``) —
``extract_numerical_answer``, ``_clean_extracted_number``, ``_normalize_to_float``,
``is_correct``, ``evaluate_gsm8k_v`` — called by ``GSM8KVDataset.evaluate``:

* the number: the last match of the first "final answer" pattern that matches (``Final
  Answer``, ``\\boxed{}``, ``####``, ``answer is``, ``答案``, ``Therefore ...``), else a
  standalone number on one of the last five lines, else a contextual pattern in the last
  paragraph (``answer is``, ``=``, ``makes``, ``total``, ``costs``), else the last number on
  one of the last three lines; ``$`` and commas removed, ``a/b`` as a fraction; a
  prediction that is not text reads nothing;
* the truth ``float(answer)`` (None for an empty / zero / NaN cell: upstream's ``if x``);
* per ``category`` and ``subcategory`` (first-appearance order, empty ones dropped) the
  share right; the report ``{Metric, Accuracy, Mode}`` rows (``Overall`` first), written as
  ``{stem}_score.csv``.

``GSM8K_V_MODE`` (an environment variable upstream; the ``mode`` option here, default
``visual_implicit``) only fills the ``Mode`` column. ``all`` (three copies of the set, one
report per mode under other file names) is not this flow.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str

__all__ = ["MODES", "extract_numerical_answer", "grade", "is_correct"]

MODES = ("text_only", "visual_explicit", "visual_implicit")
_N = r"(-?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?)"
_NC = r"(-?[0-9,]+(?:\.[0-9]+)?)"
_FINAL = [
    re.compile(p, re.IGNORECASE | re.MULTILINE)
    for p in (
        r"(?:FINAL\s+ANSWER|Final\s+Answer)\s*[:\-=]?\s*\$?\s*" + _N,
        r"(?:FINAL\s+ANSWER|Final\s+Answer)\s*[:\-=]?\s*\$?\s*" + _NC,
        r"\\boxed\\{" + _N + r"\\}",
        r"\\boxed\\{" + _NC + r"\\}",
        r"####\s*" + _N,
        r"####\s*\$?\s*" + _NC,
        r"(?:The\s+)?(?:[Aa]nswer|result)\s+is\s*[:\-=]?\s*\$?\s*" + _N,
        r"(?:The\s+)?(?:[Aa]nswer|result)\s+is\s*[:\-=]?\s*\$?\s*" + _NC,
        r"答案\s*[:\-=]?\s*\$?\s*" + _N,
        r"答案\s*[:\-=]?\s*\$?\s*" + _NC,
        r"(?:Therefore|Thus|Hence)[^.]*?[:\-=]?\s*\$?\s*" + _N,
        r"(?:Therefore|Thus|Hence)[^.]*?[:\-=]?\s*\$?\s*" + _NC,
    )
]
_STANDALONE = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"^" + _N + r"$",
        r"^" + _NC + r"$",
        r"^\$\s*" + _NC + r"$",
        r"^" + _N + r"\s*(?:dollars?|cents?)?$",
    )
]
_CONTEXT = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"(?:answer|result|solution)\s*(?:is|=|:)?\s*\$?\s*" + _N,
        r"(?:answer|result|solution)\s*(?:is|=|:)?\s*\$?\s*" + _NC,
        r"=\s*\$?\s*" + _N,
        r"=\s*\$?\s*" + _NC,
        r"makes?\s*\$?\s*" + _NC + r"\s*(?:dollars?)?",
        r"total\s*(?:of|is)?\s*\$?\s*" + _NC,
        r"costs?\s*\$?\s*" + _NC,
    )
]
_CLEAN = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?$")
_ANY_N = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?")
_ANY_NC = re.compile(r"-?[0-9,]+(?:\.[0-9]+)?")
_PARAGRAPHS = re.compile(r"\n\s*\n")



#: The variants a registry entry may name (one rule from its first version to head).
VARIANTS = ("classic",)

def _clean(number: str) -> str | None:
    if not number:
        return None
    cleaned = str(number).strip().lstrip("$").strip().replace(",", "")
    return cleaned if _CLEAN.match(cleaned) else None


def _to_float(number: str) -> float:
    if "/" in number:
        try:
            return float(Fraction(number))
        except (ValueError, ZeroDivisionError):
            pass
    return float(number)


def _try(number: str) -> float | None:
    cleaned = _clean(number)
    if cleaned is None:
        return None
    try:
        return _to_float(cleaned)
    except Exception:  # noqa: BLE001 - upstream's catch-all: the cascade goes on
        return None


def extract_numerical_answer(text: Any) -> float | None:
    """``extract_numerical_answer``: the answer number, or None."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    for pat in _FINAL:
        matches = pat.findall(text)
        if matches and (v := _try(matches[-1])) is not None:
            return v
    lines = text.split("\n")
    for i in range(min(5, len(lines))):
        line = lines[-(i + 1)].strip()
        if not line:
            continue
        for pat in _STANDALONE:
            m = pat.match(line)
            if m and (v := _try(m.group(1))) is not None:
                return v
    last = _PARAGRAPHS.split(text.strip())[-1]
    for pat in _CONTEXT:
        matches = pat.findall(last)
        if matches and (v := _try(matches[-1])) is not None:
            return v
    for i in range(min(3, len(lines))):
        line = lines[-(i + 1)].strip()
        for pat in (_ANY_N, _ANY_NC):
            numbers = pat.findall(line)
            if numbers and (v := _try(numbers[-1])) is not None:
                return v
    return None


def is_correct(
    prediction: float | None, truth: float | None, tolerance: float = 1e-3
) -> bool:
    """``is_correct`` for the floats ``evaluate_gsm8k_v`` passes (NaN / None: wrong)."""
    if prediction is None or truth is None:
        return False
    diff = abs(prediction - truth)
    return diff <= tolerance or diff / max(abs(truth), 1e-10) < 1e-6


def _truth(x: Any) -> float | None:
    """``float(x) if x and str(x) != 'nan' else None`` of the cell as pandas holds it."""
    if x is None or (isinstance(x, float) and math.isnan(x)) or not x:
        return None
    return float(x)


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    mode: str = "visual_implicit",
) -> GradeResult:
    """Grade a GSM8K-V result table (``answer``, ``prediction``; optional ``category``,
    ``subcategory``). Rules only. ``rows``: the input plus ``extracted`` (the number read),
    ``score`` (1.0/0.0), ``status`` (``ok``; ``no_number`` when nothing was read) and
    ``reason``. ``report``: the ``_score.csv`` rows."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("gsm8k_v is graded by rules only; it takes no judge")
    if variant not in (None, *VARIANTS):
        raise ValueError(f"gsm8k_v has one rule (variant 'classic'), not {variant!r}")
    if mode not in MODES:
        raise ValueError(
            f"gsm8k_v: mode {mode!r} is not one of {', '.join(MODES)} ('all' is not reproduced)"
        )
    for name in ("answer", "prediction"):
        if name not in frame.columns:
            raise ValueError(
                f"gsm8k_v: the result table has no {name!r} column (columns: {sorted(frame.columns)})"
            )
    n = frame.height
    pkind, pcells = pandas_column(frame["prediction"])
    preds = pcells.to_list()
    if pkind != "object":
        preds = [None] * n  # numbers are not text: nothing is read
    _, acells = pandas_column(frame["answer"])
    truths: list[float | None] = []
    for i, x in enumerate(acells.to_list()):
        try:
            truths.append(_truth(x))
        except ValueError as e:
            raise ValueError(
                f"gsm8k_v: row {i + 1}: answer {x!r}: float() fails upstream ({e})"
            ) from None
    extracted = [extract_numerical_answer(p) for p in preds]
    right = [is_correct(e, t) for e, t in zip(extracted, truths)]
    results: dict[str, float] = {"Overall": sum(right) / n if n else 0}
    for col, prefix in (("category", "Category_"), ("subcategory", "Subcategory_")):
        if col not in frame.columns:
            continue
        keys = pandas_str(frame[col]).to_list()
        missing = pandas_column(frame[col])[1].to_list()
        seen: dict[str, list[bool]] = {}
        for k, m, ok in zip(keys, missing, right):
            if m is None or (isinstance(m, float) and math.isnan(m)) or k == "":
                continue
            seen.setdefault(k, []).append(ok)
        for k, oks in seen.items():
            results[f"{prefix}{k}"] = sum(oks) / len(oks)
    report = pl.DataFrame(
        {
            "Metric": list(results),
            "Accuracy": [float(v) for v in results.values()],
            "Mode": [mode] * len(results),
        }
    )
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.Float64),
        pl.Series("score", [1.0 if r else 0.0 for r in right], pl.Float64),
        pl.Series(
            "status",
            ["ok" if e is not None else "no_number" for e in extracted],
            pl.String,
        ),
        pl.Series(
            "reason",
            [
                (
                    "no number read"
                    if e is None
                    else f"{e!r} vs {t!r}: {'right' if r else 'wrong'}"
                )
                for e, t, r in zip(extracted, truths, right)
            ],
            pl.String,
        ),
    )
    stats: dict[str, Any] = {
        "benchmark": "gsm8k_v",
        "variant": "classic",
        "rows": n,
        "tasks": n,
        "correct": float(sum(right)),
        "accuracy": results["Overall"],
        "decided": {"rules": n, "recorded": 0, "live": 0, "undecided": 0},
        "decided_unit": "rows",
        "method": f"rules (regex cascade; |pred - gt| <= 1e-3; mode {mode})",
        "archive_method": None,
        "matches_archive": True,
        "flags": {"no_number": sum(e is None for e in extracted)}
        if any(e is None for e in extracted)
        else {},
        "status": dict(sorted(rows.group_by("status").len().iter_rows())),
        "judge": False,
        "reference_error": None,
    }
    return GradeResult(rows=rows, report=report, stats=stats)
