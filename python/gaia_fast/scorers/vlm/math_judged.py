"""Judge-extracted math (MathVista_MINI): a judge model only extracts the answer from the
model's response; rules decide whether it is right. Re-grading applies VLMEvalKit's rule
first (``post_check(prefetch=True)``) and takes the archive's recorded extraction (``res``)
only for the rows the rule leaves to the judge; laid out as extract -> score -> aggregate
(``MathVista_acc``).

Reference: open-compass/VLMEvalKit, ``MathVista.evaluate_heuristic`` /
``vlmeval/dataset/utils/mathvista.py`` (head e8e78f05; first as
``vlmeval/evaluate/mathvista_eval.py`` in 8cd20547, 2024-01-01). ``MathVista_auxeval`` asks
``post_check(line, prefetch=True)`` first:

* ``multi_choice``: ``can_infer(prediction, {A: choice0, ...})``; any truthy result (a
  letter, or ``Z``) is the row's ``res`` with ``log = "Prefetch succeed"``;
* ``free_form`` ``integer`` / ``float``: ``int()`` / ``float()`` of the prediction and of the
  answer; when they are equal (and the value is not 0: ``post_check`` returns the value, and
  0 reads as false) ``res`` is that number;
* other answer types (``text``, ``list``): never (upstream compares ``str(None)`` with the
  answer, so such rows are never right whatever the judge extracts).

Every other row's ``res`` is the judge's extraction, recorded in ``{stem}_{J}.xlsx`` (the rows
plus ``res`` and ``log``) and ``{stem}_{J}.pkl`` (``index -> {"log", "res"}``).
``MathVista_acc`` re-reads the xlsx and calls ``post_check(prefetch=False)`` on ``res``
(pandas' reading: an empty ``res`` or one of pandas' NA words is NaN, ``str`` ``"nan"``).
The report ``{stem}_{J}_score.csv``: ``Task&Skill, tot, prefetch, hit, prefetch_rate, acc``,
rows ``Overall`` then each skill and task in order of first appearance.

Variants (``post_check`` era x ``can_infer`` era):

* ``2024-01`` (98e3733f, 2024-02-04, to c26761b8): ``post_check(prefetch=False)`` returns
  the compared value, so a right answer equal to 0 is not a hit; ``can_infer`` classic.
* ``classic`` (c26761b8, 2024-04-21): it returns True; ``can_infer`` classic.
* ``2025-08`` (c3371551, 2025-08-04) and ``2026-06`` (a67ace50, 2026-06-17): the same with
  those ``can_infer`` versions (head is ``2026-06``).
"""

from __future__ import annotations

import ast
import math
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import PANDAS_NA
from gaia_fast.scorers.vlm._replay import (
    check_replay_args,
    decided_from_routes,
    has_record_files,
    judge_label,
    method_line,
    replay_matches,
    replay_stats,
)
from gaia_fast.scorers.vlm.mcq import can_infer
from gaia_fast.scorers.vlm.recorded import Records

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=``.
RECORD_KIND = "math_judged"

__all__ = ["BENCHMARKS", "PREFETCH_LOG", "VARIANTS", "grade", "post_check"]

BENCHMARKS = {"mathvista": "mathvista", "mathverse": "mathverse", "logicvista": "logicvista", "dynamath": "dynamath"}
VARIANTS = ("2024-01", "classic", "2025-08", "2026-06")
#: ``can_infer``'s version in each variant.
_CAN_INFER = {"2024-01": "classic", "classic": "classic", "2025-08": "2025-08", "2026-06": "2026-06"}
#: The log ``MathVista_auxeval`` writes for a row the rule decided.
PREFETCH_LOG = "Prefetch succeed"
_NA = frozenset(PANDAS_NA)


def _cell(value: str | None) -> str:
    """A text cell as ``str()`` of what pandas loads from the xlsx (NaN for the NA words)."""
    return "nan" if value is None or value in _NA else value


class _Crash(Exception):
    """An exception upstream does not catch (``post_check`` catches only ValueError)."""


