"""Judge-scored sets whose report is a plain function of the judge's recorded per-row
verdicts: CharXiv and ChartMuseum. Re-grading replays the verdicts VLMEvalKit kept beside
the result file (:func:`gaia_fast.scorers.vlm.recorded.find_records`, kind
``"tail_judged"``); a row without one is ``needs_judge`` (live judging is not supported).

Reference: open-compass/VLMEvalKit (head e8e78f05).

* CharXiv (``vlmeval/dataset/charxiv.py``, added 34dceec3, 2025-05-08): the judge returns
  JSON ``{"extracted_answer", "score"}`` per row; ``evaluate`` writes the rows plus ``score``
  to ``{stem}_{J}.xlsx`` (``J`` = ``judge_model.model``) and ``get_scores`` re-reads it:
  one column per category (``qid2category``: descriptive by ``qid``, reasoning by
  ``inst_category``; first appearance order) holding ``sum(score) / n``, then ``Overall``
  (``sum / len(data)``), one row. The report is ``{stem}_{J}_score.csv`` until 2e937e6a
  (2025-06-30), then ``{stem}_{J}_acc.csv``; the numbers never changed.
* ChartMuseum (``vlmeval/dataset/chartmuseum.py``, added 9518cb4b, 2025-10-17, same to
  head): ``{stem}_{J}.pkl`` maps ``index -> (judge reply, category)``; a reply containing
  ``yes`` (any case) is right. ``{stem}_acc.csv``: per category (order of the pickle) and
  ``Overall`` the percentage right, one row, computed over the pickle's entries.
* M4Bench (State_Invariance, State_Comparison, Spatial_Perception, Instance_Comparison,
  Detailed_Difference; ``vlmeval/dataset/m4bench.py``, added 191dfa09, 2025-08-13, same
  numbers to head): a judge maps every prediction to a letter (``get_ans`` of its reply; on
  any judge error ``get_ans`` of every prediction instead); ``{stem}_details.xlsx`` keeps
  the rows plus ``parsed_pred`` and ``score = parsed_pred == response``. ``evaluate``
  returns ``{"acc": mean(score) * 100, "details": path}`` and writes no report: the report
  here, ``{"acc"}``, is written under our own name ``_m4bench_acc.json``.
* MemLens (``vlmeval/dataset/memlens.py`` + ``utils/memlens_utils.py``, added 3fb3b5bd,
  2026-07-03, unchanged to head): the judge's 0/1 per row in
  ``{stem}_{J}_memlens_judge.jsonl`` (keyed by row position ``idx``; answers over 500 words
  are 0 without asking it, also recorded). ``{stem}_score.csv``: ``question_type, metric,
  score, num``: ``overall`` then each recorded ``question_type`` sorted, ``score`` the
  fraction right.
* DUDE / SlideVQA (``vlmeval/dataset/dude.py``, ``slidevqa.py``, added ec176904,
  2024-08-07, the same numbers to head): the judge extracts each row's answer
  (``MMLongBench_auxeval``: ``pred``, recorded with ``res``, ``log`` in ``{stem}_{J}.xlsx``),
  then rules score it against ``answer`` (NaN -> ``Not answerable``), both lowercased:
  ``anls_compute`` (MMLongBench's: ``1 - levenshtein / max(len(gt.upper()),
  len(pred.upper()))``, 0 at or below 0.5). DUDE: ``{stem}_{J}_score.csv`` = ``category,
  num, avg_score`` (``anls``); a missing ``pred`` crashes ``DUDE_acc`` (NaN has no
  ``lower``). SlideVQA: the answer loses its newlines, ``pred`` is ``str()``-ed, and the
  report is ``category, num, avg`` for ``anls``, ``EM`` (stripped equality) and ``F1``
  (bag-of-words ``get_f1``). Cells are read as pandas reads them (its NA words are NaN);
  a cell the xlsx holds as a number is taken as its text (upstream would crash on it).
* SFE / SFE-zh (``vlmeval/dataset/sfebench.py``, added 00b7545f, 2025-06-18): the judge
  scores each row 0-9 (circular sets: one score per ``g_index`` group, on its main row);
  ``{stem}_judge.xlsx`` (main rows + ``score``) and ``{stem}_tmp.pkl`` (``index -> {score,
  log}``). ``report_score``: one row per ``split`` (``none`` without the column; upstream
  lists splits in ``set`` order, sorted here), ``Overall`` then each ``category`` sorted:
  ``np.mean(score)`` (variant ``2025-06``), from e72ba807 (2025-06-25) ``/ 9 * 100``
  (``classic``). Report ``{stem}_score.csv``.
* MMLongBench_DOC (``vlmeval/dataset/mmlongbench.py`` from ec176904, 2024-08-07, renamed
  ``mmlongbenchdoc.py``; the same rules at head): the judge's extraction ``pred`` of
  ``{stem}_{J}.xlsx``, ``eval_score(answer, pred, answer_format)`` (any exception: 0.0) and
  ``MMLongBench_acc``: ``overall_f1``, ``overall_acc`` and per evidence source / page count,
  to ``{stem}_{J}_score.csv``. Upstream ``eval()``s list answers and the evidence columns;
  here only Python literals are read (``ast.literal_eval``): another text is an error row.
* PhyX (``valid_type=LLM``; ``PhyX.evaluate`` + ``utils/phyx.py``, rules of 0655ce80,
  2025-06-16, to head): ``PhyX_auxeval`` (open-ended) / ``PhyX_auxeval_MC`` decide a row by
  rules first (``PhyX_process_line`` extraction: string equality; MC: a bare letter that
  differs is wrong), else the judge; ``res`` (0/1) is recorded in ``{stem}_{J}.xlsx`` /
  ``.pkl``. ``PhyX_acc``: ``Overall Acc`` then each category (first appearance), one row,
  ``{stem}_{J}_score.csv``. The ``valid_type=STR`` report (``{stem}_acc``) is not
  reproduced, nor the 0c82addc rules (2025-05-27 to 06-16).
* LongDocURL (``vlmeval/dataset/longdocurl.py`` + ``utils/longdocurl.py``, 6a02ab92,
  2026-07-05 = head): the judge's extraction (``pred``: ``ast.literal_eval`` of its
  ``<concise_answer>``, so a number or a list) in ``{stem}_{J}_extract.pkl`` (raw values,
  read first) / ``.xlsx``; ``_prediction_for_score`` takes the first present of ``pred``,
  ``parsed_prediction``, ``parsed_output``, ``prediction``; LongDocURL's own ``eval_score``
  (any exception: 0.0; ``Fail to extract``: 0.0). ``{stem}_score.csv``: ``category,
  metric, score, num``, ``overall`` then each ``task_tag`` sorted. A result file that has a
  ``pred`` column is scored by the rules alone, as upstream does. Upstream's first run
  scores the extracted values (the pkl); a rerun reuses the xlsx, where numbers and lists
  came back as text, and may report otherwise: with the pkl beside it the first run's
  report is reproduced, from the xlsx alone a rerun's.
* MedqbenchCaption / MedqbenchPairedDescription (``medqbench_caption.py``,
  ``medqbench_paired_description.py``, ca9a644d, 2025-10-13, same numbers to head): the
  judge scores four metrics per row (``completeness``, ``preciseness``, ``consistency``,
  ``quality_accuracy``; each the mean of ``n_rounds`` replies, None when none parsed) and
  ``evaluate`` writes them into the result file itself (``{m}`` and ``{m}_scores``, a JSON
  list). ``{stem}_score.json``: per metric the mean of the rows that have a value (0.0 when
  none). A row's value is recomputed from its ``{m}_scores`` list (exact), else read from
  ``{m}``; a result file without these columns was never judged (``needs_judge``).
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._replay import (
    JUDGE_POLICIES,  # noqa: F401 - this module's judge_policy values, as before
    check_replay_args,
    decided_from_routes,
    has_record_files,
    judge_label,
    method_line,
    replay_matches,
    replay_stats,
)
from gaia_fast.scorers.vlm.recorded import Records, index_key

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=``.
RECORD_KIND = "tail_judged"

__all__ = ["BENCHMARKS", "CHARXIV_CATEGORIES", "grade"]

BENCHMARKS = ("charxiv_descriptive", "charxiv_reasoning", "chartmuseum", "m4bench", "memlens", "dude", "slidevqa", "sfe", "mmlongbench_doc", "phyx_oe", "phyx_mc", "longdocurl", "medqbench")

#: ``qid2category``: (the column read, its value -> category).
CHARXIV_CATEGORIES: dict[str, tuple[str, dict[int, str]]] = {
    "charxiv_descriptive": (
        "qid",
        {
            **dict.fromkeys(range(1, 8), "Information Extraction"),
            **dict.fromkeys((8, 9, 13, 14, 15), "Enumeration"),
            **dict.fromkeys((10, 12, 19), "Counting"),
            **dict.fromkeys((11, 16, 18), "Pattern Recognition"),
            17: "Compositionality",
        },
    ),
    "charxiv_reasoning": (
        "inst_category",
        {1: "Text-in-Chart", 2: "Text-in-General", 3: "Number-in-Chart", 4: "Number-in-General"},
    ),
}


class _Crash(Exception):
    """Where upstream raises (a KeyError, a sum over text)."""



#: The variants a registry entry may name: ``classic``; SFE also ``2025-06`` (its raw means).
VARIANTS = ("classic", "2025-06")


def _number(text: Any, what: str) -> float:
    """A cell pandas loaded as a number (``True``/``False`` sum as 1/0)."""
    s = "" if text is None else str(text).strip()
    if s.lower() in ("true", "false"):
        return 1.0 if s.lower() == "true" else 0.0
    try:
        return float(s)
    except ValueError:
        raise _Crash(f"{what} {s[:40]!r} is not a number") from None


def _category(text: str | None, mapping: dict[int, str], column: str) -> str:
    value = _number(text, column)
    if not value.is_integer() or int(value) not in mapping:
        raise _Crash(f"{column} {text!r} is not in qid2category (KeyError upstream)")
    return mapping[int(value)]


def _one_row(columns: dict[str, float]) -> pl.DataFrame:
    return pl.DataFrame({k: [v] for k, v in columns.items()}, schema={k: pl.Float64 for k in columns})


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "charxiv_descriptive",
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
) -> GradeResult:
    """Grade a CharXiv / ChartMuseum result table (``index``, ``prediction``; CharXiv also
    ``qid`` or ``inst_category``) from the recorded verdicts.

    ``rows``: every input row plus ``score`` (CharXiv: the recorded score; ChartMuseum: 1.0
    when the reply says yes), ``status`` (``ok``, ``needs_judge``, ``error``), ``reason``.
    ``report``: upstream's one-row table. ``stats``: ``decided`` (rules / recorded / live /
    undecided), ``method``, ``archive_method``, ``matches_archive``. ``variant`` (only
    ``classic``) and ``seed`` change nothing: the numbers are the same in every version."""
    frame = _check_frame(frame)
    if benchmark not in BENCHMARKS:
        raise ValueError(f"unknown benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    if variant not in (None, "classic") and benchmark != "sfe":
        raise ValueError(f"{benchmark} has one rule (variant 'classic'), not {variant!r}")
    check_replay_args(judge_policy, recorded)
    if judge is not None:
        raise ValueError(f"{benchmark}: live judging is not supported (the judge prompt is not ported); rows without a recorded verdict are needs_judge")
    if benchmark == "memlens":
        return _grade_memlens(frame, recorded, judge_policy)
    if benchmark == "sfe":
        if variant not in (None, "classic", "2025-06"):
            raise ValueError(f"sfe variants are '2025-06' and 'classic', not {variant!r}")
        return _grade_sfe(frame, recorded, judge_policy, variant or "classic")
    if benchmark == "mmlongbench_doc":
        return _grade_mmlongbench_doc(frame, recorded, judge_policy)
    if benchmark == "medqbench":
        return _grade_medqbench(frame, judge_policy)
    if benchmark == "longdocurl":
        return _grade_longdocurl(frame, recorded, judge_policy)
    if benchmark in ("phyx_oe", "phyx_mc"):
        return _grade_phyx(frame, benchmark, recorded, judge_policy)
    if benchmark in ("dude", "slidevqa"):
        return _grade_doc(frame, benchmark, recorded, judge_policy)
    need = ["index"] + ([CHARXIV_CATEGORIES[benchmark][0]] if benchmark in CHARXIV_CATEGORIES else [])
    if benchmark == "m4bench":
        need.append("response")
    for name in need:
        if name not in frame.columns:
            raise ValueError(f"{benchmark}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    lines = frame.select(pl.col(c).cast(pl.String) for c in need).to_dicts()
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    cats: list[str | None] = []
    errors: list[str] = []
    for row_no, line in enumerate(lines):
        rec = use.get(line["index"]) if use is not None else None
        field = {"chartmuseum": "response", "m4bench": "parsed_pred"}.get(benchmark, "score")
        if rec is None or field not in rec:
            scores.append(None)
            cats.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded verdict for this index"
            reasons.append(f"needs_judge: {why}; not counted")
            continue
        try:
            if benchmark == "m4bench":
                # parsed_pred == response (pandas: a missing parsed_pred equals nothing).
                pred = rec["parsed_pred"]
                hit = pred is not None and line.get("response") is not None and str(pred) == line["response"]
                score, cat = (1.0 if hit else 0.0), "acc"
                reasons.append(f"{who} parsed {pred!r} (answer {line.get('response')!r}): {'right' if hit else 'wrong'}")
            elif benchmark == "chartmuseum":
                hit = "yes" in str(rec["response"]).lower()
                score, cat = (1.0 if hit else 0.0), str(rec.get("category"))
                reasons.append(f"{who} replied {str(rec['response'])[:60]!r}: {'right' if hit else 'wrong'}")
            else:
                column, mapping = CHARXIV_CATEGORIES[benchmark]
                cat = _category(line.get(column), mapping, column)
                score = _number(rec["score"], "score")
                reasons.append(f"{who} scored {score:g}")
        except _Crash as e:
            scores.append(None)
            cats.append(None)
            status.append("error")
            reasons.append(f"error: {e}")
            errors.append(f"row {row_no + 2}: {e}")
            continue
        scores.append(score)
        cats.append(cat)
        status.append("ok")
    rows = frame.with_columns(
        pl.Series("score", scores, pl.Float64), pl.Series("status", status, pl.String), pl.Series("reason", reasons, pl.String)
    )
    kept = [i for i, s in enumerate(status) if s == "ok"]
    extra = 0
    if benchmark == "chartmuseum":
        # Upstream iterates the pickle (its order; every entry, even one of no row here).
        in_frame = {index_key(line["index"]) for line in lines}
        by_key = {index_key(lines[i]["index"]): i for i in kept}
        order: list[tuple[str, float]] = []
        for key, rec in (use.entries.items() if use is not None else ()):
            if key in by_key:
                i = by_key[key]
                order.append((cats[i], scores[i]))
            elif key not in in_frame and "response" in rec:
                extra += 1
                order.append((str(rec.get("category")), 1.0 if "yes" in str(rec["response"]).lower() else 0.0))
        scale = 100.0
    else:
        order = [(cats[i], scores[i]) for i in kept]
        scale = 1.0
    if benchmark == "m4bench":
        order, scale = [("acc", scores[i]) for i in kept], 100.0
    groups: dict[str, list[float]] = {}
    for cat, s in order:
        groups.setdefault(cat, []).append(s)
    report_cols = {c: sum(v) / len(v) * scale for c, v in groups.items()}
    if order and benchmark != "m4bench":
        report_cols["Overall"] = sum(s for _, s in order) / len(order) * scale
    report = _one_row(report_cols) if order else pl.DataFrame()
    n_rec = len(kept)
    undecided = status.count("needs_judge")
    archive_method = (f"judge {recorded.judge}" if recorded.judge else "judge") if has_record_files(recorded) else None
    stats = replay_stats(
        benchmark,
        "classic",
        rows,
        input_rows=frame.height,
        tasks=n_rec,
        correct=sum(scores[i] for i in kept),
        decided=decided_from_routes({"recorded": n_rec, "needs_judge": undecided}),
        method=method_line([(who, n_rec)], undecided),
        judge_policy=judge_policy,
        archive_method=archive_method,
        matches=replay_matches(archive_method, judge_policy, undecided, len(errors), extra),
        counts={"records_without_row": extra},
        crashed_rows=len(errors),
        reference_error=f"{benchmark}: {errors[0]}; left out" if errors else None,
        recorded=recorded,
    )
    return GradeResult(rows=rows, report=report, stats=stats)


def _cell_str(value: str | None, default: str) -> str:
    """``cell_str``: the cell's text, ``default`` for a missing one."""
    return default if value is None else value


