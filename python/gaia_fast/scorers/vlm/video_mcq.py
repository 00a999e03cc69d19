"""Video multiple choice graded by ``extract_characters_regex`` with an option-extraction
fallback (WorldSense, Video-TT, Video-MME, Video-MME-v2, LongVideoBench, EgoExoBench): extract ->
score -> aggregate (``get_dimension_rating`` / ``get_final_rating``).

Reference: open-compass/VLMEvalKit, ``WorldSense.evaluate`` (bf73bae8, 2025-02-19, to head
e8e78f05) and ``VideoTT.evaluate`` (b924eb7f, 2025-11-19, to head); the two share the rule,
``vlmeval/dataset/utils/{worldsense,videott}.py``:

* ``extract_characters_regex(str(prediction))``: strip, delete the answer prefixes (two of
  the list are glued together by missing commas upstream: ``'The best option isThe correct
  option is'`` and ``'Best answer:Best option:'``, kept), then ``''`` when the text has more
  than 10 words and no A-D, else the first of ``A``-``D`` anywhere (``''`` if none). A
  letter scores ``int(letter == answer)``.
* A row the regex leaves ``''`` goes to ``extract_option``: the options are the question's
  lines after the first (line ``k`` holds option ``chr(65 + k)`` when it contains ``"X."``),
  then ``extract_answer_from_item``: ``can_infer`` on the prediction, else the judge
  (three tries of ``can_infer`` on its reply, then a random letter), or ``'Z'`` with no
  judge (``exact_matching``). The judge's reply is not kept: the only record is the row's
  ``score`` in ``{stem}_score.xlsx`` (``get_intermediate_file_path(eval_file, '_score')``,
  the prediction file format), which this module replays for those rows. With no score
  file a row the rules leave open is ``needs_judge``; ``judge_policy="none"`` is
  ``exact_matching`` (``can_infer`` then ``'Z'``).
* WorldSense writes a row's score with ``data.loc[idx, 'score']``: ``idx`` is the row's
  ``index`` value used as a row label, so the score lands on the row at that position (the
  file's own ``index`` of 0..n-1 in order puts it on the row itself). Reproduced; an
  ``index`` that is no row label makes pandas append a row, and the report then raises
  upstream (``reference_error`` here, no report).
* Reports (``{stem}_rating.json``; flattened here to ``key`` = the JSON path joined by
  ``|``, as ``report_primary_metric`` names them, and ``value``):
  WorldSense: per duration (``<1min`` ... ``>8min``, then ``overall``) the mean of the
  scores >= 0 overall and per domain / sub_category / task_domain / task_type /
  audio_class (``eval`` of the cell, a list) as ``f'{mean:.3f}'`` (``nan`` for none).
  Video-TT: per capability and ``overall`` ``number``, ``correct`` (score > 0) and
  ``score`` = correct / number * 100 (a capability with no row divides by zero upstream).
  A category value the report's fixed lists lack raises ``KeyError`` upstream.

Video-MME-v2 (``VideoMMEv2.evaluate``, ca905c5b, 2026-04-08, to head; the same flow with
``extract_characters_regex_v2``: the prefix list with its commas plus ``Final Answer:``,
letters A-H; judges other than chatgpt-0125 / gpt-4-0125 are refused upstream): the
report ``get_final_rating`` takes the rows in fours by position (``(n + 1) // 4`` groups;
a row count that leaves a row past them raises IndexError upstream), each scored from its
last row's ``group_type``: ``relevance`` (right answers 0..4 -> 0, 6.25, 25, 56.25, 100 and
``* 25`` linear) or ``logic`` (``cal_logic``: the run of right answers from the first, by
``group_structure``); ``final_rating`` (``level_1..3``, the two relevance scores,
``logic_score``, ``total``), ``second_head_rating`` and ``third_head_rating`` are plain
means (0.0 for none). A group with a ``needs_judge`` row is left out
(``stats["groups_left_out"]``).

LongVideoBench (``LongVideoBench.evaluate``, ef766b81, 2024-11-09, to head): the regex
reads A-E, the truth is ``chr(ord('A') + correct_choice)``, scores land by row label (as
WorldSense), and the report is per ``duration_group`` (15, 60, 600, 3600, ``overall``)
the ``.3f`` mean overall and per ``question_category``.

EgoExoBench (``EgoExoBench_MCQ.evaluate``, 6708e8fb, 2025-07-23, to head; score file
``_score.csv`` from 9cc14cd0, ``_score.xlsx`` before): the prediction is not passed through
``str()`` (a missing one raises: ``reference_error``), scores land by row label, and the
report is ``{subtask_type: [correct, total, 'xx.xx%'], ..., 'overall': [...]}`` in order of
first appearance (flattened as ``key|0``, ``key|1``, ``key|2``, all text).

Video-MME (``VideoMME.evaluate``, ``utils/videomme.py``; ``variant`` one of
:data:`VIDEOMME_ERAS`): 9e004797 (2024-07-10) scored a row the regex leaves open -1 (out of
the means) and read the prediction without ``str()``; 9447c3a6 (2024-09-11) added the
``extract_option`` fallback; the rating had two decimals until 7b634b56 (2024-09-20);
scores landed by row label until 379f3f5f (2025-07-21); then ``can_infer``'s eras.

``variant`` (the others): the ``can_infer`` of the exact-matching fallback (``classic``, ``2025-08``,
``2026-06``; the registry's dates pick it).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._literal import parse_literals
from gaia_fast.scorers.vlm._replay import (
    JUDGE_POLICIES,
    disagreement_keys,
    has_record_files,
    records_summary,
    status_counts,
)
from gaia_fast.scorers.vlm.mcq import can_infer
from gaia_fast.scorers.vlm.recorded import Records, index_key

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=``.
RECORD_KIND = "video_mcq"

__all__ = ["BENCHMARKS", "VARIANTS", "extract_characters_regex", "extract_option_choices", "grade"]

BENCHMARKS = {"worldsense": "worldsense", "videott": "videott", "videommev2": "videommev2",
              "longvideobench": "longvideobench", "egoexobench": "egoexobench", "videomme": "videomme"}
#: Video-MME's eras (``VideoMME.evaluate`` and ``utils/videomme.py``): whether rows the regex
#: leaves open go to ``extract_option`` (before: score -1, left out of the means), the
#: rating's decimals, whether scores land by row label, and ``can_infer``'s era.
VIDEOMME_ERAS = {
    "2024-07": (False, 2, True, "classic"),     # 9e004797 (2024-07-10): regex only, -1 when empty
    "2024-09": (True, 2, True, "classic"),      # 9447c3a6 (2024-09-11): extract_option fallback
    "2024-09-20": (True, 3, True, "classic"),   # 7b634b56 (2024-09-20): '.3f'
    "2025-07": (True, 3, False, "classic"),     # 379f3f5f (2025-07-21): data.loc[data['index'] == idx]
    "2025-08": (True, 3, False, "2025-08"),     # can_infer's 2025-08 rule
    "2026-06": (True, 3, False, "2026-06"),     # can_infer's 2026-06 rule (head)
}
#: Sets whose evaluate writes ``data.loc[idx, 'score']`` (the index as a row label).
_BY_LABEL = frozenset({"worldsense", "longvideobench", "egoexobench"})
#: The ``can_infer`` versions of the exact-matching fallback (every set but Video-MME).
CAN_INFER_VARIANTS = ("classic", "2025-08", "2026-06")
#: Every variant a registry entry of this module may name (Video-MME's eras too).
VARIANTS = tuple(dict.fromkeys((*CAN_INFER_VARIANTS, *VIDEOMME_ERAS)))

_PREFIXES = (
    "The best answer is",
    "The correct answer is",
    "The answer is",
    "The answer",
    "The best option isThe correct option is",  # a missing comma upstream glues these
    "Best answer:Best option:",
    "Answer:",
    "Option:",
)
_ABCD = re.compile("[ABCD]")
_ABCDE = re.compile("[ABCDE]")


def extract_characters_regex(s: str, letters: str = "ABCD") -> str:
    """``extract_characters_regex`` of ``utils/worldsense.py`` / ``videott.py`` /
    ``videomme.py`` / ``EgoExoBench/utils.py`` (A-D); ``letters="ABCDE"``: LongVideoBench's."""
    s = s.strip()
    for p in _PREFIXES:
        s = s.replace(p, "")
    m = (_ABCDE if letters == "ABCDE" else _ABCD).search(s)
    if len(s.split()) > 10 and m is None:
        return ""
    return "" if m is None else m.group(0)


