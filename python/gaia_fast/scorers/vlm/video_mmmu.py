"""VideoMMMU: the MMMU-style parsers and judges of ``vlmeval/dataset/videommmu.py``, laid out
as extract (``process_results``) -> score (``eval_multi_choice`` / ``eval_open``) ->
aggregate (``aggregate_results``).

Reference: open-compass/VLMEvalKit ``VideoMMMU.evaluate`` (8035155d, 2025-11-26, to head
e8e78f05; unchanged in between apart from file names):

* ``process_results``: the text after the last ``Answer:`` (stripped); ``multiple-choice``
  rows go to ``parse_multi_choice_response`` (options ``json.loads(options)`` lettered
  A, B, ...: ``X.`` and ``X:`` anywhere, else ``(X)``, else ``X `` after padding, else with
  more than 5 tokens the option text; the last occurrence wins; none: ``"No Answere Found"``),
  every other type to ``parse_open_response`` (MMMU's key sub-responses, numbers,
  ``normalize_str``, a ``set``); an empty text is ``"API Error"``.
* The parsed predictions are stored in ``{stem}_score.xlsx`` and read back before scoring:
  in an ``.xlsx`` / ``.tsv`` store a list is its ``str()``, so ``eval_open`` walks the
  characters of that text (an open question then only matches an answer that normalises to
  ``''``: in practice open and ``perception`` rows are wrong); a ``.json`` store keeps the
  list (``stored_as="json"``), but ``load`` then returns a list of records and
  ``.iterrows()`` raises upstream: no report. ``eval_multi_choice`` is equality with the answer (a
  ``perception`` row compares the parsed list: never equal).
* ``aggregate_results``: rows whose ``parsed_pred`` is ``"API Error"`` are left out; per
  ``category`` in order of first appearance ``total``, ``hit``, ``acc`` (hit / total *
  100), then ``Overall``; written as ``{stem}_score_score.csv`` with one column per category
  and the rows ``total``, ``hit``, ``acc`` (no row labels, floats).

A prediction cell that is empty (NaN) makes ``rpartition`` raise upstream: the row gets
``status="error"`` and ``stats["reference_error"]`` says so (no report).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm.recorded import Records

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=``.
RECORD_KIND = "video_mmmu"

__all__ = ["eval_open", "grade", "parse_multi_choice_response", "parse_open_response", "process_prediction"]

STORES = ("xlsx", "json")
_API_ERROR = "API Error"
_NOT_FOUND = "No Answere Found"



#: The variants a registry entry may name (one rule).
VARIANTS = ("classic",)

def _check_is_number(s: str) -> bool:
    try:
        float(s.replace(",", ""))
        return True
    except ValueError:
        return False


def normalize_str(s: str) -> list[Any]:
    """``normalize_str``: a number (commas dropped) as ``[round(float, 2)]``; else lower
    case, a single character padded both ways."""
    s = s.strip()
    if _check_is_number(s):
        return [round(float(s.replace(",", "")), 2)]
    s = s.lower()
    if len(s) == 1:
        return [" " + s, s + " "]
    return [s]


_NUM_COMMAS = re.compile(r"-?\b\d{1,3}(?:,\d{3})+\b")
_NUM_SCI = re.compile(r"-?\d+(?:\.\d+)?[eE][+-]?\d+")
_NUM_SIMPLE = re.compile(r"-?(?:\d+\.\d+|\.\d+|\d+\b)(?![eE][+-]?\d+)(?![,\d])")


def extract_numbers(s: str) -> list[str]:
    return _NUM_COMMAS.findall(s) + _NUM_SCI.findall(s) + _NUM_SIMPLE.findall(s)


_INDICATORS = (
    "could be ", "so ", "is ", "thus ", "therefore ", "final ", "answer ", "result ", "are ", "in total ", "total ",
    "identify ", "recognize ", "calculated as ", "counted as ", "measured as ", "observed as ", "concluded as ",
    "found to be ", "equals ", "determined to be ", "number of ", "value is ", "adds up to ", "have ", "has ",
)


def parse_open_response(response: str) -> list[Any] | str:
    """``parse_open_response`` (MMMU's, as VideoMMMU copies it): the normalised candidates as
    a list (upstream a ``set`` turned list, in hash order; the order never matters here)."""
    if response in (_API_ERROR, ""):
        return _API_ERROR
    resp_all = response.strip().strip(".").lower()
    subs = re.split(r"\.\s(?=[A-Z])|\n", resp_all)
    indicators = list(_INDICATORS)
    keys: list[str] = []
    for i, resp in enumerate(subs):
        if i == len(subs) - 1:
            indicators.append("=")
        shortest = None
        for ind in indicators:
            if ind in resp:
                tail = resp.split(ind)[-1].strip()
                if not shortest or len(tail) < len(shortest):
                    shortest = tail
        if shortest and shortest.strip() not in (":", ",", ".", "!", "?", ";", "'"):
            keys.append(shortest)
    if not keys:
        keys = [resp_all]
    preds: list[str] = list(keys)
    for k in keys:
        preds.extend(extract_numbers(k))
    out: list[Any] = []
    for p in preds:
        out.extend(normalize_str(p))
    return list(dict.fromkeys(out))  # the set's members (order is immaterial to eval_open)


def parse_multi_choice_response(response: str, choices: list[str], index2ans: dict[str, str]) -> str:
    """``parse_multi_choice_response`` of ``videommmu.py`` (no random pick: ``"No Answere Found"``)."""
    if response in (_API_ERROR, ""):
        return _API_ERROR
    for ch in (",", ".", "!", "?", ";", ":", "'"):
        response = response.strip(ch)
    response = " " + response + " "
    index_ans = True
    with_brack = with_period = with_colon = False
    cands: list[str] = []
    for c in choices:
        if f"{c}." in response:
            cands.append(c)
            with_period = True
    for c in choices:
        if f"{c}:" in response:
            cands.append(c)
            with_colon = True
    if not cands:
        for c in choices:
            if f"({c})" in response:
                cands.append(c)
                with_brack = True
    if not cands:
        for c in choices:
            if f"{c} " in response:
                cands.append(c)
    if not cands and len(response.split()) > 5:
        for c, ans in index2ans.items():
            if ans.lower() in response.lower():
                cands.append(c)
                index_ans = False
    if not cands:
        return _NOT_FOUND
    if len(cands) == 1:
        return cands[0]
    if index_ans:
        if with_period:
            starts = [response.rfind(f"{c}.") for c in cands]
        elif with_colon:
            starts = [response.rfind(f"{c}:") for c in cands]
        elif with_brack:
            starts = [response.rfind(f"({c})") for c in cands]
        else:
            starts = [response.rfind(f" {c} ") for c in cands]
    else:
        starts = [response.lower().rfind(index2ans[c].lower()) for c in cands]
    return cands[starts.index(max(starts))]  # np.argmax: the first maximum


def process_prediction(prediction: str, question_type: str | None, options: str | None) -> Any:
    """``process_results`` for one row: the parsed prediction (a letter, ``"No Answere
    Found"``, ``"API Error"`` or a list of candidates)."""
    pred = prediction.rpartition("Answer:")[-1].strip()
    if question_type == "multiple-choice":
        opts = json.loads(options) if options is not None else None
        if not isinstance(opts, list):
            raise ValueError(f"options {options!r} is not a JSON list")
        index2ans = {chr(ord("A") + i): o for i, o in enumerate(opts)}
        return parse_multi_choice_response(pred, list(index2ans), index2ans)
    return parse_open_response(pred)


def eval_open(gold: str, pred: Any) -> bool:
    """``eval_open``: a string candidate must contain a string form of the answer; a number
    must equal a numeric form (``pred`` is a list, or the text an xlsx store made of it)."""
    norm = normalize_str(gold)
    for p in pred:
        if isinstance(p, str):
            if any(isinstance(a, str) and a in p for a in norm):
                return True
        elif p in norm:
            return True
    return False


def _stored(parsed: Any, store: str) -> Any:
    """The parsed prediction as the reload from ``{stem}_score.{store}`` gives it back."""
    if isinstance(parsed, list) and store != "json":
        return str(parsed)  # xlsx/tsv cells hold the list's text
    return parsed


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
    stored_as: str | None = None,
) -> GradeResult:
    """Grade a VideoMMMU result table (``index``, ``id``, ``question_type``, ``options``,
    ``answer``, ``category``, ``prediction``). Rules only: ``judge`` must be None and
    ``judge_policy`` changes nothing.

    ``stored_as``: the format of the ``_score`` store (``xlsx``, default, also for ``tsv``;
    or ``json``); by default the store ``recorded`` found (``find_records(path,
    "video_mmmu")``, whose ``parsed_pred`` column is compared with ours:
    ``stats["record_disagreements"]``), else ``xlsx`` (VLMEvalKit's default format).
    ``rows``: the input plus ``extracted`` (the parsed prediction as text), ``score``,
    ``status`` (``ok``, ``api_error``: left out of the report, ``error``) and ``reason``.
    ``report``: one column per category then ``Overall``; rows total, hit, acc.
    """
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("videommmu is graded by rules only; it takes no judge")
    if variant not in (None, "classic"):
        raise ValueError(f"videommmu has one rule (variant 'classic'), not {variant!r}")
    if recorded is not None and not isinstance(recorded, Records):
        raise TypeError(f"recorded must be a Records (find_records) or None, not {type(recorded).__name__}")
    if stored_as is None:
        files = recorded.files if recorded is not None else ()
        stored_as = "json" if files and files[0].suffix.lower() == ".json" else "xlsx"
    if stored_as not in STORES:
        raise ValueError(f"stored_as must be one of {STORES}, not {stored_as!r}")
    for name in ("index", "question_type", "answer", "category", "prediction"):
        if name not in frame.columns:
            raise ValueError(f"videommmu: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    text = {c: frame[c].cast(pl.String).to_list() for c in ("index", "question_type", "answer", "category", "prediction")}
    options = frame["options"].cast(pl.String).to_list() if "options" in frame.columns else [None] * frame.height
    n = frame.height
    extracted: list[str | None] = []
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    error: str | None = None
    disagreements: list[str] = []
    for i in range(n):
        pred, qtype, gold = text["prediction"][i], text["question_type"][i], text["answer"][i]
        if pred is None:
            extracted.append(None)
            scores.append(None)
            status.append("error")
            reasons.append("error: no prediction (NaN.rpartition raises upstream)")
            error = error or f"row {i + 1}: no prediction: process_results raises upstream (no report)"
            continue
        try:
            parsed = process_prediction(pred, qtype, options[i])
        except (ValueError, json.JSONDecodeError) as e:
            extracted.append(None)
            scores.append(None)
            status.append("error")
            reasons.append(f"error: {e}")
            error = error or f"row {i + 1}: {e} (json.loads raises upstream)"
            continue
        stored = _stored(parsed, stored_as)
        extracted.append(str(stored))
        rec = recorded.get(text["index"][i]) if recorded is not None else None
        if rec is not None and rec.get("parsed_pred") is not None and not isinstance(parsed, list) and str(rec["parsed_pred"]) != str(stored):
            disagreements.append(str(text["index"][i]))
        if stored == _API_ERROR:
            scores.append(None)
            status.append("api_error")
            reasons.append("parsed 'API Error' (empty answer): left out of the report, as upstream")
            continue
        if gold is None:
            scores.append(None)
            status.append("error")
            reasons.append("error: no answer (normalize_str(nan) raises upstream)")
            error = error or f"row {i + 1}: no answer: eval raises upstream (no report)"
            continue
        if qtype in ("multiple-choice", "perception"):
            ok = stored == gold
            how = "eval_multi_choice"
        else:
            ok = eval_open(gold, stored)
            how = "eval_open" + (" over the stored text's characters" if isinstance(stored, str) else "")
        scores.append(float(ok))
        status.append("ok")
        reasons.append(f"{how}: {str(stored)[:80]!r} vs {gold!r}: {'Correct' if ok else 'Wrong'}")
    report = pl.DataFrame()
    if error is None and stored_as == "json":
        # load() of a .json store gives a list of records, which has no iterrows().
        error = "the _score store is .json (PRED_FORMAT=json): load() returns a list and aggregate_results' .iterrows() raises upstream (no report)"
    if error is None:
        cats: dict[str, list[float]] = {}
        for i in range(n):
            if status[i] == "ok":
                key = "NaN" if text["category"][i] is None else text["category"][i]
                cats.setdefault(key, []).append(scores[i])
        total = sum(len(v) for v in cats.values())
        if total == 0:
            error = "no row left to score (hit / total divides by zero upstream)"
        else:
            cols = {c: [float(len(v)), float(sum(v)), sum(v) / len(v) * 100] for c, v in cats.items()}
            hit = sum(sum(v) for v in cats.values())
            cols["Overall"] = [float(total), float(hit), hit / total * 100]
            report = pl.DataFrame(cols, schema={c: pl.Float64 for c in cols})
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    scored = [s for s in scores if s is not None]
    overall = report["Overall"][2] if report.height else None
    stats: dict[str, Any] = {
        "benchmark": "videommmu",
        "variant": "classic",
        "stored_as": stored_as,
        "rows": n,
        "tasks": len(scored),
        "correct": float(sum(scored)),
        "accuracy": overall / 100 if overall is not None else (sum(scored) / len(scored) if scored else math.nan),
        "decided": {"rules": len(scored), "recorded": 0, "live": 0, "undecided": 0},
        "decided_unit": "rows",
        "method": f"rules (parse_multi_choice_response / parse_open_response, {stored_as} store)",
        "judge_policy": judge_policy,
        "archive_method": None,
        "matches_archive": not disagreements,
        "record_disagreements": len(disagreements),
        "flags": {"record_disagreements": len(disagreements)} if disagreements else {},
        "status": dict(sorted(rows.group_by("status").len().iter_rows())),
        "judge": False,
        "reference_error": error,
    }
    if disagreements:
        stats["record_disagreement_indexes"] = disagreements[:20]
    return GradeResult(rows=rows, report=report, stats=stats)
