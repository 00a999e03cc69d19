"""WeMath and WeMath_COT: ``WeMath.evaluate`` (VLMEvalKit ``vlmeval/dataset/image_mcq.py``,
``vlmeval/dataset/utils/wemath.py``), extract → score → aggregate.

* Rows: with a judge (run.py's default for WeMath is gpt-4o-mini), ``mcq_vanilla_eval``
  decides each row's ``hit`` (``can_infer``, then the judge for the rows it leaves open):
  replayed by :mod:`gaia_fast.scorers.vlm.mcq` from the archive's ``{stem}_{J}_result.pkl``.
  With ``exact_matching`` (no judge records beside the file, or ``judge_policy="none"``)
  VLMEvalKit never runs ``mcq_vanilla_eval``: ``load_and_process_data`` reads the result file
  itself, takes the text after the last ``Answer``, strips it, deletes ``<``, ``>``, ``:`` and
  ``.``, strips again, and the row is right when the first character (one of ``A``..``H``)
  equals ``answer``.
* Report (``{stem}_{J}_score.csv``, ``J`` = ``gpt4o-mini``, ``exact_matching``, ...): one row,
  ``wemath_evaluate_models`` (four-dimensional: insufficient knowledge, inadequate
  generalisation, complete mastery and rote memorisation, strict and loose, over each
  problem's step rows ``{n}steps_{i}`` merged with its ``{n}steps_multi`` row on ``ID``;
  rates over a fixed 525 problems) then ``wemath_accuracy`` (one-, two-, three-step accuracy
  and the accuracy per knowledge area: each step row's ``knowledge concept`` is a leaf of
  WeMath's knowledge tree, leaves averaged, then areas over their leaves). Cells are text
  formatted ``"{:.2%}"`` (``nan%`` where nothing is counted); ``Model`` is empty (NaN upstream).

The merges are pandas left merges: a step row a problem lacks is NaN, which counts as neither
right nor wrong; several rows with one ``ID`` and key multiply. Rows whose key is not a step
or multi key of a two- or three-step problem do not reach the report (status ``not_counted``,
score kept). Where upstream raises (rote memorisation and complete mastery both empty: a
division by zero; a missing prediction in the exact-matching path), ``report`` is empty and
``stats["reference_error"]`` says why.

Unchanged from 21453dca (2025-01-18, WeMath added, then in image_vqa.py) and 3f0b1ecb
(2025-01-27, WeMath_COT) to head e8e78f05 except that the storage file is read with
``load`` instead of ``pd.read_excel`` (0c2699d2, 2025-09-17: same cells for an xlsx); the
dated variants are the ``can_infer`` versions of :mod:`mcq`. Pure Python over the rows the
native flow scored.
"""

from __future__ import annotations

import math
from itertools import product
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult, mcq
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm.recorded import Records

#: The judge records this family replays (mcq_vanilla_eval's, else WeMath.evaluate's
#: storage): the executor passes ``find_records(path, RECORD_KIND)`` as ``recorded=``.
RECORD_KIND = "wemath"

__all__ = [
    "FOUR_DIM_COLUMNS",
    "KNOWLEDGE_AREAS",
    "VARIANTS",
    "answer_rule",
    "grade",
    "report",
]

