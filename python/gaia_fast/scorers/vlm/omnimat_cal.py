"""OmniMat_CAL: answer slots compared as exact decimals and within a relative tolerance of
0.1 (``OmniMat.evaluate_cal``).

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/omnimat.py`` (added ff91eba7,
2026-06-15, the same at head e8e78f05). The module sets ``getcontext().prec = 50`` when it
is imported, so every ``Decimal`` operation below runs at 50 digits.

* ``final_answer_list`` (the cell as pandas read it) -> ``_parse_json_value`` (JSON, else
  ``ast.literal_eval``, else ``[]``) -> ``flatten_answer`` (``str(x).strip()`` of each leaf:
  JSON ``1.50`` is ``'1.5'``);
* the prediction -> ``parse_prediction_string(str(cell))``: the first ``\\boxed{...}``, else the
  text as JSON, else the ``<answer>`` content (as JSON, else the text), else after the last
  ``</think>``, else the text;
* slot ``i`` pairs ``gt[i]`` and ``pred[i]`` (``''`` past the end): exact when
  ``to_decimal`` of both agree after quantizing the prediction to the answer's decimals, else
  ``clean_text`` equal; threshold when ``|gt - pred| <= 0.1 * max(|gt|, |pred|)`` (``1e-12`` when
  one is 0), else ``clean_text`` equal; an ``InvalidOperation`` in the exact test makes both 0;
* a row is right (exact / threshold) when it has answers, as many predictions, and every slot;
* the report (``{stem}_acc.csv``): a row per ``category_id`` (``_format_id``: ``.0`` cut,
  digits zero-filled to 2; sorted) and ``Overall``: items, rights, accuracies and slot
  accuracies, rounded to 4 places (Python's ``round``).
"""

from __future__ import annotations

import ast
import json
import math
import re
from decimal import Decimal, DecimalException, InvalidOperation, localcontext
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column
from gaia_fast.scorers.vlm._replay import rules_only_stats

__all__ = ["VARIANTS", "clean_text", "grade", "parse_prediction", "score_slots", "to_decimal"]

#: One rule since it was added (``--as-of`` picks ``classic``).
VARIANTS = ("classic",)

PREC = 50  # omnimat.py: getcontext().prec = 50 at import
REPORT_COLUMNS = (
    "Category ID", "Category", "Items", "Correct Exact", "Accuracy Exact", "Slot Accuracy Exact",
    "Correct Threshold", "Accuracy Threshold", "Slot Accuracy Threshold",
)  # fmt: skip


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _parse_json_value(value: Any, default: Any) -> Any:
    if _missing(value):
        return default
    if isinstance(value, (dict, list)):
        return value
    text = str(value).strip()
    if not text or text.lower() in {"nan", "none"}:
        return default
    try:
        return json.loads(text)
    except Exception:  # noqa: BLE001 - upstream's bare fallbacks
        try:
            return ast.literal_eval(text)
        except Exception:  # noqa: BLE001
            return default


def clean_text(value: Any) -> str:
    """``omnimat.clean_text``: control characters, ``$``, ``\\left``/``\\right``, spaces and
    commas removed, dashes and times signs unified, ``\\text{}``-like wrappers and
    ``\\boxed{}`` unwrapped."""
    text = "" if value is None else str(value)
    text = re.sub(r"[\x00-\x1F\x7F]", "", text)
    text = text.replace("$", "").replace(r"\left", "").replace(r"\right", "")
    text = text.replace(r"\,", "").replace(" ", "").replace(",", "")
    text = text.replace("−", "-").replace("–", "-").replace("—", "-")
    text = text.replace("×", "x").replace(r"\times", "x")
    text = text.replace(r"\cdot", "x").replace("∙", "x").replace("·", "x")
    text = re.sub(r"(?<!\\)frac", r"\\frac", text)
    text = re.sub(r"\\(?:mathrm|operatorname|text|textrm|mathbf|mathit|mathrmbf)\{([^{}]*)\}", r"\1", text)
    return re.sub(r"\\boxed\{([^{}]*)\}", r"\1", text)


