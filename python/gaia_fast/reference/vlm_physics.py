"""Pure-Python twins of the PHYSICS (atomic_dataset) native functions, written from
``specs/vlmevalkit.md`` §4 with Python's own ``re``, ``str`` and ``float`` semantics.

The box regex below is the reference's own pattern; Python's backtracking engine can
take exponential time on it (one real PHYSICS output takes ~30 s), which is why the
native version exists. These twins are the test oracles and the fallback for strings
the native side cannot take (lone surrogates, non-ASCII ``\\w`` decisions).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Literal

from gaia_fast.scorers.vlm.physics_tables import (
    JUDGE_SYSTEM_PROMPT,
    JUDGE_USER_PROMPT,
    LIST_PATTERN,
    has_text_command,
    head_ground_truths,
    judge_prompt,
    judge_says_true,
)

__all__ = [
    "BOX_PATTERN",
    "FINAL_PATTERN",
    "JUDGE_SYSTEM_PROMPT",
    "JUDGE_USER_PROMPT",
    "balanced_boxes",
    "extract_boxed",
    "has_text_command",
    "head_ground_truths",
    "judge_prompt",
    "judge_says_true",
    "physics_boxes",
    "physics_core",
    "physics_extract",
    "physics_final",
    "physics_preprocess",
    "sympy_fast",
    "sympy_fast_pair",
    "yale_extract",
]

#: §4.1, `extract_all_boxed_content`, DOTALL.
BOX_PATTERN = re.compile(
    r"\\boxed{((?:[^{}]|{(?:[^{}]|{.*?})*})*)}"
    r"|\\\\\[boxed{((?:[^{}]|{(?:[^{}]|{.*?})*})*)}\\\\\]",
    re.DOTALL,
)
#: §4.1, `extract_final_answer` (no DOTALL).
FINAL_PATTERN = re.compile(r"\\boxed{(.*?)}|\\\\\[boxed{(.*?)}\\\\\]")

def physics_boxes(text: str) -> list[str]:
    """§4.1: every match's group, stripped; empty ones dropped (reference regex)."""
    return [m.strip() for groups in BOX_PATTERN.findall(text) for m in groups if m.strip()]


def physics_final(x: str) -> str | None:
    """§4.1 nested-box step; ``None`` where upstream raises StopIteration."""
    m = FINAL_PATTERN.search(x)
    if not m:
        return x
    for g in m.groups():
        if g:
            return g.strip()
    return None


def physics_extract(text: str) -> list[str] | None:
    """``[x.strip() for x in extract_final_answer_allform(text)]``; ``None`` = StopIteration."""
    out = []
    for box in physics_boxes(text):
        final = physics_final(box)
        if final is None:
            return None
        out.append(final.strip())
    return out


def yale_extract(text: str) -> list[str] | None:
    """The yale-nlp/Physics harness extraction (``answer_type='list'``, flattened): a box
    holding ``\\[a, b\\]`` gives its comma pieces, any other box the nested-box step.
    ``None`` = StopIteration."""
    out: list[str] = []
    for box in physics_boxes(text):
        found = LIST_PATTERN.findall(box)
        if found:
            out.extend(piece.strip() for groups in found for item in groups if item for piece in item.split(","))
            continue
        final = physics_final(box)
        if final is None:
            return None
        out.append(final)
    return out


def _close_of(text: str, open_at: int) -> int | None:
    depth = 0
    i = open_at
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _box_open(text: str, k: int) -> int | None:
    """Index of the `{` opening the box whose word `boxed` starts at ``k``."""
    if k >= 3 and text[k - 3 : k] == "\\\\[":
        return k + 5 if text[k + 5 : k + 6] == "{" else None
    if k >= 1 and text[k - 1] == "\\":
        j = k + 5
        while j < len(text) and text[j] in " \t\n\r":
            j += 1
        return j if text[j : j + 1] == "{" else None
    return None


def _sole_box(s: str) -> str | None:
    if not s.startswith("\\boxed"):
        return None
    open_at = _box_open(s, 1)
    if open_at is None:
        return None
    close = _close_of(s, open_at)
    if close is None or close != len(s) - 1:
        return None
    return s[open_at + 1 : close]


