"""VLMs are Blind (VLMBlind): per-task rules on ``prediction`` and ``answers``, accuracy per
task (``VLMBlind.evaluate``).

Reference: open-compass/VLMEvalKit ``VLMBlind`` (``vlmeval/dataset/image_mcq.py``; its
helpers ``extract_content_in_braces`` / ``compare_string_with_values`` unchanged from
a3793ee0 to head e8e78f05). ``evaluate`` walks ``data.iterrows()`` of ``load(eval_file)``
and compares the cells *as pandas loaded them*, with no ``str()``:

* a column whose every non-missing cell reads as a number is numbers (int64, or float64
  when a cell is missing), of only True/False words booleans, else texts with NaN for a
  missing cell (``pd.read_csv(sep='\\t')`` and ``pd.read_excel`` infer the same way:
  ``_pandas.pandas_column``);
* brace tasks (Subway Connections, Nested Squares, Line Plot Intersections, Circled Letter):
  the first ``\\{(.*?)\\}`` of the prediction (``""`` when none) ``==`` the answer: a number
  answer is never equal to that text;
* Touching Circles: ``str.lower(answers) in str.lower(prediction)``;
* Counting Grid - Word / Blank Grids (and Touchdown Reading in 2025-09):
  ``compare_string_with_values``: the answer split on ``,`` into exactly two ``int()``\\ s
  (else False: a number answer has no ``split``), then ``rows ... {r}`` and ``columns ... {c}``,
  else ``(r, c)`` in the prediction;
* Olympic Counting - Pentagons / Circles: ``answers in prediction``;
* a row of any other task counts in its task's total and is never right.

Where upstream's operation raises (``re.search`` / ``str.lower`` / ``in`` on a number or a
missing cell; ``sorted`` of task names of mixed types) VLMEvalKit crashed and wrote no
report: that row gets status ``error``, the rows after it ``unchecked``, and
``stats["reference_error"]`` names it. A missing ``task`` is an error too (upstream keys its
tally on the NaN object, whose identity across rows pandas does not fix).

Variants:

* ``2025-05`` (a3793ee0, 2025-05-27): every task above; tasks in the order first seen; the
  report is the returned one-row table (no file written);
* ``2025-05b`` (caca0bc9, 2025-05-28): plus an ``overall`` column, the mean of the tasks;
* ``2025-09`` (9cc14cd0, 2025-09-12): only the three first brace tasks and Touchdown Reading
  (``compare_string_with_values``); tasks sorted; ``{stem}_acc.csv``;
* ``2025-11`` (9a640240, 2025-11-27, to head): every task of 2025-05 again; tasks sorted;
  ``{stem}_acc.csv``.

Caveat: gaia-fast reads spreadsheet cells as text, so a hand-edited ``.xlsx`` whose column
mixes text cells with number cells is seen as all text (pandas keeps each number cell a
number there). VLMEvalKit's own dump writes one type per column, so its files are exact.
"""

from __future__ import annotations

import math
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column
from gaia_fast.scorers.vlm._replay import rules_only_stats
from gaia_fast.scorers.vlm.mcq_reports import numpy_sum

__all__ = ["VARIANTS", "compare_string_with_values", "extract_content_in_braces", "grade", "rule_of"]

VARIANTS = ("2025-05", "2025-05b", "2025-09", "2025-11")

_BRACES = ("Subway Connections", "Nested Squares", "Line Plot Intersections")
_GRIDS = ("Counting Grid - Word Grids", "Counting Grid - Blank Grids")
_OLYMPIC = ("Olympic Counting - Pentagons", "Olympic Counting - Circles")


def rule_of(task: Any, variant: str) -> str | None:
    """The rule ``evaluate``'s if-chain applies to ``task`` (``braces``, ``lower_in``,
    ``grid``, ``in``), None for a task it has no branch for."""
    if variant == "2025-09":
        table = {**dict.fromkeys(_BRACES, "braces"), "Touchdown Reading": "grid"}
    else:
        table = {
            **dict.fromkeys(_BRACES, "braces"),
            "Touching Circles": "lower_in",
            **dict.fromkeys(_GRIDS, "grid"),
            **dict.fromkeys(_OLYMPIC, "in"),
            "Circled Letter": "braces",
        }
    return table.get(task) if isinstance(task, str) else None


def extract_content_in_braces(text: Any) -> str:
    """``VLMBlind.extract_content_in_braces``: the first ``{...}``'s content, else ``""``
    (TypeError for a non-text, as ``re.search``)."""
    m = re.search(r"\{(.*?)\}", text)
    return m.group(1) if m else ""


