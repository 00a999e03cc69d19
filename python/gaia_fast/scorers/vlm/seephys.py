"""SeePhys / SeePhys_vo: ``eval_acc`` from the archive's recorded judge scores, with
``post_check``'s rules (``extract_by_rule``, text equality, SymPy ``parse_latex`` +
``quick_compare``) re-run on every row. Laid out as extract -> score -> aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/utils/seephys.py`` (``extract_by_rule``,
``quick_compare``, ``post_check``, ``extract``, ``eval_acc``) and ``SeePhys.evaluate`` in
``vlmeval/dataset/image_vqa.py``; added in d3c0d500 (2025-07-11); 3e6e839e (2026-02-20)
and 401916c0 (2026-03-25) did not change these functions' behaviour; head e8e78f05.

``extract`` (per row, at judging time) calls ``post_check``; when it holds the row is
``Prefetch succeed`` with score 1, else the judge extracts an answer and scores it (0 / 1,
-1 when scoring failed). ``{stem}_{J}.xlsx`` (rows plus ``extract``, ``log``, ``score``;
``J`` is ``deepseek`` unless another judge was named) and ``{stem}_{J}.pkl`` record that.
``eval_acc`` re-reads the xlsx: a row is a hit when ``post_check`` holds or its recorded
``score == 1``; it is prefetched when ``'Prefetch succeed' in log``. Report
``{stem}_{J}_score.json``: ``Overall`` (``Accuracy (%)``, ``PrefetchRate (%)``) then, per
column of ``level, subject, language, source, vision_relevance, img_category, sig_figs``
the table has, the accuracy per ``str()`` of its values (first-seen order); here a frame of
``key`` (the JSON path joined by ``|``) and ``value``.

A row whose recorded score is 1 is a hit whatever SymPy says (SymPy is not run for it);
a row whose SymPy step overruns the time limit (upstream has none) and whose score is not 1
is ``undecided``; a
row with no record is graded by the rule alone when it holds, else ``needs_judge``.
SymPy's ``parse_latex`` is the installed SymPy's (the run's version is not known); the
stats name it.
"""

from __future__ import annotations

import math
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column
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
from gaia_fast.scorers.vlm.recorded import Records

__all__ = ["KEYS", "PREFETCH_LOG", "VARIANTS", "extract_by_rule", "grade"]

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=``.
RECORD_KIND = "seephys"

VARIANTS = ("classic",)

PREFETCH_LOG = "Prefetch succeed"
#: ``eval_acc``'s breakdown columns, in its order.
KEYS = ("level", "subject", "language", "source", "vision_relevance", "img_category", "sig_figs")
_PATTERNS = (re.compile(r"<answer>\s*(\d+)\s*</answer>"), re.compile(r"the final answer is: (.+?)\."), re.compile(r"The answer is: (.+?)\."))
_LONG_DIGITS = re.compile(r"[\d_]{4000,}")


class _Undecided(Exception):
    pass


def extract_by_rule(prediction: Any) -> str:
    """``extract_by_rule``: the first of the three patterns' group, else ``str(int(x))``,
    else ``str(float(x))``, else ``str(x)`` (``prediction`` as pandas holds the cell)."""
    response = prediction
    if isinstance(response, str):
        for rx in _PATTERNS:
            m = rx.search(response)
            if m:
                return m.group(1)
        if _LONG_DIGITS.search(response):
            raise _Undecided("int() of a text past Python's 4300-digit limit is version-dependent")
    try:
        return str(int(response))
    except Exception:  # noqa: BLE001, S110 - upstream catches everything here
        pass
    try:
        return str(float(response))
    except Exception:  # noqa: BLE001, S110
        pass
    return str(response)


def _values(series: pl.Series) -> list[Any]:
    kind, cells = pandas_column(series.cast(pl.String))
    vals = cells.to_list()
    return [math.nan if v is None else v for v in vals] if kind == "object" else vals