_PREFIXES_V2 = (
    "Final Answer:",
    "The best answer is",
    "The correct answer is",
    "The answer is",
    "The answer",
    "The best option is",
    "The correct option is",
    "Best answer:",
    "Best option:",
    "Answer:",
    "Option:",
)
_A_TO_H = re.compile("[A-H]")


def extract_characters_regex_v2(s: str) -> str:
    """``extract_characters_regex_v2`` of ``utils/videomme.py`` (Video-MME-v2: A-H, the
    prefix list with its commas)."""
    s = s.strip()
    for p in _PREFIXES_V2:
        s = s.replace(p, "")
    m = _A_TO_H.search(s)
    if len(s.split()) > 10 and m is None:
        return ""
    return "" if m is None else m.group(0)


def extract_option_choices(question: str | None) -> dict[str, str]:
    """The options ``extract_option`` adds to the row: line ``k`` after the first holds
    option ``chr(65 + k)`` when it contains ``"X."`` (the text after it, ``strip('. \\n')``)."""
    out: dict[str, str] = {}
    if question is None:
        return out
    for i, line in enumerate(question.split("\n")[1:]):
        oid = chr(ord("A") + i) + "."
        at = line.find(oid)
        if at >= 0:
            out[chr(ord("A") + i)] = line[at + len(oid):].strip(". \n")
    return out