#: ``can_infer`` versions (mcq_vanilla_eval's matcher) the registry's dates give.
VARIANTS = ("classic", "2025-08", "2026-06")
#: ``wemath_evaluate_models``' columns after ``Model``.
FOUR_DIM_COLUMNS = (
    "Score (Strict)",
    "InsufficientKnowledge (Strict)",
    "InadequateGeneralization (Strict)",
    "CompleteMastery (Strict)",
    "RoteMemorization (Strict)",
    "Score (Loose)",
    "InsufficientKnowledge (Loose)",
    "InadequateGeneralization (Loose)",
    "CompleteMastery (Loose)",
    "RoteMemorization (Loose)",
)
#: ``wemath_accuracy``'s columns: the step accuracies, then the areas (``root2``) in its order.
KNOWLEDGE_AREAS = (
    "Understanding and Conversion of Units",
    "Angles and Length",
    "Calculation of Plane Figures",
    "Understanding of Plane Figures",
    "Calculation of Solid Figures",
    "Understanding of Solid Figures",
    "Basic Transformations of Figures",
    "Cutting and Combining of Figures",
    "Direction",
    "Position",
    "Route Map",
    "Correspondence of Coordinates and Positions",
)
_STEP_COLUMNS = ("One-step(S1)", "Two-step(S2)", "Three-step(S3)")
#: Problems the rates are over: wemath.py's constant, whatever the file holds.
_TOTAL = 525
#: knowledge_structure_nodes: each leaf (the last part of its "full node") and its area (root2).
_NODES = (
    (
        "Conversion Rates and Calculations Between Area Units",
        "Understanding and Conversion of Units",
    ),
    (
        "Conversion Rates and Calculations Between Volume Units (Including Liters and Milliliters)",
        "Understanding and Conversion of Units",
    ),
    (
        "Conversion Rates and Calculations Between Length Units",
        "Understanding and Conversion of Units",
    ),
    ("Understanding Angles (Using a Protractor)", "Angles and Length"),
    ("Understanding Length (Using a Ruler)", "Angles and Length"),
    ("Surface Area of Cylinders", "Calculation of Solid Figures"),
    ("Surface Area of Rectangular Cuboids", "Calculation of Solid Figures"),
    ("Surface Area of Cubes", "Calculation of Solid Figures"),
    ("Volume and Capacity of Cylinders", "Calculation of Solid Figures"),
    ("Volume and Capacity of Cones", "Calculation of Solid Figures"),
    ("Volume and Capacity of Rectangular Cuboids", "Calculation of Solid Figures"),
    ("Volume and Capacity of Cubes", "Calculation of Solid Figures"),
    ("Expanded View of Cylinders", "Understanding of Solid Figures"),
    ("Expanded View of Rectangular Cuboids", "Understanding of Solid Figures"),
    ("Expanded View of Cubes", "Understanding of Solid Figures"),
    ("Properties of Cylinders", "Understanding of Solid Figures"),
    ("Properties of Cones", "Understanding of Solid Figures"),
    (
        "Properties and Understanding of Rectangular Cuboids",
        "Understanding of Solid Figures",
    ),
    ("Properties and Understanding of Cubes", "Understanding of Solid Figures"),
    ("Observing Objects", "Understanding of Solid Figures"),
    ("Sum of Interior Angles of Other Polygons", "Calculation of Plane Figures"),
    ("Sum of Interior Angles of Triangles", "Calculation of Plane Figures"),
    ("Calculation and Comparison of Angles", "Calculation of Plane Figures"),
    ("Area of Parallelograms", "Calculation of Plane Figures"),
    ("Area of Triangles", "Calculation of Plane Figures"),
    ("Area of Sectors", "Calculation of Plane Figures"),
    ("Area of Trapezoids", "Calculation of Plane Figures"),
    ("Area of Circles", "Calculation of Plane Figures"),
    ("Area of Rectangles", "Calculation of Plane Figures"),
    ("Area of Squares", "Calculation of Plane Figures"),
    ("Perimeter of Parallelograms", "Calculation of Plane Figures"),
    ("Perimeter of Triangles", "Calculation of Plane Figures"),
    ("Perimeter of Trapezoids", "Calculation of Plane Figures"),
    ("Circumference of Circles", "Calculation of Plane Figures"),
    ("Perimeter of Rectangles", "Calculation of Plane Figures"),
    ("Perimeter of Squares", "Calculation of Plane Figures"),
    (
        "Properties and Understanding of Parallelograms",
        "Understanding of Plane Figures",
    ),
    ("Properties and Understanding of Triangles", "Understanding of Plane Figures"),
    ("Properties and Understanding of Trapezoids", "Understanding of Plane Figures"),
    ("Properties and Understanding of Rectangles", "Understanding of Plane Figures"),
    ("Properties and Understanding of Squares", "Understanding of Plane Figures"),
    ("Understanding Triangular Rulers", "Understanding of Plane Figures"),
    ("Understanding and Representing Angles", "Understanding of Plane Figures"),
    ("Distance Between Two Points", "Understanding of Plane Figures"),
    ("Understanding Line Segments, Lines, and Rays", "Understanding of Plane Figures"),
    ("perpendicularity", "Understanding of Plane Figures"),
    ("Parallel", "Understanding of Plane Figures"),
    ("Understanding Sectors", "Understanding of Plane Figures"),
    ("Understanding Circles", "Understanding of Plane Figures"),
    ("Observing Figures", "Understanding of Plane Figures"),
    ("Axial Symmetry", "Basic Transformations of Figures"),
    ("Translation", "Basic Transformations of Figures"),
    ("Rotation", "Basic Transformations of Figures"),
    ("Combining and Dividing Solids", "Cutting and Combining of Figures"),
    ("Division of Plane Figures", "Cutting and Combining of Figures"),
    ("Combining Plane Figures", "Cutting and Combining of Figures"),
    ("Tessellation of Figures", "Cutting and Combining of Figures"),
    ("Folding Problems of Figures", "Cutting and Combining of Figures"),
    ("Southeast, Southwest, Northeast, Northwest Directions", "Direction"),
    ("Cardinal Directions (East, South, West, North)", "Direction"),
    (
        "Determining the Positions of Objects Based on Direction, Angle, and Distance",
        "Route Map",
    ),
    ("Describing Simple Routes Based on Direction and Distance", "Route Map"),
    (
        "Representing Positions Using Ordered Pairs",
        "Correspondence of Coordinates and Positions",
    ),
    (
        "Finding Positions Based on Ordered Pairs",
        "Correspondence of Coordinates and Positions",
    ),
    ("Front-Back Position", "Position"),
    ("Up-Down Position", "Position"),
    ("Left-Right Position", "Position"),
)
_AREA_OF = dict(_NODES)