def balanced_boxes(text: str) -> list[str]:
    """gaia-fast's extractor: top-level ``\\boxed{…}`` (also ``\\boxed {…}`` and the
    reference's ``\\\\[boxed{…}``), braces balanced to any depth, ``\\{``/``\\}`` literal;
    content stripped, a box that is only another box unwrapped, empty boxes dropped,
    unclosed boxes ignored."""
    out = []
    pos = 0
    while True:
        k = text.find("boxed", pos)
        if k < 0:
            return out
        open_at = _box_open(text, k)
        close = None if open_at is None else _close_of(text, open_at)
        if open_at is None or close is None:
            pos = k + 5
            continue
        content = text[open_at + 1 : close].strip()
        while (inner := _sole_box(content)) is not None:
            content = inner.strip()
        if content:
            out.append(content)
        pos = close + 1


Style = Literal["balanced", "physics", "physics-final"]


def extract_boxed(text: str, style: Style = "balanced") -> list[str] | None:
    """The boxes of ``text``: ``balanced`` (gaia-fast), ``physics`` (the reference regex),
    ``physics-final`` (the regex, then the nested-box step: the reference's answer list;
    ``None`` where it raises StopIteration)."""
    if style == "balanced":
        return balanced_boxes(text)
    if style == "physics-final":
        return physics_extract(text)
    if style == "physics":
        return physics_boxes(text)
    raise ValueError(f"unknown style {style!r}; expected 'balanced', 'physics' or 'physics-final'")


def physics_preprocess(string: str) -> str:
    """`_preprocess_latex` (§4.2 step 2)."""
    if not string:
        return ""
    string = re.sub(r"_\{.*?\}", "", string)
    string = re.sub(r"_\\?\w", "", string)
    return string.replace("\\left", "").replace("\\right", "").replace("\\cdot", "*")


def physics_core(expr: str) -> str:
    """`_extract_core_eq` (§4.2 step 3)."""
    if "\\implies" in expr:
        expr = expr.split("\\implies")[-1].strip()
    if "=" in expr:
        expr = expr.split("=")[-1].strip()
    return expr


# --- the SymPy fast path --------------------------------------------------------------

_UINT = re.compile(r"0|[1-9][0-9]{0,14}")
_DEC = re.compile(r"(0|[1-9][0-9]*)\.([0-9]+)")
_FRAC = re.compile(r"\\[dt]?frac\{(?P<n>[^{}]*)\}\{(?P<d>[^{}]*)\}")


def _uint(s: str) -> int | None:
    return int(s) if _UINT.fullmatch(s) and s.isascii() else None


def _num(core: str) -> Fraction | float | None:
    s = core.strip(" ")
    neg = s.startswith("-")
    if neg:
        s = s[1:]
    if (v := _uint(s)) is not None:
        return Fraction(-v if neg else v)
    if (m := _DEC.fullmatch(s)) and s.isascii():
        int_part, frac_part = m.groups()
        digits = (int_part + frac_part).lstrip("0")
        if len(digits) > 15:
            return None
        return -float(s) if neg else float(s)
    m = _FRAC.fullmatch(s)
    if m:
        n, d = m["n"], m["d"]
    elif s.count("/") >= 1:
        n, _, d = s.partition("/")
    else:
        return None
    n_, d_ = _uint(n), _uint(d)
    if n_ is None or d_ is None or d_ == 0:
        return None
    return Fraction(-n_ if neg else n_, d_)


def sympy_fast(a: str, b: str) -> int:
    """SymPy's verdict on two cores where it is known without SymPy: 1 True (proven),
    0 False (unequal numbers), 3 None (a core `parse_latex` rejects: empty, blank, any
    `%`), 2 unknown. Exact rationals compare exactly; a decimal literal (≤ 15 significant
    digits) is a 53-bit Float, and Float arithmetic compares the correctly rounded doubles."""
    for s in (a, b):
        if not s.strip(" ") or "%" in s:
            return 3
    x, y = _num(a), _num(b)
    if x is None or y is None:
        return 2
    if isinstance(x, Fraction) and isinstance(y, Fraction):
        return int(x == y)
    fx = float(x) if isinstance(x, Fraction) else x  # Fraction -> float is correctly rounded
    fy = float(y) if isinstance(y, Fraction) else y
    return int(fx == fy)


def sympy_fast_pair(pred: str, gt: str) -> int:
    """:func:`sympy_fast` on the cores of a raw (pred, gt) pair."""
    return sympy_fast(physics_core(physics_preprocess(pred)), physics_core(physics_preprocess(gt)))
