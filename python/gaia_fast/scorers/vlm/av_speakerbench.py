"""AV-SpeakerBench (``AVSpeakerBench`` and its 12 frame/modality configurations), laid out as
extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/av_speakerbench.py``
(``_parse_multi_choice_response``, ``AVSpeakerBench.evaluate``), unchanged in substance from
f6c9b257 (2026-03-17, added) to e8e78f05.

Extract: the prefixes ("The best answer is", "Answer:", "☞", ...) removed, a ``<think>…</think>``
block dropped, the inside of the first ``<answer>…</answer>`` taken, stripped, punctuation to
spaces; the first whitespace token that is ``A``–``D`` (either case). No such token: ``A``
(the reference's fallback, so a prediction always has a letter). Score: 1 when it equals the
stripped, uppercased answer; a missing prediction scores 0. Rows sharing an ``index`` all take
the verdict of the last of them (``data.loc[data['index'] == idx, 'score'] = ...``).

Report ``{stem}_rating.json``: ``overall`` (mean × 100) and ``by_task`` (per ``task_id``,
sorted as pandas' groupby sorts, missing ids left out), when there is a ``task_id`` column.
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

__all__ = ["CHOICES", "grade", "parse_choice"]

CHOICES = ("A", "B", "C", "D")
_PREFIXES = (
    "The best answer is", "The correct answer is", "The answer is", "The answer", "The best option is",
    "The correct option is", "Best answer:", "Best option:", "Answer:", "Option:", "The correct answer",
    "The correct option", "Based", "Correct answer", "\u261e", "<|im_end|>",
)  # fmt: skip
_PUNCT = re.compile(r"[.,:!\"'`;\\/?`~@#\$%\^&\*\(\)\[\]\{\}\\|<>\n]")



#: The variants a registry entry may name (one rule from its first version to head).
VARIANTS = ("classic",)

def parse_choice(response: str | None, choices: tuple[str, ...] = CHOICES) -> tuple[str, str]:
    """``_parse_multi_choice_response``: (letter, how) with how ``token`` or ``fallback``."""
    response = response or ""
    for prefix in _PREFIXES:
        response = response.replace(prefix, "")
    think = re.search(r"<think>(.*?)</think>", response, re.DOTALL)
    if think:
        response = response.replace(think.group(0), "")
    tagged = re.search(r"<answer>(.*?)</answer>", response, re.DOTALL)
    if tagged:
        response = tagged.group(1)
    for token in _PUNCT.sub(" ", response.strip()).split():
        if token in choices or token.upper() in choices:
            return token.upper(), "token"
    return (choices[0] if choices else ""), "fallback"


def _sort_key(v: Any) -> tuple[int, Any]:
    return (0, v) if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, str(v))


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a VLMEvalKit AV-SpeakerBench result table.

    ``rows``: every input row plus ``extracted`` (the letter), ``rule`` (``token``,
    ``fallback``, ``missing``), ``score`` (1.0/0.0, after the shared-index overwrite) and
    ``status`` (``ok``; ``shared_index`` where another row's verdict was written over this
    row's). ``report``: the ``_rating.json`` as one row (``by_task`` a struct). No judge.
    """
    frame = _check_frame(frame)
    if variant not in (None, *VARIANTS):
        raise ValueError(f"av-speakerbench: unknown variant {variant!r}; the only one is 'classic'")
    if judge is not None:
        raise ValueError("av-speakerbench: the reference evaluation has no judge step")
    for c in ("index", "prediction"):
        if c not in frame.columns:
            raise ValueError(f"av-speakerbench: the result table has no {c!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    _, pred_cells = pandas_column(frame["prediction"])
    pred_vals = pred_cells.to_list()
    pred_text = pandas_str(frame["prediction"]).to_list()
    answers = pandas_str(frame["answer"]).to_list() if "answer" in frame.columns else [""] * n
    _, idx_cells = pandas_column(frame["index"])
    idx = idx_cells.to_list()

    own: list[float] = []
    extracted: list[str | None] = []
    rules: list[str] = []
    for p, ptxt, a in zip(pred_vals, pred_text, answers):
        if p is None or (isinstance(p, float) and math.isnan(p)):
            own.append(0.0)
            extracted.append(None)
            rules.append("missing")
            continue
        letter, how = parse_choice(ptxt)
        extracted.append(letter)
        rules.append(how)
        own.append(float(letter == a.strip().upper()))
    last: dict[Any, int] = {}
    for i, k in enumerate(idx):
        last[k] = i  # NaN indexes never equal: such a row keeps its own verdict
    scores = [own[last[k]] if not (isinstance(k, float) and math.isnan(k)) else own[i] for i, k in enumerate(idx)]
    status = ["ok" if (isinstance(k, float) and math.isnan(k)) or last[k] == i else "shared_index" for i, k in enumerate(idx)]

    report_row: dict[str, Any] = {"overall": (sum(scores) / n) * 100 if n else 0.0}
    if "task_id" in frame.columns and n:
        _, tasks = pandas_column(frame["task_id"])
        groups: dict[Any, list[float]] = {}
        for t, s in zip(tasks.to_list(), scores):
            if t is None or (isinstance(t, float) and math.isnan(t)):
                continue
            groups.setdefault(t, []).append(s)
        by_task = {str(t): (sum(groups[t]) / len(groups[t])) * 100 for t in sorted(groups, key=_sort_key)}
        if by_task:
            report_row["by_task"] = by_task
    report = pl.DataFrame([report_row])

    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("rule", rules, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
    )
    correct = sum(scores)
    stats: dict[str, Any] = {
        "benchmark": "av-speakerbench",
        "variant": "classic",
        "rows": n,
        "tasks": n,
        "correct": correct,
        "accuracy": correct / n if n else math.nan,
        "rules": dict(sorted(Counter(rules).items())),
        "missing_predictions": rules.count("missing"),
        "reference_error": None,
        "crashed_rows": 0,
    }
    return GradeResult(rows=rows, report=report, stats=stats)
