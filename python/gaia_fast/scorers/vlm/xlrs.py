"""XLRS-Bench-lite (XLRSBench): the option letters of each prediction (a judge's, replayed
from the archive's cache, or ``extract_characters_regex``) against ``answer`` as sets;
accuracy per ``category/l2-category``, their mean and the overall rate.

Reference: open-compass/VLMEvalKit ``XLRSBench`` (``vlmeval/dataset/image_mcq.py``):

* ``extract_characters_regex(s)``: strip, remove the answer prefixes, ``""`` when no capital
  A-E is left; else the letters of ``(x)``, else of ``(?:^|\\s)?([a-eA-E])(?:$|[\\s,.])?``,
  else any a-e / A-E, upper-cased, as a set;
* a row is right when ``set(letters) == set(answer)`` (``answer`` as pandas read it: a
  number or a missing answer raises TypeError upstream: no report);
* the report (``{stem}_acc.csv``): a column per ``f"{category}/{l2-category}"`` (sorted), then
  ``Overall macro`` (``DataFrame.mean(axis=1)``: NumPy's pairwise sum of the task accuracies
  over their count) and ``Overall micro`` (right rows / rows).

Variants:

* ``2025-06`` (8d23166a, 2025-06-21): the regex on the prediction as pandas read it (a missing
  prediction is NaN: ``.strip()`` raises AttributeError upstream, no report);
* ``2025-06b`` (08fd70d9, 2025-06-26): the regex on ``str()`` of each prediction;
* ``2026-03`` (f8e2bc1a, 2026-03-18, to head): with a judge (run.py's default) the judge maps
  *every* row's prediction to letters (its reply's ASCII letters, case kept); without one the
  regex. Both are kept in a cache ``index -> {pred, processed_pred}`` keyed by *row position*
  and re-used for the rows it holds: ``{stem}_{model}_result.pkl`` literally until a9343a1e
  (2026-04-09), then ``{stem}_{str(judge)}_result.pkl`` (``_None_result.pkl`` without a judge,
  ``_<...Wrapper object at 0x..>_result.pkl`` with one). This module replays that cache
  (``recorded=``, found by :func:`gaia_fast.scorers.vlm.recorded.find_records`); rows it
  lacks get the regex when the cache is the no-judge one (as upstream), else ``needs_judge``
  (no report). With no cache at all every row needs a judge, unless ``judge_policy="none"``
  (the regex, as a run without a judge).
"""

from __future__ import annotations

import math
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str
from gaia_fast.scorers.vlm._replay import check_replay_args, disagreement_keys, method_keys, records_summary, status_counts
from gaia_fast.scorers.vlm.mcq_reports import numpy_sum
from gaia_fast.scorers.vlm.recorded import Records

#: The judge records this family replays (the ``{stem}_{J}_result.pkl`` cache): the executor
#: passes ``find_records(path, RECORD_KIND)`` as ``recorded=``.
RECORD_KIND = "xlrs"

__all__ = ["NO_JUDGE", "VARIANTS", "extract_characters_regex", "grade"]

VARIANTS = ("2025-06", "2025-06b", "2026-03")
#: The judge part of the cache's name when the run had no judge (``str(None)``).
NO_JUDGE = "None"

_PREFIXES = (
    "The best answer is",
    "The correct answer is",
    "The answer is",
    "The answer",
    "The best option isThe correct option is",
    "Best answer:Best option:",
)


def extract_characters_regex(s: Any) -> str:
    """``XLRSBench.extract_characters_regex``: the option letters found, upper-cased, each
    once (sorted here; upstream joins a set, whose order does not matter to the set compare).
    AttributeError for a non-text (as upstream's ``.strip()``)."""
    if type(s) is dict:
        s = ""
    s = s.strip()
    for prefix in _PREFIXES:
        s = s.replace(prefix, "")
    if not re.search("[ABCDE]", s):
        return ""
    matches = re.findall(r"\(([a-eA-E])\)", s)
    if not matches:
        matches = re.findall(r"(?:^|\s)?([a-eA-E])(?:$|[\s,.])?", s)
    if not matches:
        matches = re.findall(r"[a-eA-E]", s)
    return "".join(sorted({m.upper() for m in matches}))