# get_dimension_rating's fixed lists (utils/worldsense.py, utils/videott.py at e8e78f05).
_WS_DURATIONS = ("<1min", "1-2min", "2-4min", "4-6min", "6-8min", ">8min")
_WS_DOMAINS = ("Tech & Science", "Culture & Politics", "Daily Life", "Film & TV", "Performance", "Games", "Sports", "Music")
_WS_SUB = (
    "Academic Lectures", "Auto", "Software", "Physics", "Climate Change", "Space Missions", "Chemistry",
    "Engineering Projects", "Biology", "Science Explainers", "Artificial Intelligence", "Astronomy", "Tech Reviews",
    "Editorials", "Politics", "Historical Analysis", "Social Commentary", "Book Reviews", "Cultural Explainers",
    "Drawing Tutorials", "Celebrity Interviews", "Art Exhibitions", "Fashion", "Travel", "Daily Vlogs", "Cooking",
    "Pranks", "Camping", "Nutrition & Health", "Home Improvement", "Painting & Photography", "Unboxing Videos",
    "Family Vlogs", "DIY & Crafts", "Skincare & Makeup", "Documentaries", "Film Trailers", "Event Livestreams",
    "Short Films", "Documentary Profiles", "Movie Reviews", "World News", "Talks", "Parodies", "Storytime",
    "Stand-up", "Sketches", "FPS Game", "Casual Game", "Role Playing Game", "Sports Game", "Basketball", "Racing",
    "Football", "Bowling Ball", "Soccer", "Motorsport", "swimming", "Boxing", "Other Sports", "Fitness", "Fishing",
    "Hiking", "Covers", "Music Videos", "Remixes", "Walkthroughs",
)
_WS_TASK_DOMAINS = ("Recognition", "Understanding", "Reasoning")
_WS_TASKS = (
    "Anomaly Recognition", "Event Recognition", "Attribute Recognition", "Human Interaction", "Temporal Localization",
    "Video Emotions", "Event Sorting", "Hallucination", "Text and Diagram Understanding", "Attribute Reasoning",
    "Causal Reasoning", "Object Counting", "Action Counting", "Temporal Prediction", "Emotion Change",
    "Audio Counting", "Scene Recognition", "Human-object Interaction", "Human Emotions", "Object State Change",
    "Relation Reasoning", "Spatial Relation", "Audio Source Localization", "Audio Recognition",
    "Object Existence Recognition", "Audio Change",
)
_WS_AUDIO = ("Speech", "Event", "Music")
_TT_DOMAINS = (
    "Character Motivation Causality", "Element Counting", "Event Counting", "Event Localization",
    "Element Localization", "Positional Relationship", "Objective Causality (Videography Phenomenon & Illusion)",
    "Plot Attribute", "Plot Attribute (Montage)", "Element Attributes (Optical Illusion)", "Element Attributes",
    "Event Duration & Speed Attribute", "Objective Causality", "Character Reaction Causality",
    "Professional Knowledge", "Displacement Attribute", "Character Emotion Attribute", "Local Event Attribute",
)

Judge = Callable[[str], str]


class _ReportError(Exception):
    """Where VLMEvalKit's report code raises on the data."""


def _mean3(values: list[float], digits: int = 3) -> str:
    """``f'{np.mean([x for x in values if x >= 0]):.3f}'`` (scores are 0/1, so any
    summation order gives the same mean)."""
    kept = [x for x in values if x >= 0]  # NaN >= 0 is False: a NaN score is left out
    return f"{(sum(kept) / len(kept)) if kept else math.nan:.{digits}f}"


_VM_DURATIONS = ("short", "medium", "long")
_VM_DOMAINS = ("Knowledge", "Film & Television", "Sports Competition", "Artistic Performance", "Life Record", "Multilingual")
_VM_SUB = (
    "Humanity & History", "Literature & Art", "Biology & Medicine", "Finance & Commerce", "Astronomy", "Geography",
    "Law", "Life Tip", "Technology", "Animation", "Movie & TV Show", "Documentary", "News Report", "Esports",
    "Basketball", "Football", "Athletics", "Other Sports", "Stage Play", "Magic Show", "Variety Show", "Acrobatics",
    "Handicraft", "Food", "Fashion", "Daily Life", "Travel", "Pet & Animal", "Exercise", "Multilingual",
)
_VM_TASKS = (
    "Temporal Perception", "Spatial Perception", "Attribute Perception", "Action Recognition", "Object Recognition",
    "OCR Problems", "Counting Problem", "Temporal Reasoning", "Spatial Reasoning", "Action Reasoning",
    "Object Reasoning", "Information Synopsis",
)