def _grade_memlens(frame: pl.DataFrame, recorded: Records | None, judge_policy: str) -> GradeResult:
    if "index" not in frame.columns and "question_id" not in frame.columns:
        raise ValueError(f"memlens: the result table has neither 'question_id' nor 'index' (columns: {sorted(frame.columns)})")
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    cols = [c for c in ("index", "question_id", "question_type") if c in frame.columns]
    lines = frame.select(pl.col(c).cast(pl.String) for c in cols).to_dicts()
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    kept: list[tuple[str, int]] = []
    misaligned = 0
    for row_no, line in enumerate(lines):
        rec = use.entries.get(str(row_no)) if use is not None else None
        if rec is None:
            scores.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else f"no recorded judge line for row position {row_no}"
            reasons.append(f"needs_judge: {why}; not counted")
            continue
        qid = _cell_str(line.get("question_id"), _cell_str(line.get("index"), ""))
        if str(rec.get("question_id")) != qid:
            misaligned += 1  # upstream pairs by position whatever the ids say
        score = rec["judge_score"]
        kept.append((str(rec.get("question_type")), score))
        scores.append(float(score))
        status.append("ok")
        reasons.append(f"{who}: judge_score {score}" + (" (auto zero: over 500 words)" if rec.get("auto_zero") else ""))
    rows = frame.with_columns(
        pl.Series("score", scores, pl.Float64), pl.Series("status", status, pl.String), pl.Series("reason", reasons, pl.String)
    )
    report_rows: list[tuple[str, str, float, int]] = []
    if kept:
        total = len(kept)
        report_rows.append(("overall", "accuracy", sum(s for _, s in kept) / total, total))
        by_type: dict[str, list[int]] = {}
        for t, s in kept:
            by_type.setdefault(t, []).append(s)
        for t in sorted(by_type):
            report_rows.append((t, "accuracy", sum(by_type[t]) / len(by_type[t]), len(by_type[t])))
    report = pl.DataFrame(
        report_rows, schema={"question_type": pl.String, "metric": pl.String, "score": pl.Float64, "num": pl.Int64}, orient="row"
    )
    undecided = status.count("needs_judge")
    archive_method = f"judge {recorded.judge}" if has_record_files(recorded) else None
    extra = 0 if use is None else sum(1 for k in use.entries if not (k.isdigit() and int(k) < frame.height))
    stats = replay_stats(
        "memlens",
        "classic",
        rows,
        input_rows=frame.height,
        tasks=len(kept),
        correct=float(sum(s for _, s in kept)),
        decided=decided_from_routes({"recorded": len(kept), "needs_judge": undecided}),
        method=method_line([(who, len(kept))], undecided),
        judge_policy=judge_policy,
        archive_method=archive_method,
        matches=replay_matches(archive_method, judge_policy, undecided),
        counts={"records_without_row": extra},
        flags={k: v for k, v in (("records_misaligned", misaligned), ("records_without_row", extra)) if v},
        recorded=recorded,
    )
    return GradeResult(rows=rows, report=report, stats=stats)


