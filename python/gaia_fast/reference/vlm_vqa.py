"""Pure-Python twin of VLMEvalKit's open-VQA evaluation (``ImageVQADataset.evaluate``).

Written from ``vlmeval/dataset/utils/vqa_eval.py``, ``vlmeval/dataset/image_vqa.py`` and
``vlmeval/smp/misc.py`` of open-compass/VLMEvalKit at c03bc048 (2024-07-27, the commit
that wrote the shared VILA-1.5 tree; the code is the same from 3d800fce, 2024-03-27, with
InfoVQA joining DocVQA's ANLS on 2024-04-08) and at today's head (e8e78f05). Two changes between them give three variants:

* ``classic`` (… 2025-05-12): ``process_punctuation`` with ``(?!<=\\d)(\\.)(?!\\d)``, and
  ChartQA's ``relaxed_correctness(ret['pred'], x)``: the prediction is the *target*, the
  answer the *prediction* (the relative change divides by the prediction).
* ``2025-05`` (928a95b0, 2025-05-13): the period rule ``(?<!\\d)\\.(?!\\d)``.
* ``2025-09`` (677e30a5, 2025-09-01, still at head): ``relaxed_correctness(x, ret['pred'])``.

Methods by dataset name (``listinstr``): TextVQA ``vqa_score`` (mean of the matches),
ChartQA ``relaxed_accuracy`` (max), OCRVQA ``accuracy`` (max), GQA ``accuracy`` (mean:
GQA is in no ``hit_calculate`` list), DocVQA/InfoVQA ``anls``.

``istype(answer, list)`` / ``eval(answer)`` is read with ``ast.literal_eval``: the two agree
on every literal; an answer cell that only ``eval`` turns into a list (an expression such
as ``['a'] * 3``) is read as one answer here. The row and report arithmetic follows numpy
(``np.mean`` by pairwise summation, as numpy ≥ 2 sums a float64 array).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from typing import Any

from gaia_fast.reference.vlm_yorn import process_punctuation
from gaia_fast.scorers.vlm.vqa_tables import CONTRACTIONS

__all__ = [
    "METHODS",
    "VARIANTS",
    "anls_compute",
    "evaluate",
    "hit_of",
    "np_mean",
    "np_sum",
    "parse_answers",
    "process_answer",
    "process_digit_article",
    "relaxed_correctness",
    "score_row",
]

VARIANTS = ("classic", "2025-05", "2025-09")
METHODS = ("vqa_score", "relaxed_accuracy", "accuracy", "accuracy_mean", "anls")

_MANUAL_MAP = {
    "none": "0", "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4",
    "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10",
}  # fmt: skip
_ARTICLES = ["a", "an", "the"]
_CONTRACTIONS = CONTRACTIONS


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown open-VQA variant {variant!r}; expected one of {VARIANTS}")


def _punct_variant(variant: str) -> str:
    return "classic" if variant == "classic" else "2025-05"


def process_digit_article(in_text: str) -> str:
    """``_process_digit_article``."""
    out_text = []
    for word in in_text.lower().split():
        word = _MANUAL_MAP.get(word, word)
        if word not in _ARTICLES:
            out_text.append(word)
    for i, word in enumerate(out_text):
        if word in _CONTRACTIONS:
            out_text[i] = _CONTRACTIONS[word]
    return " ".join(out_text)


def process_answer(answer: str, variant: str = "classic") -> str:
    """``process_answer``."""
    _check_variant(variant)
    answer = answer.replace("\n", " ")
    answer = answer.replace("\t", " ")
    answer = answer.strip()
    answer = process_punctuation(answer, _punct_variant(variant))
    return process_digit_article(answer)


def relaxed_correctness(target: str, prediction: str, max_relative_change: float = 0.05) -> tuple[bool, str]:
    """``relaxed_correctness(target, prediction)`` with the rule that decided."""

    def to_float(text: str) -> float | None:
        try:
            if text.endswith("%"):
                return float(text.rstrip("%")) / 100.0
            return float(text)
        except ValueError:
            return None

    prediction = str(prediction)
    target = str(target)
    prediction_float = to_float(prediction)
    target_float = to_float(target)
    if prediction_float is not None and target_float:
        relative_change = abs(prediction_float - target_float) / abs(target_float)
        ok = relative_change <= max_relative_change
        return ok, "number_close" if ok else "number_far"
    ok = prediction.lower() == target.lower()
    return ok, "text_equal" if ok else "text_differ"


def _levenshtein(s1: str, s2: str) -> int:
    if len(s1) > len(s2):
        s1, s2 = s2, s1
    distances = list(range(len(s1) + 1))
    for i2, c2 in enumerate(s2):
        distances_ = [i2 + 1]
        for i1, c1 in enumerate(s1):
            if c1 == c2:
                distances_.append(distances[i1])
            else:
                distances_.append(1 + min((distances[i1], distances[i1 + 1], distances_[-1])))
        distances = distances_
    return distances[-1]


def anls_compute(groundtruth: str, prediction: str) -> float:
    """``anls_compute``: normalised edit distance."""
    gt_answer = " ".join(groundtruth.strip().lower().split())
    det_answer = " ".join(prediction.strip().lower().split())
    dist = _levenshtein(gt_answer, det_answer)
    length = max(len(groundtruth.upper()), len(prediction.upper()))
    return 0.0 if length == 0 else float(dist) / float(length)


def np_sum(values: Sequence[float]) -> float:
    """numpy's pairwise ``add.reduce`` of a contiguous float64 array."""
    a = [float(v) for v in values]
    n = len(a)
    if n < 8:
        res = 0.0
        for x in a:
            res += x
        return res
    if n <= 128:
        r = a[:8]
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] += a[i + j]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return np_sum(a[:n2]) + np_sum(a[n2:])


