"""TableVQABench: per split, TabFact true/false words, WTQ denotation match and FinTabNet
normalised numbers (``TableVQABench.evaluate``).

Reference: open-compass/VLMEvalKit ``TableVQABench.evaluate`` (``vlmeval/dataset/image_vqa.py``)
and ``vlmeval/dataset/utils/tablevqabench.py`` (from allennlp-semparse / naver-ai
tablevqabench), the same rule from 10adf5ff (2024-09-02) to head e8e78f05 (401916c0 only
restyled it):

* the prediction with a leading ``Answer: `` removed; the rows grouped by ``split``;
  ``fintabnetqa``, ``vtabfact``, ``vwtq``, ``vwtq_syn`` in that order (a missing split
  raises KeyError upstream: ``reference_error``);
* ``vtabfact``: the lowered prediction holding both ``true`` and ``false`` is not right;
  ``true`` with answer ``'1'`` or ``false`` with answer ``'0'`` is;
* ``vwtq`` / ``vwtq_syn``: prediction (``||`` read as ``|``) and answer split on ``|``,
  unescaped, turned into sets of number / date / string values; right when both sets have
  the same size and every target value matches a predicted one (``check_denotation``);
* ``fintabnetqa``: both normalised (accents, quotes, dashes, trailing notes and a final
  period removed, lowered), ``$(),`` and unit words removed, thousand / million / billion /
  % as exponents; ``relieved`` right when any of (with units, unit-free) equals any;
  ``exact`` when the unit-converted forms are equal;
* each split's accuracy ``round((right + 1e-9) / (n + 1e-9), 8) * 100``; the report
  ``{split, average_scores}`` with ``average_scores`` the text of a Python list
  (``[relieved, exact]`` for fintabnetqa, ``[accuracy]`` otherwise), as ``{stem}_acc.csv``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column

__all__ = [
    "SPLITS",
    "check_denotation",
    "fintabnet_normalize",
    "grade",
    "normalize",
    "to_value_list",
]

SPLITS = ("fintabnetqa", "vtabfact", "vwtq", "vwtq_syn")



#: The variants a registry entry may name (one rule from its first version to head).
VARIANTS = ("classic",)

def normalize(x: str) -> str:
    """``normalize`` (WTQ's official string normalisation)."""
    x = "".join(
        c for c in unicodedata.normalize("NFKD", x) if unicodedata.category(c) != "Mn"
    )
    x = re.sub(r"[‘’´`]", "'", x)
    x = re.sub(r"[“”]", '"', x)
    x = re.sub(r"[‐‑‒–—−]", "-", x)
    while True:
        old = x
        x = re.sub(r"((?<!^)\[[^\]]*\]|\[\d+\]|[•♦†‡*#+])*$", "", x.strip())
        x = re.sub(r"(?<!^)( \([^)]*\))*$", "", x.strip())
        x = re.sub(r'^"([^"]*)"$', r"\1", x.strip())
        if x == old:
            break
    if x and x[-1] == ".":
        x = x[:-1]
    return re.sub(r"\s+", " ", x, flags=re.UNICODE).lower().strip()


# --- WTQ values (number / date / string), as allennlp-semparse defines them -------------


class _Value:
    kind = ""
    normalized = ""

    def match(self, other: _Value) -> bool:
        return self.normalized == other.normalized


class _String(_Value):
    kind = "S"

    def __init__(self, content: str) -> None:
        self.normalized = normalize(content)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _String) and self.normalized == other.normalized

    def __hash__(self) -> int:
        return hash(self.normalized)


class _Number(_Value):
    kind = "N"

    def __init__(self, amount: float, original: str | None = None) -> None:
        self.amount: int | float = (
            int(amount) if abs(amount - round(amount)) < 1e-6 else float(amount)
        )
        self.normalized = normalize(original) if original else str(self.amount)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Number) and self.amount == other.amount

    def __hash__(self) -> int:
        return hash(self.amount)

    def match(self, other: _Value) -> bool:
        if self.normalized == other.normalized:
            return True
        return isinstance(other, _Number) and abs(self.amount - other.amount) < 1e-6