def to_decimal(value: Any) -> Decimal | None:
    """``omnimat.to_decimal`` (call it inside a 50-digit context)."""
    text = clean_text(value)
    if not text:
        return None
    for pattern in (r"[+-]?\d+(\.\d+)?", r"[+-]?\d+(\.\d+)?[eE][+-]?\d+"):
        if re.fullmatch(pattern, text):
            try:
                return Decimal(text)
            except InvalidOperation:
                return None
    m = re.fullmatch(r"([+-]?\d+(?:\.\d+)?)x10\^?\{?([+-]?\d+)\}?", text)
    if m:
        return Decimal(m.group(1)) * (Decimal(10) ** int(m.group(2)))
    m = re.fullmatch(r"10\^?\{?([+-]?\d+)\}?", text)
    if m:
        return Decimal(10) ** int(m.group(1))
    m = re.fullmatch(r"\\frac\{([+-]?\d+(?:\.\d+)?)\}\{([+-]?\d+(?:\.\d+)?)\}", text)
    if m:
        num, den = Decimal(m.group(1)), Decimal(m.group(2))
        return None if den == 0 else num / den
    m = re.fullmatch(r"([+-])?(\d+)\\frac\{(\d+(?:\.\d+)?)\}\{(\d+(?:\.\d+)?)\}", text)
    if m:
        sign = -1 if m.group(1) == "-" else 1
        whole, num, den = Decimal(m.group(2)), Decimal(m.group(3)), Decimal(m.group(4))
        return None if den == 0 else Decimal(sign) * (whole + num / den)
    m = re.fullmatch(r"([+-]?\d+(?:\.\d+)?)/([+-]?\d+(?:\.\d+)?)", text)
    if m:
        num, den = Decimal(m.group(1)), Decimal(m.group(2))
        return None if den == 0 else num / den
    return None


def _exact(gt: str, pred: str) -> int:
    g, p = to_decimal(gt), to_decimal(pred)
    if g is None or p is None:
        return 0
    m = re.search(r"\.(\d+)", str(gt).strip())
    decimals = len(m.group(1)) if m else 0
    digits = max(len(g.as_tuple().digits), len(p.as_tuple().digits))
    with localcontext() as ctx:
        ctx.prec = max(PREC, digits + decimals + 2)
        rounded = p.quantize(Decimal(f"1e-{decimals}"))
    return 1 if g == rounded else 0


def _threshold(gt: str, pred: str, rel_tol: float = 0.1, zero_tol: float = 1e-12) -> int:
    g, p = to_decimal(gt), to_decimal(pred)
    if g is None or p is None:
        return 0
    diff = abs(g - p)
    top = max(abs(g), abs(p))
    if top == 0:
        return 1
    if abs(g) == 0 or abs(p) == 0:
        return 1 if diff <= Decimal(str(zero_tol)) else 0
    return 1 if diff <= Decimal(str(rel_tol)) * top else 0


def _flatten(value: Any) -> list[str]:
    if isinstance(value, list):
        return [x for item in value for x in _flatten(item)]
    return [str(value).strip()]


def parse_prediction(text: str) -> list[str]:
    """``parse_prediction_string``."""
    text = (text or "").strip()
    if not text:
        return []
    boxed = re.search(r"\\boxed\{([^{}]+)\}", text)
    if boxed:
        return [boxed.group(1).strip()]
    try:
        return _flatten(json.loads(text))
    except Exception:  # noqa: BLE001, S110 - upstream's bare fallback: not JSON, try the next form
        pass
    answer = re.search(r"<answer>(.*?)</answer>", text, re.DOTALL)
    if answer:
        inner = answer.group(1).strip()
        try:
            return _flatten(json.loads(inner))
        except Exception:  # noqa: BLE001
            return [inner]
    if "</think>" in text:
        return parse_prediction(text.split("</think>")[-1].strip())
    return [text]


def score_slots(gts: list[str], preds: list[str]) -> tuple[list[int], list[int]]:
    """``_score_cal_line``'s slot scores (exact, threshold), at 50 digits."""
    exact_slots: list[int] = []
    thr_slots: list[int] = []
    with localcontext() as ctx:
        ctx.prec = PREC
        for i in range(max(len(gts), len(preds))):
            gt = gts[i] if i < len(gts) else ""
            pred = preds[i] if i < len(preds) else ""
            try:
                exact = _exact(gt, pred)
            except InvalidOperation:
                exact_slots.append(0)
                thr_slots.append(0)
                continue
            exact_slots.append(exact or int(clean_text(gt) == clean_text(pred)))
            thr_slots.append(_threshold(gt, pred) or int(clean_text(gt) == clean_text(pred)))
    return exact_slots, thr_slots


def _format_id(value: Any, width: int) -> str:
    if _missing(value):
        return ""
    text = str(value).strip()
    text = text.removesuffix(".0")
    return text.zfill(width) if text.isdigit() else text


def _cells(series: pl.Series) -> list[Any]:
    kind, cells = pandas_column(series)
    values = cells.to_list()
    return [math.nan if v is None else v for v in values] if kind == "object" else values