def _report_videomme(data: dict[str, list[Any]], scores: list[float], digits: int) -> list[tuple[str, Any]]:
    """``get_dimension_rating`` of ``utils/videomme.py``: per duration (short, medium, long,
    then overall) the mean of the scores >= 0 overall and per domain / sub_category /
    task_type (``.2f`` before 7b634b56, ``.3f`` after)."""
    groups = (("domain", _VM_DOMAINS), ("sub_category", _VM_SUB), ("task_type", _VM_TASKS))
    rating = {d: {g: {k: [] for k in keys} for g, keys in groups} for d in (*_VM_DURATIONS, "overall")}
    for i, score in enumerate(scores):
        dur = data["duration"][i]
        if dur not in rating or dur == "overall":
            raise _ReportError(f"row {i + 1}: duration {dur!r} is not one of {_VM_DURATIONS} (KeyError upstream)")
        for g, _ in groups:
            v = data[g][i]
            if v not in rating[dur][g]:
                raise _ReportError(f"row {i + 1}: {g} {v!r} is not in get_dimension_rating's list (KeyError upstream)")
            rating[dur][g][v].append(score)
            rating["overall"][g][v].append(score)
    out: list[tuple[str, Any]] = []
    for d in (*_VM_DURATIONS, "overall"):
        out.append((f"{d}|overall", _mean3([x for lst in rating[d]["domain"].values() for x in lst], digits)))
        for g, keys in groups:
            out += [(f"{d}|{g}|{k}", _mean3(rating[d][g][k], digits)) for k in keys]
    return out


def _report_worldsense(data: dict[str, list[Any]], scores: list[float]) -> list[tuple[str, Any]]:
    groups = (("domain", _WS_DOMAINS), ("sub_category", _WS_SUB), ("task_domain", _WS_TASK_DOMAINS), ("task_type", _WS_TASKS),
              ("audio_class", _WS_AUDIO))
    rating = {d: {g: {k: [] for k in keys} for g, keys in groups} for d in (*_WS_DURATIONS, "overall")}
    audio = parse_literals(pl.Series(data["audio_class"], dtype=pl.String))
    for i, score in enumerate(scores):
        dur = data["duration"][i]
        vals, why = audio[i]
        if why is not None:
            raise _ReportError(f"row {i + 1}: audio_class: {why}")
        if dur not in rating:
            raise _ReportError(f"row {i + 1}: duration {dur!r} is not one of {_WS_DURATIONS} (KeyError upstream)")
        for g, _ in groups[:4]:
            v = data[g][i]
            if v not in rating["overall"][g]:
                raise _ReportError(f"row {i + 1}: {g} {v!r} is not in get_dimension_rating's list (KeyError upstream)")
            rating["overall"][g][v].append(score)
            rating[dur][g][v].append(score)
        for a in vals if isinstance(vals, (list, tuple)) else [vals]:
            if a not in rating["overall"]["audio_class"]:
                raise _ReportError(f"row {i + 1}: audio_class {a!r} is not in get_dimension_rating's list (KeyError upstream)")
            rating["overall"]["audio_class"][a].append(score)
            rating[dur]["audio_class"][a].append(score)
    out: list[tuple[str, Any]] = []
    for d in (*_WS_DURATIONS, "overall"):  # the JSON's key order
        out.append((f"{d}|overall", _mean3([x for lst in rating[d]["domain"].values() for x in lst])))
        for g, keys in groups:
            out += [(f"{d}|{g}|{k}", _mean3(rating[d][g][k])) for k in keys]
    return out


def _report_videott(capability: list[Any], scores: list[float]) -> list[tuple[str, Any]]:
    num = {k: 0 for k in (*_TT_DOMAINS, "overall")}
    cor = dict(num)
    for i, (c, s) in enumerate(zip(capability, scores)):
        if c not in num or c == "overall":
            raise _ReportError(f"row {i + 1}: capability {c!r} is not in get_dimension_rating's list (KeyError upstream)")
        num["overall"] += 1
        num[c] += 1
        if s > 0:
            cor["overall"] += 1
            cor[c] += 1
    out: list[tuple[str, Any]] = []
    for k in (*_TT_DOMAINS, "overall"):
        if num[k] == 0:
            raise _ReportError(f"capability {k!r} has no row (ZeroDivisionError upstream)")
        out += [(f"{k}|number", num[k]), (f"{k}|correct", cor[k]), (f"{k}|score", cor[k] / num[k] * 100)]
    return out


def _row_label(value: Any) -> int | None:
    """An ``index`` cell as the integer row label ``data.loc[idx]`` takes (None if not one)."""
    key = index_key(value)
    try:
        return int(key) if key is not None else None
    except ValueError:
        return None