def _cells(series: pl.Series) -> list[Any]:
    kind, cells = pandas_column(series)
    values = cells.to_list()
    return [math.nan if v is None else v for v in values] if kind == "object" else values


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
) -> GradeResult:
    """Grade an XLRS-Bench-lite result table (``category``, ``l2-category``, ``answer``,
    ``prediction``). ``rows``: the input plus ``letters`` (the letters compared), ``score``,
    ``status`` (``ok``, ``needs_judge``, ``error``, ``unchecked``), ``reason`` and
    ``decided_by`` (``recorded``, ``rules``). ``report``: upstream's one-row table, empty
    while a row is undecided or where upstream raised."""
    frame = _check_frame(frame)
    check_replay_args(judge_policy, recorded)
    if judge is not None:
        raise ValueError("xlrs: live judging is not supported; rows without a recorded judge reply are needs_judge")
    variant = variant or "2026-03"
    if variant not in VARIANTS:
        raise ValueError(f"xlrs: unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    for name in ("category", "l2-category", "answer", "prediction"):
        if name not in frame.columns:
            raise ValueError(f"xlrs: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    preds = _cells(frame["prediction"]) if variant == "2025-06" else pandas_str(frame["prediction"]).to_list()
    texts = pandas_str(frame["prediction"]).to_list()
    answers = _cells(frame["answer"])
    tasks = [f"{c}/{l2}" for c, l2 in zip(pandas_str(frame["category"]).to_list(), pandas_str(frame["l2-category"]).to_list())]
    judged_era = variant == "2026-03"
    use = recorded if (judged_era and judge_policy == "auto" and recorded is not None and recorded.files) else None
    no_judge_cache = use is not None and use.judge == NO_JUDGE
    letters: list[str | None] = [None] * n
    scores: list[float | None] = [None] * n
    status = ["unchecked"] * n
    reasons = ["not checked: VLMEvalKit stopped at an earlier row"] * n
    by: list[str | None] = [None] * n
    stale = 0
    error: str | None = None
    for i in range(n):
        rec = use.entries.get(str(i)) if use is not None else None
        if rec is not None and "processed_pred" in rec:
            got, by[i] = str(rec["processed_pred"]), "recorded"
            if rec.get("pred") is not None and str(rec["pred"]) != texts[i]:
                stale += 1  # a cache of another run's predictions: upstream used it all the same
            how = f"recorded {'regex' if no_judge_cache else 'judge'} letters {got!r}"
        elif not judged_era or no_judge_cache or judge_policy == "none":
            try:
                got = extract_characters_regex(preds[i])
            except AttributeError as e:
                error = f"row {i + 1}: prediction {preds[i]!r} is not text: AttributeError upstream ({e}) (no report)"
                status[i], reasons[i] = "error", error
                break
            by[i], how = "rules", f"regex letters {got!r}"
        else:
            status[i] = "needs_judge"
            reasons[i] = "needs_judge: no recorded judge letters for this row position" + (
                "" if use is not None else " (no judge cache beside the file)"
            )
            continue
        letters[i] = got
        answer = answers[i]
        try:
            hit = set(got) == set(answer)
        except TypeError as e:
            error = f"row {i + 1}: answer {answer!r} is not text: TypeError upstream ({e}) (no report)"
            status[i], reasons[i] = "error", error
            break
        scores[i], status[i] = (1.0 if hit else 0.0), "ok"
        reasons[i] = f"{'right' if hit else 'wrong'}: {how} vs answer {answer!r}"
    undecided = status.count("needs_judge")
    report = pl.DataFrame()
    per_task: dict[str, list[int]] = {}
    if error is None and undecided == 0:
        for i in range(n):
            tally = per_task.setdefault(tasks[i], [0, 0])
            tally[0] += int(scores[i] == 1.0)
            tally[1] += 1
        if n:
            values = {t: c / total for t, (c, total) in sorted(per_task.items())}
            accs = list(values.values())
            values["Overall macro"] = numpy_sum(accs) / len(accs)
            values["Overall micro"] = sum(c for c, _ in per_task.values()) / n
            report = pl.DataFrame([values], schema={k: pl.Float64 for k in values})
    rows = frame.with_columns(
        pl.Series("letters", letters, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
        pl.Series("decided_by", by, pl.String),
    )
    n_rec, n_rules = by.count("recorded"), by.count("rules")
    decided_ok = [i for i in range(n) if status[i] == "ok"]
    correct = sum(scores[i] for i in decided_ok)  # type: ignore[misc]
    has_files = recorded is not None and bool(recorded.files)
    archive_method = None
    if has_files and judged_era:
        archive_method = "exact_matching (regex)" if recorded.judge == NO_JUDGE else f"judge {recorded.judge}"  # type: ignore[union-attr]
    parts = []
    if n_rec:
        parts.append(f"recorded {'regex' if no_judge_cache else 'judge'} letters ({n_rec} rows)")
    if n_rules:
        parts.append(f"rules (extract_characters_regex, {n_rules} rows)")
    if undecided:
        parts.append(f"{undecided} rows undecided (needs_judge)")
    stats: dict[str, Any] = {
        "benchmark": "xlrs",
        "variant": variant,
        "rows": n,
        "tasks": len(decided_ok),
        "correct": float(correct),
        "accuracy": correct / len(decided_ok) if decided_ok else math.nan,
        **method_keys(
            {"rules": n_rules, "recorded": n_rec, "live": 0, "undecided": undecided},
            " + ".join(parts) or "no rows",
            judge_policy,
            archive_method,
            archive_method is not None and judge_policy == "auto" and undecided == 0 and error is None,
        ),
        **disagreement_keys("stale_records", stale),
        "status": status_counts(rows),
        "judge": False,
        "reference_error": error,
    }
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return GradeResult(rows=rows, report=report, stats=stats)