def answer_rule(prediction: str) -> str | None:
    """``load_and_process_data``'s reading of a prediction when there is no ``hit`` column."""
    text = prediction.split("Answer")[-1].strip()
    text = "".join(ch for ch in text if ch not in "<>:.").strip()
    return text[0] if text and text[0] in "ABCDEFGH" else None


def _pct(x: float) -> str:
    return f"{x:.2%}"


def _mean(values: list[bool | None]) -> float:
    """pandas' ``mean`` of a joker column: NaN cells skipped, NaN when none is left."""
    got = [v for v in values if v is not None]
    return sum(got) / len(got) if got else math.nan


def _merged(
    rows: list[dict[str, Any]], steps: int
) -> list[tuple[list[Any], list[Any], Any]]:
    """``evaluate_process_steps_data``: each ``{steps}steps_1`` row left-merged on ``ID`` with
    the rows of keys ``_2``.. and ``_multi`` (several matches multiply; none gives NaN, None
    here). Each merged row: (step jokers, step concepts, multi joker)."""

    def by_id(key: str) -> dict[Any, list[dict[str, Any]]]:
        out: dict[Any, list[dict[str, Any]]] = {}
        for r in rows:
            if r["key"] == key:
                out.setdefault(r["id"], []).append(r)
        return out

    others = [by_id(f"{steps}steps_{i}") for i in range(2, steps + 1)] + [
        by_id(f"{steps}steps_multi")
    ]
    nothing = {"joker": None, "concept": None}
    merged = []
    for first in (r for r in rows if r["key"] == f"{steps}steps_1"):
        for combo in product(*[o.get(first["id"]) or [nothing] for o in others]):
            parts = [first, *combo[:-1]]
            merged.append(
                (
                    [p["joker"] for p in parts],
                    [p["concept"] for p in parts],
                    combo[-1]["joker"],
                )
            )
    return merged


