"""Pure-Python twin of the Omni3DBench scorer (spec: ``specs/vlmevalkit.md`` §3).

Reproduces VLMEvalKit 50c954aa ``Omni3DBench_acc`` (identical logic in the DCVLR fork)
with Python's own ``int()``, ``float()``, ``str.lower()`` and ``in``, the way the
reference calls them; written from the spec and the conformance vectors, not from the
Rust code, so it is an independent oracle for ``gaia_fast._native.omni3d_*``.

Cells: ``None`` stands for a NaN cell (pandas reads an empty cell as ``float('nan')``),
and is given to the rules as that NaN, so it behaves exactly as upstream: ``int(nan)``
raises, ``float(nan)`` is NaN, NaN equals no string. A missing prediction makes the
reference raise ``TypeError`` in ``extract_answer`` for every answer type.

Where the reference raises, the row functions return a status and no score, and the
aggregates return ``None``; nothing here raises on data. Arguments that are neither
``str`` nor ``None`` raise ``TypeError``.

Extraction note: the spec's §3.1 prose ("the text after the first ``<ans>``, cut at the
first ``</ans>``") differs from the vectors for ``<ans><ans>3</ans>``; the vectors (and
the reference's ``split('<ans>')[1]``) cut at the next ``<ans>`` as well, so the twin does
what the reference code does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gaia_fast.reference.gaia import _rust_display_float, quote
from gaia_fast.scorers.vlm.omni3d_tables import REPORT_COLUMNS, THRESHOLDS

__all__ = [
    "BUCKETS",
    "REPORT_COLUMNS",
    "STATUSES",
    "THRESHOLDS",
    "decide",
    "extract_answer",
    "mra",
    "omni3d_acc",
    "omni3d_score",
    "py_int_text",
    "score_rows",
]

BUCKETS = ("count", "yes_no", "multiple_choice", "mra")
STATUSES = ("ok", "unparseable", "ignored", "no_truth", "no_prediction", "gt_zero", "bad_truth")

_NAN = float("nan")
_CLIP = 60


def _check(value: object, what: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"{what} must be str or None, not {type(value).__name__}")


def _cell(value: str | None) -> Any:
    """The value the reference sees: a NaN float for a missing cell."""
    return _NAN if value is None else value


def extract_answer(prediction: str) -> str:
    """The reference's ``extract_answer``: ``split('<ans>')[1].split('</ans>')[0]``."""
    if "<ans>" in prediction:
        return prediction.split("<ans>")[1].split("</ans>")[0]
    return prediction


def py_int_text(s: str) -> str | None:
    """``str(int(s))``, or ``None`` where ``int()`` raises ``ValueError``."""
    try:
        return str(int(s))
    except ValueError:
        return None


def _q(s: str) -> str:
    return quote(s if len(s) <= _CLIP else s[:_CLIP] + "\u2026")


def _display(v: float) -> str:
    """Rust's ``{}`` of an ``f64`` (the native reasons): integral values print without
    ``.0``."""
    text = _rust_display_float(v)
    return text[:-2] if text.endswith(".0") else text


def _gt_q(gt: str | None) -> str:
    return "NaN" if gt is None else _q(gt)


Decision = tuple[str | None, float | None, int | None, str, str]


def decide(prediction: str | None, gt: str | None, answer_type: str | None) -> Decision:
    """One row as ``Omni3DBench_acc`` treats it: (bucket, score, thresholds passed,
    status, reason). ``score`` is the bucket's score for the row (0/1, k/10 for MRA) and
    ``None`` when the row is ignored or the reference raises on it."""
    _check(prediction, "prediction")
    _check(gt, "gt")
    _check(answer_type, "answer_type")
    if prediction is None:
        return None, None, None, "no_prediction", "prediction missing: the reference crashes (TypeError)"
    answer = extract_answer(prediction)
    missing = "no_truth" if gt is None else None
    g = _cell(gt)
    if answer_type == "int":
        try:
            p = int(answer)
        except ValueError:
            return "count", 0.0, None, missing or "unparseable", f"count: int() rejects {_q(answer)}: wrong"
        try:
            gv = int(g)
        except ValueError:
            why = (
                "count: truth missing (NaN): the reference crashes (ValueError)"
                if gt is None
                else f"count: int() rejects the truth {_q(gt)}: the reference crashes (ValueError)"
            )
            return "count", None, None, missing or "bad_truth", why
        ok = gv == p
        return "count", float(ok), None, missing or "ok", f"count: int({_q(answer)}) {'==' if ok else '!='} int({_gt_q(gt)})"
    if answer_type == "str":
        low = answer.lower()
        if g in ["yes", "no"]:
            if g in low:
                return "yes_no", 1.0, None, "ok", f'yes/no: "{g}" in lowercased {_q(answer)}'
            alt = "true" if g == "yes" else "false"
            if alt in low:
                return "yes_no", 1.0, None, "ok", f'yes/no: "{alt}" in lowercased {_q(answer)}'
            return "yes_no", 0.0, None, "ok", f'yes/no: neither "{g}" nor "{alt}" in lowercased {_q(answer)}'
        ok = g == low
        if gt is None:
            return "multiple_choice", float(ok), None, "no_truth", "multiple choice: truth missing (NaN): never matches"
        return "multiple_choice", float(ok), None, "ok", f"multiple choice: lowercased {_q(answer)} {'==' if ok else '!='} {_q(gt)}"
    if answer_type == "float":
        try:
            p = float(answer)
        except ValueError:
            return "mra", 0.0, 0, missing or "unparseable", f"mra: float() rejects {_q(answer)}: 0 of 10 thresholds"
        try:
            gv = float(g)
        except ValueError:
            return "mra", None, None, "bad_truth", f"mra: float() rejects the truth {_q(gt)}: the reference crashes (ValueError)"
        try:
            ratio = abs(gv - p) / gv
        except ZeroDivisionError:
            return "mra", None, None, missing or "gt_zero", f"mra: truth {_gt_q(gt)} is zero: the reference crashes (ZeroDivisionError)"
        passed = sum(1 for t in THRESHOLDS if ratio < t)
        return (
            "mra",
            passed / 10,
            passed,
            missing or "ok",
            f"mra: |gt - pred| / gt = {_display(ratio)} passes {passed} of 10 thresholds",
        )
    why = "answer_type missing: not scored" if answer_type is None else f'answer_type {_q(answer_type)} is not scored (only "int", "str", "float")'
    return None, None, None, "ignored", why