def _score_is_one(value: Any) -> bool:
    """``item['score'] == 1`` of the stored cell (VLMEvalKit stores the ints 1, 0, -1:
    numbers in the xlsx, read back as text here)."""
    if value is None or isinstance(value, bool):
        return False
    try:
        return float(value) == 1
    except (TypeError, ValueError):
        return False


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
    sympy_timeout: float = 30.0,
) -> GradeResult:
    """Grade a SeePhys result table (``index``, ``prediction``, ``answer`` and any of
    :data:`KEYS`). ``recorded``: :func:`gaia_fast.scorers.vlm.recorded.find_records`, kind
    ``"seephys"``. ``judge`` must be None. ``seed`` is unused."""
    frame = _check_frame(frame)
    check_replay_args(judge_policy, recorded)
    if judge is not None:
        raise ValueError("seephys: live judging is not supported; rows without a recorded score are needs_judge")
    if variant not in (None, "classic"):
        raise ValueError(f"seephys has one rule (variant 'classic', from d3c0d500), not {variant!r}")
    for name in ("index", "prediction", "answer"):
        if name not in frame.columns:
            raise ValueError(f"seephys: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    from gaia_fast.math.pool import default_pool
    from gaia_fast.math.seephys import post_check_sympy

    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    n = frame.height
    keys = [k for k in KEYS if k in frame.columns]
    preds = _values(frame["prediction"])
    answers = _values(frame["answer"])
    index = frame["index"].cast(pl.String).to_list()
    key_text = {k: [str(v) for v in _values(frame[k])] for k in keys}
    # Stage 1: the rule's text step; the SymPy step, in workers, for the rows it can change:
    # a recorded score of 1 is a hit whatever post_check says.
    recs = [use.get(index[i]) if use is not None and index[i] is not None else None for i in range(n)]
    rule: list[bool | None] = [None] * n
    why: list[str] = [""] * n
    todo: list[int] = []
    items: list[tuple[Any, Any]] = []
    for i in range(n):
        if recs[i] is not None and _score_is_one(recs[i].get("score")):
            continue
        try:
            res = extract_by_rule(preds[i])
        except _Undecided as e:
            why[i] = str(e)
            continue
        if res == str(answers[i]):
            rule[i], why[i] = True, "equal text"
        else:
            todo.append(i)
            items.append((res, answers[i]))
    timeouts = 0
    sympy_version = None
    if items:
        import sympy

        sympy_version = sympy.__version__
        outcomes = default_pool(sympy_timeout).map(post_check_sympy, items)  # shared: workers start once
        for i, out in zip(todo, outcomes):
            if out.status == "ok":
                rule[i], why[i] = out.value
            elif out.status == "timeout":
                timeouts += 1
                why[i] = f"the SymPy step overran {sympy_timeout:g} s"
            else:
                rule[i], why[i] = False, f"SymPy raised ({out.error})"
    # Stage 2: eval_acc.
    scores: list[float | None] = [None] * n
    status: list[str] = [""] * n
    reasons: list[str] = [""] * n
    out_log: list[str | None] = [None] * n
    routes = {"rules": 0, "recorded": 0, "needs_judge": 0, "error": 0}
    undecided = disagree = 0
    kept: list[tuple[int, bool, bool]] = []
    reference_error = None
    for i in range(n):
        rec = recs[i]
        rec_score = None if rec is None else rec.get("score")
        rec_log = None if rec is None else rec.get("log")
        if rec is not None and rec_log is None:
            status[i], reasons[i] = "error", "error: no log ('Prefetch succeed' in NaN raises TypeError upstream)"
            routes["error"] += 1
            reference_error = reference_error or f"SeePhys: row {i + 2} has no log (TypeError upstream); left out"
            continue
        if rec is not None and _score_is_one(rec_score):
            hit, log = True, str(rec_log)
            if PREFETCH_LOG in log:
                route, reasons[i] = "rules", "rules (recorded prefetch, score 1): right"
            else:
                route, reasons[i] = "recorded", f"{who} scored 1: right"
        elif rule[i]:
            hit, route, reasons[i] = True, "rules", f"rules (post_check: {why[i]}): right"
            log = str(rec_log) if rec is not None else PREFETCH_LOG
            if rec is not None:
                disagree += 1  # the run's post_check did not hold here (it sent the row to the judge)
        elif rec is not None and rule[i] is False:
            hit, route, log = False, "recorded", str(rec_log)
            reasons[i] = f"{who} scored {rec_score!r} and post_check does not hold ({why[i]}): wrong"
            if PREFETCH_LOG in str(rec_log):
                disagree += 1
        elif rule[i] is None:
            status[i], reasons[i] = "undecided", f"undecided: post_check: {why[i]}" + ("" if rec is not None else "; no recorded score")
            undecided += 1
            continue
        else:
            status[i] = "needs_judge"
            w = "--judge none" if judge_policy == "none" else "no recorded score for this index"
            reasons[i] = f"needs_judge: post_check does not hold ({w}); not counted"
            routes["needs_judge"] += 1
            continue
        status[i], scores[i], out_log[i] = "ok", 1.0 if hit else 0.0, log
        routes[route] += 1
        kept.append((i, PREFETCH_LOG in log, hit))
    report = _report(kept, keys, key_text)
    rows = frame.with_columns(
        pl.Series("log", out_log, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    routes_all = dict(routes, needs_judge=routes["needs_judge"] + undecided)
    decided = decided_from_routes(routes_all)
    method = method_line([("rules", decided["rules"], "post_check"), (who, decided["recorded"])], decided["undecided"])
    archive_method = f"rules + judge {recorded.judge}" if has_record_files(recorded) else None
    n_hit = sum(1 for k in kept if k[2])
    stats: dict[str, Any] = {
        "benchmark": "seephys",
        "variant": "classic",
        **tally_keys(n, len(kept), n_hit),
        **method_keys(decided, method, judge_policy, archive_method, replay_matches(archive_method, judge_policy, decided["undecided"], disagree, routes["error"])),
        **disagreement_keys("prefetch_disagreements", disagree),
        "status": status_counts(rows),
        "undecided_rows": undecided,
        "sympy": sympy_version,
        "sympy_timeouts": timeouts,
        "judge": False,
        "crashed_rows": routes["error"],
        "reference_error": reference_error,
    }
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return GradeResult(rows=rows, report=report, stats=stats)


def _report(kept: list[tuple[int, bool, bool]], keys: list[str], key_text: dict[str, list[str]]) -> pl.DataFrame:
    tot = len(kept)
    fetch = sum(1 for _, f, _ in kept if f)
    hits = sum(1 for _, _, h in kept if h)
    out: list[tuple[str, float]] = [
        ("Overall|Accuracy (%)", hits / tot * 100 if tot else 0.0),
        ("Overall|PrefetchRate (%)", fetch / tot * 100 if tot else 0.0),
    ]
    for k in keys:
        t: dict[str, int] = {}
        h: dict[str, int] = {}
        for i, _, hit in kept:
            v = key_text[k][i]
            t[v] = t.get(v, 0) + 1
            h[v] = h.get(v, 0) + int(hit)
        out += [(f"{k}|{v}", h[v] / c * 100) for v, c in t.items()]
    return pl.DataFrame(out, schema={"key": pl.String, "value": pl.Float64}, orient="row")