class _Date(_Value):
    kind = "D"

    def __init__(self, ymd: tuple[int, int, int], original: str) -> None:
        self.ymd = ymd
        # to_value always passes the text; an empty one never parses as a date
        self.normalized = normalize(original)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Date) and self.ymd == other.ymd

    def __hash__(self) -> int:
        return hash(self.ymd)

    def match(self, other: _Value) -> bool:
        if self.normalized == other.normalized:
            return True
        return isinstance(other, _Date) and self.ymd == other.ymd


def _parse_number(text: str) -> int | float | None:
    try:
        return int(text)
    except ValueError:
        try:
            amount = float(text)
        except ValueError:
            return None
        if math.isnan(amount) or math.isinf(amount):
            raise AssertionError(f"{text!r} reads as {amount}: upstream's assert fails")
        return amount


def _parse_date(text: str) -> tuple[int, int, int] | None:
    try:
        ymd = text.lower().split("-")
        if len(ymd) != 3:
            return None
        year = -1 if ymd[0] in ("xx", "xxxx") else int(ymd[0])
        month = -1 if ymd[1] == "xx" else int(ymd[1])
        day = -1 if ymd[2] == "xx" else int(ymd[2])
    except Exception:  # noqa: BLE001 - upstream's catch-all: not a date
        return None
    if (
        year == month == day == -1
        or not (month == -1 or 1 <= month <= 12)
        or not (day == -1 or 1 <= day <= 31)
    ):
        return None
    return (year, month, day)


def _to_value(text: str) -> _Value:
    amount = _parse_number(text)
    if amount is not None:
        return _Number(amount, text)
    ymd = _parse_date(text)
    if ymd is not None:
        if ymd[1] == ymd[2] == -1:
            return _Number(ymd[0], text)
        return _Date(ymd, text)
    return _String(text)


def to_value_list(texts: list[str]) -> list[_Value]:
    """``to_value_list``: the distinct values (the first of equal ones kept)."""
    return list(dict.fromkeys(_to_value(t) for t in texts))


def check_denotation(targets: list[_Value], preds: list[_Value]) -> bool:
    """``check_denotation``: as many values, each target matched by a prediction."""
    return len(targets) == len(preds) and all(
        any(t.match(p) for p in preds) for t in targets
    )


def _unescape_list(x: str) -> list[str]:
    return [
        y.replace(r"\n", "\n").replace(r"\p", "|").replace("\\\\", "\\")
        for y in x.split("|")
    ]


_FIN_REMOVE = re.compile(
    r"\b(dollar|gallons|square feet|shares|mbtu|mbpd|mbbls|mmbtu|unit|gwh|year|mmcf|mile|mboe)s?\b",
    re.IGNORECASE,
)
_FIN_UNITS = (
    (r" \bthousand\b", "e3"),
    (r" \bmillion\b", "e6"),
    (r" \bbillion\b", "e9"),
    (r"\bthousand\b", "e3"),
    (r"\bmillion\b", "e6"),
    (r"\bbillion\b", "e9"),
    (r" ?%", "e-2"),
)


def fintabnet_normalize(s: str) -> tuple[Any, list[Any]]:
    """``fintabnet_normalize``: (the unit-converted form, [it, the unit-free form]), as floats
    when the converted form reads as one."""
    s = _FIN_REMOVE.sub("", re.sub(r"[\$\(\),]", "", normalize(s)))
    free = s
    for pat, value in _FIN_UNITS:
        s = re.sub(pat, value, s)
        free = re.sub(pat, "", free)
    try:
        return float(s), [float(s), float(free)]
    except ValueError:
        return s, [s, free]


