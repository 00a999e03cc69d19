"""VisFactor (``VisFactor``, ``_CoT`` and the generated ``_GE``/``_GN``/``_GH`` sets, with and
without CoT), laid out as extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/visfactor.py`` (``VisFactor.evaluate``,
``extract_last_json_answer``, ``extract_last_numbers``, ``extract_last_uppercase_letter``) at
e8e78f05. Every cell is read as pandas loaded it and ``str()``-ed, as upstream.

Extract: the value of the last ``{"answer": …}`` object (``\\{\\s*"answer"\\s*:\\s*(.+?)\\s*\\}``),
stripped, one pair of matching outer quotes removed; ``""`` when there is none. Score, by
``category_id``:

* yes/no subtests (``CF1 CF2 MV1 MV2 MV3 P3 RL2 S1 S2 SS2 VZ1 VZ2``, and ``VZ3`` whose
  ``additional`` is not all digits): ``t y 1 true yes`` → ``T``, ``f n 0 false no`` → ``F``,
  else ``""``; equal to the answer.
* ``CS1 CS2 CS3``: the lowercased value is one of the comma-separated answers (lowercased).
* ``CF3 I3 MA1 SS3 VZ3``: with no JSON answer the whole prediction is read; ``VZ3`` its last
  uppercase letter, ``CF3`` its last two digit runs as ``(a, b)``, the others its last digit
  run; equal to the answer.
* any other id: no verdict (pandas leaves NaN, which ``all()`` counts as right).

Aggregate: a question (``category_id``, ``eval_index``) is right when all its rows are; each
subtest's accuracy (sorted ids), and ``ALL``, their mean. Report ``{stem}_acc.csv``.

Variants (``--as-of``):

* ``2025-09`` (9cc14cd0, 2025-09-12, head): the report through ``d2df`` (a header row of
  subtests and ``ALL``, one row of values).
* ``2025-07`` (17973eb8, 2025-07-09): the same verdicts; the report was written by hand as
  ``key,value`` lines (no header): here a two-column frame ``key``/``value``.
* ``2025-07-07`` (48ead4b5): as ``2025-07``, but a ``VZ3`` row of the letter rule raised
  ``TypeError`` (``extract_last_uppercase_letter`` lacked ``self``): ``reference_error``.
* ``2025-06`` (2eea9afc, 2025-06-27, the first version): ``CF3 I3 MA1 SS3 VZ3`` compared the
  JSON value itself with the answer (no number or letter extraction); ``key,value`` report.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_str

__all__ = ["VARIANTS", "extract_json_answer", "grade"]

VARIANTS: tuple[str, ...] = ("2025-09", "2025-07", "2025-07-07", "2025-06")

_YES_NO = frozenset(["CF1", "CF2", "MV1", "MV2", "MV3", "P3", "RL2", "S1", "S2", "SS2", "VZ1", "VZ2"])
_LIST = frozenset(("CS1", "CS2", "CS3"))
_EXTRACT = frozenset(("CF3", "I3", "MA1", "SS3", "VZ3"))
_JSON = re.compile(r'\{\s*"answer"\s*:\s*(.+?)\s*\}')


def extract_json_answer(text: str) -> str:
    """``extract_last_json_answer``."""
    last = None
    for last in _JSON.finditer(text):
        pass
    if last is None:
        return ""
    raw = last.group(1).strip()
    if (raw.startswith('"') and raw.endswith('"')) or (raw.startswith("'") and raw.endswith("'")):
        raw = raw[1:-1]
    return raw


def _last_upper(text: str) -> str | None:
    for ch in reversed(text):
        if ch.isupper():
            return ch
    return None


def _row(cid: str, pred_text: str, answer: str, additional: str, variant: str) -> tuple[str | None, bool | None, str]:
    """(pred, correct, rule) for one row; correct None: no rule (NaN upstream)."""
    value = extract_json_answer(pred_text)
    if cid in _YES_NO or (cid == "VZ3" and not additional.isdigit()):
        low = value.lower()
        pred = "T" if low in ("t", "y", "1", "true", "yes") else "F" if low in ("f", "n", "0", "false", "no") else ""
        # 2025-06 left pred unset (NaN) for neither; NaN == answer is False all the same
        return pred, pred == answer, "yes_no"
    if cid in _LIST:
        return value, value.lower() in [a.lower() for a in answer.split(",")], "list"
    if cid in _EXTRACT:
        if variant == "2025-06":
            return value, value == answer, "json_value"
        if value == "":
            value = pred_text
        if cid == "VZ3":
            if variant == "2025-07-07":
                raise TypeError("extract_last_uppercase_letter() takes 1 positional argument but 2 were given")
            letter = _last_upper(value)
            return letter, letter == answer, "last_letter"
        nums = re.findall(r"\d+", value)
        if cid == "CF3":
            pred = "" if len(nums) < 2 else f"({nums[-2]}, {nums[-1]})"
            return pred, pred == answer, "last_pair"
        pred = "" if not nums else nums[-1]
        return pred, pred == answer, "last_number"
    return None, None, "no_rule"


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a VLMEvalKit VisFactor result table.

    ``rows``: every input row plus ``extracted`` (the reference's ``pred``), ``rule``,
    ``score`` (1.0/0.0; null for an id with no rule) and ``status`` (``ok``, ``no_rule``,
    ``reference_error``). ``report``: the ``_acc.csv`` (see the module doc per variant).
    ``stats``: question counts per subtest and the first reference error. No judge.
    """
    frame = _check_frame(frame)
    variant = VARIANTS[0] if variant is None else variant
    if variant not in VARIANTS:
        raise ValueError(f"visfactor: unknown variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")
    if judge is not None:
        raise ValueError("visfactor: the reference evaluation has no judge step")
    for c in ("prediction", "answer", "category_id", "eval_index", "additional"):
        if c not in frame.columns:
            raise ValueError(f"visfactor: the result table has no {c!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    cids = pandas_str(frame["category_id"]).to_list()
    eids = pandas_str(frame["eval_index"]).to_list()
    preds = pandas_str(frame["prediction"]).to_list()
    answers = pandas_str(frame["answer"]).to_list()
    additional = pandas_str(frame["additional"]).to_list()

    extracted: list[str | None] = []
    correct: list[bool | None] = []
    rules: list[str] = []
    status: list[str] = []
    error: str | None = None
    for i in range(n):
        try:
            p, c, r = _row(cids[i], preds[i], answers[i], additional[i], variant)
        except TypeError as e:  # the reference raises here
            error = error or f"row {i}: TypeError: {e} (the reference raises)"
            p, c, r = None, None, "reference_error"
        extracted.append(p)
        correct.append(c)
        rules.append(r)
        status.append("reference_error" if r == "reference_error" else "no_rule" if c is None else "ok")
    if error is None and n and all(c is None for c in correct):
        error = "no row has a rule: the 'correct' column never exists and row['correct'] raises KeyError upstream"

    # a question is right when all its rows are; NaN (no rule) counts as right in all()
    questions: dict[str, dict[str, bool]] = {c: {} for c in sorted(set(cids))}
    for cid, eid, c in zip(cids, eids, correct):
        ok = True if c is None else c
        questions[cid][eid] = questions[cid].get(eid, True) and ok
    acc: dict[str, float] = {}
    for cid, qs in questions.items():
        acc[cid] = sum(1 if v else 0 for v in qs.values()) / len(qs)
    vals = list(acc.values())
    if n:
        acc["ALL"] = sum(vals) / len(vals)
    values: dict[str, float | None] = {k: (None if error else v) for k, v in acc.items()}
    if variant in ("2025-09",):
        report = pl.DataFrame({k: [v] for k, v in values.items()}, schema={k: pl.Float64 for k in values})
    else:
        report = pl.DataFrame({"key": list(values), "value": list(values.values())}, schema={"key": pl.String, "value": pl.Float64})

    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("rule", rules, pl.String),
        pl.Series("score", [None if c is None else float(c) for c in correct], pl.Float64),
        pl.Series("status", status, pl.String),
    )
    scored = [c for c in correct if c is not None]
    stats: dict[str, Any] = {
        "benchmark": "visfactor",
        "variant": variant,
        "rows": n,
        "tasks": len(scored),
        "correct": sum(scored),
        "accuracy": sum(scored) / len(scored) if scored else math.nan,
        "questions": {cid: len(qs) for cid, qs in questions.items()},
        "rules": dict(sorted(Counter(rules).items())),
        "reference_error": error,
        "crashed_rows": status.count("reference_error"),
    }
    return GradeResult(rows=rows, report=report, stats=stats)