def report(rows: list[dict[str, Any]]) -> tuple[pl.DataFrame, str | None]:
    """``WeMath.evaluate``'s ``_score.csv`` from rows ``{"id", "key", "concept", "joker"}``
    (``joker`` True/False, None for a row with no verdict). Returns (report, reference error)."""
    m2, m3 = _merged(rows, 2), _merged(rows, 3)
    counts = {
        k: 0 for k in ("IG", "IK", "CM_loose", "CM_strict", "RM_loose", "RM_strict")
    }
    for merged in (m2, m3):
        for jokers, _, multi in merged:
            all_true = all(j is True for j in jokers)
            all_false = all(j is False for j in jokers)
            any_true = any(j is True for j in jokers)
            any_false = any(j is False for j in jokers)
            if multi is True:
                counts["RM_loose"] += all_false
                counts["RM_strict"] += any_false
                counts["CM_loose"] += any_true
                counts["CM_strict"] += all_true
            elif multi is False:
                counts["IG"] += all_true
                counts["IK"] += any_false
    for kind in ("loose", "strict"):
        if counts[f"CM_{kind}"] + counts[f"RM_{kind}"] == 0:
            return (
                pl.DataFrame(),
                "ZeroDivisionError: division by zero (evaluate_compute_final_scores: no complete mastery or rote memorisation, "
                + kind
                + ")",
            )
    ik, ig = _pct(counts["IK"] / _TOTAL), _pct(counts["IG"] / _TOTAL)
    # Model is NaN upstream, written to the csv as an empty quoted cell.
    cells: dict[str, str] = {"Model": ""}
    for kind, name in (("strict", "Strict"), ("loose", "Loose")):
        cm, rm = counts[f"CM_{kind}"], counts[f"RM_{kind}"]
        cells[f"Score ({name})"] = _pct(
            (_TOTAL - 0.5 * counts["IG"] - rm - counts["IK"]) / _TOTAL
        )
        cells[f"InsufficientKnowledge ({name})"] = f"{ik} ({counts['IK']})"
        cells[f"InadequateGeneralization ({name})"] = f"{ig} ({counts['IG']})"
        cells[f"CompleteMastery ({name})"] = f"{_pct(cm / _TOTAL)} ({cm})"
        cells[f"RoteMemorization ({name})"] = f"{_pct(rm / (cm + rm))} ({rm})"
    # wemath_accuracy: every step row of every merged row, with its concept's leaf.
    steps = [
        (j, c)
        for merged in (m2, m3)
        for jokers, concepts, _ in merged
        for j, c in zip(jokers, concepts)
    ]
    cells["One-step(S1)"] = _pct(_mean([j for j, _ in steps]))
    cells["Two-step(S2)"] = _pct(_mean([multi for _, _, multi in m2]))
    cells["Three-step(S3)"] = _pct(_mean([multi for _, _, multi in m3]))
    per_leaf: dict[str, list[bool | None]] = {}
    for j, c in steps:
        if isinstance(c, str) and c in _AREA_OF:
            per_leaf.setdefault(c, []).append(j)
    leaf_means: dict[str, list[float]] = {a: [] for a in KNOWLEDGE_AREAS}
    for leaf, area in _NODES:
        value = _mean(per_leaf[leaf]) if leaf in per_leaf else math.nan
        if not math.isnan(value):
            leaf_means[area].append(value)
    for area in KNOWLEDGE_AREAS:
        got = leaf_means[area]
        cells[area] = _pct(math.fsum(got) / len(got) if got else math.nan)
    return pl.DataFrame(
        {k: [v] for k, v in cells.items()}, schema={k: pl.String for k in cells}
    ), None


def _step_keys() -> frozenset[str]:
    return frozenset(
        f"{n}steps_{i}" for n in (2, 3) for i in [*range(1, n + 1), "multi"]
    )


def _exact_rows(
    frame: pl.DataFrame, cols: dict[str, str]
) -> tuple[pl.DataFrame, str | None]:
    """The exact-matching path's verdicts (``processed_answer == answer``)."""
    preds = frame[cols["prediction"]].to_list()
    answers = frame[cols["answer"]].to_list()
    extracted, scores, reasons, error = [], [], [], None
    for i, (p, a) in enumerate(zip(preds, answers)):
        if not isinstance(p, str):
            # pandas' .str gives NaN for it and ``x[0]`` on NaN raises upstream.
            error = (
                error
                or f"TypeError: 'float' object is not subscriptable (load_and_process_data: row {i + 2} has no text prediction)"
            )
            extracted.append(None)
            scores.append(None)
            reasons.append("no text prediction (upstream raises)")
            continue
        got = answer_rule(p)
        extracted.append(got)
        hit = got is not None and isinstance(a, str) and got == a
        scores.append(1.0 if hit else 0.0)
        reasons.append(
            "exact_matching: first letter after the last 'Answer'"
            if got
            else "exact_matching: no letter A-H after the last 'Answer'"
        )
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series(
            "status", ["ok" if s is not None else "error" for s in scores], pl.String
        ),
        pl.Series("reason", reasons, pl.String),
    )
    return rows, error