def levenshtein_distance(s1: str, s2: str) -> int:
    """``vqa_eval.levenshtein_distance`` (code points, the shorter string inside)."""
    if len(s1) > len(s2):
        s1, s2 = s2, s1
    distances = list(range(len(s1) + 1))
    for i2, c2 in enumerate(s2):
        row = [i2 + 1]
        for i1, c1 in enumerate(s1):
            row.append(distances[i1] if c1 == c2 else 1 + min(distances[i1], distances[i1 + 1], row[-1]))
        distances = row
    return distances[-1]


def anls_compute(groundtruth: str, prediction: str, threshold: float = 0.5) -> float:
    """MMLongBench's ``anls_compute`` (no whitespace folding; lengths after ``upper()``)."""
    dist = levenshtein_distance(groundtruth, prediction)
    length = max(len(groundtruth.upper()), len(prediction.upper()))
    value = 0.0 if length == 0 else float(dist) / float(length)
    anls = 1.0 - value
    return 0.0 if anls <= threshold else anls


def slidevqa_f1(gt: str, pred: str) -> float:
    """SlideVQA's ``get_f1``: bag-of-words recall / precision (repeats counted)."""
    gt_bow, pred_bow = gt.strip().split(), pred.strip().split()
    if not gt_bow or not pred_bow:
        return 0.0
    common = len([p for p in pred_bow if p in gt_bow])
    recall, precision = common / len(gt_bow), common / len(pred_bow)
    return 2 * recall * precision / (recall + precision) if (recall + precision) > 1e-4 else 0.0


