"""Pure-Python twin of VLMEvalKit's yes/no evaluation (``ImageYORNDataset.evaluate``).

Written from ``vlmeval/dataset/utils/yorn.py`` and ``vlmeval/smp/misc.py`` of
open-compass/VLMEvalKit, at c03bc048 (2024-07-27, the commit that wrote the shared
VILA-1.5 tree) and at today's head (e8e78f05). The rules and the three ratings are the
same at both commits except for one regular expression of ``process_punctuation``:

* ``classic`` (c6bdffd3 2024-03-19 … 928a95b0^ 2025-05-12): ``(?!<=\\d)(\\.)(?!\\d)``. The
  first group was meant as a look-behind but is a look-ahead for the text ``<=`` + digit,
  which can never start at a ``.``: any ``.`` not followed by a digit is removed.
* ``2025-05`` (928a95b0 2025-05-13, still at head): ``(?<!\\d)\\.(?!\\d)``: a ``.`` next to a
  digit on either side stays.

Both versions call ``periodStrip.sub('', outText, re.UNICODE)``: the flag lands in the
``count`` parameter, so only the first 32 matching periods are removed.

Rows are decided by the Python operations the reference uses (``str.lower``, ``re``,
``str.split``), so this module is an oracle for the native code in
``gaia_fast._native.yorn_*``. Ratings take plain lists (one value per row) and follow the
reference's arithmetic (``np.mean(...) * 100``, summed in the reference's order); where the
reference raises they return ``None`` for the value.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

__all__ = [
    "MME_SUPER",
    "RULES",
    "VARIANTS",
    "hallusion_rating",
    "mme_rating",
    "pope_rating",
    "process_punctuation",
    "yorn_extract",
    "yorn_extract_explained",
]

VARIANTS = ("classic", "2025-05")
#: Why a row got its answer: only the word ``yes``, only ``no``, both, neither.
RULES = ("yes", "no", "both", "neither")

_PUNCT = [";", r"/", "[", "]", '"', "{", "}", "(", ")", "=", "+", "\\", "_", "-", ">", "<", "@", "`", ",", "?", "!"]
_COMMA_STRIP = re.compile(r"(\d)(,)(\d)")
_PERIOD_STRIP = {
    "classic": re.compile(r"(?!<=\d)(\.)(?!\d)"),
    "2025-05": re.compile(r"(?<!\d)\.(?!\d)"),
}
#: ``re.UNICODE`` passed positionally as ``count`` upstream.
_PERIOD_COUNT = int(re.UNICODE)


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown yes/no variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")


def process_punctuation(in_text: str, variant: str = "classic") -> str:
    """VLMEvalKit ``process_punctuation`` (the VQA punctuation rule)."""
    _check_variant(variant)
    out_text = in_text
    for p in _PUNCT:
        if (p + " " in in_text or " " + p in in_text) or (re.search(_COMMA_STRIP, in_text) is not None):
            out_text = out_text.replace(p, "")
        else:
            out_text = out_text.replace(p, " ")
    return _PERIOD_STRIP[variant].sub("", out_text, count=_PERIOD_COUNT)


def yorn_extract_explained(output: str, variant: str = "classic") -> tuple[str, str]:
    """``YOrN_Extraction(output)`` and the rule that decided (:data:`RULES`)."""
    if not isinstance(output, str):
        raise TypeError(f"output must be str, not {type(output).__name__}")
    s = output.lower()
    words = process_punctuation(s, variant).split()
    yes, no = "yes" in words, "no" in words
    if yes and not no:
        return "Yes", "yes"
    if no and not yes:
        return "No", "no"
    return "Unknown", "both" if yes else "neither"


def yorn_extract(output: str, variant: str = "classic") -> str:
    """``YOrN_Extraction``: ``"Yes"``, ``"No"`` or ``"Unknown"``."""
    return yorn_extract_explained(output, variant)[0]


def _mean100(values: Sequence[Any]) -> float:
    # np.mean over 0/1 values: an exact count divided once, then * 100.
    if not values:
        return math.nan
    return (sum(int(v) for v in values) / len(values)) * 100


MME_SUPER = {
    "perception": ["OCR", "artwork", "celebrity", "color", "count", "existence", "landmark", "position", "posters", "scene"],
    "reasoning": ["code_reasoning", "commonsense_reasoning", "numerical_calculation", "text_translation"],
}


def mme_rating(category: Sequence[Any], image_path: Sequence[Any], score: Sequence[bool]) -> tuple[dict[str, float | None], str | None]:
    """``MME_rating``: ``({column: value}, error)``. Columns: ``perception``, ``reasoning``,
    then each category in order of first appearance: accuracy + accuracy+ (both × 100;
    accuracy+ = the share of images whose first two questions are both right). ``error``
    names what makes the reference raise (an image with one question, a missing category);
    the values it would not compute are ``None``."""
    stats: dict[Any, dict[Any, list[bool]]] = defaultdict(dict)
    for c, p, s in zip(category, image_path, score):
        stats[c].setdefault(p, []).append(bool(s))
    scores: dict[Any, float | None] = {}
    error = None
    for k, res in stats.items():
        normal = [v for val in res.values() for v in val]
        short = [p for p, val in res.items() if len(val) < 2]
        if short:
            error = error or f"MME_rating: image {short[0]!r} of category {k!r} has one question (IndexError upstream)"
            scores[k] = None
            continue
        plus = [int(val[0]) * int(val[1]) for val in res.values()]
        scores[k] = _mean100(normal) + _mean100(plus)
    ret: dict[str, float | None] = {}
    for sc, cates in MME_SUPER.items():
        base: float | None = 0
        for c in cates:
            if c not in scores:
                error = error or f"MME_rating: no rows of category {c!r} (KeyError upstream)"
                base = None
                break
            if scores[c] is None or base is None:
                base = None
                continue
            base += scores[c]
        ret[sc] = base
    for k, v in scores.items():
        ret[str(k)] = v
    return ret, error


def _f1(y_true: Sequence[bool], y_pred: Sequence[bool]) -> tuple[float, float, float]:
    tp = sum(1 for t, p in zip(y_true, y_pred) if t and p)
    fp = sum(1 for t, p in zip(y_true, y_pred) if not t and p)
    fn = sum(1 for t, p in zip(y_true, y_pred) if t and not p)
    precision = tp / (tp + fp) if (tp + fp) != 0 else 0
    recall = tp / (tp + fn) if (tp + fn) != 0 else 0
    f1 = 2 * (precision * recall) / (precision + recall) if (precision + recall) != 0 else 0
    return f1, precision, recall


def pope_rating(category: Sequence[Any], answer: Sequence[Any], extracted: Sequence[str], score: Sequence[bool]) -> list[dict[str, Any]]:
    """``POPE_rating``: rows ``{split, Overall (F1), acc, precision, recall}`` (× 100).
    A row's ``category`` is split on ``,`` and the row counts once per part (``explode``);
    ``None`` stays one row that only ``Overall`` counts. Splits are sorted (the reference
    walks a ``set``, whose order varies between runs)."""
    rows: list[tuple[Any, bool, bool, bool]] = []
    for c, a, e, s in zip(category, answer, extracted, score):
        parts = [None] if c is None else str(c).split(",")
        for part in parts:
            rows.append((part, a == "Yes", e == "Yes", bool(s)))

    def one(name: Any, sub: list[tuple[Any, bool, bool, bool]]) -> dict[str, Any]:
        f1, p, r = _f1([x[1] for x in sub], [x[2] for x in sub])
        return {"split": name, "Overall": f1 * 100, "acc": _mean100([x[3] for x in sub]), "precision": p * 100, "recall": r * 100}

    out = [one("Overall", rows)]
    for c in sorted({x[0] for x in rows if x[0] is not None}):
        out.append(one(c, [x for x in rows if x[0] == c]))
    return out


def hallusion_rating(
    index: Sequence[Any], category: Sequence[Any] | None, l2: Sequence[Any], score: Sequence[bool]
) -> tuple[list[dict[str, Any]], str | None]:
    """``Hallusion_rating``: rows ``{split, aAcc, fAcc, qAcc}`` (× 100): ``Overall``, each
    ``category``, each ``l2-category`` (sorted within each group; the reference walks a
    ``set``). ``fAcc``: share of figures (``l2``, index part 3, part 4) whose questions are
    all right; ``qAcc``: share of questions (``l2``, part 3, part 5) right on every figure.
    ``index`` is split on ``_``; where a part is missing the reference raises: ``([], error)``."""
    parts = []
    for i in index:
        if not isinstance(i, str):
            return [], f"Hallusion_rating: index {i!r} is not text (AttributeError upstream)"
        p = i.split("_")
        if len(p) < 6:
            return [], f"Hallusion_rating: index {i!r} has fewer than 6 '_' parts (IndexError upstream)"
        parts.append(p)
    rows = [(p[3], p[4], p[5], l, bool(s)) for p, l, s in zip(parts, l2, score)]

    def acc_all(keys: list[str], scores: list[bool]) -> float:
        groups: dict[str, list[bool]] = defaultdict(list)
        for k, s in zip(keys, scores):
            groups[k].append(s)
        return _mean100([all(v) for v in groups.values()])

    def one(name: Any, sub: list[tuple[str, str, str, Any, bool]]) -> dict[str, Any]:
        scores = [x[4] for x in sub]
        return {
            "split": name,
            "aAcc": _mean100(scores),
            "fAcc": acc_all([f"{x[3]}_{x[0]}_{x[1]}" for x in sub], scores),
            "qAcc": acc_all([f"{x[3]}_{x[0]}_{x[2]}" for x in sub], scores),
        }

    out = [one("Overall", rows)]
    if category is not None:
        for c in sorted(set(category), key=lambda v: (v is None, str(v))):
            out.append(one(c, [x for x, cc in zip(rows, category) if cc == c and c is not None]))
    for c in sorted(set(l2), key=lambda v: (v is None, str(v))):
        out.append(one(c, [x for x in rows if x[3] == c and c is not None]))
    return out, None
