"""Judge-scored VQA (MMVet, LLaVABench): every row's score is a judge model's rating, so
re-grading means replaying the scores the archive recorded, laid out as extract (the
recorded score) -> score -> aggregate (``MMVet_acc``, ``LLaVABench_score``).

LLaVABench (8966cd4d, 2024-01-17, to head): the judge's review of each row is recorded in
``{stem}_openai_result.xlsx`` as ``gpt4_score`` (GPT-4's reference answer) and ``score``
(the model's), both ``-1`` where the review could not be parsed; ``LLaVABench_score`` gives
per split (``overall``, then each category) the relative score ``mean(score) /
mean(gpt4_score) * 100`` and both means ``* 10``, rounded to one decimal
(``DataFrame.round(1)``); the means add as NumPy does (pairwise), reproduced here.

Reference: open-compass/VLMEvalKit. The judge's replies are kept beside the result file
``{stem}.xlsx`` as ``{stem}_{J}.xlsx`` (the rows plus ``score``; from 2023-12-11 also
``log``) and, from 2024, ``{stem}_{J}.pkl`` (``index -> {"score", "log"}``); see
:mod:`gaia_fast.scorers.vlm.recorded`. ``MMVet_acc`` turns them into the report; it
changed once:

* ``2023-12`` (ca3c9b52 "Adding MMVet", 2023-12-06, to 7de60c43, 2023-12-10;
  ``vlmeval/eval/mmvet_eval.py``): the judge's raw reply (``max_tokens=3``) is the
  ``score`` cell and ``float(score)`` reads it (a reply that is not a number raises). The
  report ``{stem}_{J}_score.xlsx`` (``.csv`` from 9304eca5) has a row per capability found
  in ``category`` (``rec``, ``ocr``, ``know``, ``gen``, ``spat``, ``math``, by substring),
  in order of first appearance, with ``Overall`` inserted after the first row's
  capabilities: ``Category, tot, acc`` (``acc`` = summed score / tot * 100).
* ``classic`` (20eb37a8, 2023-12-11, to head ``vlmeval/dataset/utils/mmvet.py``): the
  judge's reply is parsed by ``MMVet_auxeval`` (five tries; 0.0 when none is a number in
  [0, 1]) and ``log`` records the tries. The report lists all six capabilities in that
  fixed order, then ``Overall`` (a capability with no row divides by zero upstream: its
  ``acc`` is null here and ``stats["reference_error"]`` says so); a second table
  (``_score_fine``, ``stats["report_fine"]``) has one row per ``category`` value (commas
  as ``_``) in order of first appearance, then ``Overall``. Upstream keeps both tables'
  counts in one dict, so a row whose whole ``category`` is one capability (``rec``) counts
  twice in that capability's row of the main table (reproduced: on the 2023 instructblip
  archive head reports ``rec`` over 187 rows, ``2023-12`` over 150).

``variant=None`` picks the era from the records: a recorded table without ``log`` (and no
pickle) is ``2023-12``, anything else ``classic``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._replay import (
    check_replay_args,
    decided_from_routes,
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

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=``.
RECORD_KIND = "judged"

__all__ = ["BENCHMARKS", "CAPABILITIES", "VARIANTS", "grade", "judge_prompt"]

BENCHMARKS = {"mmvet": "mmvet", "mmvet_hard": "mmvet", "llavabench": "llavabench"}
VARIANTS = ("2023-12", "classic")
#: ``MMVet_acc``'s capability list (substrings of ``category``), in its order.
CAPABILITIES = ("rec", "ocr", "know", "gen", "spat", "math")

Judge = Callable[[str], str]

_PROMPT = """Compare the ground truth and prediction from AI models, to give a correctness score for the prediction. <AND> in the ground truth means it is totally right only when all elements in the ground truth are present in the prediction, and <OR> means it is totally right when any one element in the ground truth is present in the prediction. The correctness score is 0.0 (totally wrong), 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, or 1.0 (totally right). Just complete the last space of the correctness score.

    Question | Ground truth | Prediction | Correctness
    --- | --- | --- | ---
    What is x in the equation? | -1 <AND> -5 | x = 3 | 0.0
    What is x in the equation? | -1 <AND> -5 | x = -1 | 0.5
    What is x in the equation? | -1 <AND> -5 | x = -5 | 0.5
    What is x in the equation? | -1 <AND> -5 | x = -5 or 5 | 0.5
    What is x in the equation? | -1 <AND> -5 | x = -1 or x = -5 | 1.0
    Can you explain this meme? | This meme is poking fun at the fact that the names of the countries Iceland and Greenland are misleading. Despite its name, Iceland is known for its beautiful green landscapes, while Greenland is mostly covered in ice and snow. The meme is saying that the person has trust issues because the names of these countries do not accurately represent their landscapes. | The meme talks about Iceland and Greenland. It's pointing out that despite their names, Iceland is not very icy and Greenland isn't very green. | 0.4
    Can you explain this meme? | This meme is poking fun at the fact that the names of the countries Iceland and Greenland are misleading. Despite its name, Iceland is known for its beautiful green landscapes, while Greenland is mostly covered in ice and snow. The meme is saying that the person has trust issues because the names of these countries do not accurately represent their landscapes. | The meme is using humor to point out the misleading nature of Iceland's and Greenland's names. Iceland, despite its name, has lush green landscapes while Greenland is mostly covered in ice and snow. The text 'This is why I have trust issues' is a playful way to suggest that these contradictions can lead to distrust or confusion. The humor in this meme is derived from the unexpected contrast between the names of the countries and their actual physical characteristics. | 1.0
    """


def judge_prompt(question: object, answer: object, prediction: object) -> str:
    """``build_mmvet_gpt4_prompt`` for one row (the same text in every version)."""
    gt = str(answer).replace("<AND>", " <AND> ").replace("<OR>", " <OR> ")
    return _PROMPT + "\n" + " | ".join([str(question), gt, str(prediction), ""]) + "\nPredict the correctness of the answer (digit): "


def _py_float(value: Any) -> float | None:
    """Python's ``float(value)`` (text as ``float()`` reads it), None where it raises."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if value is None:
        return math.nan  # an empty cell is NaN in pandas
    try:
        return float(str(value))
    except ValueError:
        return None