def _choices(text: str | None) -> dict[str, Any]:
    # ``eval(line['choices'])``: a Python list literal; anything else raises upstream.
    if text is None or text in _NA:
        raise _Crash("choices is empty (eval of NaN raises TypeError upstream)")
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError) as e:
        raise _Crash(f"choices {text[:60]!r} is not a Python literal ({type(e).__name__})") from None
    try:
        return {chr(65 + i): v for i, v in enumerate(value)}
    except TypeError:
        raise _Crash(f"choices {text[:60]!r} is not a list") from None


def post_check(line: dict[str, str | None], response: str, *, prefetch: bool, variant: str = "classic") -> Any:
    """``post_check`` of one row. ``line``: the row's text cells (``question_type``,
    ``answer_type``, ``answer``, ``answer_option``, ``choices``); ``response``: the text read
    (the prediction when ``prefetch``, else ``res``), NaN as ``"nan"``. Returns what upstream
    returns: with ``prefetch`` the value (a letter, a number) or False; without it True /
    False (``2024-01``: the value). Raises ``_Crash`` where upstream raises."""
    res: Any = None
    ans: Any = _cell(line.get("answer"))
    try:
        if line.get("question_type") == "multi_choice":
            ans = _cell(line.get("answer_option"))
            res = can_infer(response, _choices(line.get("choices")), _CAN_INFER[variant])
            res = False if res is None else res
            if prefetch:
                return res
        elif line.get("answer_type") == "integer":
            res = int(response)
            ans = int(_cell(line.get("answer")))
        elif line.get("answer_type") == "float":
            res = float(response)
            ans = float(_cell(line.get("answer")))
        else:
            res = str(res)
            ans = str(ans)
    except ValueError:
        pass
    if res == ans:
        return res if (prefetch or variant == "2024-01") else True
    return False


def _skills(text: str | None) -> list[Any]:
    """``eval(item['skills'])``, or ``[item['skills']]`` where that is a SyntaxError."""
    if text is None or text in _NA:
        raise _Crash("skills is empty (eval of NaN raises TypeError upstream)")
    try:
        value = ast.literal_eval(text)
    except SyntaxError:
        return [text]
    except ValueError:
        raise _Crash(f"skills {text[:60]!r} is not a Python literal") from None
    try:
        return list(value)
    except TypeError:
        raise _Crash(f"skills {text[:60]!r} is not iterable") from None


_REPORT_SCHEMA = {
    "Task&Skill": pl.String, "tot": pl.Int64, "prefetch": pl.Int64, "hit": pl.Int64,
    "prefetch_rate": pl.Float64, "acc": pl.Float64,
}  # fmt: skip