_REL_EXP = {0: 0.0, 1: 100.0 / 16, 2: 100.0 * 4 / 16, 3: 100.0 * 9 / 16, 4: 100.0}
_LOGIC_MAPS = {
    "1234": {0: 0.0, 1: 100.0 / 16, 2: 100.0 * 4 / 16, 3: 100.0 * 9 / 16, 4: 100.0},
    "1[23]4": {0: 0.0, 1: 100.0 / 12, 2: 100.0 * 4 / 12, 3: 100.0 * 7 / 12, 4: 100.0},
    "[12]34": {0: 0.0, 1: 100.0 / 10, 2: 100.0 * 2 / 10, 3: 100.0 * 5 / 10, 4: 100.0},
}


def _cal_logic(scores: list[float], structure: Any) -> float:
    """``cal_logic``: the run of right answers from the first question, scored by the group's
    structure (``[1, [2, 3], 4]``: a right third question extends a run of one; ``[[1, 2],
    3, 4]``: a right second question starts a run after a wrong first)."""
    import ast

    try:
        parsed = ast.literal_eval(structure) if isinstance(structure, str) else structure
    except (ValueError, SyntaxError) as e:
        raise _ReportError(f"group_structure {structure!r} is not a literal ({type(e).__name__} upstream)") from None
    last = -1
    for i, v in enumerate(scores):
        if v:
            last = i
        else:
            break
    if parsed == [1, 2, 3, 4]:
        table = _LOGIC_MAPS["1234"]
    elif parsed == [1, [2, 3], 4]:
        table = _LOGIC_MAPS["1[23]4"]
        if last == 0 and scores[2]:
            last += 1
    elif parsed == [[1, 2], 3, 4]:
        table = _LOGIC_MAPS["[12]34"]
        if last == -1 and scores[1]:
            last += 1
    else:
        raise _ReportError(f"Unknown group_structure_list: {parsed!r} (ValueError upstream)")
    return table.get(last + 1, 0.0)


def _report_videommev2(data: dict[str, list[Any]], scores: list[float | None]) -> tuple[list[tuple[str, Any]], int]:
    """``get_final_rating``: rows in fours by position (the last row of each four names its
    level, group type and heads); a four with an undecided row is left out (returned count)."""
    n = len(scores)
    n_groups = (n + 1) // 4
    if n and (n - 1) // 4 >= n_groups:
        raise _ReportError(f"{n} rows do not fill {n_groups} groups of four (IndexError upstream)")
    final: dict[str, list[float]] = {k: [] for k in ("level_1", "level_2", "level_3", "relevance_score",
                                                     "relevance_linear_score", "logic_score", "total")}
    second: dict[str, list[float]] = {}
    third: dict[str, list[float]] = {}
    skipped = 0
    for g in range(n_groups):
        rows = range(4 * g, min(4 * g + 4, n))
        last = rows[-1]
        group_scores = [scores[i] for i in rows]
        if any(v is None for v in group_scores):
            skipped += 1
            continue
        kind = data["group_type"][last]
        if kind == "relevance":
            correct = sum(group_scores)
            exp = _REL_EXP.get(correct, 0.0)
            final["relevance_score"].append(exp)
            final["relevance_linear_score"].append(correct * 25.0)
        elif kind == "logic":
            exp = _cal_logic(group_scores, data["group_structure"][last])
            final["logic_score"].append(exp)
        else:
            raise _ReportError(f"Unknown group_type: {kind!r} (rows {rows[0] + 1}-{last + 1}; ValueError upstream)")
        level = data["level"][last]
        if level is not None and str(level) != "None":
            try:
                lv = int(float(level))
            except ValueError:
                raise _ReportError(f"level {level!r} is not a number (rows {rows[0] + 1}-{last + 1}; ValueError upstream)") from None
            if f"level_{lv}" not in ("level_1", "level_2", "level_3"):
                raise _ReportError(f"level {level!r} (rows {rows[0] + 1}-{last + 1}; KeyError upstream)")
            final[f"level_{lv}"].append(exp)
        else:
            if level is None:
                raise _ReportError(f"level is empty (rows {rows[0] + 1}-{last + 1}): int(nan) raises upstream")
        final["total"].append(exp)
        # An empty head cell is NaN upstream; json.dump writes that key as "NaN".
        second.setdefault("NaN" if data["second_head"][last] is None else data["second_head"][last], []).append(exp)
        third.setdefault("NaN" if data["third_head"][last] is None else data["third_head"][last], []).append(exp)

    def mean(v: list[float]) -> float:
        return sum(v) / len(v) if v else 0.0

    out = [(f"final_rating|{k}", mean(v)) for k, v in final.items()]
    out += [(f"second_head_rating|{k}", mean(v)) for k, v in second.items()]
    out += [(f"third_head_rating|{k}", mean(v)) for k, v in third.items()]
    return out, skipped


def _recorded_score(rec: dict[str, Any] | None) -> float | None:
    """A recorded ``score`` cell as a number (None when absent or not a number)."""
    if rec is None or rec.get("score") is None:
        return None
    try:
        return float(rec["score"])
    except (TypeError, ValueError):
        return None