def _live_score(judge: Judge, prompt: str) -> tuple[float, str]:
    """``MMVet_auxeval`` (classic): up to five replies, the first number in [0, 1] wins."""
    log = ""
    for i in range(5):
        try:
            out = judge(prompt)
        except Exception as e:  # noqa: BLE001 - a failed call is a failed try, logged
            log += f"Try {i}: judge call failed: {type(e).__name__}: {e}.\n"
            continue
        out = out if isinstance(out, str) else str(out)
        try:
            score = float(out)
        except ValueError:
            log += f"Try {i}: output is {out}, failed to parse.\n"
            continue
        if score < 0 or score > 1:
            log += f"Try {i}: output is {out}, invalid score: {score}.\n"
            continue
        return score, log + "Succeed"
    return 0.0, log + "All 5 retries failed.\n"


def _pairwise_sum(a: list[float], lo: int, n: int) -> float:
    """NumPy's ``pairwise_sum`` of float64 (what ``Series.sum``/``np.mean`` add with): blocks
    of 8 partial sums up to 128 values, halves (multiples of 8) above."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    if n <= 128:
        r = a[lo : lo + 8]
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] += a[lo + i + j]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res += a[lo + i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise_sum(a, lo, n2) + _pairwise_sum(a, lo + n2, n - n2)


def _pandas_mean(values: list[float]) -> float:
    """``Series.mean()`` of float64 values: NaN skipped, the rest summed as NumPy does."""
    kept = [v for v in values if not math.isnan(v)]
    return _pairwise_sum(kept, 0, len(kept)) / len(kept) if kept else math.nan


def _np_round1(v: float) -> float:
    """``DataFrame.round(1)`` (NumPy: ``rint(v * 10) / 10``, ties to even)."""
    return v if not math.isfinite(v) else round(v * 10) / 10


_LLAVA_SCHEMA = {"split": pl.String, "Relative Score (main)": pl.Float64, "VLM Score": pl.Float64, "GPT4 Score": pl.Float64}


def _report_llava(cats: list[str], score: list[float], gpt4: list[float]) -> list[tuple[str, float, float, float]]:
    """``LLaVABench_score(data).round(1)`` (unchanged from 8966cd4d, 2024-01-17, to head):
    ``overall`` then each category (upstream lists them in ``set`` order, which varies
    between runs: sorted here)."""
    out = []
    for c in ["overall", *sorted(set(cats))]:
        idx = [i for i, x in enumerate(cats) if c == "overall" or x == c]
        ms = _pandas_mean([score[i] for i in idx])
        mg = _pandas_mean([gpt4[i] for i in idx])
        rel = ms / mg * 100 if mg != 0 else (math.nan if ms == 0 or math.isnan(ms) else math.copysign(math.inf, ms))
        out.append((c, _np_round1(rel), _np_round1(ms * 10), _np_round1(mg * 10)))
    return out


def _grade_llava(frame: pl.DataFrame, judge_policy: str, recorded: Records | None) -> GradeResult:
    for name in ("index", "category", "prediction"):
        if name not in frame.columns:
            raise ValueError(f"llavabench: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    use = recorded if judge_policy == "auto" else None
    n = frame.height
    idx = frame["index"].cast(pl.String).to_list()
    cats = frame["category"].cast(pl.String).to_list()
    rows_score: list[float | None] = []
    rows_gpt4: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    routes: dict[str, int] = {}
    for i in range(n):
        rec = use.get(idx[i]) if use is not None and idx[i] is not None else None
        pair = None if rec is None else (_py_float(rec.get("score")), _py_float(rec.get("gpt4_score")))
        if pair is None or rec.get("score") is None:
            rows_score.append(None)
            rows_gpt4.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded review for this index"
            reasons.append(f"needs_judge: {why}; not counted")
            routes["needs_judge"] = routes.get("needs_judge", 0) + 1
            continue
        if pair[0] is None or pair[1] is None:
            rows_score.append(None)
            rows_gpt4.append(None)
            status.append("error")
            reasons.append(f"error: the recorded scores {rec.get('score')!r}, {rec.get('gpt4_score')!r} are not numbers")
            routes["error"] = routes.get("error", 0) + 1
            continue
        rows_score.append(pair[0])
        rows_gpt4.append(pair[1])
        status.append("ok")
        note = " (the review could not be parsed upstream: both scores -1)" if pair == (-1.0, -1.0) else ""
        reasons.append(f"recorded judge: the model's answer {pair[0]:g}, GPT-4's reference answer {pair[1]:g}{note}")
        routes["recorded"] = routes.get("recorded", 0) + 1
    kept = [i for i in range(n) if rows_score[i] is not None and cats[i] is not None]
    report = pl.DataFrame(
        _report_llava([cats[i] for i in kept], [rows_score[i] for i in kept], [rows_gpt4[i] for i in kept]),
        schema=_LLAVA_SCHEMA,
        orient="row",
    )
    rows = frame.with_columns(
        pl.Series("extracted", [None if v is None else f"{v:g}" for v in rows_score], pl.String),
        pl.Series("score", rows_score, pl.Float64),
        pl.Series("gpt4_score", rows_gpt4, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    decided = decided_from_routes(routes)
    archive_method = f"judge {recorded.judge}" if has_record_files(recorded) else None
    overall = report.row(0, named=True) if report.height else {}
    # Rows are recorded only when records were given: the label's fallback is never shown.
    method = (
        "no judge (--judge none): LLaVABench has no judge-free policy, every row needs_judge"
        if judge_policy == "none"
        else method_line([(f"recorded judge {'' if recorded is None else recorded.judge}", decided["recorded"])], decided["undecided"])
    )
    stats: dict[str, Any] = {
        "benchmark": "llavabench",
        "variant": "classic",
        "rows": n,
        "tasks": len(kept),
        "accuracy": overall.get("Relative Score (main)", math.nan) / 100 if overall else math.nan,
        **method_keys(decided, method, judge_policy, archive_method, replay_matches(archive_method, judge_policy, decided["undecided"])),
        "flags": {},
        "status": status_counts(rows),
        "judge": False,
        "crashed_rows": routes.get("error", 0),
        "reference_error": (f"{routes['error']} recorded score(s) are not numbers; those rows are left out" if routes.get("error") else None),
    }
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return GradeResult(rows=rows, report=report, stats=stats)


def _report_2023(cats: list[str], grades: list[float]) -> list[tuple[str, int, float]]:
    tot: dict[str, int] = {}
    score: dict[str, float] = {}
    for cate, g in zip(cats, grades):
        for capa in CAPABILITIES:
            if capa in cate:
                tot[capa] = tot.get(capa, 0) + 1
                score[capa] = score.get(capa, 0) + g
        tot["Overall"] = tot.get("Overall", 0) + 1
        score["Overall"] = score.get("Overall", 0) + g
    return [(k, tot[k], score[k] / tot[k] * 100) for k in tot]


def _report_classic(cats: list[str], grades: list[float]) -> tuple[list[tuple[str, int, float | None]], list[tuple[str, int, float | None]], str | None]:
    tot: dict[str, int] = {}
    score: dict[str, float] = {}
    fine: list[str] = []
    for cate, g in zip(cats, grades):
        cate2 = cate.replace(",", "_")
        if cate2 not in fine:
            fine.append(cate2)
        for capa in CAPABILITIES:
            if capa in cate:
                tot[capa] = tot.get(capa, 0) + 1
                score[capa] = score.get(capa, 0) + g
        for k in ("Overall", cate2):
            tot[k] = tot.get(k, 0) + 1
            score[k] = score.get(k, 0) + g
    error = None

    def row(k: str) -> tuple[str, int, float | None]:
        nonlocal error
        if not tot.get(k):
            error = error or f"MMVet_acc: no row has capability {k!r} (ZeroDivisionError upstream)"
            return k, 0, None
        return k, tot[k], score[k] / tot[k] * 100

    main = [row(k) for k in (*CAPABILITIES, "Overall")]
    return main, [row(k) for k in (*fine, "Overall")], error


_REPORT_SCHEMA = {"Category": pl.String, "tot": pl.Int64, "acc": pl.Float64}


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "mmvet",
    variant: str | None = None,
    seed: int = 0,
    judge: Judge | None = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
) -> GradeResult:
    """Grade an MMVet result table (``{model}_MMVet.xlsx``: ``index``, ``question``,
    ``answer``, ``category``, ``prediction``) from the archive's recorded judge scores.

    ``recorded``: :func:`gaia_fast.scorers.vlm.recorded.find_records` of the result file
    (``kind="judged"``; with neither it nor ``judge``, ValueError: nothing can score the
    rows). ``judge_policy="auto"``: each row takes its recorded score; a row
    with no record goes to ``judge`` (prompt -> reply, ``MMVet_auxeval``'s five tries) if
    given, else gets ``status="needs_judge"`` (no score, left out of the report).
    ``judge_policy="none"``: MMVet has no judge-free policy (VLMEvalKit asserts a working
    judge), so every row is ``needs_judge``.

    ``rows``: every input row plus ``extracted`` (the recorded score as the record holds
    it), ``score`` (the float ``MMVet_acc`` adds up), ``status`` (``ok``, ``needs_judge``,
    ``error`` where ``float()`` of the record raises upstream, or ``no_prediction`` /
    ``duplicate_index``) and ``reason``. ``report``: ``Category, tot, acc`` of the variant
    (see the module doc). ``stats``: ``decided``, ``method``, ``archive_method``,
    ``matches_archive``, ``flags``, ``report_fine`` (classic), ``reference_error``.
    ``seed`` is unused (no random draw).
    """
    frame = _check_frame(frame)
    bench = BENCHMARKS.get(benchmark.lower()) if isinstance(benchmark, str) else None
    if bench is None:
        raise ValueError(f"unknown judge-scored benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    check_replay_args(judge_policy, recorded)
    if judge_policy == "auto" and recorded is None and judge is None:
        # Every row is the judge's: with nothing recorded and no judge there is nothing to
        # grade, and an empty result must not pass for a graded one.
        raise ValueError(
            f"{bench}: every row is scored by a judge; pass the archive's recorded scores "
            "(recorded=find_records(result_path)) or a judge"
        )
    if bench == "llavabench":
        if variant not in (None, "classic"):
            raise ValueError(f"llavabench has one report (variant 'classic'), not {variant!r}")
        if judge is not None:
            raise ValueError("llavabench: live judging is not supported (its per-category judge prompts are not ported); "
                             "rows without a recorded review are needs_judge")
        return _grade_llava(frame, judge_policy, recorded)
    if variant is None:
        era_2023 = recorded is not None and recorded.files and not any(p.suffix == ".pkl" for p in recorded.files)
        era_2023 = bool(era_2023) and "log" not in {c.lower() for c in recorded.columns}
        variant = "2023-12" if era_2023 else "classic"
    if variant not in VARIANTS:
        raise ValueError(f"unknown MMVet variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")
    for name in ("index", "category", "prediction"):
        if name not in frame.columns:
            raise ValueError(f"{bench}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    if judge_policy == "none":
        judge, use = None, None
    else:
        use = recorded
    n = frame.height
    idx = frame["index"].cast(pl.String).to_list()
    cats = frame["category"].cast(pl.String).to_list()
    preds = frame["prediction"].cast(pl.String)
    who = judge_label(recorded)
    extracted: list[str | None] = []
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    routes: dict[str, int] = {}
    for i in range(n):
        rec = use.get(idx[i]) if use is not None and idx[i] is not None else None
        raw = rec.get("score") if rec is not None else None
        if rec is not None and raw is not None:
            g = _py_float(raw)
            extracted.append(str(raw))
            log = rec.get("log")
            if g is None:
                scores.append(None)
                status.append("error")
                reasons.append(f"error: the recorded score {str(raw)!r} is not a number (float() raises upstream)")
                routes["error"] = routes.get("error", 0) + 1
                continue
            scores.append(g)
            status.append("ok")
            reasons.append(f"{who}: score {raw}" + (f" ({str(log).strip()[:120]!r})" if isinstance(log, str) and log.strip() else ""))
            routes["recorded"] = routes.get("recorded", 0) + 1
        elif judge is not None:
            if "question" not in frame.columns or "answer" not in frame.columns:
                raise ValueError(f"{bench}: a judge needs the 'question' and 'answer' columns")
            row = frame.row(i, named=True)
            g, log = _live_score(judge, judge_prompt(row["question"], row["answer"], row["prediction"]))
            extracted.append(str(g))
            scores.append(g)
            status.append("ok")
            reasons.append(f"judge: score {g:g} ({log.strip().splitlines()[-1]})")
            routes["judge"] = routes.get("judge", 0) + 1
        else:
            extracted.append(None)
            scores.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded score for this index and no judge"
            reasons.append(f"needs_judge: {why}; not counted")
            routes["needs_judge"] = routes.get("needs_judge", 0) + 1

    # Flags: a missing prediction, a repeated index (the score is the record's all the same).
    no_pred = (preds.is_null() | (preds.str.strip_chars() == "")).to_list()
    dup = (frame["index"].cast(pl.String).is_duplicated()).to_list()
    flags = {"no_prediction": sum(no_pred), "duplicate_index": sum(dup)}
    status = [
        ("no_prediction" if no_pred[i] else "duplicate_index" if dup[i] else s) if s == "ok" else s for i, s in enumerate(status)
    ]
    scored = [i for i in range(n) if scores[i] is not None]
    reference_error = None
    if routes.get("error"):
        reference_error = f"MMVet_acc: {routes['error']} recorded score(s) are not numbers (ValueError upstream); those rows are left out"
    bad_cat = [i for i in scored if cats[i] is None]
    if bad_cat:
        reference_error = reference_error or f"MMVet_acc: row {bad_cat[0] + 2} has no category (TypeError upstream); left out"
        scored = [i for i in scored if cats[i] is not None]
    s_cats = [cats[i] for i in scored]
    s_grades = [scores[i] for i in scored]
    fine_rows = None
    if variant == "2023-12":
        report_rows = _report_2023(s_cats, s_grades)
    else:
        report_rows, fine_rows, err = _report_classic(s_cats, s_grades)
        reference_error = reference_error or err
    report = pl.DataFrame(report_rows, schema=_REPORT_SCHEMA, orient="row")
    total = 0.0
    for g in s_grades:
        total += g
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    decided = decided_from_routes(routes)
    if judge_policy == "none":
        method = "no judge (--judge none): MMVet has no judge-free policy, every row needs_judge"
    else:
        parts = []
        if decided["recorded"]:
            parts.append(f"recorded judge {recorded.judge if recorded is not None and recorded.judge else ''} ({decided['recorded']} rows)".replace("judge  (", "judge ("))
        if decided["live"]:
            parts.append(f"live judge ({decided['live']} rows)")
        if decided["undecided"]:
            parts.append(f"{decided['undecided']} rows undecided (needs_judge)")
        method = " + ".join(parts) or "no rows"
    archive_method = f"judge {recorded.judge}" if has_record_files(recorded) else None
    stats: dict[str, Any] = {
        "benchmark": bench,
        "variant": variant,
        **tally_keys(n, len(s_grades), total),
        **method_keys(decided, method, judge_policy, archive_method, replay_matches(archive_method, judge_policy, decided["live"], decided["undecided"])),
        "flags": {k: v for k, v in flags.items() if v},
        "status": status_counts(rows),
        "judge": judge is not None,
        "crashed_rows": routes.get("error", 0),
        "reference_error": reference_error,
    }
    if fine_rows is not None:
        stats["report_fine"] = [dict(zip(_REPORT_SCHEMA, r)) for r in fine_rows]
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return GradeResult(rows=rows, report=report, stats=stats)