def _accuracy(right: int, n: int) -> float:
    return round((right + 1e-9) / (n + 1e-9), 8) * 100


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a TableVQABench result table (``split``, ``answer``, ``prediction``). Rules only.
    ``rows``: the input plus ``score`` (fintabnetqa: the relieved match), ``status`` (``ok``;
    ``ambiguous`` for a TabFact prediction with both words; ``error``) and ``reason``."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("tablevqa is graded by rules only; it takes no judge")
    if variant not in (None, *VARIANTS):
        raise ValueError(f"tablevqa has one rule (variant 'classic'), not {variant!r}")
    for name in ("split", "answer", "prediction"):
        if name not in frame.columns:
            raise ValueError(
                f"tablevqa: the result table has no {name!r} column (columns: {sorted(frame.columns)})"
            )
    n = frame.height
    pkind, pcells = pandas_column(frame["prediction"])
    # Series.str.replace leaves non-text cells NaN; the split evaluators then fail on them.
    preds: list[Any] = (
        [None if v is None else re.sub(r"^Answer: ", "", v) for v in pcells.to_list()]
        if pkind == "object"
        else [None] * n
    )
    _, acells = pandas_column(frame["answer"])
    answers: list[Any] = acells.to_list()
    splits = pandas_column(frame["split"])[1].to_list()
    scores: list[float | None] = [None] * n
    status = ["unscored"] * n
    reasons = ["split not evaluated upstream"] * n
    error: str | None = None
    out_split: list[str] = []
    out_scores: list[str] = []
    for split in SPLITS:
        idx = [i for i in range(n) if splits[i] == split]
        if not idx:
            error = f"no row has split {split!r}: KeyError upstream (no report)"
            break
        right = exact_right = 0
        try:
            for i in idx:
                p, a = preds[i], answers[i]
                if split == "vtabfact":
                    if p is None:
                        raise AttributeError(
                            f"row {i + 1}: the prediction is empty (NaN.lower() upstream)"
                        )
                    low = p.lower()
                    if "true" in low and "false" in low:
                        ok, status[i], reasons[i] = (
                            False,
                            "ambiguous",
                            "both true and false: not right (manual check upstream)",
                        )
                    else:
                        ok = ("true" in low and a == "1") or (
                            "false" in low and a == "0"
                        )
                        status[i], reasons[i] = (
                            "ok",
                            f"{'right' if ok else 'wrong'} (answer {a!r})",
                        )
                elif split == "fintabnetqa":
                    if not isinstance(p, str) or not isinstance(a, str):
                        raise AttributeError(
                            f"row {i + 1}: prediction or answer is not text (normalize() fails upstream)"
                        )
                    pv, pvs = fintabnet_normalize(p)
                    gv, gvs = fintabnet_normalize(a)
                    exact_right += gv == pv
                    ok = any(x == y for x in pvs for y in gvs)
                    status[i], reasons[i] = (
                        "ok",
                        f"{pvs} vs {gvs}: {'right' if ok else 'wrong'}"
                        + (" (exact)" if gv == pv else ""),
                    )
                else:
                    if not isinstance(p, str) or not isinstance(a, str):
                        raise AttributeError(
                            f"row {i + 1}: prediction or answer is not text (.replace / .split fail upstream)"
                        )
                    ok = check_denotation(
                        to_value_list(_unescape_list(a)),
                        to_value_list(_unescape_list(p.replace("||", "|"))),
                    )
                    status[i], reasons[i] = (
                        "ok",
                        f"denotation {'right' if ok else 'wrong'}",
                    )
                right += ok
                scores[i] = 1.0 if ok else 0.0
        except (AttributeError, AssertionError) as e:
            status[i], reasons[i] = "error", f"error: {e}"
            error = f"split {split!r}: {e} (no report)"
            break
        out_split.append(split)
        values = (
            [_accuracy(right, len(idx)), _accuracy(exact_right, len(idx))]
            if split == "fintabnetqa"
            else [_accuracy(right, len(idx))]
        )
        out_scores.append(str(values))
    report = (
        pl.DataFrame({"split": out_split, "average_scores": out_scores})
        if error is None
        else pl.DataFrame()
    )
    rows = frame.with_columns(
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    scored = [s for s in scores if s is not None]
    stats: dict[str, Any] = {
        "benchmark": "tablevqa",
        "variant": "classic",
        "rows": n,
        "tasks": len(scored),
        "correct": float(sum(scored)),
        "accuracy": sum(scored) / len(scored) if scored and error is None else None,
        "decided": {"rules": len(scored), "recorded": 0, "live": 0, "undecided": 0},
        "decided_unit": "rows",
        "method": "rules (TabFact words, WTQ denotation, FinTabNet normalised numbers)",
        "archive_method": None,
        "matches_archive": True,
        "flags": {"ambiguous": status.count("ambiguous")}
        if "ambiguous" in status
        else {},
        "status": dict(sorted(rows.group_by("status").len().iter_rows())),
        "judge": False,
        "reference_error": error,
    }
    return GradeResult(rows=rows, report=report, stats=stats)