def _summary(cid: str, category: Any, members: list[int], exact: list[int], thr: list[int], slots: list[tuple[list[int], list[int]]]) -> dict[str, Any]:
    total = len(members)
    ce, ct = sum(exact[i] for i in members), sum(thr[i] for i in members)

    def slot_acc(k: int) -> float:
        n_slots = sum(len(slots[i][k]) for i in members)
        return sum(sum(slots[i][k]) for i in members) / n_slots if n_slots else 0.0

    return {
        "Category ID": cid,
        "Category": None if _missing(category) else str(category),
        "Items": total,
        "Correct Exact": ce,
        "Accuracy Exact": round(ce / total if total else 0.0, 4),
        "Slot Accuracy Exact": round(slot_acc(0), 4),
        "Correct Threshold": ct,
        "Accuracy Threshold": round(ct / total if total else 0.0, 4),
        "Slot Accuracy Threshold": round(slot_acc(1), 4),
    }


def grade(frame: pl.DataFrame, *, variant: str | None = None, seed: int = 0, judge: Any = None) -> GradeResult:
    """Grade an OmniMat_CAL result table (``final_answer_list``, ``prediction``,
    ``category_id``, ``category``). Rules only. ``rows``: the input plus ``pred_answer``,
    ``slot_scores_exact`` / ``_threshold`` (JSON), ``score`` (the threshold match),
    ``score_exact``, ``status``, ``reason``. ``report``: upstream's ``_acc.csv`` table."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("omnimat_cal is graded by rules only; it takes no judge")
    if variant not in (None, "classic"):
        raise ValueError(f"omnimat_cal has one rule (variant 'classic'), not {variant!r}")
    for name in ("final_answer_list", "prediction", "category_id", "category"):
        if name not in frame.columns:
            raise ValueError(f"omnimat_cal: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    answers = _cells(frame["final_answer_list"])
    preds = _cells(frame["prediction"])
    cats = _cells(frame["category"])
    cids = [_format_id(v, 2) for v in _cells(frame["category_id"])]
    exact: list[int] = [0] * n
    thr: list[int] = [0] * n
    slots: list[tuple[list[int], list[int]]] = [([], [])] * n
    pred_lists: list[str | None] = [None] * n
    status = ["ok"] * n
    reasons = [""] * n
    error: str | None = None
    for i in range(n):
        gts = _flatten(_parse_json_value(answers[i], default=[]))
        got = parse_prediction(str(preds[i]))
        try:
            s = score_slots(gts, got)
        except DecimalException as e:  # upstream catches only InvalidOperation in the exact test
            error = f"row {i + 1}: {type(e).__name__} comparing {gts!r} with {got!r}: upstream raised (no report)"
            status[i], reasons[i] = "error", error
            break
        slots[i] = s
        same_len = bool(gts) and len(gts) == len(got)
        exact[i] = int(same_len and all(s[0]))
        thr[i] = int(same_len and all(s[1]))
        pred_lists[i] = json.dumps(got, ensure_ascii=False)
        reasons[i] = f"{'right' if thr[i] else 'wrong'} (threshold), {'right' if exact[i] else 'wrong'} (exact): {got!r} vs {gts!r}"
    report = pl.DataFrame()
    if error is None:
        groups: dict[str, list[int]] = {}
        for i, cid in enumerate(cids):
            groups.setdefault(cid, []).append(i)
        table = [_summary(cid, cats[groups[cid][0]], groups[cid], exact, thr, slots) for cid in sorted(groups)]
        table.append(_summary("Overall", "Overall", list(range(n)), exact, thr, slots))
        schema = {c: (pl.Int64 if c in ("Items", "Correct Exact", "Correct Threshold") else pl.String if c.startswith("Category") else pl.Float64) for c in REPORT_COLUMNS}
        report = pl.DataFrame(table, schema=schema)
    else:
        status = ["unchecked" if s == "ok" and not reasons[i] else s for i, s in enumerate(status)]
    rows = frame.with_columns(
        pl.Series("pred_answer", pred_lists, pl.String),
        pl.Series("slot_scores_exact", [json.dumps(s[0]) for s in slots], pl.String),
        pl.Series("slot_scores_threshold", [json.dumps(s[1]) for s in slots], pl.String),
        pl.Series("score_exact", [float(x) for x in exact], pl.Float64),
        pl.Series("score", [float(x) for x in thr], pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    ok = error is None
    stats = rules_only_stats(
        "omnimat_cal",
        "classic",
        rows,
        input_rows=n,
        tasks=n if ok else 0,
        correct=sum(thr) if ok else 0,
        accuracy=(sum(thr) / n if n else None) if ok else None,
        averages={"accuracy_exact": (sum(exact) / n if n else None) if ok else None},
        unit=None,
        method="rules (OmniMat _score_cal_line: exact decimals, rel_tol 0.1)",
        flags={},
        reference_error=error,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
