"""VLRMBench (VLRMBench, _MultiSolution, _Foresight): step-label F1 per category, the
multi-solution pair accuracy and the foresight yes/no accuracy (``VLRMBench.evaluate``).

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/vlrmbench.py`` (304c2e9d, 2025-10-30;
401916c0 only changed imports) — ``format_model_answer_tolist``, ``format_ms_model_answer``,
``get_F1Score`` and ``VLRMBench.evaluate`` / ``evaluate_multi_solution`` /
``evaluate_foresight``:

* step rows (category not ``multi_solution`` / ``foresight``): the answer cell
  ``literal_eval``-ed into a 0/1 list; the prediction's integers (``\\d+`` of
  ``str(prediction)``), each not 0 or 1 read as 1, cut or padded with 0 to the answer's
  length; a row whose answer cannot be read (or has no length) is skipped, as upstream's
  ``except``. Per category (in order of first appearance), then over all: sklearn's
  ``f1_score`` for label 1 and label 0 (``2 tp / (true + predicted)``, 0 when both are 0)
  and their mix weighted by the other class's share, plus the row count;
* multi_solution rows: the sorted distinct ``index`` values in pairs (front, back; an odd
  last one skipped; a pair whose ``order`` is not front/back skipped); the last two integers
  of each prediction (padded with 0); right when ``front[0] + back[1] > front[1] + back[0]``;
* foresight rows: ``task_gt is True`` needs ``\\b(yes|true)\\b`` in the prediction, ``is
  False`` ``\\b(no|false)\\b`` (any case); any other ``task_gt`` counts but is never right.
  pandas loads an xlsx boolean column as numpy bools (float64 where a cell is empty), never
  ``True`` itself, so from an xlsx result file every foresight row counts and none is right
  (VLMEvalKit's own run on the test archive: 0.0). A ``.tsv`` result whose ``task_gt`` has
  empty cells would load Python bools (then matched): that case is not reproduced;
* one row of those keys, written as ``{stem}_score.csv``.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str

__all__ = ["f1_scores", "grade", "ms_scores", "step_labels"]

_SPECIAL = ("multi_solution", "foresight")
_INT = re.compile(r"\d+")
_YES = re.compile(r"\b(yes|true)\b", re.IGNORECASE)
_NO = re.compile(r"\b(no|false)\b", re.IGNORECASE)



#: The variants a registry entry may name (one rule from its first version to head).
VARIANTS = ("classic",)

def step_labels(prediction: str, n: int) -> list[int]:
    """``format_model_answer_tolist``: the prediction's integers as 0/1, fitted to ``n``."""
    vals = [0 if int(x) == 0 else 1 for x in _INT.findall(prediction)]
    return vals[:n] if len(vals) >= n else vals + [0] * (n - len(vals))


def ms_scores(prediction: str) -> list[int]:
    """``format_ms_model_answer``: the last two integers (padded with 0)."""
    vals = [int(x) for x in _INT.findall(prediction)]
    return vals[-2:] if len(vals) >= 2 else vals + [0] * (2 - len(vals))


def _f1(truth: list[int], pred: list[int], label: int) -> float:
    tp = sum(1 for t, p in zip(truth, pred) if t == label and p == label)
    denom = sum(1 for t in truth if t == label) + sum(1 for p in pred if p == label)
    return 2.0 * tp / denom if denom else 0.0


def f1_scores(pred: list[int], truth: list[int]) -> tuple[float, float, float]:
    """``get_F1Score``: (F1 of label 1, F1 of label 0, weighted mix). ValueError where
    sklearn refuses (labels other than 0/1 in the truth)."""
    labels = set(truth) | set(pred)
    if not labels <= {0, 1}:
        raise ValueError(
            f"labels {sorted(labels, key=str)} are not binary: sklearn's f1_score raises"
        )
    pos = sum(1 for t in truth if t == 1)
    neg = sum(1 for t in truth if t == 0)
    f_pos, f_neg = _f1(truth, pred, 1), _f1(truth, pred, 0)
    w_pos = neg / (pos + neg) if pos + neg > 0 else 0
    w_neg = pos / (pos + neg) if pos + neg > 0 else 0
    return f_pos, f_neg, w_neg * f_neg + w_pos * f_pos


