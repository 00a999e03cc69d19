"""Judge-scored short answers (``ImageShortQADataset``: LiveMMBench, HLE, EMMA, PathVQA,
MMESCI): a judge model says whether each short answer is right; re-grading replays the
verdicts the archive recorded, with VLMEvalKit's rule first where it applies one; laid out as
extract (the recorded ``hit``) -> score -> aggregate (``report_acc``).

Reference: open-compass/VLMEvalKit ``ImageShortQADataset.evaluate`` /
``Comprehensive_auxeval`` (``vlmeval/dataset/image_shortqa.py``, the same from 43af13e0,
2025-02-20, to head e8e78f05). ``prediction`` and ``answer`` are ``str()``-ed (NaN reads
``"nan"``). Per row (no ``g_index`` column):

* a row with option ``A`` (present, not NaN, not empty) and a one-character answer is
  multiple choice (``eval_vanilla``): ``can_infer(prediction, {letter: option})`` first; a
  letter (or ``Z``) decides it (``hit = letter == answer``), else the judge's choice decides
  it (recorded);
* any other row: ``ShortQA_auxeval``, the judge's yes/no verdict (recorded; ``0`` with log
  ``Fail to Judge`` after three unreadable replies).

The verdicts are recorded in ``{stem}_judge.xlsx`` (the rows plus ``hit`` and ``log``) and
``{stem}_tmp.pkl`` (``index -> {"hit", "log"}``); the report ``{stem}_acc.csv`` is
``report_acc`` of the ``_judge`` table (splits sorted here; upstream lists them in ``set``
order). Files with ``g_index`` (``LiveMMBench_Reasoning_circular``): the main rows
(``index == g_index``) only; each group of two or more rows goes through
``eval_circular_group``: ``prefetch_circular_group`` (``can_infer`` on every rotation: a
rotation read as another letter fails the question, all read right pass it) and the judge
for the rest (recorded under the main index); a group of one row is a plain row.

Variants are ``can_infer``'s versions (``classic``, ``2025-08``, ``2026-06``; by date in the
registry).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import PANDAS_NA
from gaia_fast.scorers.vlm._replay import (
    check_replay_args,
    decided_from_routes,
    disagreement_keys,
    has_record_files,
    judge_label,
    method_keys,
    method_line,
    records_summary,
    replay_matches,
    status_counts,
    tally_keys,
)
from gaia_fast.scorers.vlm.mcq import _column_map, _report_acc, can_infer
from gaia_fast.scorers.vlm.recorded import Records

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=``.
RECORD_KIND = "shortqa"

__all__ = ["VARIANTS", "grade"]

VARIANTS = ("classic", "2025-08", "2026-06")
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_NA = frozenset(PANDAS_NA)


def _str(value: str | None) -> str:
    """``str()`` of a cell as pandas loads it (missing and the NA words: ``"nan"``)."""
    return "nan" if value is None or value in _NA else value


def _hit(value: Any) -> int | None:
    """A recorded ``hit`` (0/1, as int, float or text), or None when it is not one."""
    text = str(value).strip()
    try:
        number = float(text)
    except ValueError:
        return None
    return int(number) if number in (0.0, 1.0) else None


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
) -> GradeResult:
    """Grade an ``ImageShortQADataset`` result table (``index``, ``answer``,
    ``prediction``; options ``A``.. for multiple-choice rows; ``split``, ``category``,
    ``l2-category`` for the report).

    ``recorded``: :func:`gaia_fast.scorers.vlm.recorded.find_records` (``kind="shortqa"``).
    Rows the rule does not decide take their recorded ``hit``; without one they are
    ``needs_judge`` (left out of the report). ``judge_policy="none"``: only the rule's rows
    are graded. Live judging is not supported. ``rows``: every input row plus ``extracted``
    (the letter the rule read, or the recorded verdict), ``score``, ``status``, ``reason``.
    ``report``: ``report_acc``. ``stats``: ``decided``, ``method``, ``archive_method``,
    ``matches_archive``, ``record_disagreements`` (rule rows whose recorded ``hit`` says
    otherwise). ``seed`` is unused.
    """
    frame = _check_frame(frame)
    check_replay_args(judge_policy, recorded)
    if judge is not None:
        raise ValueError("shortqa: live judging is not supported (ShortQA_prompt is not ported); rows without a recorded verdict are needs_judge")
    variant = "classic" if variant is None else variant
    if variant not in VARIANTS:
        raise ValueError(f"unknown can_infer variant {variant!r} for shortqa; expected one of {', '.join(map(repr, VARIANTS))}")
    cols = _column_map(frame, lower=False)
    for name in ("index", "answer", "prediction"):
        if name not in cols:
            raise ValueError(f"shortqa: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    letters = [ch for ch in _LETTERS if ch in cols]
    if "g_index" in cols:
        return _grade_circular(frame, cols, letters, variant, recorded, judge_policy)
    text = frame.select(pl.col(cols[c]).cast(pl.String).alias(c) for c in ("index", "answer", "prediction", *letters))
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    extracted: list[str | None] = []
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    routes = {"rules": 0, "recorded": 0, "needs_judge": 0}
    disagree = 0
    for line in text.iter_rows(named=True):
        answer, pred = _str(line["answer"]), _str(line["prediction"])
        choices = {ch: line[ch] for ch in letters if line[ch] is not None and line[ch] not in _NA}
        mcq_row = "A" in choices and choices["A"] != "" and len(answer) == 1
        rec = use.get(line["index"]) if use is not None and line["index"] is not None else None
        rec_hit = None if rec is None else _hit(rec.get("hit"))
        if mcq_row:
            letter = can_infer(pred, choices, variant)
            if letter is not None:
                hit = int(letter == answer)
                extracted.append(letter)
                scores.append(float(hit))
                status.append("ok")
                reasons.append(f"rules ({variant} can_infer): {letter}, " + ("right" if hit else f"wrong (answer {answer})"))
                routes["rules"] += 1
                disagree += rec_hit is not None and rec_hit != hit
                continue
        if rec_hit is not None:
            extracted.append(str(rec_hit))
            scores.append(float(rec_hit))
            status.append("ok")
            kind = "the judge's choice" if mcq_row else "the judge's verdict"
            log = rec.get("log")
            reasons.append(f"{who}: {kind}, hit {rec_hit}" + (f" ({str(log).strip()[:120]!r})" if log is not None and str(log).strip() else ""))
            routes["recorded"] += 1
            continue
        extracted.append(None)
        scores.append(None)
        if rec is not None and rec.get("hit") is not None:
            status.append("error")
            reasons.append(f"error: the recorded hit {rec.get('hit')!r} is not 0 or 1; not counted")
            continue
        status.append("needs_judge")
        why = "--judge none" if judge_policy == "none" else "no recorded verdict for this index"
        reasons.append(f"needs_judge: {why}; not counted")
        routes["needs_judge"] += 1
    score = pl.Series("score", scores, pl.Float64)
    keep = score.is_not_null()
    report, report_error = _report_acc(frame, cols, score.fill_null(0), keep)
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        score,
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    decided = decided_from_routes(routes)
    method = method_line([("rules", decided["rules"], f"{variant} can_infer"), (who, decided["recorded"])], decided["undecided"])
    archive_method = "rules + recorded judge (_judge / _tmp)" if has_record_files(recorded) else None
    n_ok = int(keep.sum())
    correct = float(score.drop_nulls().sum()) if n_ok else 0.0
    errors = status.count("error")
    stats: dict[str, Any] = {
        "benchmark": "shortqa",
        "variant": variant,
        **tally_keys(frame.height, n_ok, correct),
        **method_keys(decided, method, judge_policy, archive_method, replay_matches(archive_method, judge_policy, decided["undecided"], disagree, errors)),
        **disagreement_keys("record_disagreements", disagree),
        "status": status_counts(rows),
        "judge": False,
        "crashed_rows": errors,
        "reference_error": report_error,
    }
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return GradeResult(rows=rows, report=report, stats=stats)


def _grade_circular(
    frame: pl.DataFrame, cols: dict[str, str], letters: list[str], variant: str, recorded: Records | None, judge_policy: str
) -> GradeResult:
    """``ImageShortQADataset.evaluate`` with ``g_index``: one verdict per main row's group."""
    text = frame.select(pl.col(cols[c]).cast(pl.String).alias(c) for c in ("index", "g_index", "answer", "prediction", *letters))
    lines = text.to_dicts()
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    from gaia_fast.scorers.vlm.recorded import index_key

    keys = [index_key(r["index"]) for r in lines]
    gkeys = [index_key(r["g_index"]) for r in lines]
    mains = [i for i in range(len(lines)) if keys[i] is not None and keys[i] == gkeys[i]]
    members: dict[str, list[int]] = {}
    for i, g in enumerate(gkeys):
        members.setdefault(g, []).append(i)
    score: list[float | None] = [None] * len(lines)
    status = ["not_counted"] * len(lines)
    reasons = ["not counted: no main row (index == g_index) for this row's g_index; upstream ignores it"] * len(lines)
    extracted: list[str | None] = [None] * len(lines)
    routes = {"rules": 0, "recorded": 0, "needs_judge": 0}
    disagree = 0
    main_ok: list[bool] = [False] * len(lines)
    for m in mains:
        group = members[keys[m]]
        rec = use.get(keys[m]) if use is not None else None
        rec_hit = None if rec is None else _hit(rec.get("hit"))
        verdict: int | None = None
        why = ""
        if len(group) > 1:
            preds = []
            for j, i in enumerate(group):
                line = lines[i]
                choices = {ch: line[ch] for ch in letters if line[ch] is not None and line[ch] not in _NA}
                letter = can_infer(_str(line["prediction"]), choices, variant)
                preds.append(letter)
                if letter is not None and letter != _str(line["answer"]):
                    verdict, why = 0, f"rules ({variant} can_infer): rotation {j} read {letter}, the answer is {_str(line['answer'])}"
                    break
            if verdict is None and all(p is not None and p == _str(lines[i]["answer"]) for p, i in zip(preds, group)):
                verdict, why = 1, f"rules ({variant} can_infer): all {len(group)} rotations read right"
        else:
            line = lines[m]
            answer = _str(line["answer"])
            choices = {ch: line[ch] for ch in letters if line[ch] is not None and line[ch] not in _NA}
            if "A" in choices and choices["A"] != "" and len(answer) == 1:
                letter = can_infer(_str(line["prediction"]), choices, variant)
                if letter is not None:
                    verdict, why = int(letter == answer), f"rules ({variant} can_infer): {letter}, answer {answer}"
        if verdict is not None:
            route = "rules"
            disagree += rec_hit is not None and rec_hit != verdict
        elif rec_hit is not None:
            verdict, route = rec_hit, "recorded"
            why = f"{who}: hit {rec_hit}"
        else:
            route = "needs_judge"
        routes[route] += 1
        for i in group:
            if route == "needs_judge":
                status[i] = "needs_judge"
                reasons[i] = "needs_judge: the rules do not decide this question and there is no recorded verdict; not counted"
            else:
                score[i] = float(verdict)
                status[i] = "ok"
                extracted[i] = str(verdict)
                reasons[i] = f"circular question {keys[m]}: {why}"
        main_ok[m] = route != "needs_judge"
    scores = pl.Series("score", score, pl.Float64)
    keep = pl.Series(main_ok)
    report, report_error = _report_acc(frame, cols, scores.fill_null(0), keep)
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String), scores, pl.Series("status", status, pl.String), pl.Series("reason", reasons, pl.String)
    )
    decided = decided_from_routes(routes)
    method = method_line([("rules", decided["rules"], f"{variant} can_infer"), (who, decided["recorded"])], decided["undecided"], "questions")
    archive_method = "rules + recorded judge (_judge / _tmp)" if has_record_files(recorded) else None
    n = sum(main_ok)
    correct = float(sum(score[i] or 0.0 for i in range(len(lines)) if main_ok[i]))
    stats: dict[str, Any] = {
        "benchmark": "shortqa",
        "variant": variant,
        **tally_keys(frame.height, n, correct),
        **method_keys(decided, method, judge_policy, archive_method, replay_matches(archive_method, judge_policy, decided["undecided"], disagree), "questions"),
        **disagreement_keys("record_disagreements", disagree),
        "status": status_counts(rows),
        "judge": False,
        "crashed_rows": 0,
        "reference_error": report_error,
    }
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return GradeResult(rows=rows, report=report, stats=stats)