def _columns(frame: pl.DataFrame) -> dict[str, str]:
    """The file's columns WeMath reads (names as VLMEvalKit lowercases them; ``id`` back to ``ID``)."""
    found: dict[str, str] = {}
    for c in frame.columns:
        key = c if (len(c) == 1 and c.isupper()) else c.lower()
        found[key] = c
    cols = {}
    for need in ("id", "key", "knowledge concept", "prediction", "answer"):
        if need not in found:
            raise ValueError(
                f"WeMath: the result table has no {need!r} column (columns: {frame.columns})"
            )
        cols[need] = found[need]
    return cols


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "mcq",
    variant: str | None = None,
    seed: int = 0,
    judge: mcq.Judge | None = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
    log: bool = False,
) -> GradeResult:
    """Grade a WeMath / WeMath_COT result table (``{model}_WeMath.xlsx``).

    ``recorded``: the archive's ``{stem}_{J}_result.pkl`` or storage ``{stem}_{J}.xlsx``
    (``find_records(path, "wemath")``): the
    rows go through :func:`gaia_fast.scorers.vlm.mcq.grade` (``variant`` = its ``can_infer``
    version, default ``classic``), rows with no record get ``needs_judge`` and no verdict (a
    missing cell in the merges). No records, or ``judge_policy="none"``: VLMEvalKit's
    ``exact_matching`` path (:func:`answer_rule`). A live ``judge`` is not supported (WeMath's
    own judge prompt is not ported). ``report``: the ``_score.csv`` row; ``rows``: every input
    row plus ``extracted``, ``score``, ``status``, ``reason``. ``benchmark``: the row flow, only
    ``"mcq"`` (mcq_vanilla_eval).
    """
    frame = _check_frame(frame)
    if benchmark != "mcq":
        raise ValueError(
            f"WeMath runs mcq_vanilla_eval; benchmark must be 'mcq', not {benchmark!r}"
        )
    if judge is not None:
        raise ValueError(
            "WeMath with a live judge is not supported (its build_prompt_wemath prompt is not ported); replay the archive's records"
        )
    if judge_policy not in mcq.JUDGE_POLICIES:
        raise ValueError(
            f"judge_policy must be one of {', '.join(map(repr, mcq.JUDGE_POLICIES))}, not {judge_policy!r}"
        )
    variant = "classic" if variant is None else variant
    if variant not in VARIANTS:
        raise ValueError(
            f"unknown WeMath variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}"
        )
    cols = _columns(frame)
    if recorded is not None and judge_policy != "none":
        result = mcq.grade(
            frame,
            benchmark="mcq",
            variant=variant,
            seed=seed,
            recorded=recorded,
            judge_policy=judge_policy,
            log=log,
        )
        rows, stats = result.rows, dict(result.stats)
        error = stats.get("reference_error")
        path = "judge"
    else:
        rows, error = _exact_rows(frame, cols)
        n = rows.height
        stats = {
            "benchmark": "wemath",
            "variant": variant,
            "rows": n,
            "decided": {"rules": n, "recorded": 0, "live": 0, "undecided": 0},
            "decided_unit": "rows",
            "flags": {},
            "method": "exact_matching (WeMath's 'Answer' rule; no judge records)",
            "decided_exact": n,
            "archive_method": None,
            "matches_archive": True,
        }
        path = "exact_matching"
    scores = rows["score"].to_list()
    ok = (rows["status"] == "ok").to_list()
    items = [
        {
            "id": i,
            "key": k,
            "concept": c,
            "joker": (bool(s) if (s is not None and good) else None),
        }
        for i, k, c, s, good in zip(
            frame[cols["id"]].to_list(),
            frame[cols["key"]].to_list(),
            frame[cols["knowledge concept"]].to_list(),
            scores,
            ok,
        )
    ]
    keys = _step_keys()
    if error:
        table = pl.DataFrame()
    else:
        table, error = report(items)
    counted = [isinstance(r["key"], str) and r["key"] in keys for r in items]
    rows = rows.with_columns(
        pl.when(pl.Series(counted) | (pl.col("status") != "ok"))
        .then(pl.col("status"))
        .otherwise(pl.lit("not_counted"))
        .alias("status")
    )
    scored = [s for s, good in zip(scores, ok) if s is not None and good]
    stats.update(
        {
            "path": path,
            "not_counted": counted.count(False),
            "correct": float(sum(scored)),
            "tasks": len(scored),
            "accuracy": sum(scored) / len(scored) if scored else None,
            "reference_error": error,
            "report": "wemath",
        }
    )
    return GradeResult(rows=rows, report=table, stats=stats)