def _as_bool(v: Any) -> bool | None:
    """``task_gt`` as upstream's ``is True`` / ``is False`` sees it: only a Python bool
    matches. pandas loads an xlsx column of booleans as numpy bools (float64 1.0 / 0.0 when
    a cell is empty), which never are ``True``: upstream then counts every foresight row
    and finds none right (VLMEvalKit's own run on the test archive shows it). The text
    cells gaia-fast reads therefore never match either."""
    return v if isinstance(v, bool) else None


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a VLRMBench result table (``category``, ``prediction``; ``answer`` for step rows,
    ``task_gt`` for foresight, ``index`` / ``order`` for multi-solution). Rules only.
    ``rows``: the input plus ``extracted`` (what was read from the prediction), ``score``
    (1.0/0.0 for foresight and for each pair's back row; step rows: the share of labels
    right), ``status`` (``ok``, ``skipped``, ``paired`` for a pair's front row) and ``reason``."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("vlrmbench is graded by rules only; it takes no judge")
    if variant not in (None, *VARIANTS):
        raise ValueError(f"vlrmbench has one rule (variant 'classic'), not {variant!r}")
    for name in ("category", "prediction"):
        if name not in frame.columns:
            raise ValueError(
                f"vlrmbench: the result table has no {name!r} column (columns: {sorted(frame.columns)})"
            )
    n = frame.height
    cats = pandas_str(frame["category"]).to_list()
    pkind, pcells = pandas_column(frame["prediction"])
    preds = (
        [float("nan") if v is None else v for v in pcells.to_list()]
        if pkind == "object"
        else pcells.to_list()
    )
    extracted: list[str | None] = [None] * n
    scores: list[float | None] = [None] * n
    status = ["skipped"] * n
    reasons = [""] * n
    results: dict[str, float | int] = {}
    error: str | None = None

    step = [i for i in range(n) if cats[i] not in _SPECIAL]
    if step and "answer" in frame.columns:
        akind, acells = pandas_column(frame["answer"])
        answers = acells.to_list()
        gts: dict[str, list[int]] = {}
        outs: dict[str, list[int]] = {}
        total: dict[str, int] = {}
        for i in step:
            gt: Any = answers[i]
            try:
                if akind == "object":
                    if gt is None:
                        raise TypeError("an empty answer cell (NaN): len() fails")
                    gt = ast.literal_eval(gt)
                lab = step_labels(str(preds[i]), len(gt))
                gt = list(gt)
            except (
                ValueError,
                TypeError,
                SyntaxError,
                MemoryError,
                RecursionError,
            ) as e:
                reasons[i] = (
                    f"skipped as upstream: the answer {answers[i]!r} ({type(e).__name__})"
                )
                continue
            gts.setdefault(cats[i], []).extend(gt)
            outs.setdefault(cats[i], []).extend(lab)
            total[cats[i]] = total.get(cats[i], 0) + 1
            extracted[i] = str(lab)
            scores[i] = (
                sum(1 for a, b in zip(gt, lab) if a == b) / len(gt) if gt else None
            )
            status[i] = "ok"
            reasons[i] = f"labels {lab} vs {gt}"
        try:
            for cat, count_rows in total.items():
                if gts[cat]:
                    f_pos, f_neg, f_w = f1_scores(outs[cat], gts[cat])
                else:
                    f_pos = f_neg = f_w = 0.0
                results[f"{cat}_F1_pos"], results[f"{cat}_F1_neg"] = f_pos, f_neg
                results[f"{cat}_F1_weighted"], results[f"{cat}_count"] = f_w, count_rows
            all_gt = [x for c in total for x in gts[c]]
            all_out = [x for c in total for x in outs[c]]
            f_pos, f_neg, f_w = (
                f1_scores(all_out, all_gt) if all_gt else (0.0, 0.0, 0.0)
            )
            results["Overall_F1_pos"], results["Overall_F1_neg"] = f_pos, f_neg
            results["Overall_F1_weighted"], results["Overall_count"] = (
                f_w,
                sum(total.values()),
            )
        except ValueError as e:
            error = f"step rows: {e} (no report)"
    elif step:
        for i in step:
            reasons[i] = "skipped as upstream: no 'answer' column"

    ms = [i for i in range(n) if cats[i] == "multi_solution"]
    if ms:
        if "index" not in frame.columns:
            raise ValueError("vlrmbench: multi_solution rows need an 'index' column")
        _, icells = pandas_column(frame["index"])
        idx = icells.to_list()
        orders = (
            pandas_column(frame["order"])[1].to_list()
            if "order" in frame.columns
            else None
        )
        keys = sorted({idx[i] for i in ms})
        first = {}
        for i in ms:
            first.setdefault(idx[i], i)
        acc = count = skipped = 0
        for k in range(0, len(keys), 2):
            if k + 1 >= len(keys):
                skipped += 1
                reasons[first[keys[k]]] = (
                    "skipped as upstream: the odd last index has no pair"
                )
                continue
            f, b = first[keys[k]], first[keys[k + 1]]
            if orders is not None and (orders[f] != "front" or orders[b] != "back"):
                skipped += 1
                reasons[f] = reasons[b] = (
                    "skipped as upstream: order is not front / back"
                )
                continue
            fs, bs = ms_scores(str(preds[f])), ms_scores(str(preds[b]))
            ok = fs[0] + bs[1] > fs[1] + bs[0]
            acc += ok
            count += 1
            extracted[f], extracted[b] = str(fs), str(bs)
            status[f], status[b] = "paired", "ok"
            scores[b] = 1.0 if ok else 0.0
            reasons[f] = reasons[b] = (
                f"front {fs} back {bs}: {'right' if ok else 'wrong'}"
            )
        for i in ms:
            if not reasons[i]:
                reasons[i] = "skipped: a later row of an index already paired"
        results["multi_solution_accuracy"] = acc / count if count > 0 else 0.0
        results["multi_solution_count"] = count
        results["multi_solution_skipped"] = skipped

    fs_rows = [i for i in range(n) if cats[i] == "foresight"]
    if fs_rows:
        if "task_gt" not in frame.columns:
            raise ValueError("vlrmbench: foresight rows need a 'task_gt' column")
        # the cells as text: pandas never holds Python bools here (numpy bools / floats)
        tgt = frame["task_gt"].cast(pl.String).to_list()
        acc = count = skipped = 0
        for i in fs_rows:
            p = preds[i]
            t = _as_bool(tgt[i])
            if t is not None and not isinstance(p, str):
                skipped += 1
                reasons[i] = (
                    "skipped as upstream: the prediction is not text (re.search TypeError)"
                )
                continue
            ok = bool(t is True and _YES.search(p)) or bool(
                t is False and _NO.search(p)
            )
            acc += ok
            count += 1
            scores[i] = 1.0 if ok else 0.0
            status[i] = "ok"
            reasons[i] = f"task_gt {tgt[i]!r}: {'right' if ok else 'wrong'}" + (
                ""
                if t is not None
                else " (not a Python bool: upstream's `is True` / `is False` never holds)"
            )
        results["foresight_accuracy"] = acc / count if count > 0 else 0.0
        results["foresight_count"] = count
        results["foresight_skipped"] = skipped

    if error is not None:
        results = {}
    report = (
        pl.DataFrame(
            [results],
            schema={
                k: (pl.Int64 if k.endswith(("_count", "_skipped")) else pl.Float64)
                for k in results
            },
        )
        if results
        else pl.DataFrame()
    )
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    headline = next(
        (
            k
            for k in (
                "Overall_F1_weighted",
                "multi_solution_accuracy",
                "foresight_accuracy",
            )
            if k in results
        ),
        None,
    )
    decided = status.count("ok")
    stats: dict[str, Any] = {
        "benchmark": "vlrmbench",
        "variant": "classic",
        "rows": n,
        "tasks": decided,
        "correct": float(sum(s for s in scores if s is not None)),
        "accuracy": results.get(headline) if headline else None,
        "decided": {"rules": decided, "recorded": 0, "live": 0, "undecided": 0},
        "decided_unit": "rows",
        "method": "rules (step-label F1; multi-solution pair scores; foresight yes/no)",
        "archive_method": None,
        "matches_archive": True,
        "flags": {"skipped": status.count("skipped")} if "skipped" in status else {},
        "status": dict(sorted(rows.group_by("status").len().iter_rows())),
        "judge": False,
        "reference_error": error,
    }
    return GradeResult(rows=rows, report=report, stats=stats)