def _grade_doc(frame: pl.DataFrame, bench: str, recorded: Records | None, judge_policy: str) -> GradeResult:
    from gaia_fast.scorers.vlm._pandas import PANDAS_NA

    for name in ("index", "answer"):
        if name not in frame.columns:
            raise ValueError(f"{bench}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    na = frozenset(PANDAS_NA)
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    lines = frame.select(pl.col(c).cast(pl.String) for c in ("index", "answer")).to_dicts()
    scores: list[float | None] = []
    preds: list[str | None] = []
    status: list[str] = []
    reasons: list[str] = []
    kept: list[tuple[float, float, float]] = []  # anls, em, f1
    errors: list[str] = []
    for row_no, line in enumerate(lines):
        rec = use.get(line["index"]) if use is not None else None
        if rec is None or "pred" not in rec:
            scores.append(None)
            preds.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded extraction (pred) for this index"
            reasons.append(f"needs_judge: {why}; not counted")
            continue
        raw = rec["pred"]
        pred = None if raw is None or str(raw) in na else str(raw)
        ans = line.get("answer")
        answer = "Not answerable" if ans is None or ans in na else ans
        if bench == "dude":
            if pred is None:
                scores.append(None)
                preds.append(None)
                status.append("error")
                msg = f"row {row_no + 2}: the recorded pred is empty (NaN): DUDE_acc's pred.lower() raises AttributeError upstream"
                reasons.append(f"error: {msg}")
                errors.append(msg)
                continue
            a, p = answer.lower(), pred.lower()
            anls, em, f1 = anls_compute(a, p), 0.0, 0.0
        else:
            a, p = answer.replace("\n", "").lower(), ("nan" if pred is None else pred).lower()
            anls, em, f1 = anls_compute(a, p), float(a.strip() == p.strip()), slidevqa_f1(a, p)
        kept.append((anls, em, f1))
        scores.append(anls)
        preds.append(pred)
        status.append("ok")
        reasons.append(f"{who} extracted {pred!r}: anls {anls:.4g}" + (f", em {em:g}, f1 {f1:.4g}" if bench == "slidevqa" else ""))
    rows = frame.with_columns(
        pl.Series("pred", preds, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    n = len(kept)
    if not n:
        report = pl.DataFrame()
    elif bench == "dude":
        total = 0.0
        for anls, _, _ in kept:
            total += anls  # upstream's running sum, in row order
        report = pl.DataFrame({"category": ["anls"], "num": [n], "avg_score": [total / n]})
    else:
        report = pl.DataFrame(
            {
                "category": ["anls", "EM", "F1"],
                "num": [n, n, n],
                "avg": [sum(k[0] for k in kept) / n, sum(k[1] for k in kept) / n, sum(k[2] for k in kept) / n],
            }
        )
    undecided = status.count("needs_judge")
    archive_method = f"judge {recorded.judge}" if has_record_files(recorded) else None
    stats = replay_stats(
        bench,
        "classic",
        rows,
        input_rows=frame.height,
        tasks=n,
        correct=sum(k[0] for k in kept),
        decided=decided_from_routes({"recorded": n, "needs_judge": undecided}),
        method=method_line([(f"{who} extractions + anls rules", n)], undecided),
        judge_policy=judge_policy,
        archive_method=archive_method,
        matches=replay_matches(archive_method, judge_policy, undecided, len(errors)),
        crashed_rows=len(errors),
        reference_error=f"{bench}: {errors[0]}; upstream's report fails here" if errors else None,
        recorded=recorded,
    )
    return GradeResult(rows=rows, report=report, stats=stats)


def _grade_sfe(frame: pl.DataFrame, recorded: Records | None, judge_policy: str, variant: str) -> GradeResult:
    from gaia_fast.scorers.vlm.vqa import np_mean

    if "index" not in frame.columns:
        raise ValueError(f"sfe: the result table has no 'index' column (columns: {sorted(frame.columns)})")
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    cols = [c for c in ("index", "g_index", "split", "category") if c in frame.columns]
    lines = frame.select(pl.col(c).cast(pl.String) for c in cols).to_dicts()
    circular = "g_index" in frame.columns
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    kept: list[dict[str, Any]] = []
    errors: list[str] = []
    for row_no, line in enumerate(lines):
        if circular and index_key(line.get("g_index")) != index_key(line.get("index")):
            scores.append(None)
            status.append("grouped")
            reasons.append(f"grouped: scored with its main row (g_index {line.get('g_index')})")
            continue
        rec = use.get(line["index"]) if use is not None else None
        if rec is None or rec.get("score") is None:
            scores.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded judge score for this index"
            reasons.append(f"needs_judge: {why}; not counted")
            continue
        try:
            score = _number(rec["score"], "score")
        except _Crash as e:
            scores.append(None)
            status.append("error")
            reasons.append(f"error: {e}")
            errors.append(f"row {row_no + 2}: {e}")
            continue
        kept.append({"split": line.get("split", "none"), "category": line.get("category"), "score": score})
        scores.append(score)
        status.append("ok")
        reasons.append(f"{who} scored {score:g} of 9")
    rows = frame.with_columns(
        pl.Series("score", scores, pl.Float64), pl.Series("status", status, pl.String), pl.Series("reason", reasons, pl.String)
    )
    scale = (lambda m: m / 9 * 100) if variant == "classic" else (lambda m: m)
    report = pl.DataFrame()
    if kept:
        if any(k["split"] is None for k in kept) or ("category" in frame.columns and any(k["category"] is None for k in kept)):
            errors.append("a split or category is empty (NaN): upstream's set/sort of them fails or splits it off")
        else:
            splits = sorted({k["split"] for k in kept})
            data: dict[str, list[Any]] = {"split": splits}
            data["Overall"] = [scale(np_mean([k["score"] for k in kept if k["split"] == sp])) for sp in splits]
            if "category" in frame.columns:
                for ab in sorted({k["category"] for k in kept}):
                    data[ab] = [scale(np_mean([k["score"] for k in kept if k["split"] == sp and k["category"] == ab])) for sp in splits]
            report = pl.DataFrame(data, schema={c: (pl.String if c == "split" else pl.Float64) for c in data})
    n = len(kept)
    undecided = status.count("needs_judge")
    archive_method = "judge" if has_record_files(recorded) else None
    stats = replay_stats(
        "sfe",
        variant,
        rows,
        input_rows=frame.height,
        tasks=n,
        correct=sum(k["score"] for k in kept) / 9,
        decided=decided_from_routes({"recorded": n, "needs_judge": undecided}),
        method=method_line([(who, n)], undecided),
        judge_policy=judge_policy,
        archive_method=archive_method,
        matches=replay_matches(archive_method, judge_policy, undecided, len(errors)),
        crashed_rows=len(errors),
        reference_error=f"sfe: {errors[0]}" if errors else None,
        recorded=recorded,
    )
    return GradeResult(rows=rows, report=report, stats=stats)


# --------------------------------------------------------------------------------------
# MMLongBench_DOC: eval_score and MMLongBench_acc
# --------------------------------------------------------------------------------------


class _NotLiteral(Exception):
    """Text upstream would ``eval()`` that is not a plain Python literal."""


class _EvalFails(Exception):
    """Text whose ``eval()`` surely raises upstream (a syntax error, an unknown name)."""


#: Names ``eval`` could resolve inside ``eval_score`` besides builtins: its locals and the
#: module's globals (imports, helpers). A text naming one of them is not decided here.
_EVAL_SCOPE = frozenset(
    ("gt", "pred", "answer_type", "score", "base64", "io", "logging", "math", "os", "osp", "re", "urlopen", "pd")
    + ("transforms", "Image", "ImageDraw", "ImageFont", "tqdm", "build_judge", "levenshtein_distance", "FAIL_MSG", "logger")
)


def _literal(text: str, *, in_eval_score: bool = False) -> Any:
    """``eval(text)`` where the text is a Python literal. In ``eval_score`` (whose caller
    scores any exception 0.0) a text whose ``eval`` surely raises gives :class:`_EvalFails`;
    anything else that is not a literal gives :class:`_NotLiteral`."""
    import ast
    import builtins

    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    if in_eval_score:
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            raise _EvalFails("SyntaxError") from None
        except (ValueError, MemoryError, RecursionError):
            raise _NotLiteral(text[:60]) from None
        nodes = list(ast.walk(tree))
        lazy = (ast.Lambda, ast.BoolOp, ast.IfExp, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr)
        names = {n.id for n in nodes if isinstance(n, ast.Name)}
        unknown = names - _EVAL_SCOPE - set(dir(builtins))
        if unknown and not any(isinstance(n, lazy) for n in nodes):
            raise _EvalFails(f"NameError ({min(unknown)})")
    raise _NotLiteral(text[:60])


def _get_clean_string(s: Any) -> str:
    import re

    s = str(s).lower().strip()
    # (upstream's rstrip('mile') / 'miles' / 'million' results are discarded)
    s = re.sub(r"\s*\([^)]*\)", "", s).strip()
    s = re.sub(r"^['\"]|['\"]$", "", s).strip()
    s = s.strip().lstrip("$").strip()
    return s.strip().rstrip("%").strip()


def _is_exact_match(s: str) -> bool:
    import re

    return (
        "https://" in s
        or s.endswith((".py", "ipynb"))
        or s.startswith("page")
        or re.fullmatch(r"\b\d+(-\d+|\s\d+)?\b", s) is not None
        or "a.m." in s
        or "p.m." in s
        or re.fullmatch(r"\b\d{4}[-\s]\d{2}[-\s]\d{2}\b", s) is not None
        or re.fullmatch(r"\b\d{4}[-\s]\d{2}\b", s) is not None
        or re.fullmatch(r"[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}", s) is not None
    )


def _isfloat(num: Any) -> bool:
    try:
        float(num)
        return True
    except ValueError:
        return False


def _is_float_equal(reference: Any, prediction: Any, include_percentage: bool = False, is_close: bool = False) -> bool:
    def get_precision(gt_ans: float) -> int:
        return len(str(gt_ans).split(".")[-1]) if "." in str(gt_ans) else 3

    reference = float(str(reference).strip().rstrip("%").strip())  # raises: caught by the caller
    try:
        prediction = float(str(prediction).strip().rstrip("%").strip())
    except Exception:  # noqa: BLE001 - upstream catches everything here
        return False
    gt_result = [reference / 100, reference, reference * 100] if include_percentage else [reference]
    for item in gt_result:
        try:
            if is_close and math.isclose(item, prediction, rel_tol=0.01):
                return True
            precision = max(min(get_precision(prediction), get_precision(item)), 2)
            if round(prediction, precision) == round(item, precision):
                return True
        except Exception:  # noqa: BLE001, S112 - upstream: continue
            continue
    return False


def eval_score(gt: Any, pred: Any, answer_type: Any) -> float:
    """``eval_score`` of one row (``gt`` / ``pred``: a text, or NaN as ``math.nan``).
    Raises where upstream raises (its caller scores that row 0.0), :class:`_NotLiteral`
    where upstream would ``eval()`` a text that is not a literal."""
    if answer_type == "Int":
        try:
            gt, pred = int(gt), int(float(pred))
        except Exception:  # noqa: BLE001
            pred = ""
        score: Any = gt == pred
    elif answer_type == "Float":
        try:
            gt = float(_get_clean_string(str(gt)))
            pred = float(_get_clean_string(str(pred)))
        except Exception:  # noqa: BLE001
            pred = ""
        score = _is_float_equal(gt, pred, include_percentage=True, is_close=True)
    elif answer_type == "Str":
        gt, pred = _get_clean_string(gt), _get_clean_string(pred)
        score = (gt == pred) if _is_exact_match(gt) else anls_compute(gt, pred)
    else:
        if isinstance(gt, str) and gt.startswith("["):
            gt = _literal(gt, in_eval_score=True)
        if not isinstance(gt, list):
            gt = [gt]
        if isinstance(pred, str) and pred.startswith("["):
            pred = _literal(pred, in_eval_score=True)
        if not isinstance(pred, list):
            pred = [pred]
        if len(gt) != len(pred):
            score = 0.0
        else:
            gt = sorted(_get_clean_string(a) for a in gt)
            pred = sorted(_get_clean_string(a) for a in pred)
            if _isfloat(gt[0]) or _is_exact_match(gt[0]):
                score = "-".join(gt) == "-".join(pred)
            else:
                score = min(anls_compute(g, p) for g, p in zip(gt, pred))
    return float(score)


def _grade_mmlongbench_doc(frame: pl.DataFrame, recorded: Records | None, judge_policy: str) -> GradeResult:
    from gaia_fast.scorers.vlm._pandas import PANDAS_NA

    need = ("index", "answer", "answer_format", "evidence_sources", "evidence_pages")
    for name in need:
        if name not in frame.columns:
            raise ValueError(f"mmlongbench_doc: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    na = frozenset(PANDAS_NA)
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    lines = frame.select(pl.col(c).cast(pl.String) for c in need).to_dicts()

    def cell(v: str | None) -> Any:
        return math.nan if v is None or v in na else v

    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    kept: list[dict[str, Any]] = []
    errors: list[str] = []
    for row_no, line in enumerate(lines):
        rec = use.get(line["index"]) if use is not None else None
        if rec is None or "pred" not in rec:
            scores.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded extraction (pred) for this index"
            reasons.append(f"needs_judge: {why}; not counted")
            continue
        raw = rec["pred"]
        pred = cell(None if raw is None else str(raw))
        answer = cell(line["answer"])
        try:
            sources = _literal(str(cell(line["evidence_sources"])))
            pages = _literal(str(cell(line["evidence_pages"])))
            n_pages = len(pages)
            try:
                score = eval_score(answer, pred, cell(line["answer_format"]))
                note = ""
            except _NotLiteral:
                raise
            except Exception as e:  # noqa: BLE001 - MMLongBench_acc: any exception scores 0.0
                score, note = 0.0, f" (eval_score raises upstream: {e if isinstance(e, _EvalFails) else type(e).__name__}; 0.0)"
        except (_NotLiteral, TypeError) as e:
            scores.append(None)
            status.append("error")
            msg = f"row {row_no + 2}: {e!s:.80} is not a Python literal (upstream eval()s it): not replayed"
            reasons.append(f"error: {msg}")
            errors.append(msg)
            continue
        kept.append({"answer": answer, "pred": pred, "score": score, "sources": sources, "n_pages": n_pages})
        scores.append(score)
        status.append("ok")
        reasons.append(f"{who} extracted {pred!r}: eval_score {score:.4g}{note}")
    rows = frame.with_columns(
        pl.Series("score", scores, pl.Float64), pl.Series("status", status, pl.String), pl.Series("reason", reasons, pl.String)
    )

    def mean(sel: list[dict[str, Any]]) -> float:
        return sum(k["score"] for k in sel) / len(sel) if sel else 0.0

    report = pl.DataFrame()
    n = len(kept)
    if n:
        gt_pos = [k for k in kept if k["answer"] != "Not answerable"]
        pred_pos = [k for k in kept if k["pred"] != "Not answerable"]
        try:
            recall = sum(k["score"] for k in gt_pos) / len(gt_pos)
            precision = sum(k["score"] for k in pred_pos) / len(pred_pos)
            f1 = 2 * recall * precision / (recall + precision)
        except ZeroDivisionError:
            errors.append("get_f1 divides by zero (no answerable rows, or recall + precision = 0): upstream's report fails")
        else:
            total = 0.0
            for k in kept:
                total += k["score"]
            groups = {
                "text": [k for k in kept if "Pure-text (Plain-text)" in k["sources"]],
                "layout": [k for k in kept if "Generalized-text (Layout)" in k["sources"]],
                "table": [k for k in kept if "Table" in k["sources"]],
                "chart": [k for k in kept if "Chart" in k["sources"]],
                "image": [k for k in kept if "Figure" in k["sources"]],
                "single-page": [k for k in kept if k["n_pages"] == 1],
                "multi-page": [k for k in kept if k["n_pages"] > 1],
                "unanswerable": [k for k in kept if k["n_pages"] == 0],
            }
            report = pl.DataFrame(
                {
                    "category": ["overall_f1", "overall_acc", *groups],
                    "num": [n, n, *(len(g) for g in groups.values())],
                    "avg_score": [f1, total / n, *(mean(g) for g in groups.values())],
                }
            )
    undecided = status.count("needs_judge")
    archive_method = f"judge {recorded.judge}" if has_record_files(recorded) else None
    stats = replay_stats(
        "mmlongbench_doc",
        "classic",
        rows,
        input_rows=frame.height,
        tasks=n,
        correct=sum(k["score"] for k in kept),
        decided=decided_from_routes({"recorded": n, "needs_judge": undecided}),
        method=method_line([(f"{who} extractions + eval_score rules", n)], undecided),
        judge_policy=judge_policy,
        archive_method=archive_method,
        matches=replay_matches(archive_method, judge_policy, undecided, len(errors)),
        crashed_rows=len(errors),
        reference_error=f"mmlongbench_doc: {errors[0]}" if errors else None,
        recorded=recorded,
    )
    return GradeResult(rows=rows, report=report, stats=stats)


# --------------------------------------------------------------------------------------
# PhyX (valid_type=LLM): the rules of PhyX_auxeval first, the recorded judge for the rest
# --------------------------------------------------------------------------------------

PHYX_FAIL_MSG = "Failed to obtain answer via API."


def _mapping_str(text: str) -> str:
    return text.replace("\\dfrac", "\\frac").replace("\\pi", "3.14")


def _phyx_literal(s: str) -> Any:
    """``safe_literal_eval``: a literal, else the text wrapped in braces with bare keys quoted."""
    import ast
    import re

    s = s.strip()
    try:
        return ast.literal_eval(s)
    except Exception:  # noqa: BLE001, S110 - upstream: any failure
        pass
    if not s.startswith("{"):
        s = "{" + s
    if not s.endswith("}"):
        s = s + "}"
    s = re.sub(r'([{,]\s*)([^"\{\}\:\,\s]+)\s*:', r'\1"\2":', s)
    try:
        return ast.literal_eval(s)
    except Exception:  # noqa: BLE001
        return None


def _extract_boxed(s: str) -> str | None:
    start = s.find("\\boxed{")
    if start == -1:
        return None
    rest = s[start + len("\\boxed{") :]
    depth = 0
    for i, ch in enumerate(rest):
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                return rest[:i]
            depth -= 1
    return None


def phyx_process_line(answer: str, prediction: str) -> dict[str, Any]:
    """``PhyX_process_line``: ``pred``, ``extracted``, ``match`` (open-ended)."""
    import re

    ret: dict[str, Any] = {"gt": answer}
    with_reasoning = False
    try:
        pred_dict = _phyx_literal(prediction)
        if isinstance(pred_dict, dict) and "content" in pred_dict and pred_dict["content"] != "":
            ret["pred"] = pred_dict["content"].strip()
            with_reasoning = True
    except Exception:  # noqa: BLE001, S110 - upstream: any failure (a non-text content)
        pass
    if not with_reasoning:
        ret["pred"] = prediction.strip()
    if ret["pred"] == PHYX_FAIL_MSG:
        return {**ret, "match": 0, "extracted": "Fail to Call API"}
    boxed = _extract_boxed(ret["pred"])
    if boxed is not None:
        ret["extracted"] = _mapping_str(boxed)
    else:
        pattern = r"\b(?:final\s+answer|correct\s+answer)\b[^:：]*[:：]\s*(.*?)(?=\n\n\n|\Z)"
        m = re.search(pattern, ret["pred"], flags=re.IGNORECASE | re.DOTALL)
        ret["extracted"] = _mapping_str(m.group(1)) if m else "SAME as predict"
    gt = ret["gt"].strip().lower()
    hit = gt == ret["extracted"].strip().lower() or gt == ret["pred"].strip().lower() or ret["gt"] in ret["pred"]
    return {**ret, "match": int(hit)}


def phyx_process_line_mc(answer: str, prediction: str) -> dict[str, Any]:
    """``PhyX_process_line_MC``."""
    import re

    ret: dict[str, Any] = {"gt": answer, "pred": prediction.strip()}
    m = re.search(r"\b(?:correct|answer|option|Answer|Option|Correct)\b[\s\S]*?([A-D])", ret["pred"])
    if ret["pred"] == PHYX_FAIL_MSG:
        return {**ret, "match": 0, "extracted": "Fail to Call API"}
    if m:
        ret["extracted"] = m.group(1)
        if ret["gt"].strip().lower() == ret["extracted"].strip().lower():
            return {**ret, "match": 1}
    else:
        found = re.findall(r"([ABCD]):", ret["pred"])
        if found:
            ret["extracted"] = found[-1]
            if ret["gt"].strip().lower() == ret["extracted"].strip().lower():
                return {**ret, "match": 1}
        else:
            ret["extracted"] = "SAME as predict"
    gt = ret["gt"]
    return {**ret, "match": int(gt + ":" in ret["pred"] or gt + "**" in ret["pred"] or "**" + gt in ret["pred"])}


def phyx_rule(answer: str, prediction: str, mc: bool) -> tuple[int | None, str, str]:
    """The rule part of ``PhyX_auxeval`` / ``_MC``: (res or None when the judge decides,
    extracted, log)."""
    tmp = phyx_process_line_mc(answer, prediction) if mc else phyx_process_line(answer, prediction)
    if tmp["extracted"] == "Fail to Call API":
        return 0, "Fail to Call API", "Fail to Call API"
    pred = prediction if tmp["extracted"] == "SAME as predict" else tmp["extracted"]
    if answer.strip().lower() == pred.strip().lower():
        return 1, pred, "Matched at string level"
    if mc and pred.strip() in ("A", "B", "C", "D"):
        return 0, pred, "Unmatched at string level"
    return None, pred, ""


def _grade_phyx(frame: pl.DataFrame, bench: str, recorded: Records | None, judge_policy: str) -> GradeResult:
    from gaia_fast.scorers.vlm._pandas import PANDAS_NA

    for name in ("index", "answer", "prediction", "category"):
        if name not in frame.columns:
            raise ValueError(f"{bench}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    na = frozenset(PANDAS_NA)
    mc = bench == "phyx_mc"
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    lines = frame.select(pl.col(c).cast(pl.String) for c in ("index", "answer", "prediction", "category")).to_dicts()
    scores: list[float | None] = []
    extracted: list[str | None] = []
    status: list[str] = []
    reasons: list[str] = []
    kept: list[tuple[str, int]] = []
    routes = {"rules": 0, "recorded": 0}
    errors: list[str] = []
    disagree = 0
    for row_no, line in enumerate(lines):
        pred_text = line.get("prediction")
        if pred_text is None or pred_text in na:
            scores.append(None)
            extracted.append(None)
            status.append("error")
            msg = f"row {row_no + 2}: the prediction is empty (NaN): PhyX_process_line's .strip() raises upstream"
            reasons.append(f"error: {msg}")
            errors.append(msg)
            continue
        ans = line.get("answer")
        answer = "nan" if ans is None or ans in na else ans  # str() of what pandas loaded
        res, ext, log = phyx_rule(answer, pred_text, mc)
        rec = use.get(line["index"]) if use is not None else None
        if res is not None:
            route = "rules"
            if rec is not None and rec.get("res") is not None and _number(rec["res"], "res") != res:
                disagree += 1
            reason = f"rules: {log} ({ext!r})"
        elif rec is not None and rec.get("res") is not None:
            res, route = int(_number(rec["res"], "res")), "recorded"
            reason = f"{who}: res {res} for {ext!r}"
        else:
            scores.append(None)
            extracted.append(ext)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded judge res for this index"
            reasons.append(f"needs_judge: the rules did not decide ({why}); not counted")
            continue
        routes[route] += 1
        kept.append((line.get("category") or "nan", res))
        scores.append(float(res))
        extracted.append(ext)
        status.append("ok")
        reasons.append(reason)
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    report = pl.DataFrame()
    if kept:
        cols: dict[str, float] = {"Overall Acc": sum(r for _, r in kept) / len(kept)}
        by: dict[str, list[int]] = {}
        for c, r in kept:
            by.setdefault(c, []).append(r)
        for c, v in by.items():
            cols[c] = sum(v) / len(v)
        report = _one_row(cols)
    undecided = status.count("needs_judge")
    archive_method = f"rules + judge {recorded.judge}" if has_record_files(recorded) else None
    stats = replay_stats(
        bench,
        "classic",
        rows,
        input_rows=frame.height,
        tasks=len(kept),
        correct=sum(r for _, r in kept),
        decided=decided_from_routes({"rules": routes["rules"], "recorded": routes["recorded"], "needs_judge": undecided}),
        method=method_line([("rules", routes["rules"]), (who, routes["recorded"])], undecided),
        judge_policy=judge_policy,
        archive_method=archive_method,
        matches=replay_matches(archive_method, judge_policy, undecided, len(errors), disagree),
        counts={"rule_disagreements": disagree},
        crashed_rows=len(errors),
        reference_error=f"{bench}: {errors[0]}" if errors else None,
        recorded=recorded,
    )
    return GradeResult(rows=rows, report=report, stats=stats)


# --------------------------------------------------------------------------------------
# LongDocURL: its own eval_score over the judge's extraction
# --------------------------------------------------------------------------------------


def _ldu_clean(s: Any) -> str:
    import re

    s = str(s).lower().strip().replace(",", "")
    for suffix in ("kg", "mm", "meters", "minutes", "miles", "mile", "acres", "million", "thousand", "billion", "m"):
        if s.endswith(suffix):
            s = s[: -len(suffix)].strip()
            break
    s = re.sub(r"\s*\([^)]*\)", "", s).strip()
    s = re.sub(r"^['\"]|['\"]$", "", s).strip()
    s = s.strip().lstrip("$").strip()
    s = s.strip().lstrip("£").strip()
    return s.strip().rstrip("%").strip()


def _ldu_maybe_list(value: Any) -> Any:
    import ast

    if isinstance(value, list):
        return value
    if isinstance(value, str) and value.strip().startswith("["):
        try:
            return ast.literal_eval(value)
        except Exception:  # noqa: BLE001 - upstream: the text stays
            return value
    return value


def _ldu_join_commas(text: str) -> str:
    import re

    return "".join(p.strip() for p in text.split(",")) if re.findall(r"\d+,\s*\d+", text, re.DOTALL) else text


def longdocurl_eval_score(gt: Any, pred: Any, answer_type: Any) -> float:
    """LongDocURL's ``eval_score`` (``gt`` / ``pred`` as pandas holds them: text, numbers,
    lists, NaN as ``math.nan``). Raises where upstream raises (scored 0.0 by its caller)."""
    if answer_type == "Integer":
        try:
            gt = int(_ldu_join_commas(_ldu_clean(str(gt))))
        except Exception:  # noqa: BLE001 - upstream: gt stays the cleaned text
            gt = _ldu_join_commas(_ldu_clean(str(gt)))
        try:
            pred = int(_ldu_join_commas(_ldu_clean(str(pred))))
        except Exception:  # noqa: BLE001
            pred = ""
        score: Any = gt == pred
    elif answer_type == "Float":
        gt = _ldu_join_commas(_ldu_clean(str(gt)))
        pred = _ldu_join_commas(_ldu_clean(str(pred)))
        try:
            gt = float(gt)
        except Exception:  # noqa: BLE001, S110
            pass
        try:
            pred = float(pred)
        except Exception:  # noqa: BLE001
            pred = str(pred)
        try:
            score = _is_float_equal(gt, pred, include_percentage=True, is_close=True)
        except Exception:  # noqa: BLE001
            score = 0
    elif answer_type in ("String", "None"):
        gt, pred = _ldu_clean(gt), _ldu_clean(pred)
        score = (gt == pred) if _is_exact_match(gt) else anls_compute(gt, pred)
    else:
        gt, pred = _ldu_maybe_list(gt), _ldu_maybe_list(pred)
        if not isinstance(gt, list):
            gt = [gt]
        if not isinstance(pred, list):
            pred = [pred]
        if not pred:
            return 0.0
        if isinstance(gt[0], dict):
            gt = ["-".join(str(v) for v in item.values()) for item in gt]
        if isinstance(pred[0], dict):
            pred = ["-".join(str(v) for v in item.values()) for item in pred]
        gt = [_ldu_clean(a) for a in gt]
        pred = [_ldu_clean(a) for a in pred]
        if _ldu_isfloat(gt[0]) or _is_exact_match(gt[0]):
            score = "-".join(gt) == "-".join(pred)
        else:
            greedy = [max(anls_compute(str(g), str(p)) for p in pred) for g in gt]
            score = sum(greedy) / len(gt) * min(1, len(gt) / len(pred)) ** 0.5
    return float(score)


def _ldu_isfloat(num: Any) -> bool:
    try:
        float(num)
        return True
    except Exception:  # noqa: BLE001 - upstream catches everything here
        return False


def _ldu_parse_extracted(response: str) -> tuple[Any, str]:
    """``parse_extracted_answer``."""
    import ast
    import re

    try:
        concise = re.findall(r"<concise_answer>(.*?)</concise_answer>", response, re.DOTALL)[0]
        fmt = re.findall(r"<answer_format>(.*?)</answer_format>", response, re.DOTALL)[0]
    except IndexError:
        return "Fail to extract", "None"
    try:
        parsed = ast.literal_eval(concise)
        if isinstance(parsed, set):
            parsed = list(parsed)
    except Exception:  # noqa: BLE001 - upstream: the text stays
        parsed = concise
    return parsed, fmt


def _grade_longdocurl(frame: pl.DataFrame, recorded: Records | None, judge_policy: str) -> GradeResult:
    from gaia_fast.scorers.vlm._pandas import PANDAS_NA

    for name in ("index", "answer"):
        if name not in frame.columns:
            raise ValueError(f"longdocurl: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    na = frozenset(PANDAS_NA)
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    own_pred = "pred" in frame.columns  # upstream then scores without a judge
    cols = [c for c in ("index", "answer", "answer_format", "task_tag", "pred", "parsed_prediction", "parsed_output", "prediction") if c in frame.columns]
    lines = frame.select(pl.col(c).cast(pl.String) for c in cols).to_dicts()

    def text_cell(v: str | None) -> Any:
        return math.nan if v is None or v in na else v

    def missing(v: Any) -> bool:
        return v is None or (isinstance(v, float) and math.isnan(v))

    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    kept: list[tuple[Any, float]] = []
    routes = {"rules": 0, "recorded": 0}
    for line in lines:
        if own_pred:
            first, route = text_cell(line.get("pred")), "rules"
        else:
            rec = use.get(line["index"]) if use is not None else None
            if rec is None or "pred" not in rec:
                scores.append(None)
                status.append("needs_judge")
                why = "--judge none" if judge_policy == "none" else "no recorded extraction (pred) for this index"
                reasons.append(f"needs_judge: {why}; not counted")
                continue
            raw = rec["pred"]
            # pkl: the value as extracted; xlsx: text, its NA words NaN as pandas reads them
            first = text_cell(raw) if isinstance(raw, str) and rec.get("_from") != "pkl" else (math.nan if raw is None else raw)
            route = "recorded"
        pred: Any = ""
        for cand in (first, *(text_cell(line.get(k)) for k in ("parsed_prediction", "parsed_output", "prediction") if k in line)):
            if not missing(cand):
                pred = cand
                if isinstance(pred, str) and "<concise_answer>" in pred:
                    pred, _ = _ldu_parse_extracted(pred)
                break
        answer = text_cell(line.get("answer"))
        fmt = text_cell(line.get("answer_format")) if "answer_format" in line else ""
        try:
            score = 0.0 if pred == "Fail to extract" else longdocurl_eval_score(answer, pred, fmt)
            note = ""
        except Exception as e:  # noqa: BLE001 - upstream: any exception scores 0.0
            score, note = 0.0, f" (eval_score raised {type(e).__name__}: 0.0)"
        routes[route] += 1
        kept.append((line.get("task_tag"), score))
        scores.append(score)
        status.append("ok")
        reasons.append(f"{'rules' if own_pred else who}: pred {pred!r}, score {score:.4g}{note}")
    rows = frame.with_columns(
        pl.Series("score", scores, pl.Float64), pl.Series("status", status, pl.String), pl.Series("reason", reasons, pl.String)
    )
    report_rows: list[tuple[str, str, float, int]] = []
    if kept:
        report_rows.append(("overall", "generalized_accuracy", sum(s for _, s in kept) / len(kept), len(kept)))
        tags = sorted({t for t, _ in kept if t is not None and t not in na})
        for t in tags:
            sel = [s for tag, s in kept if tag == t]
            report_rows.append((t, "generalized_accuracy", sum(sel) / len(sel) if sel else 0.0, len(sel)))
    report = pl.DataFrame(
        report_rows, schema={"category": pl.String, "metric": pl.String, "score": pl.Float64, "num": pl.Int64}, orient="row"
    )
    n = len(kept)
    undecided = status.count("needs_judge")
    archive_method = f"judge {recorded.judge}" if has_record_files(recorded) else None
    if own_pred:
        archive_method = "rules (the result file's pred column)"
    stats = replay_stats(
        "longdocurl",
        "classic",
        rows,
        input_rows=frame.height,
        tasks=n,
        correct=float(sum(s for _, s in kept)),
        decided=decided_from_routes({"rules": routes["rules"], "recorded": routes["recorded"], "needs_judge": undecided}),
        method=method_line(
            [("rules on the file's own pred", routes["rules"]), (f"{who} extractions + eval_score", routes["recorded"])], undecided
        ),
        judge_policy=judge_policy,
        archive_method=archive_method,
        matches=replay_matches(archive_method, judge_policy, undecided),
        recorded=recorded,
    )
    return GradeResult(rows=rows, report=report, stats=stats)


# --------------------------------------------------------------------------------------
# MedQ-Bench caption / paired description: scores the judge wrote into the result file
# --------------------------------------------------------------------------------------

MEDQ_METRICS = ("completeness", "preciseness", "consistency", "quality_accuracy")


def _medq_value(scores_text: str | None, value_text: str | None) -> float | None:
    """One metric of one row: ``sum / len`` of its ``{m}_scores`` list (what ``score_one``
    stored in ``{m}``), else the ``{m}`` cell; None when the judge gave nothing."""
    import json

    if scores_text is not None and scores_text.strip().startswith("["):
        try:
            lst = json.loads(scores_text)
        except ValueError:
            lst = None
        if isinstance(lst, list):
            nums = [x for x in lst if isinstance(x, (int, float)) and not isinstance(x, bool)]
            return sum(nums) / len(nums) if nums else None
    if value_text is None:
        return None
    try:
        v = float(value_text)
    except ValueError:
        return None
    return None if math.isnan(v) else v


def _grade_medqbench(frame: pl.DataFrame, judge_policy: str) -> GradeResult:
    present = [m for m in MEDQ_METRICS if m in frame.columns or f"{m}_scores" in frame.columns]
    judged = bool(present) and judge_policy == "auto"
    cols = [c for m in MEDQ_METRICS for c in (m, f"{m}_scores") if c in frame.columns]
    lines = frame.select(pl.col(c).cast(pl.String) for c in cols).to_dicts() if cols else [{} for _ in range(frame.height)]
    values: dict[str, list[float | None]] = {m: [] for m in MEDQ_METRICS}
    status: list[str] = []
    reasons: list[str] = []
    for line in lines:
        if not judged:
            for m in MEDQ_METRICS:
                values[m].append(None)
            status.append("needs_judge")
            reasons.append("needs_judge: " + ("--judge none" if present else "the result file holds no judge scores") + "; not counted")
            continue
        got = {m: _medq_value(line.get(f"{m}_scores"), line.get(m)) for m in MEDQ_METRICS}
        for m in MEDQ_METRICS:
            values[m].append(got[m])
        status.append("ok")
        reasons.append("recorded judge: " + ", ".join(f"{m} {'none' if v is None else f'{v:g}'}" for m, v in got.items()))
    rows = frame.with_columns(
        *(pl.Series(f"{m}_value", values[m], pl.Float64) for m in MEDQ_METRICS),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    report = pl.DataFrame()
    if judged:
        avgs = {}
        for m in MEDQ_METRICS:
            valid = [v for v in values[m] if v is not None]
            avgs[m] = sum(valid) / len(valid) if valid else 0.0
        report = _one_row(avgs)
    n = status.count("ok")
    undecided = status.count("needs_judge")
    # Headline only: each judged row's mean metric as a fraction of the maximum score, 2.
    per_row = [
        sum(vs) / len(vs) / 2 for i in range(len(status)) if (vs := [values[m][i] for m in MEDQ_METRICS if values[m][i] is not None])
    ]
    stats = replay_stats(
        "medqbench",
        "classic",
        rows,
        input_rows=frame.height,
        tasks=n,
        correct=float(sum(per_row)),
        accuracy=sum(per_row) / len(per_row) if per_row else math.nan,
        decided=decided_from_routes({"recorded": n, "needs_judge": undecided}),
        method=f"recorded judge scores in the result file ({n} rows)" if n else f"{undecided} rows undecided (needs_judge)",
        judge_policy=judge_policy,
        archive_method="judge (scores written into the result file)" if present else None,
        matches=judged,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