_LVB_DURATIONS = (15, 60, 600, 3600)
_LVB_TASKS = ("S2E", "S2O", "S2A", "E2O", "O2E", "T2E", "T2O", "T2A", "E3E", "O3O", "SSS", "SOS", "SAA", "T3E", "T3O", "TOS", "TAA")


def _report_longvideobench(data: dict[str, list[Any]], scores: list[float]) -> list[tuple[str, Any]]:
    """``get_dimension_rating`` of ``utils/longvideobench.py``: per ``duration_group`` (15, 60,
    600, 3600, then ``overall``) the mean of the scores >= 0, overall and per
    ``question_category``, as ``f'{mean:.3f}'``."""
    rating = {d: {k: [] for k in _LVB_TASKS} for d in (*_LVB_DURATIONS, "overall")}
    for i, score in enumerate(scores):
        raw = data["duration_group"][i]
        try:
            dur = float(raw) if raw is not None else math.nan
        except ValueError:
            dur = math.nan
        d = next((x for x in _LVB_DURATIONS if x == dur), None)
        if d is None:
            raise _ReportError(f"row {i + 1}: duration_group {raw!r} is not one of {_LVB_DURATIONS} (KeyError upstream)")
        c = data["question_category"][i]
        if c not in rating["overall"]:
            raise _ReportError(f"row {i + 1}: question_category {c!r} is not in get_dimension_rating's list (KeyError upstream)")
        rating[d][c].append(score)
        rating["overall"][c].append(score)
    out: list[tuple[str, Any]] = []
    for d in (*_LVB_DURATIONS, "overall"):
        out.append((f"{d}|overall", _mean3([x for lst in rating[d].values() for x in lst])))
        out += [(f"{d}|question_category|{k}", _mean3(rating[d][k])) for k in _LVB_TASKS]
    return out


def _report_egoexo(subtask: list[Any], scores: list[float]) -> list[tuple[str, Any]]:
    """``get_dimension_rating`` of ``EgoExoBench/utils.py``: per ``subtask_type`` in order of
    first appearance (an empty cell is NaN, dumped as ``NaN``) ``[correct, total,
    'xx.xx%']``, then ``overall``; a NaN score counts as right (``if item['score']``)."""
    board: dict[str, list[int]] = {}
    for c, sc in zip(subtask, scores):
        key = "NaN" if c is None else c
        cell = board.setdefault(key, [0, 0])
        cell[1] += 1
        if sc or math.isnan(sc):
            cell[0] += 1
    out: list[tuple[str, Any]] = []
    correct = total = 0
    for key, (c, t) in board.items():
        correct += c
        total += t
        out += [(f"{key}|0", str(c)), (f"{key}|1", str(t)), (f"{key}|2", f"{c / t * 100:.2f}%")]
    if total == 0:
        raise _ReportError("no row (ZeroDivisionError upstream)")
    out += [("overall|0", str(correct)), ("overall|1", str(total)), ("overall|2", f"{correct / total * 100:.2f}%")]
    return out


def _require(frame: pl.DataFrame, bench: str, names: tuple[str, ...]) -> None:
    for name in names:
        if name not in frame.columns:
            raise ValueError(f"{bench}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")