def np_mean(values: Sequence[float]) -> float:
    """``np.mean``: NaN for no values."""
    return np_sum(values) / len(values) if len(values) else math.nan


def parse_answers(answer: str) -> list[Any]:
    """The row's answers: ``eval(answer)`` when that is a list, else ``[answer]``."""
    try:
        value = ast.literal_eval(answer)
    except Exception:  # noqa: BLE001 - istype() catches every exception
        return [answer]
    return value if isinstance(value, list) else [answer]


def score_row(prediction: str, answer: str, method: str, variant: str = "classic") -> dict[str, Any]:
    """``process_line(line, method)`` for one row: ``gt``, ``pred``, ``match``. Raises
    where the reference raises (a non-str answer in a list for the string methods)."""
    _check_variant(variant)
    answers = parse_answers(answer)
    ret: dict[str, Any] = {}
    if method == "vqa_score":
        ret["gt"] = [process_answer(x, variant) for x in answers]
        ret["pred"] = process_answer(prediction, variant)
        ret["match"] = []
        for current_idx, _ in enumerate(ret["gt"]):
            other = [item for idx, item in enumerate(ret["gt"]) if idx != current_idx]
            matching = [item for item in other if item == ret["pred"]]
            ret["match"].append(min(1, float(len(matching)) / 3))
    elif method == "anls":
        ret["gt"] = answers
        ret["pred"] = prediction
        ret["match"] = [anls_compute(x, ret["pred"]) for x in ret["gt"]]
    elif method == "relaxed_accuracy":
        ret["gt"] = answers
        ret["pred"] = prediction.strip()
        if variant == "2025-09":
            ret["match"] = [relaxed_correctness(x, ret["pred"])[0] for x in ret["gt"]]
        else:
            ret["match"] = [relaxed_correctness(ret["pred"], x)[0] for x in ret["gt"]]
    elif method in ("accuracy", "accuracy_mean"):
        ret["gt"] = answers
        ret["pred"] = prediction.strip()
        ret["match"] = [(1.0 if (x.strip().lower() == ret["pred"].strip().lower()) else 0.0) for x in ret["gt"]]
    else:
        raise ValueError(f"unknown method {method!r}")
    return ret


def hit_of(ret: dict[str, Any], method: str, anls_threshold: float = 0.5) -> float:
    """``hit_calculate`` for one row. Raises ``ValueError`` on no answers for max/min."""
    match = ret["match"]
    if method in ("vqa_score", "accuracy_mean"):
        return np_mean([float(x) for x in match])
    if method == "anls":
        if not match:
            raise ValueError("zero-size array to reduction operation minimum which has no identity")
        m = min(match)
        return 0.0 if 1 - m < anls_threshold else 1 - m
    if not match:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    return float(max(match))


def evaluate(
    predictions: Sequence[Any],
    answers: Sequence[Any],
    method: str,
    variant: str = "classic",
    split: Sequence[Any] | None = None,
    category: Sequence[Any] | None = None,
) -> dict[str, float]:
    """``ImageVQADataset.evaluate`` on columns already read by pandas (``None`` = NaN):
    the report's one row as {column: value}. Splits are listed sorted (the reference lists
    them in ``set`` order, which varies from run to run), then ``Overall``; without splits,
    ``Overall`` then the sorted categories. Raises where the reference raises."""
    preds = ["nan" if p is None else str(p) for p in predictions]
    ans = ["nan" if a is None else str(a) for a in answers]
    hits = [hit_of(score_row(p, a, method, variant), method) for p, a in zip(preds, ans)]
    ret: dict[str, float] = {}
    if split is not None:
        for sp in sorted({s for s in split if s is not None}):
            ret[str(sp)] = np_mean([h for h, s in zip(hits, split) if s == sp]) * 100
        if any(s is None for s in split):
            ret["nan"] = math.nan  # NaN == NaN is False upstream: no row
        ret["Overall"] = np_mean(hits) * 100
    else:
        ret["Overall"] = np_mean(hits) * 100
        if category is not None:
            if any(c is None for c in category):
                raise TypeError("'<' not supported between instances of 'float' and 'str'")
            for c in sorted(set(category)):
                ret[str(c)] = np_mean([h for h, k in zip(hits, category) if k == c]) * 100
    return ret
