"""The EASI spatial benchmarks VLMEvalKit grades with ``vlmeval/dataset/utils/spatial_bench``
(added by ef83c66c, 2026-03-04; 401916c0, 2026-03-25, only restyled it; the same at head
e8e78f05). Two flows, each extract -> score -> aggregate here:

* ``vsisupercount`` (``VsiSuperCount.evaluate``, rules: run.py gives a VQA set no judge,
  so ``build_na_score_fn`` takes the rule path ``compute_na_score``): each prediction's
  number is read by ``can_match_na`` and scored by ``mean_relative_accuracy`` against
  ``answer`` (0 where either is missing). The report ``{stem}_extract_matching_acc.csv``
  (tab-separated whatever its extension) is ``metric, value``: ``overall`` (the mean of
  the per-``question_type`` means, * 100) then ``{question_type}_MRA:.5:.95:.05`` (* 100)
  in sorted order, values unrounded.
* ``mcq`` (``eval_mcq_score`` with ``build_mcq_score_fn``: run.py's default judge for an
  MCQ set is an LLM, so ``compute_score_llm`` grades every row A/B/C and ``hit`` is
  ``grade == "A"``): the judge's grades are replayed from what VLMEvalKit recorded beside
  the result file (:func:`gaia_fast.scorers.vlm.recorded.find_records`, kind ``spatial``:
  ``{stem}_llm_{J}.xlsx`` with ``judge_grade, pred_extracted, hit`` for every row, and the
  cache ``{stem}_llm_{J}_judge.pkl``, ``index -> (grade, extracted)``). A row with no
  recorded grade is ``needs_judge`` and left out of the report. The report
  ``{stem}_llm_{J}_acc.csv`` is one wide row (tab-separated, ``%.4f``): ``overall`` then,
  per grouping column, ``{prefix}{value}_accuracy`` (prefix ``{column}.`` when there are
  several grouping columns), the benchmark's preferred order first, then the remaining
  metrics in the order the summary met them (values in index order).
  VLMEvalKit's rule path (judge model None / ``exact_matching``, or no API key:
  ``compute_mcq_score``, the option letters of prediction and answer by ``can_match_option``)
  is taken with ``judge_policy="none"`` and for an archive graded that way (its records are
  ``{stem}_extract_matching.xlsx``; report ``{stem}_extract_matching_acc.csv``); the same in
  every judge-graded flow below (NA rows: ``compute_na_score``).
* ``sitebench`` (``SiteBenchBase.evaluate``): the same recorded grades (cache
  ``{stem}_llm_{J}_mcq_judge.pkl``); the report ``{stem}_llm_{J}_acc.csv`` is ``metric,
  value`` (tab-separated, unrounded): overall accuracy and class-adjusted accuracy (CAA,
  ``compute_caa_score``: options counted from ``candidates``/``options``, 4 by default),
  then each listed category's accuracy, then each one's CAA.
* ``sparbench`` (``SparBench.evaluate``, rules: a VQA set gets no judge from run.py): MCQ
  tasks by ``can_match_option`` letters, NA tasks by MRA, ``view_change_infer`` by the VCI
  metric; ``{stem}_extract_matching_acc.csv`` (tab-separated, unrounded) has two rows: the
  overall/Low/Middle/High means alone, then every metric (see :func:`_grade_spar`).
* ``starebench`` (``StareBench.evaluate``): the same recorded grades (cache
  ``_mcq_judge.pkl``); one wide row (tab-separated, ``%.4f``): overall accuracy, the 6-term
  macro, each category's accuracy, and F1 of "yes" for the yes/no categories (the judge's
  extracted letter mapped through the question's options).
* ``vsibench`` / ``spbench`` (``VsiBench.evaluate``): MCQ rows by grade, NA rows by the
  judge's extracted number (MRA); one wide unrounded row (see :func:`_grade_vsi`).
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._replay import (
    check_replay_args,
    has_record_files,
    judge_label,
    method_keys,
    method_line,
    records_summary,
    rules_only_stats,
    status_counts,
    tally_keys,
)
from gaia_fast.scorers.vlm.judged import _pairwise_sum, _pandas_mean
from gaia_fast.scorers.vlm.recorded import Records

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=``.
RECORD_KIND = "spatial"

__all__ = ["BENCHMARKS", "MRA_KEY", "can_match_na", "can_match_option", "grade", "mean_relative_accuracy", "vci_metric"]

MRA_KEY = "MRA:.5:.95:.05"

# --------------------------------------------------------------------------------------
# The benchmarks: grouping columns and preferred orders of each evaluate (copied tables)
# --------------------------------------------------------------------------------------

_MMSI_VIDEO = {
    "Spatial Construction": [
        "Instance/Scene Attribute", "Instance-Instance Spatial Relationship", "Instance-Scene Spatial Relationship",
        "Scene-Scene Spatial Relationship", "Camera-Instance Spatial Relationship", "Camera-Scene Spatial Relationship",
    ],
    "Motion Understanding": ["Camera Motion", "Instance Motion", "Interactive Motion"],
    "Cross-Video": ["Memoery Update", "Multi-View Integration"],
    "Planning": ["Planning"],
    "Prediction": ["Prediction"],
}
_SPATIALVIZ = {
    "MentalRotation": ["2DRotation", "3DRotation", "3ViewProjection"],
    "MentalFolding": ["PaperFolding", "CubeUnfolding", "CubeReconstruction"],
    "VisualPenetration": ["CrossSection", "CubeCounting", "CubeAssembly"],
    "MentalAnimation": ["ArrowMoving", "BlockMoving", "MechanicalSystem"],
}
_OMNISPATIAL = {
    "Dynamic_Reasoning": ["Manipulation", "Motion_Analysis"],
    "Spatial_Interaction": ["Traffic_Analysis", "Localization", "Geospatial_Strategy"],
    "Complex_Logic": ["Pattern_Recognition", "Geometric_Reasoning"],
    "Perspective_Taking": ["Egocentric", "Allocentric", "Hypothetical"],
}



#: The variants a registry entry may name (one rule).
VARIANTS = (None, "ef83c66c")

def _two_level(first: str, second: str, table: dict[str, list[str]]) -> tuple[tuple[str, ...], dict[str, list[str]]]:
    return (first, second), {first: list(table), second: [t for ts in table.values() for t in ts]}


#: benchmark -> (grouping columns, preferred order per column) of its ``eval_mcq_score`` call.
BENCHMARKS: dict[str, tuple[tuple[str, ...], dict[str, list[str]]]] = {
    "mindcubebench": (("category",), {"category": ["rotation", "among", "around"]}),
    "embspatialbench": (("data_source",), {"data_source": ["mp3d", "ai2thor", "scannet"]}),
    "viewspatialbench": (("question_type",), {"question_type": [
        "Camera perspective - Relative Direction", "Camera perspective - Object View Orientation",
        "Person perspective - Object View Orientation", "Person perspective - Relative Direction",
        "Person perspective - Scene Simulation Relative Direction",
    ]}),
    "mmsibench": (("category",), {"category": [
        "Pos-Cam-Cam", "Pos-Obj-Obj", "Pos-Reg-Reg", "Pos-Cam-Obj", "Pos-Obj-Reg", "Pos-Cam-Reg",
        "Attr-Meas", "Attr-Appr", "Motion-Cam", "Motion-Obj", "MSR",
    ]}),
    "eriq": (("task_type",), {"task_type": [
        "QA_ACTION_UNDERSTANDING", "QA_DUALVIEW_MATCHING", "QA_FINE_GRAINED_PLAN", "QA_HUMAN_INTENTION",
        "QA_HUMAN_INTERACTION", "QA_MISTAKE_CLASSIFY", "QA_MISTAKE_EXISTENCE", "QA_MISTAKE_RECOVERY",
        "QA_RELATIVE_POS_GROUNDING", "QA_SCENE_UNDERSTANDING", "QA_SUBTASK_PLANNING", "QA_SUCCESS_DETECTION",
        "QA_TASK_GROUNDING", "QA_TASK_PROGRESS", "QA_TRAJ_UNDERSTANDING",
    ]}),
    "stibench": (("task_type",), {"task_type": [
        "Dimensional Measurement", "Spatial Relation", "3D Video Grounding", "Displacement & Path Length",
        "Speed & Acceleration", "Ego-Centric Orientation", "Trajectory Description", "Pose Estimation",
    ]}),
    "dsrbench": (("task_type",), {"task_type": [
        "abs_dis", "abs_dir", "abs_ori", "abs_spd", "abs_spd_comp", "abs_dir_pred",
        "rel_dis", "rel_dir", "rel_ori", "rel_spd", "rel_spd_comp", "rel_dir_pred", "non_temp",
    ]}),
    "vsisuperrecall": (("question_type",), {}),
    "mmsivideobench": _two_level("task_type", "sub_task_type", _MMSI_VIDEO),
    "spatialvizbench": _two_level("category", "task", _SPATIALVIZ),
    "omnispatialbench": _two_level("task_type", "sub_task_type", _OMNISPATIAL),
    "spatialdise": (("category", "difficulty", "dise_category"), {
        "category": [
            "3D Combination", "3D Rotation", "3D Folding", "3D Projection", "3D Shape Finding",
            "2D Combination", "2D Rotation", "2D Folding", "2D Shape Finding", "Fold and Punch",
        ],
        "difficulty": ["easy", "medium", "hard"],
        "dise_category": ["Intrinsic-Static", "Intrinsic-Dynamic", "Extrinsic-Static", "Extrinsic-Dynamic"],
    }),
    "vsisupercount": ((), {}),
    "vsibench": ((), {}),
    "spbench": ((), {}),
    "starebench": ((), {}),
    "sparbench": ((), {}),
    "sitebench": (("category",), {"category": [
        "counting & existence", "object localization & positioning", "3d information understanding",
        "multi-view & cross-image reasoning", "spatial relationship reasoning", "movement prediction & navigation",
    ]}),
}

#: ``get_task_type`` of VsiBench / SPBench: question_type -> MCQ or NA (others raise upstream).
_TASK_TYPES: dict[str, dict[str, str]] = {
    "vsibench": {
        **dict.fromkeys(("obj_appearance_order", "object_rel_direction_easy", "object_rel_direction_hard",
                         "object_rel_direction_medium", "object_rel_distance", "route_planning"), "MCQ"),
        **dict.fromkeys(("object_abs_distance", "object_size_estimation", "object_counting", "room_size_estimation"), "NA"),
    },
    "spbench": {
        **dict.fromkeys(("object_rel_direction", "object_rel_distance"), "MCQ"),
        **dict.fromkeys(("object_counting", "object_abs_distance", "object_size_estimation"), "NA"),
    },
}
#: ``VsiBench._aggregate``'s report order.
_VSI_ORDER = (
    "object_counting", "object_abs_distance", "object_size_estimation", "room_size_estimation",
    "object_rel_distance", "object_rel_direction", "route_planning", "obj_appearance_order",
)
_REL_KEYS = ("object_rel_direction_easy_accuracy", "object_rel_direction_medium_accuracy", "object_rel_direction_hard_accuracy")

# --------------------------------------------------------------------------------------
# Extract: can_match_na (matching_func.py)
# --------------------------------------------------------------------------------------

_ZW_RE = re.compile(r"[\u200b\u200c\u200d\ufeff]")
_NUMERIC = r"[-+]?(?:\d*\.\d+|\d+)(?:[eE][-+]?\d+)?"
_NUM_RE = re.compile(_NUMERIC)
_TAGGED_NUMERIC = re.compile(
    rf"<\s*answer\b[^>]*>\s*({_NUMERIC})(?:[^\d<][^<]*)?<\s*/\s*answer\s*>", flags=re.IGNORECASE | re.DOTALL
)
#: ``num2words(i)`` for i in 0..20 (``build_word2num(20)``), in that order: the regex's alternation order.
_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
)
_WORD2NUM = {w: i for i, w in enumerate(_WORDS)}
_WORD_RE = re.compile(r"\b(" + "|".join(re.escape(w) for w in _WORDS) + r")\b", flags=re.IGNORECASE)
_THINK_END = re.compile(r"</\s*think\s*>", flags=re.IGNORECASE)
_THINK_START = re.compile(r"<\s*think\s*>", flags=re.IGNORECASE)


def _after_think(text: str) -> str:
    ends = list(_THINK_END.finditer(text))
    if ends:
        return text[ends[-1].end():].strip()
    starts = list(_THINK_START.finditer(text))
    if starts:
        return text[starts[-1].end():].strip()
    return text


def can_match_na(pred: str) -> float | None:
    """``can_match_na``: the number a free-form prediction gives (None: none). A text that
    looks like a list is read as one and its first element used; number words up to twenty
    become digits; then ``<answer>N</answer>``, else the last number after ``</think>``,
    else the only distinct number (or the last one)."""
    try:
        s = pred.strip()
        if s.startswith("[") and s.endswith("]"):
            seq = ast.literal_eval(pred)  # raises on a non-literal: None, as upstream's try
            candidates = [str(seq[0])] if isinstance(seq, list) and seq else [pred]
        else:
            candidates = [pred]
        for raw in candidates:
            text = _ZW_RE.sub("", raw.strip())
            text = _WORD_RE.sub(lambda m: str(_WORD2NUM[m.group(1).lower()]) if m.group(1).lower() in _WORD2NUM else m.group(0), text)
            m = _TAGGED_NUMERIC.search(text)
            if m:
                try:
                    return float(m.group(1))
                except ValueError:
                    pass
            nums = _NUM_RE.findall(_after_think(text))
            if nums:
                return float(nums[-1])
            nums = _NUM_RE.findall(text)
            if nums:
                uniq = sorted(set(nums))
                return float(uniq[0]) if len(uniq) == 1 else float(nums[-1])
        return None
    except Exception:  # noqa: BLE001 - upstream returns None on any failure (a bad literal, a huge int)
        return None


# --------------------------------------------------------------------------------------
# Extract: can_match_option (matching_func.py), the rule path's option letter
# --------------------------------------------------------------------------------------

_TAGGED_ANSWER_BLOCK = re.compile(
    r"<\s*answer\b[^>]*>\s*([A-Ja-j])(?:\s*[\.．:：\)\]】、])?.*?<\s*/\s*answer\s*>", flags=re.IGNORECASE | re.DOTALL
)
_PUNC_TIGHT = r"\.,:;!?\)\]】》」』，。；、：）】》」』"
_OPTION_LINE_PREFIX = re.compile(r"^(?:[*_>\-\s]*)(?:option|选项)\s+[A-J]\s*[:：]", re.IGNORECASE)
_MD_SINGLE = re.compile(r"^\s*[*_`>（）\[\]【】\(\)]*\s*([A-Fa-f])\s*[*_`（）\[\]【】\(\)]*\s*$")
_LINE_START_LABELED = re.compile(r"^\s*([A-F])\s*[\.．:：\)\]】、-]\s+", re.IGNORECASE)
_TOKEN_INLINE = re.compile(
    rf"(?<![A-Za-z])[*_`（\[\{{\(]*\s*([A-F])\s*[*_`）\]\}})]*(?=$|[\s{_PUNC_TIGHT}])"
)


def _letter_patterns(letters: str) -> tuple[re.Pattern[str], ...]:
    ans = re.compile(rf"(?<![A-Za-z])[\(\[\{{（【]?\s*([{letters}])\s*[\)\]\}}）】]?\s*</\s*answer\s*>", re.IGNORECASE)
    think = re.compile(rf"(?<![A-Za-z])[\(\[\{{（【]?\s*([{letters}])\s*[\)\]\}}）】]?\s*</\s*think\s*>", re.IGNORECASE)
    phrase = re.compile(
        rf"(?i)(?:final\s*answer|the\s*answer\s*is|answer(?:\s*is)?|correct\s*answer|"
        rf"答案|最终答案|结论|所以|因此|我选(?:择)?|选择|选)"
        rf"\s*[:：>＝=]?\s*[\(\[\{{（【]?\s*([{letters}])\s*[\)\]\}}）】]?(?:\b|[.)、。])"
    )
    upper = re.compile(rf"(?<![A-Za-z])[\(\[\{{（【]?\s*([{letters}])\s*[\)\]\}}）】]?(?![A-Za-z])")
    return ans, think, phrase, upper


_DEFAULT_PATTERNS = _letter_patterns("ABCDEF")


def _pick_from_lines(lines: list[str]) -> str | None:
    for line in reversed([ln.strip() for ln in lines if ln.strip()]):
        if _OPTION_LINE_PREFIX.search(line):
            continue
        m = _MD_SINGLE.fullmatch(line)
        if m:
            return m.group(1).upper()
        m = _LINE_START_LABELED.match(line)
        if m:
            return m.group(1).upper()
        tokens = [t.upper() for t in _TOKEN_INLINE.findall(line)]
        if tokens:
            uniq = sorted(set(tokens))
            if len(uniq) == 1:
                return uniq[0]
    return None


def can_match_option(answer_text: str, tail_lines: int = 6, tail_window: int = 800) -> str | None:
    """``can_match_option`` (no ``choices``: letters A-F): the option letter of a free-form
    answer, None where upstream returns False. In order: ``<answer>X...</answer>``; a letter
    right before ``</answer>`` / ``</think>`` in the last 800 characters; the last 6 lines
    after the last ``</think>`` (else ``<think>``), then of the tail window (a line that is
    one letter, starts ``X.``, or holds one distinct standalone capital); "final answer: X"
    phrases; one distinct standalone capital letter in the whole text."""
    ans_pat, think_pat, phrase_pat, upper_pat = _DEFAULT_PATTERNS
    text = _ZW_RE.sub("", answer_text.strip())
    m = _TAGGED_ANSWER_BLOCK.search(text)
    if m:
        return m.group(1).upper()
    tail_block = text[-tail_window:]
    for pat in (ans_pat, think_pat):
        m = pat.search(tail_block)
        if m:
            return m.group(1).upper()
    ends = list(_THINK_END.finditer(text))
    if ends:
        tail_segment = text[ends[-1].end():].strip()
    else:
        starts = list(_THINK_START.finditer(text))
        tail_segment = text[starts[-1].end():].strip() if starts else text
    pick = _pick_from_lines(tail_segment.splitlines()[-tail_lines:])
    if pick:
        return pick
    pick = _pick_from_lines(text[-tail_window:].splitlines()[-tail_lines:])
    if pick:
        return pick
    m = phrase_pat.search(text)
    if m:
        return m.group(1).upper()
    cleaned = "\n".join(ln for ln in text.splitlines() if not _OPTION_LINE_PREFIX.search(ln))
    uniq = sorted(set(upper_pat.findall(cleaned)))
    if len(uniq) == 1:
        return uniq[0]
    return None


# --------------------------------------------------------------------------------------
# Score: mean_relative_accuracy (cal_scores.py)
# --------------------------------------------------------------------------------------

#: ``np.linspace(.5, .95, 10)`` (``num_pts = int((.95 - .5) / .05 + 2)`` is 10): start +
#: i * step, the last point exactly the end, as NumPy computes them.
_STEP = (0.95 - 0.5) / 9
_CONF = tuple([0.5 + i * _STEP for i in range(9)] + [0.95])


def mean_relative_accuracy(pred: float, target: float) -> float:
    """``mean_relative_accuracy(pred, target, .5, .95, .05)``: the share of the ten
    thresholds t with ``|pred - target| / |target| <= 1 - t`` (``|pred|`` when target is 0)."""
    err = abs(pred - target) if target == 0.0 else abs((pred - target) / target)
    ok = sum(1 for c in _CONF if err <= 1 - c)
    return ok / 10


def _to_float(value: Any) -> float | None:
    if value is None:
        return math.nan  # an empty cell is NaN in pandas
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


# --------------------------------------------------------------------------------------
# The NA flow (VsiSuperCount)
# --------------------------------------------------------------------------------------


def _judged(recorded: Records | None) -> bool:
    """Whether the records say a judge graded the archive (not the rule path's table)."""
    return recorded is not None and bool(recorded.files) and recorded.judge != RULES_TAG


def _grade_count(frame: pl.DataFrame, recorded: Records | None = None) -> GradeResult:
    for name in ("index", "answer", "question_type"):
        if name not in frame.columns:
            raise ValueError(f"vsisupercount: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    preds = frame["prediction"].cast(pl.String).to_list()
    answers = frame["answer"].cast(pl.String).to_list()
    extracted: list[float | None] = []
    scores: list[float] = []
    status: list[str] = []
    reasons: list[str] = []
    for p, a in zip(preds, answers):
        # eval: data['prediction'] = [str(x) ...]: an empty cell is the text "nan".
        pred = can_match_na("nan" if p is None else p)
        gt = _to_float(a)
        extracted.append(pred)
        if pred is None or gt is None or math.isnan(gt):
            scores.append(0.0)
            status.append("no_answer" if pred is None else "bad_truth")
            reasons.append("no number in the prediction: MRA 0" if pred is None else f"answer {a!r} is not a number: MRA 0")
        else:
            s = mean_relative_accuracy(pred, gt)
            scores.append(s)
            status.append("ok")
            reasons.append(f"number {pred!r} vs {gt!r}: MRA {s:g}")
    qtypes = frame["question_type"].cast(pl.String).to_list()
    reference_error = None
    if any(q is None for q in qtypes):
        # _aggregate: sorted(question_type.unique()) meets NaN beside text and raises.
        first = qtypes.index(None)
        reference_error = f"VsiSuperCount._aggregate: row {first + 2} has no question_type (TypeError upstream, no report written); left out of the split means"
    per: dict[str, list[float]] = {}
    for q, s in zip(qtypes, scores):
        if q is not None:  # groupby drops a missing key
            per.setdefault(q, []).append(s)
    means = {q: _pandas_mean(per[q]) for q in sorted(per)}
    overall = (sum(means.values()) / len(means)) if means else 0.0
    metrics = [("overall", overall * 100.0)] + [(f"{q}_{MRA_KEY}", v * 100.0) for q, v in means.items()]
    report = pl.DataFrame(metrics, schema={"metric": pl.String, "value": pl.Float64}, orient="row")
    rows = frame.with_columns(
        pl.Series("extracted", [None if v is None else repr(v) for v in extracted], pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    n = frame.height
    stats: dict[str, Any] = {
        "benchmark": "vsisupercount",
        "variant": None,
        "rows": n,
        "tasks": n,
        "correct": float(sum(scores)),
        "accuracy": overall,
        "decided": {"rules": n, "recorded": 0, "live": 0, "undecided": 0},
        "decided_unit": "rows",
        "method": "rules (can_match_na + mean relative accuracy)",
        # An archive graded with --judge (compute_na_score_llm) kept _llm_{model} files: say
        # it was graded otherwise (the rules are run.py's default for this set).
        "archive_method": f"judge {recorded.judge}" if _judged(recorded) else None,
        "matches_archive": not _judged(recorded),
        "reference_error": reference_error,
        "status": status_counts(rows),
        "judge": False,
    }
    return GradeResult(rows=rows, report=report, stats=stats)


# --------------------------------------------------------------------------------------
# The MCQ flow (eval_mcq_score with the LLM grades replayed)
# --------------------------------------------------------------------------------------


def _fmt4(v: float) -> float:
    """The value as ``to_csv(float_format='%.4f')`` writes it."""
    return float(f"{v:.4f}")


def _mcq_report(cols: dict[str, list[str | None]], hits: list[int], group_cols: tuple[str, ...], order: dict[str, list[str]]) -> list[tuple[str, float]]:
    summary: dict[str, float] = {"overall": (_pandas_mean([float(h) for h in hits]) if hits else 0.0) * 100.0}
    several = len(group_cols) > 1
    for gc in group_cols:
        if gc not in cols:
            continue
        values = cols[gc]
        preferred = order.get(gc, [])
        present = list(dict.fromkeys(v for v in values if v is not None))
        prefix = f"{gc}." if several else ""
        for cat in preferred + [c for c in present if c not in preferred]:
            sub = [float(h) for h, v in zip(hits, values) if v == cat]
            if sub:
                summary[f"{prefix}{cat}_accuracy"] = _pandas_mean(sub) * 100.0
    metric_order = ["overall"]
    for gc in group_cols:
        prefix = f"{gc}." if several else ""
        metric_order += [f"{prefix}{c}_accuracy" for c in order.get(gc, [])]
    metric_order += [k for k in summary if k not in metric_order]
    # reindex(...).dropna(): a preferred metric with no rows is left out (a repeat would
    # appear twice; the tables here have none).
    return [(k, summary[k]) for k in metric_order if k in summary]


def _n_options(cands: str | None, opts: str | None, has_cands: bool, has_opts: bool) -> int:
    """``_ensure_options_count_row``: the length of the ``candidates`` list (or, with no
    such column, ``options``) read as a Python literal; 4 when it is not a non-empty list."""
    val = cands if has_cands else opts if has_opts else None
    n = None
    if val is not None:
        try:
            parsed = ast.literal_eval(val)
        except Exception:  # noqa: BLE001 - upstream: any failure is "no count"
            parsed = None
        if isinstance(parsed, list):
            n = len(parsed)
    return n if isinstance(n, int) and n > 0 else 4


def _caa(hits: list[int], ns: list[int]) -> float:
    """``compute_caa_score``: (sum X_i - sum 1/n_i) / (N - sum 1/n_i), 0 when the
    denominator is 0 (sums as pandas adds them)."""
    if not hits:
        return 0.0
    inv = _pairwise_sum([1.0 / n for n in ns], 0, len(ns))
    denom = len(hits) - inv
    return (sum(hits) - inv) / denom if denom != 0 else 0.0


def _sitebench_report(frame: pl.DataFrame, kept: list[int], hits: list[int]) -> list[tuple[str, float]]:
    """``SiteBenchBase.evaluate``'s table: overall accuracy and CAA, then each known
    category's accuracy, then each one's CAA (categories not in the list are left out)."""
    has_c, has_o = "candidates" in frame.columns, "options" in frame.columns
    cands = frame["candidates"].cast(pl.String).to_list() if has_c else [None] * frame.height
    opts = frame["options"].cast(pl.String).to_list() if has_o else [None] * frame.height
    ns = [_n_options(cands[i], opts[i], has_c, has_o) for i in kept]
    acc = (_pandas_mean([float(h) for h in hits]) if hits else 0.0) * 100.0
    summary = {"overall_accuracy": acc, "overall_caa": (_caa(hits, ns) if hits else 0.0) * 100.0}
    accs, caas = [], []
    if "category" in frame.columns:
        cats = frame["category"].cast(pl.String).to_list()
        for cat in BENCHMARKS["sitebench"][1]["category"]:
            sel = [j for j, i in enumerate(kept) if cats[i] == cat]
            if sel:
                accs.append((f"{cat}_accuracy", _pandas_mean([float(hits[j]) for j in sel]) * 100.0))
                caas.append((f"{cat}_caa", _caa([hits[j] for j in sel], [ns[j] for j in sel]) * 100.0))
    return list(summary.items()) + accs + caas


_STARE_MCQ = ("2d_trans", "2d_trans_vsim", "3d_trans", "3d_trans_vsim", "temporal", "perspective")
_STARE_BINARY = ("folding_nets", "folding_nets_vsim", "tangram_puzzle", "tangram_puzzle_vsim")
_STARE_OPTION = re.compile(r"([A-F])\s*[\.\:：\)\）]?\s*(yes|no)", flags=re.IGNORECASE)


def _stare_f1(rows: list[tuple[str | None, str | None, str | None]]) -> float | None:
    """``_compute_f1_for_binary_df``: answer and the judge's extracted letter mapped to
    yes/no through the question's ``A. yes B. no`` options (rows where either does not map
    are skipped), then F1 of "yes"; None when no row maps."""
    gts, preds = [], []
    for q, gl, pl_ in rows:
        if q is None or gl is None or pl_ is None:
            continue
        mp = {k.lower(): v.strip().lower() for k, v in _STARE_OPTION.findall(_ZW_RE.sub("", q))}
        glk, plk = gl.lower(), pl_.lower()
        if glk not in mp or plk not in mp:
            continue
        gts.append(mp[glk])
        preds.append(mp[plk])
    if not gts:
        return None
    tp = fp = fn = 0
    for g, p in zip(gts, preds):
        g, p = g == "yes", p == "yes"
        if p and g:
            tp += 1
        elif p:
            fp += 1
        elif g:
            fn += 1
    if tp == 0:
        return 0.0
    prec = tp / (tp + fp) if (tp + fp) else 0.0
    rec = tp / (tp + fn) if (tp + fn) else 0.0
    return 0.0 if (prec + rec) == 0 else 2 * prec * rec / (prec + rec)


def _stare_report(frame: pl.DataFrame, kept: list[int], hits: list[int], extracted: list[str | None]) -> list[tuple[str, float]]:
    """``StareBench.evaluate``'s table: overall accuracy, the 6-term macro (MCQ categories
    by accuracy, 0 when empty; the yes/no ones by F1), every category's accuracy (0 when it
    has no row), the F1 of each yes/no category that has one."""
    col = "category_agg" if "category_agg" in frame.columns else "category" if "category" in frame.columns else None
    if col is not None:
        # astype(str).str.strip().str.lower(): an empty cell is "nan"
        cats = [("nan" if v is None else v).strip().lower() for v in frame[col].cast(pl.String).to_list()]
    else:
        cats = ["all"] * frame.height
    questions = frame["question"].cast(pl.String).to_list() if "question" in frame.columns else [""] * frame.height
    answers = frame["answer"].cast(pl.String).to_list() if "answer" in frame.columns else [None] * frame.height
    summary: dict[str, float] = {"overall_accuracy": (_pandas_mean([float(h) for h in hits]) if hits else 0.0) * 100.0}
    macro_in: dict[str, float | None] = {}
    f1s: dict[str, float] = {}
    for cat in _STARE_MCQ + _STARE_BINARY:
        sel = [j for j, i in enumerate(kept) if cats[i] == cat]
        acc = _pandas_mean([float(hits[j]) for j in sel]) if sel else 0.0
        f1 = _stare_f1([(questions[kept[j]], answers[kept[j]], extracted[j]) for j in sel]) if cat in _STARE_BINARY and sel else None
        macro_in[cat] = f1 if cat in _STARE_BINARY else acc
        summary[f"{cat}_accuracy"] = acc * 100.0
        if f1 is not None:
            f1s[f"{cat}_f1"] = f1 * 100.0

    def mean(vals: list[float | None]) -> float | None:
        xs = [v for v in vals if v is not None]
        return None if not xs else sum(xs) / len(xs)

    terms = [
        mean([macro_in["2d_trans"], macro_in["2d_trans_vsim"]]),
        mean([macro_in["3d_trans"], macro_in["3d_trans_vsim"]]),
        mean([macro_in["folding_nets"], macro_in["folding_nets_vsim"]]),
        mean([macro_in["tangram_puzzle"], macro_in["tangram_puzzle_vsim"]]),
        macro_in["temporal"],
        macro_in["perspective"],
    ]
    macro = mean(terms)
    out = [("overall_accuracy", summary.pop("overall_accuracy"))]
    if macro is not None:
        out.append(("macro", macro * 100.0))
    return out + list(summary.items()) + list(f1s.items())


#: The judge name of the rule path's files (``{stem}_extract_matching.xlsx``).
RULES_TAG = "extract_matching"


def _rule_mcq(pred: str | None, answer: str | None) -> tuple[str | None, float]:
    """``compute_mcq_score`` for one row: the option letters of prediction and answer
    compared (``exact_match`` of their ``str``: two unreadable ones, ``False``, are equal)."""
    p = can_match_option("nan" if pred is None else pred)
    g = can_match_option(("nan" if answer is None else answer).strip())
    return p, 1.0 if str(p or False).lower() == str(g or False).lower() else 0.0


def _uses_rules(judge_policy: str, recorded: Records | None) -> bool:
    """The rule path: ``--judge none`` (VLMEvalKit's ``exact_matching`` policy), or an
    archive graded that way (its records are the ``_extract_matching`` table)."""
    return judge_policy == "none" or (recorded is not None and recorded.judge == RULES_TAG)


def _method_keys(rules: bool, judge_policy: str, recorded: Records | None, kept: int, undecided: int) -> dict[str, Any]:
    """The method keys (``decided`` .. ``matches_archive``) of a judge-graded set: ``kept``
    rows decided by the rules or the records, ``undecided`` left to a judge."""
    decided = {"rules": kept if rules else 0, "recorded": 0 if rules else kept, "live": 0, "undecided": undecided}
    archive_rules = has_record_files(recorded) and recorded.judge == RULES_TAG
    if archive_rules:
        archive_method = "rules (extract_matching: no judge)"
    else:
        archive_method = f"judge {recorded.judge}" if has_record_files(recorded) else None
    if rules:
        method = f"rules (extract_matching: can_match_option / can_match_na, {kept} rows)"
        return method_keys(decided, method, judge_policy, archive_method, archive_method is None or archive_rules)
    method = method_line([(judge_label(recorded), kept)], undecided)
    return method_keys(decided, method, judge_policy, archive_method, archive_method is not None and undecided == 0)


_MMSI_SUB_BENCHES = ("Easy2hard", "Grounding", "Indoor_Scene_Perception", "Robot")


def _mmsi_subsets(frame: pl.DataFrame, kept: list[int], hits: list[int]) -> list[tuple[str, float]]:
    """``MMSIVideoBench._aggregate_subsets`` (``{stem}_{J}_subset_acc.csv``, written only
    when a row has a sub-bench tag): per sub-bench column, ``({col})Avg`` and
    ``({col}){tag}`` accuracies * 100, keys in the order the rows (by index) meet them."""
    cols = {c: frame[c].cast(pl.String).to_list() for c in _MMSI_SUB_BENCHES if c in frame.columns}
    scores: dict[str, list[float]] = {}
    for j, i in enumerate(kept):
        for c, vals in cols.items():
            tag = vals[i]
            if tag is None or tag.strip().lower() in ("nan", "null", "none", ""):
                continue
            scores.setdefault(f"({c})Avg", []).append(float(hits[j]))
            scores.setdefault(f"({c}){tag}", []).append(float(hits[j]))
    return [(k, _np_mean(v) * 100.0) for k, v in scores.items()]


def _grade_mcq(frame: pl.DataFrame, bench: str, judge_policy: str, recorded: Records | None) -> GradeResult:
    group_cols, order = BENCHMARKS[bench]
    if "index" not in frame.columns:
        raise ValueError(f"{bench}: the result table has no 'index' column (columns: {sorted(frame.columns)})")
    rules = _uses_rules(judge_policy, recorded)
    use = recorded if judge_policy == "auto" and not rules else None
    n = frame.height
    keys = frame["index"].cast(pl.String).to_list()
    preds = frame["prediction"].cast(pl.String).to_list()
    answers = frame["answer"].cast(pl.String).to_list() if "answer" in frame.columns else [None] * n
    grades: list[str | None] = []
    extracted: list[str | None] = []
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    who = judge_label(recorded)
    for i, k in enumerate(keys):
        if rules:
            p, hit = _rule_mcq(preds[i], answers[i])
            grades.append(None)
            extracted.append(p)
            scores.append(hit)
            status.append("ok" if p else "no_answer")
            reasons.append(f"rules: option {p or 'none'}: hit {hit:g}")
            continue
        rec = use.get(k) if use is not None and k is not None else None
        g = None if rec is None else rec.get("judge_grade")
        g = None if g is None or (isinstance(g, float) and math.isnan(g)) else str(g)
        if rec is None or (g is None and rec.get("hit") is None):
            grades.append(None)
            extracted.append(None)
            scores.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded judge grade for this index"
            reasons.append(f"needs_judge: {why}; not counted")
            continue
        ex = rec.get("pred_extracted")
        # compute_score_llm: hit = 1 if grade == 'A' else 0 (a table without the grade keeps hit).
        hit = (1 if g == "A" else 0) if g is not None else int(float(rec["hit"]))
        grades.append(g)
        extracted.append(None if ex is None else str(ex))
        scores.append(float(hit))
        status.append("ok")
        reasons.append(f"{who}: grade {g} (extracted {ex!r}): hit {hit}")
    kept = [i for i in range(n) if scores[i] is not None]
    cols = {gc: [frame[gc].cast(pl.String)[i] for i in kept] for gc in group_cols if gc in frame.columns}
    # eval_mcq_score sorts the rows by index first: categories met in that order.
    order_idx = sorted(range(len(kept)), key=lambda j: _index_sort_key(keys[kept[j]]))
    cols = {gc: [v[j] for j in order_idx] for gc, v in cols.items()}
    hits = [int(scores[kept[j]]) for j in order_idx]
    if bench == "sitebench":
        metrics = _sitebench_report(frame, [kept[j] for j in order_idx], hits)
        report = pl.DataFrame(metrics, schema={"metric": pl.String, "value": pl.Float64}, orient="row")
    elif bench == "starebench":
        metrics = _stare_report(frame, [kept[j] for j in order_idx], hits, [extracted[kept[j]] for j in order_idx])
        report = pl.DataFrame({k: [_fmt4(v)] for k, v in metrics}, schema={k: pl.Float64 for k, _ in metrics})
    else:
        metrics = _mcq_report(cols, hits, group_cols, order)
        report = pl.DataFrame({k: [_fmt4(v)] for k, v in metrics}, schema={k: pl.Float64 for k, _ in metrics})
    rows = frame.with_columns(
        pl.Series("judge_grade", grades, pl.String),
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    correct = float(sum(hits))
    stats: dict[str, Any] = {
        "benchmark": bench,
        "variant": None,
        **tally_keys(n, len(kept), correct),
        **_method_keys(rules, judge_policy, recorded, len(kept), n - len(kept)),
        "status": status_counts(rows),
        "judge": False,
        "report_unrounded": dict(metrics),
        **({"report_subset": [{"metric": k, "value": _fmt4(v)} for k, v in _mmsi_subsets(frame, [kept[j] for j in order_idx], hits)]}
           if bench == "mmsivideobench" else {}),
    }
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return GradeResult(rows=rows, report=report, stats=stats)


def _grade_vsi(frame: pl.DataFrame, bench: str, judge_policy: str, recorded: Records | None) -> GradeResult:
    """``VsiBench.evaluate`` (SPBench reuses it with its own ``get_task_type``): MCQ rows
    scored by ``compute_score_llm`` (hit = grade A), NA rows by ``compute_na_score_llm``
    (the judge's extracted answer as a number, MRA against ``answer``; 0 when grade C or
    either is not a number); the grades replayed from the records."""
    for name in ("index", "question_type", "answer"):
        if name not in frame.columns:
            raise ValueError(f"{bench}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    kinds = _TASK_TYPES[bench]
    rules = _uses_rules(judge_policy, recorded)
    use = recorded if judge_policy == "auto" and not rules else None
    preds = frame["prediction"].cast(pl.String).to_list()
    who = judge_label(recorded)
    n = frame.height
    keys = frame["index"].cast(pl.String).to_list()
    qtypes = frame["question_type"].cast(pl.String).to_list()
    answers = frame["answer"].cast(pl.String).to_list()
    grades: list[str | None] = []
    extracted: list[str | None] = []
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    reference_error = None
    for i in range(n):
        kind = kinds.get(qtypes[i]) if qtypes[i] is not None else None
        rec = use.get(keys[i]) if use is not None and keys[i] is not None else None
        g = None if rec is None else rec.get("judge_grade")
        g = None if g is None or (isinstance(g, float) and math.isnan(g)) else str(g)
        ex = None if rec is None else rec.get("pred_extracted")
        ex = None if ex is None or (isinstance(ex, float) and math.isnan(ex)) else ex
        if kind is None:
            reference_error = reference_error or f"get_task_type: row {i + 2} has question_type {qtypes[i]!r} (ValueError upstream: no report)"
            grades.append(g)
            extracted.append(None)
            scores.append(None)
            status.append("error")
            reasons.append(f"error: unknown question_type {qtypes[i]!r}; not counted")
            continue
        if rules:
            grades.append(None)
            if kind == "MCQ":
                p, hit = _rule_mcq(preds[i], answers[i])
                extracted.append(p)
                scores.append(hit)
                status.append("ok" if p else "no_answer")
                reasons.append(f"rules: option {p or 'none'}: hit {hit:g}")
            else:
                num = can_match_na("nan" if preds[i] is None else preds[i])
                gt = _to_float(answers[i])
                ok = num is not None and gt is not None and not math.isnan(gt)
                sc = mean_relative_accuracy(num, gt) if ok else 0.0
                extracted.append(None if num is None else repr(num))
                scores.append(sc)
                status.append("ok" if ok else "no_answer" if num is None else "bad_truth")
                reasons.append(f"rules: number {num!r} vs {answers[i]!r}: MRA {sc:g}")
            continue
        if rec is None or g is None:
            grades.append(None)
            extracted.append(None)
            scores.append(None)
            status.append("needs_judge")
            why = "--judge none" if judge_policy == "none" else "no recorded judge grade for this index"
            reasons.append(f"needs_judge: {why}; not counted")
            continue
        grades.append(g)
        extracted.append(None if ex is None else str(ex))
        status.append("ok")
        if kind == "MCQ":
            hit = 1 if g == "A" else 0
            scores.append(float(hit))
            reasons.append(f"{who}: grade {g} (extracted {ex!r}): hit {hit}")
            continue
        pred = _to_float(ex)
        pred = None if ex is None else pred  # to_float(None) is None upstream
        gt = _to_float(answers[i])
        if pred is None or gt is None or math.isnan(gt) or g == "C":
            scores.append(0.0)
            reasons.append(f"{who}: grade {g}, extracted {ex!r}: MRA 0 (" + ("grade C" if g == "C" else "not a number") + ")")
        else:
            mra = mean_relative_accuracy(pred, gt)
            scores.append(mra)
            reasons.append(f"{who}: grade {g}, extracted {ex!r} vs {gt!r}: MRA {mra:g}")
    # _aggregate: per question_type means (groupby: sorted), MCQ types first, then NA.
    by_kind: dict[str, dict[str, list[float]]] = {"MCQ": {}, "NA": {}}
    order = sorted(range(n), key=lambda i: _index_sort_key(keys[i]))
    for i in order:
        if scores[i] is not None:
            by_kind[kinds[qtypes[i]]].setdefault(qtypes[i], []).append(scores[i])
    output: dict[str, float] = {}
    for q in sorted(by_kind["MCQ"]):
        output[f"{q}_accuracy"] = _pandas_mean(by_kind["MCQ"][q])
    for q in sorted(by_kind["NA"]):
        output[f"{q}_{MRA_KEY}"] = _pandas_mean(by_kind["NA"][q])
    if all(k in output for k in _REL_KEYS):
        output["object_rel_direction_accuracy"] = (output.pop(_REL_KEYS[0]) + output.pop(_REL_KEYS[1]) + output.pop(_REL_KEYS[2])) / 3.0
    # the overall mean counts every split, also one the report does not list
    overall = (sum(output.values()) / len(output)) if output else 0.0
    metrics = [("overall", overall * 100.0)]
    for q in _VSI_ORDER:
        for m in ("accuracy", MRA_KEY):
            if f"{q}_{m}" in output:
                metrics.append((f"{q}_{m}", output[f"{q}_{m}"] * 100.0))
    report = pl.DataFrame({k: [v] for k, v in metrics}, schema={k: pl.Float64 for k, _ in metrics})
    rows = frame.with_columns(
        pl.Series("task_type", [kinds.get(q) if q is not None else None for q in qtypes], pl.String),
        pl.Series("judge_grade", grades, pl.String),
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    kept = [s for s in scores if s is not None]
    stats: dict[str, Any] = {
        "benchmark": bench,
        "variant": None,
        "rows": n,
        "tasks": len(kept),
        "correct": float(sum(kept)),
        "accuracy": overall,
        **_method_keys(rules, judge_policy, recorded, len(kept), status.count("needs_judge")),
        "status": status_counts(rows),
        "judge": False,
        "crashed_rows": status.count("error"),
        "reference_error": reference_error,
    }
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return GradeResult(rows=rows, report=report, stats=stats)


_SPAR_TASKS: dict[str, str] = {
    **dict.fromkeys((
        "obj_spatial_relation_oo", "obj_spatial_relation_oc_mv", "obj_spatial_relation_oo_mv", "spatial_imagination_oc",
        "spatial_imagination_oo", "spatial_imagination_oc_mv", "spatial_imagination_oo_mv", "position_matching",
        "camera_motion_infer", "distance_infer_center_oo", "distance_infer_center_oo_mv",
    ), "MCQ"),
    **dict.fromkeys((
        "depth_prediction_oc", "depth_prediction_oo", "distance_prediction_oc", "distance_prediction_oo",
        "depth_prediction_oc_mv", "depth_prediction_oo_mv", "distance_prediction_oo_mv", "distance_prediction_oc_mv",
    ), "NA"),
    "view_change_infer": "SPECIAL",
}
_SPAR_LOW = (
    "depth_prediction_oc", "depth_prediction_oc_mv", "depth_prediction_oo", "depth_prediction_oo_mv",
    "distance_prediction_oc", "distance_prediction_oc_mv", "distance_prediction_oo", "distance_prediction_oo_mv",
)
_SPAR_MIDDLE = ("position_matching", "camera_motion_infer", "view_change_infer")
_SPAR_HIGH = (
    "distance_infer_center_oo", "distance_infer_center_oo_mv", "obj_spatial_relation_oc_mv", "obj_spatial_relation_oo",
    "obj_spatial_relation_oo_mv", "spatial_imagination_oc", "spatial_imagination_oc_mv", "spatial_imagination_oo",
    "spatial_imagination_oo_mv",
)
_VCI_ACTIONS = (("move_right", "move_left"), ("move_up", "move_down"), ("move_forward", "move_backward"),
                ("rotate_right", "rotate_left"), ("rotate_up", "rotate_down"))


def _parse_instruction(text: str | None) -> dict[str, float]:
    """``SparBench._parse_instruction``: ``'move_right:0.3,move_left:0.1'`` -> a dict."""
    out: dict[str, float] = {}
    if text is None:
        return out
    for item in text.split(","):
        item = item.strip()
        if not item or ":" not in item:
            continue
        k, v = item.split(":", 1)
        try:
            out[k.strip()] = float(v.strip())
        except ValueError:
            pass
    return out


def vci_metric(pred: str, answer: str | None) -> float:
    """``SparBench._compute_vci_metric``: MRA of each signed camera move (right - left, up -
    down, forward - backward, two rotations), averaged over the five."""
    p, g = _parse_instruction(pred), _parse_instruction("nan" if answer is None else answer)
    vals = [mean_relative_accuracy(p.get(a, 0.0) - p.get(b, 0.0), g.get(a, 0.0) - g.get(b, 0.0)) for a, b in _VCI_ACTIONS]
    return _pairwise_sum(vals, 0, len(vals)) / len(vals)


def _np_mean(vals: list[float]) -> float:
    return _pairwise_sum(list(vals), 0, len(vals)) / len(vals) if vals else math.nan


def _grade_spar(frame: pl.DataFrame, recorded: Records | None) -> GradeResult:
    """``SparBench.evaluate`` on the rule path (run.py gives this VQA set no judge): MCQ
    tasks by ``compute_mcq_score`` (the option letters of prediction and answer compared,
    both unreadable counting as equal, as upstream's ``str(False)`` do), NA tasks by
    ``compute_na_score``, ``view_change_infer`` by the VCI metric."""
    for name in ("index", "task", "answer"):
        if name not in frame.columns:
            raise ValueError(f"sparbench: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    keys = frame["index"].cast(pl.String).to_list()
    tasks = frame["task"].cast(pl.String).to_list()
    preds = ["nan" if v is None else v for v in frame["prediction"].cast(pl.String).to_list()]
    answers = frame["answer"].cast(pl.String).to_list()
    extracted: list[str | None] = []
    scores: list[float | None] = []
    status: list[str] = []
    reasons: list[str] = []
    reference_error = None
    for i in range(n):
        kind = _SPAR_TASKS.get(tasks[i]) if tasks[i] is not None else None
        if kind is None:
            reference_error = reference_error or f"get_task_type: row {i + 2} has task {tasks[i]!r} (ValueError upstream: no report)"
            extracted.append(None)
            scores.append(None)
            status.append("error")
            reasons.append(f"error: unsupported task {tasks[i]!r}; not counted")
            continue
        if kind == "MCQ":
            pred = can_match_option(preds[i])
            gt = can_match_option(("nan" if answers[i] is None else answers[i]).strip())
            # exact_match(str(pred), str(gt)), lowercased: False and False are equal
            hit = 1.0 if str(pred if pred else False).strip().lower() == str(gt if gt else False).strip().lower() else 0.0
            extracted.append(pred)
            scores.append(hit)
            status.append("ok" if pred else "no_answer")
            reasons.append(f"option {pred or 'none'} vs answer {gt or 'none'}: hit {hit:g}")
        elif kind == "NA":
            num = can_match_na(preds[i])
            gt = _to_float(answers[i])
            ok = num is not None and gt is not None and not math.isnan(gt)
            sc = mean_relative_accuracy(num, gt) if ok else 0.0
            extracted.append(None if num is None else repr(num))
            scores.append(sc)
            status.append("ok" if ok else "no_answer" if num is None else "bad_truth")
            reasons.append(f"number {num!r} vs {answers[i]!r}: MRA {sc:g}")
        else:
            sc = vci_metric(preds[i], answers[i])
            extracted.append(preds[i])
            scores.append(sc)
            status.append("ok")
            reasons.append(f"VCI metric {sc:g}")
    # _aggregate: per task means in order of first appearance (rows sorted by index), MCQ, NA, SPECIAL.
    order = sorted(range(n), key=lambda i: _index_sort_key(keys[i]))
    groups: dict[str, dict[str, list[float]]] = {"MCQ": {}, "NA": {}, "SPECIAL": {}}
    for i in order:
        if scores[i] is not None:
            groups[_SPAR_TASKS[tasks[i]]].setdefault(tasks[i], []).append(scores[i])
    suffix = {"MCQ": "_accuracy", "NA": f"_{MRA_KEY}", "SPECIAL": "_vci_metric"}
    task_metrics: dict[str, float] = {}
    base_to_key: dict[str, str] = {}
    for kind, per in groups.items():
        for t, vals in per.items():
            task_metrics[t + suffix[kind]] = _pandas_mean(vals)
            base_to_key[t] = t + suffix[kind]
    overall = _np_mean(list(task_metrics.values())) if task_metrics else 0.0

    def mean_group(ts: tuple[str, ...]) -> float:
        vals = [task_metrics[base_to_key[t]] for t in ts if t in base_to_key]
        return _np_mean(vals) if vals else 0.0

    summary = {"overall": overall, "Low": mean_group(_SPAR_LOW), "Middle": mean_group(_SPAR_MIDDLE), "High": mean_group(_SPAR_HIGH)}
    for t in _SPAR_LOW + _SPAR_MIDDLE + _SPAR_HIGH:
        if t in base_to_key:
            summary[base_to_key[t]] = task_metrics[base_to_key[t]]
    cols = list(summary)
    # Two rows: the four headline numbers alone, then everything.
    report = pl.DataFrame(
        {c: [summary[c] if c in ("overall", "Low", "Middle", "High") else None, summary[c]] for c in cols},
        schema={c: pl.Float64 for c in cols},
    )
    rows = frame.with_columns(
        pl.Series("task_type", [_SPAR_TASKS.get(t) if t is not None else None for t in tasks], pl.String),
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    kept = [x for x in scores if x is not None]
    graded_by_judge = _judged(recorded)
    stats = rules_only_stats(
        "sparbench",
        None,
        rows,
        input_rows=n,
        tasks=len(kept),
        correct=sum(kept),
        accuracy=overall,
        method="rules (can_match_option, can_match_na + MRA, VCI metric)",
        archive_method=f"judge {recorded.judge}" if graded_by_judge else None,
        matches=not graded_by_judge,
        crashed_rows=status.count("error"),
        reference_error=reference_error,
    )
    return GradeResult(rows=rows, report=report, stats=stats)


def _index_sort_key(key: str | None) -> tuple[int, float, str]:
    """``sort_values(by='index')``: numbers in numeric order (a missing index last)."""
    if key is None:
        return (2, 0.0, "")
    try:
        return (0, float(key), "")
    except ValueError:
        return (1, 0.0, key)


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "vsisupercount",
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
) -> GradeResult:
    """Grade a spatial_bench result table (``{model}_{dataset}.xlsx``).

    ``benchmark="vsisupercount"``: the rules (``can_match_na`` + MRA); ``judge_policy`` is
    ignored, and ``recorded`` only tells whether the archive was graded by a judge instead
    (``stats["archive_method"]``). Any other of :data:`BENCHMARKS`: the recorded LLM grades
    (``recorded=find_records(path, "spatial")``); rows without one are ``needs_judge``
    (live judging is not ported: ``judge`` must be None). ``seed`` and ``variant`` (one
    rule from ef83c66c to head) are unused.
    """
    frame = _check_frame(frame)
    bench = benchmark.lower() if isinstance(benchmark, str) else None
    if bench not in BENCHMARKS:
        raise ValueError(f"unknown spatial benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    if variant not in (None, "ef83c66c"):
        raise ValueError(f"{bench} has one rule (variant 'ef83c66c', 2026-03-04 to head), not {variant!r}")
    check_replay_args(judge_policy, recorded)
    if bench == "vsisupercount":
        return _grade_count(frame, recorded)
    if bench == "sparbench":
        return _grade_spar(frame, recorded)
    if judge is not None:
        raise ValueError(f"{bench}: live judging is not supported; rows without a recorded grade are needs_judge")
    if bench in _TASK_TYPES:
        return _grade_vsi(frame, bench, judge_policy, recorded)
    return _grade_mcq(frame, bench, judge_policy, recorded)