def omni3d_score(prediction: str | None, gt: str | None, answer_type: str | None) -> float | None:
    """The bucket's score for one row; ``None`` if ignored or the reference raises."""
    return decide(prediction, gt, answer_type)[1]


def omni3d_acc(rows: Iterable[tuple[str | None, str | None, str | None]]) -> dict[str, float | None] | None:
    """``Omni3DBench_acc`` over (prediction, answer, answer_type) rows: the four report
    values in column order (fractions, ``None`` for an empty bucket), or ``None`` where
    the reference raises. Follows the reference's loop literally."""
    correct_at_threshold = {t: 0 for t in THRESHOLDS}
    yn_correct = yn_n = ct_correct = ct_n = multi_correct = multi_n = other_n = 0
    for prediction, answer, answer_type in rows:
        _check(prediction, "prediction")
        _check(answer, "answer")
        _check(answer_type, "answer_type")
        if prediction is None:
            return None  # TypeError in extract_answer
        pred: Any = extract_answer(prediction)
        gt: Any = _cell(answer)
        if answer_type == "int":
            ct_n += 1
            try:
                pred = int(pred)
            except ValueError:
                continue
            try:
                gt = int(gt)
            except ValueError:
                return None
            if gt == pred:
                ct_correct += 1
        elif answer_type == "str":
            if gt in ["yes", "no"]:
                yn_n += 1
                low = pred.lower()
                if gt in low or (gt == "yes" and "true" in low) or (gt == "no" and "false" in low):
                    yn_correct += 1
            else:
                multi_n += 1
                if gt == pred.lower():
                    multi_correct += 1
        elif answer_type == "float":
            other_n += 1
            for threshold in THRESHOLDS:
                try:
                    pred = float(pred)
                except ValueError:
                    continue
                try:
                    gt = float(gt)
                    ratio = abs(gt - pred) / gt
                except (ValueError, ZeroDivisionError):
                    return None
                if ratio < threshold:
                    correct_at_threshold[threshold] += 1
    mra_value: float | None = None
    if other_n:
        total = 0.0
        for threshold in THRESHOLDS:
            total += correct_at_threshold[threshold] / other_n
        mra_value = total / len(THRESHOLDS)
    values = (
        yn_correct / yn_n if yn_n else None,
        multi_correct / multi_n if multi_n else None,
        ct_correct / ct_n if ct_n else None,
        mra_value,
    )
    return dict(zip(REPORT_COLUMNS, values))


def mra(predictions: Sequence[str | None], gts: Sequence[str | None]) -> float | None:
    """Mean Relative Accuracy of raw predictions (tags extracted) against truths, every
    pair scored as a ``float`` row; ``None`` for no pairs or where the reference raises."""
    predictions, gts = list(predictions), list(gts)
    if len(predictions) != len(gts):
        raise ValueError(f"predictions has {len(predictions)} items but gts has {len(gts)}")
    report = omni3d_acc((p, g, "float") for p, g in zip(predictions, gts))
    return None if report is None else report[REPORT_COLUMNS[3]]


def score_rows(
    predictions: Sequence[str | None],
    gts: Sequence[str | None],
    answer_types: Sequence[str | None],
    explain: bool = False,
) -> dict[str, list[Any]]:
    """Row-by-row twin of ``omni3d_score_arrow``: the same columns as Python lists."""
    out: dict[str, list[Any]] = {k: [] for k in ("extracted", "bucket", "score", "thresholds_passed", "status")}
    if explain:
        out["reason"] = []
    for p, g, t in zip(predictions, gts, answer_types, strict=True):
        bucket, score, passed, status, why = decide(p, g, t)
        out["extracted"].append(None if p is None else extract_answer(p))
        out["bucket"].append(bucket)
        out["score"].append(score)
        out["thresholds_passed"].append(passed)
        out["status"].append(status)
        if explain:
            out["reason"].append(why)
    return out