def _text(frame: pl.DataFrame, name: str) -> list[str | None]:
    return frame[name].cast(pl.String).to_list()


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "worldsense",
    variant: str | None = None,
    seed: int = 0,
    judge: Judge | None = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
) -> GradeResult:
    """Grade a WorldSense / Video-TT result table (``index``, ``question``, ``answer``,
    ``prediction`` and the report's category columns).

    ``recorded``: :func:`gaia_fast.scorers.vlm.recorded.find_records` of the result file
    (``kind="video_mcq"``: the archive's ``{stem}_score.xlsx``). ``judge_policy="auto"``:
    a row the regex leaves open takes its recorded score, else ``needs_judge`` (no
    score, left out of the report's counts); ``"none"``: VLMEvalKit's exact matching.
    Live judging is not supported (``judge`` must be None). ``seed`` is unused.

    ``rows``: the input plus ``extracted`` (the regex's letter, or the exact-matching
    option), ``score``, ``status`` (``ok``, ``needs_judge``) and ``reason``. ``report``:
    ``key``, ``value`` (the flattened ``_rating.json``). ``stats``: ``decided``, ``method``,
    ``archive_method``, ``matches_archive``, ``record_disagreements`` (regex rows whose
    recorded score differs), ``reference_error`` (where upstream raises).
    """
    frame = _check_frame(frame)
    bench = BENCHMARKS.get(benchmark.lower()) if isinstance(benchmark, str) else None
    if bench is None:
        raise ValueError(f"unknown video MCQ benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    if judge_policy not in JUDGE_POLICIES:
        raise ValueError(f"judge_policy must be one of {', '.join(map(repr, JUDGE_POLICIES))}, not {judge_policy!r}")
    if judge is not None:
        raise ValueError(f"{bench}: live judging is not supported; rows the regex leaves open replay the archive's score file or need a judge")
    if recorded is not None and not isinstance(recorded, Records):
        raise TypeError(f"recorded must be a Records (find_records) or None, not {type(recorded).__name__}")
    variant = variant or "2026-06"
    known = VIDEOMME_ERAS if bench == "videomme" else CAN_INFER_VARIANTS
    if variant not in known:
        raise ValueError(f"unknown {bench} variant {variant!r}; expected one of {', '.join(map(repr, known))}")
    fallback, digits, vm_by_label, infer_variant = VIDEOMME_ERAS[variant] if bench == "videomme" else (True, 3, False, variant)
    by_label = bench in _BY_LABEL or (bench == "videomme" and vm_by_label)
    cats = {
        "worldsense": ("duration", "domain", "sub_category", "task_domain", "task_type", "audio_class"),
        "videott": ("capability",),
        "videommev2": ("level", "group_type", "group_structure", "second_head", "third_head"),
        "longvideobench": ("duration_group", "question_category"),
        "egoexobench": ("subtask_type",),
        "videomme": ("duration", "domain", "sub_category", "task_type"),
    }[bench]
    if bench == "videommev2":
        regex = extract_characters_regex_v2
    elif bench == "longvideobench":
        def regex(text: str) -> str:
            return extract_characters_regex(text, "ABCDE")
    else:
        regex = extract_characters_regex
    truth = "correct_choice" if bench == "longvideobench" else "answer"
    _require(frame, bench, ("index", "question", truth, "prediction", *cats))
    n = frame.height
    idx = _text(frame, "index")
    answers = _text(frame, truth)
    error: str | None = None
    if bench == "longvideobench":
        # ans = chr(ord("A") + correct_choice)
        conv: list[str | None] = []
        for i, a in enumerate(answers):
            try:
                conv.append(chr(ord("A") + int(float(a))) if a is not None else None)
            except (ValueError, OverflowError):
                conv.append(None)
            if conv[-1] is None and error is None:
                error = f"row {i + 1}: correct_choice {a!r} is not an integer (chr(ord('A') + ans) raises upstream)"
        answers = conv
    questions = _text(frame, "question")
    raw_preds = _text(frame, "prediction")
    if (bench == "egoexobench" or not fallback) and None in raw_preds and error is None:
        # EgoExoBench (and Video-MME before 2024-09) read the prediction without str(): NaN.strip() raises.
        error = f"row {raw_preds.index(None) + 1}: no prediction: extract_characters_regex(nan) raises AttributeError upstream (no report)"
    preds = ["nan" if p is None else p for p in raw_preds]  # str(NaN)
    use = recorded if judge_policy == "auto" else None
    verdict: list[float | None] = []
    extracted: list[str | None] = []
    status: list[str] = []
    reasons: list[str] = []
    routes = {"rules": 0, "recorded": 0, "exact_matching": 0, "needs_judge": 0}
    disagreements: list[str] = []
    # WorldSense's score file holds at row p the verdict of the row whose index is p (see
    # the module doc): a row's recorded verdict is the score file's row at its index.
    by_pos = list(use.entries.values()) if use is not None and by_label else None
    for i in range(n):
        letter = regex(preds[i])
        if by_pos is not None:
            label = _row_label(idx[i])
            rec = by_pos[label] if label is not None and 0 <= label < len(by_pos) else None
        else:
            rec = use.get(idx[i]) if use is not None and idx[i] is not None else None
        rec_score = _recorded_score(rec)
        if letter:
            s = float(letter == answers[i])
            verdict.append(s)
            extracted.append(letter)
            status.append("ok")
            reasons.append(f"regex: {letter}")
            routes["rules"] += 1
            if rec_score is not None and rec_score != s and not math.isnan(rec_score):
                disagreements.append(str(idx[i]))
            continue
        if not fallback:
            verdict.append(-1.0)
            extracted.append(None)
            status.append("ok")
            reasons.append("regex: no A-D letter: score -1 (left out of the rating's means, 2024-07)")
            routes["rules"] += 1
        elif judge_policy == "none":
            opt = can_infer(preds[i], extract_option_choices(questions[i]), infer_variant) or "Z"
            verdict.append(float(opt == answers[i]))
            extracted.append(opt)
            status.append("ok")
            reasons.append(f"exact_matching ({infer_variant} can_infer): {opt}" + (" (no option found)" if opt == "Z" else ""))
            routes["exact_matching"] += 1
        elif rec_score is not None and not math.isnan(rec_score):
            verdict.append(rec_score)
            extracted.append(None)
            status.append("ok")
            reasons.append(f"recorded score {rec_score:g} ({recorded.files[0].name if recorded and recorded.files else 'score file'})")
            routes["recorded"] += 1
        else:
            verdict.append(None)
            extracted.append(None)
            status.append("needs_judge")
            reasons.append("needs_judge: the regex found no A-D letter and the archive has no recorded score for this index; not counted")
            routes["needs_judge"] += 1
    # Where each verdict lands (data.loc[idx, 'score'] of WorldSense, LongVideoBench, EgoExoBench).
    # NaN: a row no verdict was written to (upstream too); None: an undecided verdict.
    landed_or_open: list[float | None] = [math.nan] * n
    if by_label and error is None:
        for i in range(n):
            label = _row_label(idx[i])
            if label is None or not 0 <= label < n:
                error = f"row {i + 1}: index {idx[i]!r} is not a row label: data.loc[idx, 'score'] appends a row upstream and the report raises"
                break
            landed_or_open[label] = verdict[i]
    else:
        landed_or_open = list(verdict)
    # needs_judge rows stay out of the report (their verdict is unknown): for the means a
    # NaN does that (x >= 0 is False), the counting reports drop them.
    landed = [math.nan if v is None else v for v in landed_or_open]
    keep = [i for i in range(n) if landed_or_open[i] is not None]
    report_rows: list[tuple[str, Any]] = []
    groups_left_out = 0
    if error is None:
        try:
            if bench == "worldsense":
                data = {c: _text(frame, c) for c in cats}
                report_rows = _report_worldsense(data, landed)
            elif bench == "videomme":
                data = {c: _text(frame, c) for c in cats}
                report_rows = _report_videomme(data, landed, digits)
            elif bench == "longvideobench":
                data = {c: _text(frame, c) for c in cats}
                report_rows = _report_longvideobench(data, landed)
            elif bench == "egoexobench":
                sub = _text(frame, "subtask_type")
                report_rows = _report_egoexo([sub[i] for i in keep], [landed[i] for i in keep])
            elif bench == "videott":
                cap = _text(frame, "capability")
                report_rows = _report_videott([cap[i] for i in keep], [landed[i] for i in keep])
            else:
                data = {c: _text(frame, c) for c in cats}
                report_rows, groups_left_out = _report_videommev2(data, verdict)
        except _ReportError as e:
            error = f"{'get_final_rating' if bench == 'videommev2' else 'get_dimension_rating'}: {e}"
            report_rows = []
    vtype = pl.String if bench in ("worldsense", "longvideobench", "egoexobench", "videomme") else pl.Float64
    report = pl.DataFrame(report_rows, schema={"key": pl.String, "value": vtype}, orient="row")
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", verdict, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    decided = {"rules": routes["rules"] + routes["exact_matching"], "recorded": routes["recorded"], "live": 0,
               "undecided": routes["needs_judge"]}
    have_file = has_record_files(recorded)
    archive_method = f"the archive's score file {recorded.files[0].name}" if have_file else None
    open_n = routes["recorded"] + routes["exact_matching"] + routes["needs_judge"]
    if not fallback:
        method = f"regex only ({routes['rules']} rows; Video-MME {variant}: no fallback, -1 when no letter)"
    elif judge_policy == "none":
        method = f"regex ({routes['rules']} rows) + exact_matching ({routes['exact_matching']} rows; --judge none)"
    else:
        parts = [f"regex ({routes['rules']} rows)"]
        if routes["recorded"]:
            parts.append(f"recorded score ({routes['recorded']} rows)")
        if routes["needs_judge"]:
            parts.append(f"{routes['needs_judge']} rows undecided (needs_judge)")
        method = " + ".join(parts)
    if disagreements:
        matches = False
    elif open_n == 0:
        matches = True
    elif judge_policy == "auto":
        matches = have_file and routes["needs_judge"] == 0
    else:
        matches = False  # the score file does not say whether a judge or exact matching wrote it
    scored = [v for v in verdict if v is not None and v >= 0]  # -1: Video-MME 2024-07 left it out
    overall = next((v for k, v in report_rows if k in ("overall|overall", "overall|score", "final_rating|total", "overall|2")), None)
    if isinstance(overall, str) and overall.endswith("%"):
        overall = float(overall[:-1])
    accuracy = (float(overall) / (1 if bench in ("worldsense", "longvideobench", "videomme") else 100)) if overall is not None else (
        sum(scored) / len(scored) if scored else math.nan)
    stats: dict[str, Any] = {
        "benchmark": bench,
        "variant": variant,
        "rows": n,
        "tasks": len(scored),
        "correct": float(sum(scored)),
        "accuracy": accuracy,
        "decided": decided,
        "decided_unit": "rows",
        "decided_exact": routes["exact_matching"],
        "method": method,
        "judge_policy": judge_policy,
        "archive_method": archive_method,
        "matches_archive": matches,
        **disagreement_keys("record_disagreements", len(disagreements)),
        "status": status_counts(rows),
        "judge": False,
        "reference_error": error,
    }
    if bench == "videommev2":
        # get_final_rating scores groups of four rows; a group with an undecided row is left out.
        stats["groups_left_out"] = groups_left_out
    if disagreements:
        stats["record_disagreement_indexes"] = disagreements[:20]
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return GradeResult(rows=rows, report=report, stats=stats)