def compare_string_with_values(text: Any, target: Any) -> bool:
    """``VLMBlind.compare_string_with_values(prediction, answers)``."""
    try:
        nums = [int(x.strip()) for x in target.split(",")]
        if len(nums) != 2:
            return False
    except Exception:  # noqa: BLE001 - upstream's bare except: any parse failure is False
        return False
    rows = re.search(r"[Rr]ows?(?:[^{}]*)\{(\d+)\}", text)
    cols = re.search(r"[Cc]olumns?(?:[^{}]*)\{(\d+)\}", text)
    if rows and cols:
        return [int(rows.group(1)), int(cols.group(1))] == nums
    pair = re.search(r"\((\d+),\s*(\d+)\)", text)
    if pair:
        return [int(pair.group(1)), int(pair.group(2))] == nums
    return False


def _right(rule: str, pred: Any, answer: Any) -> bool:
    if rule == "braces":
        return extract_content_in_braces(pred) == answer
    if rule == "lower_in":
        return str.lower(answer) in str.lower(pred)
    if rule == "grid":
        return compare_string_with_values(pred, answer)
    return answer in pred


def _cells(frame: pl.DataFrame, name: str) -> list[Any]:
    """The column's cells as pandas holds them (NaN for a missing text cell)."""
    kind, cells = pandas_column(frame[name])
    values = cells.to_list()
    return [math.nan if v is None else v for v in values] if kind == "object" else values


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a VLMBlind result table (``task``, ``answers``, ``prediction``). Rules only.
    ``rows``: the input plus ``rule``, ``score``, ``status`` (``ok``, ``error``,
    ``unchecked``) and ``reason``. ``report``: one row, a column per task (and ``overall``
    in 2025-05b)."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("vlmblind is graded by rules only; it takes no judge")
    variant = variant or "2025-11"
    if variant not in VARIANTS:
        raise ValueError(f"vlmblind: unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    for name in ("task", "answers", "prediction"):
        if name not in frame.columns:
            raise ValueError(f"vlmblind: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    tasks, answers, preds = _cells(frame, "task"), _cells(frame, "answers"), _cells(frame, "prediction")
    rules: list[str | None] = [None] * n
    scores: list[float | None] = [None] * n
    status = ["unchecked"] * n
    reasons = ["not checked: VLMEvalKit stopped at an earlier row"] * n
    stats_by_task: dict[Any, list[int]] = {}
    error: str | None = None
    for i in range(n):
        task, pred, answer = tasks[i], preds[i], answers[i]
        if isinstance(task, float) and math.isnan(task):
            error = f"row {i + 1}: no task (NaN): upstream tallies it under the NaN object, not reproducible (no report)"
            status[i], reasons[i] = "error", error
            break
        tally = stats_by_task.setdefault(task, [0, 0])
        tally[1] += 1
        rule = rule_of(task, variant)
        rules[i] = rule
        if rule is None:
            scores[i], status[i] = 0.0, "ok"
            reasons[i] = f"task {task!r} has no rule in this version: counted, never right"
            continue
        try:
            ok = _right(rule, pred, answer)
        except Exception as e:  # noqa: BLE001 - upstream raised here: no report
            error = (
                f"row {i + 1}: {rule} rule on prediction {pred!r} ({type(pred).__name__}) and answers {answer!r} "
                f"({type(answer).__name__}): {type(e).__name__} upstream (no report)"
            )
            status[i], reasons[i] = "error", error
            break
        tally[0] += int(ok)
        scores[i], status[i] = (1.0 if ok else 0.0), "ok"
        reasons[i] = f"{'right' if ok else 'wrong'} ({rule}): answers {answer!r}"
    report = pl.DataFrame()
    if error is None:
        items = list(stats_by_task.items())
        if variant in ("2025-09", "2025-11"):
            try:
                items = sorted(items)
            except TypeError:
                error = "task names of mixed types cannot be sorted: TypeError upstream (no report)"
        if error is None and items:
            values = {str(t): c / total for t, (c, total) in items}
            if variant == "2025-05b":
                # DataFrame.mean(axis=1) of the one row: NumPy's pairwise sum over the count
                values["overall"] = numpy_sum(list(values.values())) / len(values)
            report = pl.DataFrame([values], schema={k: pl.Float64 for k in values})
    rows = frame.with_columns(
        pl.Series("rule", rules, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    done = error is None
    correct = sum(c for c, _ in stats_by_task.values())
    total = sum(t for _, t in stats_by_task.values())
    stats = rules_only_stats(
        "vlmblind",
        variant,
        rows,
        input_rows=n,
        tasks=total if done else 0,
        correct=correct if done else 0,
        accuracy=(correct / total if total else None) if done else None,
        unit=None,
        method="rules (VLMBlind per-task regex / containment on the cells as pandas reads them)",
        flags={"no_rule": sum(1 for i in range(n) if status[i] == "ok" and rules[i] is None)},
        reference_error=error,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
