"""OCRBench (VLMEvalKit ``OCRBench.evaluate``), laid out as extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/image_vqa.py`` (``OCRBench``) at
c03bc048 (2024-07-27, the commit that wrote the VILA-1.5 tree) and
``vlmeval/dataset/utils/ocrbench.py`` (``OCRBench_eval``) at head e8e78f05: the rule and
the report are the same at both, so there is one variant, ``classic``.

A row counts for its category when one of ``eval(answer)``'s answers, normalised, is a
substring of the normalised prediction (``str(prediction)``, a missing one reads
``nan``). Normalisation: ``lower()``, ``strip()``, ``\\n`` to a space; for "Handwritten
Mathematical Expression Recognition" no lowercasing, and spaces and newlines removed. The
report (``_score.json``): the six text-recognition categories summed as ``Text
Recognition``, the other four categories, ``Final Score`` (their sum) and ``Final Score
Norm`` (``Final Score / 10``).

Matching runs natively over the Arrow columns on all cores; answer cells are parsed once
per distinct cell.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from gaia_fast import _native
from gaia_fast.scorers.vlm import GradeResult, as_frame
from gaia_fast.scorers.vlm._literal import flatten, parse_literals

__all__ = ["CATEGORIES", "HME", "REPORT_COLUMNS", "VARIANTS", "grade", "ocrbench_hit"]

VARIANTS: tuple[str, ...] = ("classic",)
DEFAULT_VARIANT = "classic"
HME: str = _native.OCRBENCH_HME
TEXT_RECOGNITION = (
    "Regular Text Recognition",
    "Irregular Text Recognition",
    "Artistic Text Recognition",
    "Handwriting Recognition",
    "Digit String Recognition",
    "Non-Semantic Text Recognition",
)
OTHERS = ("Scene Text-centric VQA", "Doc-oriented VQA", "Key Information Extraction", HME)
CATEGORIES = (*TEXT_RECOGNITION, *OTHERS)
#: The report's keys, in the reference's order.
REPORT_COLUMNS = ("Text Recognition", *OTHERS, "Final Score", "Final Score Norm")


def _answers(value: Any) -> tuple[list[str], str | None]:
    """The answers upstream iterates (a string is iterated by character), up to the first
    non-string one; and why upstream would raise on reaching the rest."""
    if isinstance(value, str):
        return list(value), None
    if not isinstance(value, (list, tuple)):
        return [], f"the answer is a {type(value).__name__}, not a list (upstream raises)"
    out = []
    for a in value:
        if not isinstance(a, str):
            return out, f"answer {len(out)} is a {type(a).__name__}, not a string (upstream raises on reaching it)"
        out.append(a)
    return out, None


def _check_variant(variant: str | None) -> str:
    variant = DEFAULT_VARIANT if variant is None else variant
    if variant not in VARIANTS:
        raise ValueError(f"unknown OCRBench variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")
    return variant


def _first_hits(predictions: pl.Series, answers: list[list[str]], hme: pl.Series) -> pl.Series:
    flat, counts = flatten(answers)
    return pl.Series("hit", _native.ocrbench_arrow(predictions, flat, counts, hme.cast(pl.Int64)))


def ocrbench_hit(prediction: str, answers: list[str], category: str) -> int | None:
    """Index of the first answer found in ``prediction`` under ``category``'s rule, or
    None (one row of :func:`grade`)."""
    hme = pl.Series([category == HME])
    j = _first_hits(pl.Series([prediction], dtype=pl.String), [list(answers)], hme)[0]
    return None if j < 0 else int(j)


def grade(frame: Any, *, variant: str | None = None, seed: int = 0, judge: Any = None, **_: Any) -> GradeResult:
    """Grade a VLMEvalKit OCRBench result table (``{model}_OCRBench.xlsx``: ``prediction``,
    ``answer`` (a Python list literal), ``category``).

    ``rows``: every input row in order, plus ``extracted`` (the answer found, else null),
    ``rule`` (``lowercase`` or ``handwritten-math``: the normalisation used), ``score``
    (1.0/0.0; null where the row cannot be scored), ``status`` (``ok``, ``bad_answer``,
    ``unknown_category``) and ``reason``. ``report``: the ``_score.json`` values, one row.
    Where upstream would raise (an answer cell that is not a list of strings and no earlier
    answer hit; a hit in a category it does not know), ``stats['reference_error']`` says so
    and the report's values are null. ``seed`` and ``judge`` are unused (no random draw,
    no judge).
    """
    frame = as_frame(frame)
    variant = _check_variant(variant)
    for name in ("prediction", "answer", "category"):
        if name not in frame.columns:
            raise ValueError(f"OCRBench: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    pred = frame["prediction"].cast(pl.String).fill_null("nan")
    category = frame["category"].cast(pl.String)
    parsed = parse_literals(frame["answer"].cast(pl.String))
    answers: list[list[str]] = []
    why: list[str | None] = []
    for value, err in parsed:
        if err is not None:
            answers.append([])
            why.append(err)
        else:
            row, err = _answers(value)
            answers.append(row)
            why.append(err)
    hme = (category == HME).fill_null(False)
    first = _first_hits(pred, answers, hme)

    n = frame.height
    extracted: list[str | None] = []
    status: list[str] = []
    reason: list[str] = []
    score: list[float | None] = []
    error = None
    cats = category.to_list()
    for i, j in enumerate(first.to_list()):
        if j >= 0:
            extracted.append(answers[i][j])
            score.append(1.0)
            if cats[i] not in CATEGORIES:
                status.append("unknown_category")
                reason.append(f"answer {j} found, but category {cats[i]!r} is not an OCRBench category (upstream raises KeyError)")
                error = error or f"OCRBench: row {i} hits in unknown category {cats[i]!r} (KeyError upstream)"
            else:
                status.append("ok")
                reason.append(f"answer {j} found in the prediction")
        elif why[i] is not None:
            extracted.append(None)
            score.append(None)
            status.append("bad_answer")
            reason.append(why[i] or "")
            error = error or f"OCRBench: row {i}: {why[i]}"
        else:
            extracted.append(None)
            score.append(0.0)
            status.append("ok")
            reason.append("no answer found in the prediction")
    hit = pl.Series("hit", [s == 1.0 for s in score], pl.Boolean)

    counts = (
        pl.DataFrame({"category": category, "hit": hit}).filter(pl.col("hit")).group_by("category").len()
    )
    by_cat = dict.fromkeys(CATEGORIES, 0)
    for c, k in counts.iter_rows():
        if c in by_cat:
            by_cat[c] = k
    values: dict[str, Any] = {"Text Recognition": sum(by_cat[c] for c in TEXT_RECOGNITION)}
    for c in OTHERS:
        values[c] = by_cat[c]
    values["Final Score"] = sum(values.values())
    values["Final Score Norm"] = float(values["Final Score"]) / 10
    if error is not None:
        values = dict.fromkeys(values)
    schema = {c: pl.Int64 for c in REPORT_COLUMNS[:-1]} | {"Final Score Norm": pl.Float64}
    report = pl.DataFrame({c: [values[c]] for c in REPORT_COLUMNS}, schema=schema)

    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.when(hme).then(pl.lit("handwritten-math")).otherwise(pl.lit("lowercase")).alias("rule"),
        pl.Series("score", score, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reason, pl.String),
    )
    scored = sum(s is not None for s in score)
    correct = int(hit.sum())
    stats: dict[str, Any] = {
        "benchmark": "ocrbench",
        "variant": variant,
        "rows": n,
        "tasks": scored,
        "correct": correct,
        "accuracy": correct / scored if scored else None,
        "categories": by_cat,
        "bad_answer_rows": status.count("bad_answer"),
        "reference_error": error,
        "crashed_rows": 0,
    }
    return GradeResult(rows=rows, report=report, stats=stats)