def _report(keys: list[tuple[str, list[Any], bool, bool]]) -> pl.DataFrame:
    """``MathVista_acc``'s table from (task, skills, prefetched, hit) per row."""
    tot: dict[Any, int] = {}
    fetch: dict[Any, int] = {}
    hit: dict[Any, int] = {}
    for cate, skills, fetched, right in keys:
        tot["Overall"] = tot.get("Overall", 0) + 1
        for s in skills:
            tot[s] = tot.get(s, 0) + 1
        tot[cate] = tot.get(cate, 0) + 1
        for k in ("Overall", cate, *skills) if fetched else ():
            fetch[k] = fetch.get(k, 0) + 1
        for k in ("Overall", cate, *skills) if right else ():
            hit[k] = hit.get(k, 0) + 1
    rows = [
        (str(k), t, fetch.get(k, 0), hit.get(k, 0), fetch.get(k, 0) / t * 100, hit.get(k, 0) / t * 100)
        for k, t in tot.items()
    ]
    return pl.DataFrame(rows, schema=_REPORT_SCHEMA, orient="row")


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "mathvista",
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
) -> GradeResult:
    """Grade a MathVista_MINI result table (``index``, ``prediction``, ``answer``,
    ``question_type``, ``answer_type``, ``choices``, ``answer_option``, ``task``,
    ``skills``).

    Each row: the prefetch rule first; a row it leaves open takes the recorded extraction
    (``recorded``: :func:`gaia_fast.scorers.vlm.recorded.find_records` with
    ``kind="math_judged"``), else gets ``status="needs_judge"`` (left out of the report).
    ``judge_policy="none"``: only the rule's rows are graded. Live judging is not
    supported (``judge`` must be None). ``rows``: every input row plus ``res`` (the
    extracted answer), ``log``, ``score`` (1.0 hit, 0.0 miss), ``status``, ``reason``.
    ``report``: ``MathVista_acc``. ``stats``: ``decided`` (rules / recorded / live /
    undecided), ``method``, ``archive_method``, ``matches_archive``,
    ``prefetch_disagreements`` (rows whose recorded log says the opposite of the rule
    about prefetching: a sign of another ``can_infer`` version). ``seed`` is unused.
    """
    frame = _check_frame(frame)
    bench = BENCHMARKS.get(benchmark.lower()) if isinstance(benchmark, str) else None
    if bench is None:
        raise ValueError(f"unknown judge-extracted math benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    check_replay_args(judge_policy, recorded)
    if judge is not None:
        raise ValueError(f"{bench}: live judging is not supported (the extraction prompt is not ported); rows without a recorded extraction are needs_judge")
    if bench == "dynamath":
        if variant not in (None, "classic"):
            raise ValueError(f"dynamath has one rule here (variant 'classic', from b643eed3), not {variant!r}")
        return _grade_dynamath(frame, recorded, judge_policy)
    if bench == "logicvista":
        if variant not in (None, "classic"):
            raise ValueError(f"logicvista has one rule (variant 'classic', from 031bc6d1), not {variant!r}")
        return _grade_logicvista(frame, recorded, judge_policy)
    if bench == "mathverse":
        if variant not in (None, "classic"):
            raise ValueError(f"mathverse has one rule (variant 'classic', from a18f5d69), not {variant!r}")
        return _grade_mathverse(frame, recorded, judge_policy)
    variant = "classic" if variant is None else variant  # most archives: 2024-04 .. 2025-08 (as mcq)
    if variant not in VARIANTS:
        raise ValueError(f"unknown MathVista variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")
    need = ("index", "prediction", "answer", "question_type", "answer_type", "task", "skills")
    for name in need:
        if name not in frame.columns:
            raise ValueError(f"{bench}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    use = recorded if judge_policy == "auto" else None
    cols = [c for c in ("index", "prediction", "answer", "question_type", "answer_type", "choices", "answer_option", "task", "skills") if c in frame.columns]
    lines = frame.select(pl.col(c).cast(pl.String) for c in cols).to_dicts()
    who = judge_label(recorded)
    out_res: list[str | None] = []
    out_log: list[str | None] = []
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    routes = {"rules": 0, "recorded": 0, "needs_judge": 0, "error": 0}
    disagree = 0
    kept: list[tuple[str, list[Any], bool, bool]] = []
    reference_error = None
    for row_no, line in enumerate(lines):
        try:
            pre = post_check(line, _cell(line.get("prediction")), prefetch=True, variant=variant)
            rec = use.get(line["index"]) if use is not None and line.get("index") is not None else None
            rec_log = None if rec is None else rec.get("log")
            if pre:
                res_text, log, route = str(pre), PREFETCH_LOG, "rules"
                if rec is not None and rec_log is not None and rec_log != PREFETCH_LOG:
                    disagree += 1
            elif rec is not None and "res" in rec:
                raw = rec.get("res")
                res_text = _cell(None if raw is None else str(raw))
                log, route = (None if rec_log is None else str(rec_log)), "recorded"
                if rec_log == PREFETCH_LOG:
                    disagree += 1
            else:
                out_res.append(None)
                out_log.append(None)
                scores.append(None)
                status.append("needs_judge")
                why = "--judge none" if judge_policy == "none" else "no recorded extraction for this index"
                reasons.append(f"needs_judge: the rule did not decide ({why}); not counted")
                routes["needs_judge"] += 1
                continue
            hit = bool(post_check(line, res_text, prefetch=False, variant=variant))
            skills = _skills(line.get("skills"))
        except _Crash as e:
            out_res.append(None)
            out_log.append(None)
            scores.append(None)
            status.append("error")
            reasons.append(f"error: {e}")
            routes["error"] += 1
            reference_error = reference_error or f"MathVista: row {row_no + 2}: {e}; left out"
            continue
        task = _cell(line.get("task"))
        kept.append((task, skills, route == "rules", hit))
        out_res.append(res_text)
        out_log.append(log)
        scores.append(1.0 if hit else 0.0)
        status.append("ok")
        verdict = "right" if hit else "wrong"
        if route == "rules":
            reasons.append(f"rules (prefetch): {res_text!r}, {verdict}")
        else:
            reasons.append(f"{who} extracted {res_text!r}: {verdict}")
        routes[route] += 1
    report = _report(kept)
    rows = frame.with_columns(
        pl.Series("res", out_res, pl.String),
        pl.Series("log", out_log, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    decided = decided_from_routes(routes)
    method = method_line([("rules", decided["rules"], "prefetch"), (who, decided["recorded"])], decided["undecided"])
    archive_method = f"rules + judge {recorded.judge}" if has_record_files(recorded) else None
    n_hit = sum(1 for k in kept if k[3])
    stats = replay_stats(
        bench,
        variant,
        rows,
        input_rows=frame.height,
        tasks=len(kept),
        correct=n_hit,
        decided=decided,
        method=method,
        judge_policy=judge_policy,
        archive_method=archive_method,
        matches=replay_matches(archive_method, judge_policy, decided["undecided"], disagree),
        counts={"prefetch_disagreements": disagree},
        crashed_rows=routes["error"],
        reference_error=reference_error,
        recorded=recorded,
    )
    return GradeResult(rows=rows, report=report, stats=stats)


# --------------------------------------------------------------------------------------
# MathVerse (a18f5d69, 2024-12-06, to head): the judge extracts every row's answer
# (``{stem}_{J}_extract``), ``post_check_score`` compares it with the answer
# (``str().strip()`` equality: ``Prefetch succeed``, score True), the judge scores the rest
# (``{stem}_{J}_score``: ``score`` True/False); ``MathVerse_acc`` reports per
# ``problem_version`` the overall, per-subject and per-subfield accuracy (x 100).
# --------------------------------------------------------------------------------------


def _truth(value: Any) -> bool | None:
    """A recorded ``score`` (a bool as the xlsx or pickle keeps it), None if it is none."""
    text = str(value).strip().lower()
    if text in ("true", "1", "1.0"):
        return True
    if text in ("false", "0", "0.0"):
        return False
    return None


def _metadata(text: str | None) -> dict[str, Any]:
    """``json.loads(metadata.replace("'", '"'))`` (upstream raises where that fails)."""
    import json

    if text is None:
        raise _Crash("metadata is empty (NaN has no .replace upstream)")
    try:
        value = json.loads(text.replace("'", '"'))
    except ValueError as e:
        raise _Crash(f"metadata {text[:60]!r} is not JSON once quotes are swapped ({e})") from None
    if not isinstance(value, dict):
        raise _Crash(f"metadata {text[:60]!r} is not an object")
    return value


def _report_mathverse(versions: list[Any], subjects: list[Any], subfields: list[Any], scores: list[bool]) -> pl.DataFrame:
    """``MathVerse_acc``: a row per problem version; upstream takes versions, subjects and
    subfields in ``set`` order (varying between runs): sorted here."""

    def mean(idx: list[int]) -> float:
        return sum(scores[i] for i in idx) / len(idx) * 100 if idx else math.nan

    order = sorted(set(versions), key=str)
    subj, subf = sorted(set(subjects), key=str), sorted(set(subfields), key=str)
    if set(map(str, subj)) & set(map(str, subf)) or {"split", "Overall"} & set(map(str, subj + subf)):
        raise _Crash("a subject and a subfield (or split/Overall) share a name: upstream's columns get unequal lengths")
    n = len(scores)
    data: dict[str, list[Any]] = {"split": [], "Overall": []}
    for c in (*subj, *subf):
        data[str(c)] = []
    for p in order:
        rows = [i for i in range(n) if versions[i] == p]
        data["split"].append(str(p))
        data["Overall"].append(mean(rows))
        for c in subj:
            data[str(c)].append(mean([i for i in rows if subjects[i] == c]))
        for c in subf:
            data[str(c)].append(mean([i for i in rows if subfields[i] == c]))
    schema = {k: (pl.String if k == "split" else pl.Float64) for k in data}
    return pl.DataFrame(data, schema=schema)


def _grade_mathverse(frame: pl.DataFrame, recorded: Records | None, judge_policy: str) -> GradeResult:
    for name in ("index", "answer", "prediction", "metadata"):
        if name not in frame.columns:
            raise ValueError(f"mathverse: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    cols = [c for c in ("index", "answer", "metadata", "problem_version") if c in frame.columns]
    lines = frame.select(pl.col(c).cast(pl.String) for c in cols).to_dicts()
    out_extract: list[str | None] = []
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    routes = {"rules": 0, "recorded": 0, "needs_judge": 0, "error": 0}
    kept: list[tuple[Any, Any, Any, bool]] = []
    reference_error = None
    for row_no, line in enumerate(lines):
        rec = use.get(line["index"]) if use is not None and line.get("index") is not None else None
        try:
            meta = _metadata(line.get("metadata"))
            dup = {"subject", "subfield", "problem_version"} & set(meta) & set(frame.columns)
            if dup:
                raise _Crash(f"{min(dup)!r} is both a column and a metadata key (duplicate columns upstream)")
            version = meta["problem_version"] if "problem_version" in meta else line.get("problem_version")
            if "problem_version" not in meta and "problem_version" not in frame.columns:
                raise _Crash("no problem_version (KeyError upstream)")
            subject, subfield = meta.get("subject", math.nan), meta.get("subfield", math.nan)
        except _Crash as e:
            out_extract.append(None)
            scores.append(None)
            status.append("error")
            reasons.append(f"error: {e}")
            routes["error"] += 1
            reference_error = reference_error or f"MathVerse: row {row_no + 2}: {e}; left out"
            continue
        extract = None if rec is None or "extract" not in rec else _cell(None if rec["extract"] is None else str(rec["extract"]))
        if extract is None:
            out_extract.append(None)
            scores.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded extraction for this index"
            reasons.append(f"needs_judge: every row's answer is extracted by the judge ({why}); not counted")
            routes["needs_judge"] += 1
            continue
        answer = _cell(line.get("answer"))
        if extract.strip() == answer.strip():
            right, route = True, "rules"
            reasons.append(f"rules (post_check_score): the extraction {extract.strip()!r} equals the answer")
        else:
            got = None if "score" not in rec else _truth(rec["score"])
            if got is None:
                out_extract.append(extract)
                scores.append(None)
                status.append("needs_judge")
                reasons.append(f"needs_judge: {who} extracted {extract!r}, not the answer, and no recorded score; not counted")
                routes["needs_judge"] += 1
                continue
            right, route = got, "recorded"
            reasons.append(f"{who}: extracted {extract!r}, scored {'right' if got else 'wrong'}")
        out_extract.append(extract)
        scores.append(1.0 if right else 0.0)
        status.append("ok")
        routes[route] += 1
        kept.append((version, subject, subfield, right))
    try:
        report = _report_mathverse([k[0] for k in kept], [k[1] for k in kept], [k[2] for k in kept], [k[3] for k in kept])
    except _Crash as e:
        reference_error = reference_error or f"MathVerse_acc: {e}"
        report = pl.DataFrame({"split": [], "Overall": []}, schema={"split": pl.String, "Overall": pl.Float64})
    rows = frame.with_columns(
        pl.Series("extracted", out_extract, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    decided = decided_from_routes(routes)
    method = method_line([("rules on the recorded extraction", decided["rules"]), (who, decided["recorded"])], decided["undecided"])
    archive_method = f"judge {recorded.judge} (extract + score)" if has_record_files(recorded) else None
    n_right = sum(1 for k in kept if k[3])
    stats = replay_stats(
        "mathverse",
        "classic",
        rows,
        input_rows=frame.height,
        tasks=len(kept),
        correct=n_right,
        decided=decided,
        method=method,
        judge_policy=judge_policy,
        archive_method=archive_method,
        matches=replay_matches(archive_method, judge_policy, decided["undecided"]),
        crashed_rows=routes["error"],
        reference_error=reference_error,
        recorded=recorded,
    )
    return GradeResult(rows=rows, report=report, stats=stats)


# --------------------------------------------------------------------------------------
# LogicVista (031bc6d1, 2025-01-20, to head): the judge extracts the option letters of
# every row (``res``, recorded in ``{stem}_{J}.xlsx/.pkl`` with ``log`` and ``hit``;
# ``J`` is ``gpt4o-mini`` for gpt-4o-mini, ``gpt4`` for gpt-4-0125); ``LogicVista_auxeval``
# sets ``hit`` when the sorted lowercased letters equal the sorted lowercased answer
# parts (``answer.split(", ")``). ``evaluate_logicvista`` reports Overall and the five
# skills (``skill`` contains the name): ``Task&Skill, tot, hit, acc``.
# --------------------------------------------------------------------------------------

LOGICVISTA_SKILLS = ("inductive", "deductive", "numerical", "spatial", "mechanical")


def logicvista_hit(res: str | None, answer: str) -> int:
    """``LogicVista_auxeval``'s verdict on an extraction (``None``/empty: its failure, 0)."""
    if not res or not (res.isupper() and res.isalpha()):
        return 0
    parts = sorted(a.lower() for a in answer.split(", "))
    return int("".join(sorted(ch.lower() for ch in res)) == "".join(parts))


def _grade_logicvista(frame: pl.DataFrame, recorded: Records | None, judge_policy: str) -> GradeResult:
    for name in ("index", "answer", "prediction", "skill"):
        if name not in frame.columns:
            raise ValueError(f"logicvista: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    lines = frame.select(pl.col(c).cast(pl.String) for c in ("index", "answer", "skill")).to_dicts()
    out_res: list[str | None] = []
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    routes = {"recorded": 0, "needs_judge": 0, "error": 0}
    disagree = 0
    kept: list[tuple[str, int]] = []
    reference_error = None
    for row_no, line in enumerate(lines):
        rec = use.get(line["index"]) if use is not None and line.get("index") is not None else None
        if rec is None or "res" not in rec:
            out_res.append(None)
            scores.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded extraction for this index"
            reasons.append(f"needs_judge: every row's letters are extracted by the judge ({why}); not counted")
            routes["needs_judge"] += 1
            continue
        if line.get("skill") is None:
            out_res.append(None)
            scores.append(None)
            status.append("error")
            reasons.append("error: no skill (str.contains gives NaN and the row filter raises upstream)")
            routes["error"] += 1
            reference_error = reference_error or f"LogicVista: row {row_no + 2} has no skill (ValueError upstream); left out"
            continue
        raw = rec.get("res")
        res = None if raw is None else str(raw)
        answer = line.get("answer")
        if answer is None:
            raise ValueError(f"logicvista: row {row_no + 2} has no answer (upstream's answer.split raises)")
        hit = logicvista_hit(res, answer)
        rec_hit = rec.get("hit")
        if rec_hit is not None and _truth(rec_hit) is not None and int(_truth(rec_hit)) != hit:
            disagree += 1
        out_res.append(res)
        scores.append(float(hit))
        status.append("ok")
        reasons.append(f"{who} extracted {res!r}: " + ("right" if hit else f"wrong (answer {answer!r})"))
        routes["recorded"] += 1
        kept.append((line["skill"], hit))
    report_rows = []
    for name in ("Overall", *LOGICVISTA_SKILLS):
        sel = [h for sk, h in kept if name == "Overall" or name in sk]
        tot, hits = len(sel), sum(sel)
        acc = hits / tot * 100 if tot else (math.nan if hits == 0 else math.inf)
        report_rows.append((name, tot, hits, acc))
    report = pl.DataFrame(report_rows, schema={"Task&Skill": pl.String, "tot": pl.Int64, "hit": pl.Int64, "acc": pl.Float64}, orient="row")
    rows = frame.with_columns(
        pl.Series("res", out_res, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    decided = decided_from_routes(routes)
    method = method_line([(f"{who} extractions + LogicVista_auxeval's letter rule", decided["recorded"])], decided["undecided"])
    archive_method = f"judge {recorded.judge}" if has_record_files(recorded) else None
    n_hit = sum(h for _, h in kept)
    stats = replay_stats(
        "logicvista",
        "classic",
        rows,
        input_rows=frame.height,
        tasks=len(kept),
        correct=n_hit,
        decided=decided,
        method=method,
        judge_policy=judge_policy,
        archive_method=archive_method,
        matches=replay_matches(archive_method, judge_policy, decided["undecided"], disagree),
        counts={"record_disagreements": disagree},
        crashed_rows=routes["error"],
        reference_error=reference_error,
        recorded=recorded,
    )
    return GradeResult(rows=rows, report=report, stats=stats)


# --------------------------------------------------------------------------------------
# DynaMath (b643eed3, 2025-04-23, to head): ``DynaMath_auxeval`` reads the prediction's
# JSON ``short answer`` (or the prediction itself) by rules and asks the judge only when
# neither parses (multiple choice / float); ``{stem}_{J}.xlsx/.pkl`` record ``parse``,
# ``extracted`` and ``correct``. The report ``{stem}_{J}_score.csv``: rows ``Average`` and
# ``Worst Case`` (a question is right when all its variants are), columns ``Overall``,
# ``Subject-*`` and ``Level-*`` (set order upstream).
# --------------------------------------------------------------------------------------


def _dyn_preprocess(text: str) -> str:
    if 0 <= text.find("{") < text.rfind("}"):
        text = text[text.find("{") : text.rfind("}") + 1]
    return text.replace("\\", "").replace("\\n", "\n")


def _dyn_parse(answer: Any, answer_type: Any) -> tuple[bool, Any]:
    """``parse_answer``; raises where upstream raises (a non-text short answer)."""
    if answer_type == "float":
        if answer.isdigit():
            return True, float(answer)
        head = answer.split(" ")[0]
        try:
            if "\u03c0" in head:
                return True, float(head.split("\u03c0")[0]) * math.pi
            return True, float(head)
        except Exception:  # noqa: BLE001 - upstream catches everything here
            return False, None
    if answer_type == "multiple choice":
        if len(answer) == 1:
            return True, answer.upper()
        flags = [ch in answer.upper() for ch in "ABCDE"]
        if sum(flags) == 1:
            return True, "ABCDE"[flags.index(True)]
        return False, None
    return True, answer


def dynamath_rule(prediction: str, answer_type: Any, answer: Any) -> tuple[bool, Any, bool] | None:
    """``DynaMath_auxeval`` without its judge: ``(parse, extracted, correct)``, or None
    where the row goes to the judge. ``prediction`` is ``str()`` of the cell; ``answer`` as
    pandas holds it."""
    import json

    pred = _dyn_preprocess(prediction)
    try:
        dj = json.loads(pred, strict=False)
        short = dj.get("short answer")
        assert short is not None
        ok, short = _dyn_parse(short, answer_type)
        assert ok
    except Exception:  # noqa: BLE001 - upstream falls back on any failure
        ok, short = _dyn_parse(pred, answer_type)
        if not ok:
            return None
    if answer_type == "float":
        return True, short, abs(float(short) - float(answer)) <= 0.001
    if answer_type == "multiple choice":
        return True, short, short == answer
    return True, short, short.lower() in answer.lower()


def _pandas_values(series: pl.Series) -> list[Any]:
    from gaia_fast.scorers.vlm._pandas import pandas_column

    kind, cells = pandas_column(series)
    values = cells.to_list()
    return [math.nan if v is None else v for v in values] if kind == "object" else values


def _np_mean_bool(values: list[bool]) -> float:
    return sum(values) / len(values) if values else math.nan


def _report_dynamath(rows: list[dict[str, Any]]) -> pl.DataFrame:
    def key(v: Any) -> str:
        return str(v)

    subs = sorted({r["subject"] for r in rows}, key=key)
    lvls = sorted({r["knowledge_level"] for r in rows}, key=key)
    avg: dict[str, float] = {"Overall": _np_mean_bool([r["correct"] for r in rows])}
    for s in subs:
        avg[f"Subject-{s}"] = _np_mean_bool([r["correct"] for r in rows if r["subject"] == s])
    for v in lvls:
        avg[f"Level-{v}"] = _np_mean_bool([r["correct"] for r in rows if r["knowledge_level"] == v])
    worst_rows = [r for r in rows if r["varid"] == 1]
    qid2corr: dict[Any, Any] = {r["index"]: True for r in worst_rows}
    for r in rows:
        if r["qid"] not in qid2corr:
            raise _Crash(f"qid {r['qid']!r} is not the index of a varid-1 row (KeyError upstream)")
        qid2corr[r["qid"]] = qid2corr[r["qid"]] * r["correct"]
    wc = [bool(qid2corr[r["qid"]]) for r in worst_rows]
    worst: dict[str, float] = {"Overall": _np_mean_bool(wc)}
    for s in sorted({r["subject"] for r in worst_rows}, key=key):
        worst[f"Subject-{s}"] = _np_mean_bool([c for r, c in zip(worst_rows, wc) if r["subject"] == s])
    for v in sorted({r["knowledge_level"] for r in worst_rows}, key=key):
        worst[f"Level-{v}"] = _np_mean_bool([c for r, c in zip(worst_rows, wc) if r["knowledge_level"] == v])
    cols = list(avg) + [c for c in worst if c not in avg]
    data: dict[str, list[Any]] = {"Setting": ["Average", "Worst Case"]}
    for c in cols:
        data[c] = [avg.get(c, math.nan), worst.get(c, math.nan)]
    return pl.DataFrame(data, schema={c: (pl.String if c == "Setting" else pl.Float64) for c in data})


def _grade_dynamath(frame: pl.DataFrame, recorded: Records | None, judge_policy: str) -> GradeResult:
    need = ("index", "prediction", "answer", "answer_type", "subject", "knowledge_level", "varid", "qid")
    for name in need:
        if name not in frame.columns:
            raise ValueError(f"dynamath: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    vals = {c: _pandas_values(frame[c].cast(pl.String)) for c in need}
    preds = [str(v) for v in vals["prediction"]]
    out_ext: list[str | None] = []
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    routes = {"rules": 0, "recorded": 0, "needs_judge": 0, "error": 0}
    kept: list[dict[str, Any]] = []
    disagree = 0
    reference_error = None
    for i in range(frame.height):
        rec = use.get(vals["index"][i]) if use is not None else None
        try:
            got = dynamath_rule(preds[i], vals["answer_type"][i], vals["answer"][i])
        except Exception as e:  # noqa: BLE001 - upstream's evaluation raises here
            out_ext.append(None)
            scores.append(None)
            status.append("error")
            reasons.append(f"error: {type(e).__name__} upstream ({e})")
            routes["error"] += 1
            reference_error = reference_error or f"DynaMath: row {i + 2}: {type(e).__name__} upstream; left out"
            continue
        if got is not None:
            _, extracted, right = got
            route = "rules"
            reasons.append(f"rules (DynaMath_auxeval without the judge): {extracted!r}, " + ("right" if right else "wrong"))
            if rec is not None and _truth(rec.get("correct")) is not None and _truth(rec.get("correct")) != bool(right):
                disagree += 1
        elif rec is not None and _truth(rec.get("correct")) is not None:
            extracted, right, route = rec.get("extracted"), bool(_truth(rec.get("correct"))), "recorded"
            reasons.append(f"{who}: the judge formatted the answer ({extracted!r}), " + ("right" if right else "wrong"))
        else:
            out_ext.append(None)
            scores.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded verdict for this index"
            reasons.append(f"needs_judge: no short answer the rules can read ({why}); not counted")
            routes["needs_judge"] += 1
            continue
        out_ext.append(None if extracted is None else str(extracted))
        scores.append(1.0 if right else 0.0)
        status.append("ok")
        routes[route] += 1
        kept.append({c: vals[c][i] for c in ("index", "subject", "knowledge_level", "varid", "qid")} | {"correct": bool(right)})
    try:
        report = _report_dynamath(kept)
    except _Crash as e:
        reference_error = reference_error or f"DynaMath: {e}"
        report = pl.DataFrame({"Setting": [], "Overall": []}, schema={"Setting": pl.String, "Overall": pl.Float64})
    rows = frame.with_columns(
        pl.Series("extracted", out_ext, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    decided = decided_from_routes(routes)
    method = method_line([("rules", decided["rules"]), (who, decided["recorded"])], decided["undecided"])
    archive_method = f"rules + judge {recorded.judge}" if has_record_files(recorded) else None
    n_right = sum(1 for r in kept if r["correct"])
    stats = replay_stats(
        "dynamath",
        "classic",
        rows,
        input_rows=frame.height,
        tasks=len(kept),
        correct=n_right,
        decided=decided,
        method=method,
        judge_policy=judge_policy,
        archive_method=archive_method,
        matches=replay_matches(archive_method, judge_policy, decided["undecided"], disagree),
        counts={"record_disagreements": disagree},
        crashed_rows=routes["error"],
        reference_error=reference_error,
        recorded=recorded,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
