"""Image captioning (VLMEvalKit ``ImageCaptionDataset.evaluate``: COCO_VAL), laid out as
extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/image_caption.py``, the same at
c03bc048 (2024-07-27, the commit that wrote the VILA-1.5 tree) and at head e8e78f05, so
there is one variant, ``classic``. Each row's prediction (``str()``-ed; a missing one reads
``nan``) is scored against ``eval(answer)`` (a list of reference captions) by
pycocoevalcap 1.2's ``Bleu(4)``, ``Rouge()`` and ``Cider()``, with no tokenizer. The
report (``_score.json``) is ``{"Bleu": [BLEU-1..4], "ROUGE_L": ..., "CIDEr": ...}``, each
value times 100.

The three metrics are computed natively (``gaia_fast._native.caption_arrow``) with every
floating-point step in the reference's order, so the numbers are equal to the last bit;
pycocoevalcap (a 100 MB wheel with Java jars) is not needed. One limit: CIDEr's idf uses
the C library's ``log``, as Python's ``math.log`` does; numpy builds with their own
vectorised ``log`` differ from it for a few integers above 9,000, which can move CIDEr's
last digits on a dataset of that many images when pycocoevalcap runs on such a build.
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from gaia_fast import _native
from gaia_fast.scorers.vlm import GradeResult, as_frame
from gaia_fast.scorers.vlm._literal import flatten, parse_literals

__all__ = ["REPORT_COLUMNS", "VARIANTS", "caption_scores", "grade"]

VARIANTS: tuple[str, ...] = ("classic",)
DEFAULT_VARIANT = "classic"
REPORT_COLUMNS = ("Bleu", "ROUGE_L", "CIDEr")


def _references(value: Any) -> str | None:
    """Why upstream would raise on this ``eval(answer)`` (None: a usable list)."""
    if type(value) is not list:
        return f"the answer is a {type(value).__name__}, not a list (pycocoevalcap asserts a list)"
    if not value:
        return "the answer is an empty list (pycocoevalcap asserts at least one reference)"
    for k, r in enumerate(value):
        if not isinstance(r, str):
            return f"reference {k} is a {type(r).__name__}, not a string (upstream raises)"
    return None


def caption_scores(predictions: list[str], references: list[list[str]]) -> dict[str, Any]:
    """The ``_score.json`` dict for these rows (each needs at least one reference);
    ``CIDEr`` is None where the reference raises (no reference has a word)."""
    flat, counts = flatten(references)
    out = _native.caption_arrow(pl.Series(predictions, dtype=pl.String), flat, counts)
    return _report_values(out)


def _report_values(out: dict[str, Any]) -> dict[str, Any]:
    cider = out["cider"]
    return {
        "Bleu": [x * 100 for x in out["bleu"]],
        "ROUGE_L": out["rouge_l"] * 100,
        "CIDEr": None if cider is None else cider * 100,
    }


def grade(frame: Any, *, variant: str | None = None, seed: int = 0, judge: Any = None, **_: Any) -> GradeResult:
    """Grade a VLMEvalKit caption result table (``{model}_COCO_VAL.xlsx``: ``prediction``,
    ``answer`` holding a Python list of reference captions).

    ``rows``: every input row in order, plus ``bleu_1``..``bleu_4``, ``rouge_l`` and
    ``cider`` (that image's values as pycocoevalcap gives them per image, times 100),
    ``score`` (the image's CIDEr on pycocoevalcap's scale, so the mean score is the
    corpus CIDEr / 100), ``status`` (``ok`` or ``bad_answer``) and ``reason``.
    ``report``: one row, the ``_score.json`` values. Where upstream would raise (an answer
    that is not a non-empty list of strings, or no reference word at all),
    ``stats['reference_error']`` says so and the report's values are null; the other rows
    are still scored among themselves. ``seed`` and ``judge`` are unused.
    """
    frame = as_frame(frame)
    variant = DEFAULT_VARIANT if variant is None else variant
    if variant not in VARIANTS:
        raise ValueError(f"unknown caption variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")
    for name in ("prediction", "answer"):
        if name not in frame.columns:
            raise ValueError(f"COCO caption: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    pred = frame["prediction"].cast(pl.String).fill_null("nan")
    why: list[str | None] = []
    refs: list[list[str]] = []
    for value, err in parse_literals(frame["answer"].cast(pl.String)):
        err = err or _references(value)
        why.append(err)
        refs.append(value if err is None else [])
    good = pl.Series([w is None for w in why], dtype=pl.Boolean)
    flat, counts = flatten(refs)
    counts = counts.filter(good)
    out = _native.caption_arrow(pred.filter(good), flat, counts)
    values = _report_values(out)

    error = next((f"COCO caption: row {i}: {w}" for i, w in enumerate(why) if w is not None), None)
    if error is None and values["CIDEr"] is None:
        error = "COCO caption: no reference caption has a word (CIDEr's max() of nothing raises upstream)"
    if error is not None:
        values = {"Bleu": None, "ROUGE_L": None, "CIDEr": None}
    report = pl.DataFrame(
        {"Bleu": [values["Bleu"]], "ROUGE_L": [values["ROUGE_L"]], "CIDEr": [values["CIDEr"]]},
        schema={"Bleu": pl.List(pl.Float64), "ROUGE_L": pl.Float64, "CIDEr": pl.Float64},
    )

    per = pl.DataFrame(
        {
            **{f"bleu_{k}": pl.Series(out[f"bleu_{k}"]) * 100 for k in range(1, 5)},
            "rouge_l": pl.Series(out["rouge_l_rows"]) * 100,
            "cider": pl.Series(out["cider_rows"]) * 100,
            "score": pl.Series(out["cider_rows"]),
        }
    )
    # Back to one row per input row: bad rows get nulls.
    idx = pl.Series("i", range(frame.height), pl.Int64).filter(good)
    per = pl.DataFrame({"i": range(frame.height)}, schema={"i": pl.Int64}).join(
        per.with_columns(idx), on="i", how="left", maintain_order="left"
    ).drop("i")
    status = ["ok" if w is None else "bad_answer" for w in why]
    reason = [f"scored against {len(r)} reference(s)" if w is None else w for r, w in zip(refs, why)]
    rows = frame.with_columns(
        *per.get_columns(), pl.Series("status", status, pl.String), pl.Series("reason", reason, pl.String)
    )
    scored = int(good.sum())
    total = float(per["score"].sum()) if scored else 0.0
    stats: dict[str, Any] = {
        "benchmark": "coco-caption",
        "variant": variant,
        "rows": frame.height,
        "tasks": scored,
        "correct": total,
        "accuracy": total / scored if scored else None,
        "bad_answer_rows": frame.height - scored,
        "reference_error": error,
        "crashed_rows": 0,
        **({} if error else {"cider": values["CIDEr"], "rouge_l": values["ROUGE_L"]}),
    }
    if not math.isfinite(stats["accuracy"] or 0.0):
        stats["accuracy"] = None
    return GradeResult(rows=rows, report=report, stats=stats)
