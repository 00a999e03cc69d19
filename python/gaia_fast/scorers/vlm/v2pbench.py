"""V2P-Bench (``V2PBench``: ``V2P-Bench`` and its ``*_nopack`` frame configurations), laid out
as extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/v2pbench.py`` (``V2PBench.evaluate``) and
``vlmeval/dataset/utils/v2pbench/cau_acc.py`` (``remove_think_blocks``,
``extract_characters_regex``, ``calu_acc_main``), unchanged in substance from 1c58028e
(2026-02-25, added) to e8e78f05.

Extract: ``<think>…</think>`` blocks removed; stripped; the answer prefixes ("The best answer
is", "Answer:", ...) removed; more than ten words and no ``A``–``D``: nothing; else the first
``A``–``D`` anywhere in the text (a capital inside a word counts, as upstream). Score: 1 when it
equals the answer cell. Upstream loops over the ``index`` column: each value's FIRST row is
scored and the verdict is written to the row whose position equals that value
(``data.loc[idx, 'score']``); rows never written stay unscored (counted, never right). An
``index`` value that is not a row position makes pandas append a row, and the report step then
raises: ``reference_error``.

Report ``{stem}_score.txt``, the text ``calu_acc_main`` writes (a one-column frame ``text``, one
row per line): per dimension (1–14 but 8 and 11) the accuracy to 3 decimals or ``Dimension is
zero``, the Short (< 240 s) / Medium (< 1800 s) / Long counts and accuracies, the totals.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str

__all__ = ["extract_choice", "grade", "report_lines"]

_PREFIXES = (
    "The best answer is", "The correct answer is", "The answer is", "The answer", "The best option is",
    "The correct option is", "Best answer:", "Best option:", "Answer:", "Option:",
)  # fmt: skip
_DIMENSIONS = {1: "OA", 2: "HA", 3: "OD", 4: "FM", 5: "CR", 6: "PU", 7: "CI", 9: "FT", 10: "RT", 12: "AS", 13: "SR", 14: "GC"}



#: The variants a registry entry may name (one rule from its first version to head).
VARIANTS = ("classic",)

def extract_choice(text: str) -> str:
    """``extract_characters_regex(remove_think_blocks(text))``."""
    s = re.sub(r"<think>.*?(?:<\/think>|<\\/think>)", "", text, flags=re.DOTALL).strip()
    for prefix in _PREFIXES:
        s = s.replace(prefix, "")
    if len(s.split()) > 10 and not re.search("[ABCD]", s):
        return ""
    m = re.search(r"[ABCD]", s)
    return "" if m is None else m[0]


def report_lines(dimensions: list[int], durations: list[float], scores: list[float | None]) -> list[str]:
    """``calu_acc_main``'s text, line by line. Raises where it raises (a dimension outside
    1..16 after Python's negative indexing, no rows)."""
    sums, cors = [0] * 16, [0] * 16
    bands = {"Short": [0, 0], "Medium": [0, 0], "Long": [0, 0]}
    for dim, dur, score in zip(dimensions, durations, scores):
        sums[dim - 1] += 1
        band = "Short" if dur < 240 else "Medium" if dur < 1800 else "Long"
        bands[band][1] += 1
        if score == 1:
            cors[dim - 1] += 1
            bands[band][0] += 1
    lines: list[str] = []
    for i, (c, s) in enumerate(zip(cors, sums)):
        if i + 1 not in (8, 11, 15, 16):
            lines.append(f"{_DIMENSIONS[i + 1]}: {c / s:.3f}" if s else f"Dimension is zero: {_DIMENSIONS[i + 1]}")
    lines.append("-" * 58)
    for name, (c, s) in bands.items():
        if s:
            lines += [name, f"Correct: {c}, Total: {s}, Accuracy: {c / s:.3f}"]
    lines.append("-" * 58)
    total_c, total = sum(cors), sum(sums)
    lines += [f"Total Correct: {total_c}", f"Total Success: {total}", f"Accuracy:      {total_c / total:.3f}"]
    return lines


def _is_nan(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a VLMEvalKit V2P-Bench result table (``.xlsx`` upstream).

    ``rows``: every input row plus ``extracted`` (the letter of the row's own prediction),
    ``rule``, ``score`` (what upstream writes at that position: 1.0/0.0, null when nothing is
    written there) and ``status`` (``ok``, ``unscored``, ``reference_error``). ``report``: the
    ``_score.txt`` lines. No judge.
    """
    frame = _check_frame(frame)
    if variant not in (None, *VARIANTS):
        raise ValueError(f"v2pbench: unknown variant {variant!r}; the only one is 'classic'")
    if judge is not None:
        raise ValueError("v2pbench: the reference evaluation has no judge step")
    for c in ("index", "answer", "prediction", "dimension", "duration"):
        if c not in frame.columns:
            raise ValueError(f"v2pbench: the result table has no {c!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    _, idx_cells = pandas_column(frame["index"])
    idx = idx_cells.to_list()
    _, ans_cells = pandas_column(frame["answer"])
    answers = [math.nan if v is None else v for v in ans_cells.to_list()]
    preds = pandas_str(frame["prediction"]).to_list()
    own = [extract_choice(p) for p in preds]

    first: dict[Any, int] = {}
    for i, v in enumerate(idx):
        if not _is_nan(v):
            first.setdefault(v, i)
    scores: list[float | None] = [None] * n
    error: str | None = None
    for i, v in enumerate(idx):
        pos = v if isinstance(v, int) and not isinstance(v, bool) else (int(v) if isinstance(v, float) and v.is_integer() else None)
        if pos is None or not 0 <= pos < n:
            error = error or f"row {i}: index {v!r} is not a row position: data.loc appends a row and calu_acc_main raises"
            continue
        j = first.get(v, i)  # NaN never equals itself: pandas finds no row and .values[0] raises
        if _is_nan(v):
            error = error or f"row {i}: missing index: .values[0] raises IndexError"
            continue
        scores[pos] = float(own[j] == answers[j])

    _, dims = pandas_column(frame["dimension"])
    _, durs = pandas_column(frame["duration"])
    dim_list, dur_list = dims.to_list(), durs.to_list()
    lines: list[str | None] = []
    if error is None:
        try:
            if not all(isinstance(d, int) and not isinstance(d, bool) for d in dim_list):
                raise TypeError("a dimension that is not an integer")
            if any(_is_nan(d) or isinstance(d, str) for d in dur_list):
                raise TypeError("a missing or text duration")
            lines = list(report_lines(dim_list, dur_list, scores))
        except (TypeError, IndexError, KeyError, ZeroDivisionError) as e:
            error = f"calu_acc_main raises {type(e).__name__}: {e}"
    report = pl.DataFrame({"text": [] if error else lines}, schema={"text": pl.String})

    status = ["reference_error" if error else ("ok" if s is not None else "unscored") for s in scores]
    rows = frame.with_columns(
        pl.Series("extracted", own, pl.String),
        pl.Series("rule", ["letter" if o else "no_letter" for o in own], pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
    )
    correct = sum(1 for s in scores if s == 1)
    stats: dict[str, Any] = {
        "benchmark": "v2pbench",
        "variant": "classic",
        "rows": n,
        "tasks": n,
        "correct": correct,
        "accuracy": correct / n if n else math.nan,
        "rules": dict(sorted(Counter(rows["rule"].to_list()).items())),
        "unscored_rows": status.count("unscored"),
        "reference_error": error,
        "crashed_rows": n if error else 0,
    }
    return GradeResult(rows=rows, report=report, stats=stats)
