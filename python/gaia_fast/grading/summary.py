"""Scoring a read archive and aggregating it per level.

Row statuses and how they count (``level_report`` / ``summary``):

==============  =======================================================  ==============
status          meaning                                                  counts as
==============  =======================================================  ==============
ok              prediction and truth present, scored                     a task
no_prediction   null prediction, scored the way the reference does       a task
bad_type        prediction/truth was a JSON number/bool/array/object     a task, wrong
read_error      the answer could not be read (e.g. invalid UTF-8)        a task, wrong
missing         metadata task with no row in the archive                 a task, wrong
no_truth        null truth or GAIA's ``"?"`` placeholder                  excluded
unknown_task    task id not in the metadata                              excluded
==============  =======================================================  ==============

Excluded rows stay in every output and are counted in ``excluded``; they are in no
denominator, because there is nothing to grade them against. ``correct`` is the number of
True scores (``gaia``, ``gaia-lenient``) or the sum of scores (``gaia-graded``, so its
accuracy is the mean score). Per level, ``accuracy = correct / tasks``; the **macro**
accuracy is the plain mean over the levels that have tasks (a row without a level forms
its own group, as Zypher's level 0 does); the **weighted** accuracy is all correct / all
tasks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl

__all__ = [
    "COUNTED",
    "EXCLUDED",
    "disagreements",
    "leaderboard_scores",
    "level_report",
    "fold_statuses",
    "group_scores",
    "score_archive",
    "status_groups",
    "summary",
    "summary_from_groups",
]

#: Statuses that count as a task (in the denominators).
COUNTED = ("ok", "no_prediction", "missing", "bad_type", "read_error")
#: Statuses left out of the denominators (reported as ``excluded``).
EXCLUDED = ("no_truth", "unknown_task")

#: Input statuses that force a wrong (False / 0.0) score.
_FORCED_WRONG = ("missing", "bad_type", "read_error")


def _status_dtype(scorer_dtype: pl.DataType) -> pl.DataType:
    """The status dtype of the batch API (an Enum when it publishes one, else the dtype
    its own status column has, Categorical or String)."""
    try:
        from gaia_fast.frame import STATUS
    except Exception:  # noqa: BLE001
        STATUS = None
    if isinstance(STATUS, pl.Enum):
        return STATUS
    if isinstance(STATUS, (tuple, list)) and isinstance(scorer_dtype, pl.Enum):
        return pl.Enum(list(STATUS))
    return scorer_dtype if scorer_dtype in (pl.Categorical, pl.String) or isinstance(scorer_dtype, pl.Categorical) else pl.String


def score_archive(
    frame: pl.DataFrame,
    scorer: str = "gaia",
    *,
    explain: bool = False,
    number_tolerance: float | None = None,
    chunk_rows: int = 1_000_000,
    progress: Callable[[int, int], None] | None = None,
    prefix: str = "",
) -> pl.DataFrame:
    """Score a frame from :func:`gaia_fast.io.read_archive` (optionally joined with
    :func:`gaia_fast.datasets.join_metadata`) with ``gf.score_frame`` and add
    ``{prefix}score``, ``{prefix}status``, ``{prefix}reason`` (and ``{prefix}kind`` for
    the graded scorer).

    Rows with an ``input_status`` keep it as their status (``bad_type``, ``read_error``,
    ``missing`` score as wrong; ``unknown_task`` has no score), except that ``no_truth``
    from the scorer wins over ``missing``/``bad_type``/``read_error``. ``reason`` holds
    the input problem, else the scorer's explanation when ``explain=True``. Rows are
    scored in chunks of ``chunk_rows``; ``progress(done, total)`` is called after each.
    """
    import gaia_fast as gf

    n = frame.height
    cols = frame.columns
    if "truth" not in cols:
        raise ValueError("the frame has no truth column: pass --truth-col or --metadata")
    slim = frame.select(
        pl.col("prediction").cast(pl.String),
        pl.col("truth").cast(pl.String),
        *([pl.col("level").cast(pl.Int64)] if "level" in cols else []),
    )
    level = "level" if "level" in cols else None
    kwargs: dict[str, Any] = {"explain": explain}
    if number_tolerance is not None:
        kwargs["number_tolerance"] = number_tolerance
    parts = []
    step = max(1, int(chunk_rows))
    for start in range(0, max(n, 1), step):
        chunk = slim.slice(start, step)
        parts.append(gf.score_frame(chunk, scorer, "prediction", "truth", level=level, **kwargs))
        if progress is not None:
            progress(min(start + step, n), n)
    scored = pl.concat(parts, how="vertical") if len(parts) > 1 else parts[0]
    out_cols = [c for c in ("score", "kind", "status", "reason") if c in scored.columns]
    res = scored.select(out_cols)
    if "reason" not in res.columns:
        res = res.with_columns(pl.lit(None, pl.String).alias("reason"))
    inp = frame.get_column("input_status").cast(pl.String) if "input_status" in cols else pl.Series([None] * n, dtype=pl.String)
    inr = frame.get_column("input_reason").cast(pl.String) if "input_reason" in cols else pl.Series([None] * n, dtype=pl.String)
    folded = fold_statuses(
        pl.col("score"),
        pl.col("status"),
        pl.col("kind") if "kind" in res.columns else None,
        pl.col("reason"),
        pl.col("_in"),
        pl.col("_inr"),
        score_dtype=res.schema["score"],
        status_dtype=_status_dtype(res.schema["status"]),
        prefix=prefix,
    )
    res = res.with_columns(inp.alias("_in"), inr.alias("_inr")).select(folded)
    keep = frame.drop([c for c in res.columns if c in cols])
    return keep.hstack(res)


def fold_statuses(
    score: pl.Expr,
    status: pl.Expr,
    kind: pl.Expr | None,
    reason: pl.Expr,
    input_status: pl.Expr,
    input_reason: pl.Expr,
    *,
    score_dtype: pl.DataType,
    status_dtype: pl.DataType,
    prefix: str = "",
) -> list[pl.Expr]:
    """The scorer's ``score``/``kind``/``status``/``reason`` with the reader's input
    statuses folded in (the rules of :func:`score_archive`), as expressions named with
    ``prefix``; elementwise, so they run in the streaming engine."""
    # Compared and chosen as categoricals when the status is one (integer codes, no
    # text per row); input statuses are mostly null, so their cast is cheap.
    as_is = status_dtype if isinstance(status_dtype, (pl.Categorical, pl.Enum)) else pl.String
    inp = input_status.cast(as_is)
    st = status.cast(as_is)
    wrong = pl.lit(False) if score_dtype == pl.Boolean else pl.lit(0.0)
    no_truth = st == "no_truth"
    new_status = (
        pl.when(inp == "unknown_task").then(inp).when(no_truth).then(st).otherwise(pl.coalesce(inp, st))
    )
    out = [
        pl.when(inp == "unknown_task")
        .then(None)
        .when(inp.is_in(_FORCED_WRONG) & ~no_truth)
        .then(wrong)
        .otherwise(score)
        .cast(score_dtype)
        .alias(prefix + "score")
    ]
    if kind is not None:
        out.append(pl.when(new_status.is_in(["unknown_task", *_FORCED_WRONG])).then(None).otherwise(kind).alias(prefix + "kind"))
    out.append(new_status.cast(status_dtype).alias(prefix + "status"))
    out.append(pl.coalesce(input_reason.cast(pl.String), reason).alias(prefix + "reason"))
    return out


def _is_graded(scored: pl.DataFrame, col: str = "score") -> bool:
    return scored.schema[col].is_float()


def level_report(scored: pl.DataFrame, *, prefix: str = "") -> pl.DataFrame:
    """Per level: ``level, tasks, correct, accuracy, excluded`` (sorted by level, null
    level last). See the module docstring for what counts."""
    score, status = prefix + "score", prefix + "status"
    level = pl.col("level").cast(pl.Int64) if "level" in scored.columns else pl.lit(None, pl.Int64)
    counted = pl.col(status).cast(pl.String).is_in(COUNTED).fill_null(False)
    graded = _is_graded(scored, score)
    value = pl.col(score).cast(pl.Float64).fill_null(0.0) if graded else pl.col(score).fill_null(False).cast(pl.Int64)
    rep = (
        scored.select(level.alias("level"), counted.alias("_c"), value.alias("_v"))
        .group_by("level")
        .agg(
            pl.col("_c").sum().cast(pl.Int64).alias("tasks"),
            pl.col("_v").filter(pl.col("_c")).sum().alias("correct"),
            (~pl.col("_c")).sum().cast(pl.Int64).alias("excluded"),
        )
        .with_columns(
            pl.when(pl.col("tasks") > 0).then(pl.col("correct") / pl.col("tasks")).otherwise(None).alias("accuracy")
        )
        .sort("level", nulls_last=True)
        .select("level", "tasks", "correct", "accuracy", "excluded")
    )
    if not graded:
        rep = rep.with_columns(pl.col("correct").cast(pl.Int64))
    return rep


def summary(scored: pl.DataFrame, *, prefix: str = "") -> dict[str, Any]:
    """Totals: ``rows``, ``tasks``, ``correct``, ``excluded``, ``accuracy_macro`` (mean of
    the per-level accuracies), ``accuracy_weighted`` (correct / tasks), ``levels`` (the
    rows of :func:`level_report`) and ``status_counts``. Accuracies are fractions
    (0–1), None when there is no task."""
    groups = status_groups(scored.lazy(), prefix=prefix).collect()
    return summary_from_groups(groups, graded=_is_graded(scored, prefix + "score"))


def status_groups(scored: pl.LazyFrame, *, prefix: str = "") -> pl.LazyFrame:
    """The small aggregate every summary is made from: one row per (level, status) with
    ``rows`` and ``value`` (the number of True scores, or the sum of graded scores in
    units of 2**-60; null scores count 0). It streams: memory is the number of groups.
    :func:`group_scores` turns ``value`` back into scores."""
    schema = scored.collect_schema()
    score = prefix + "score"
    graded = schema[score].is_float()
    level = pl.col("level").cast(pl.Int64) if "level" in schema else pl.lit(None, pl.Int64)
    if graded:
        # Fixed point (units of 2**-60, exact for scores in [0, 1] down to 2**-7 and
        # truncated below): integer sums do not depend on the order in which chunks are
        # added up, so a streamed and an in-memory grade report the same digits.
        value = (pl.col(score).cast(pl.Float64).fill_null(0.0) * float(_FIXED)).cast(pl.Int128)
    else:
        value = pl.col(score).fill_null(False).cast(pl.Int64)
    # Grouped on the status as it is (a categorical groups by its integer code) and
    # turned into text once per group, not once per row.
    return (
        scored.group_by(level.alias("level"), pl.col(prefix + "status").alias("status"))
        .agg(pl.len().cast(pl.Int64).alias("rows"), value.sum().alias("value"))
        .with_columns(pl.col("status").cast(pl.String))
    )


_FIXED = 1 << 60
#: The unit graded sums are kept in (``value`` of :func:`status_groups`): 2**-60.
FIXED_POINT = _FIXED


def _unfix(v: Any, graded: bool) -> float | int:
    return (int(v or 0) / _FIXED) if graded else int(v or 0)


def group_scores(groups: pl.DataFrame, *, graded: bool) -> pl.DataFrame:
    """``level``, ``status``, ``score`` (the group's summed score) from
    :func:`status_groups`."""
    vals = [_unfix(v, graded) for v in groups.get_column("value").to_list()]
    return groups.select("level", "status").with_columns(pl.Series("score", vals, dtype=pl.Float64))


def summary_from_groups(groups: pl.DataFrame, *, graded: bool) -> dict[str, Any]:
    """:func:`summary` from the output of :func:`status_groups`."""
    counted = pl.col("status").is_in(COUNTED).fill_null(False)
    rep = (
        groups.group_by("level")
        .agg(
            pl.col("rows").filter(counted).sum().cast(pl.Int64).alias("tasks"),
            pl.col("value").filter(counted).sum().alias("correct"),
            pl.col("rows").filter(~counted).sum().cast(pl.Int64).alias("excluded"),
        )
        .sort("level", nulls_last=True)
    )
    # Sums are integers (counts, or fixed point): exact, then one rounding to float.
    fixed = rep.get_column("correct").to_list()
    per_level = [_unfix(v, graded) for v in fixed]
    rep = rep.with_columns(pl.Series("correct", per_level, dtype=pl.Float64 if graded else pl.Int64))
    rep = rep.with_columns(
        pl.when(pl.col("tasks") > 0).then(pl.col("correct") / pl.col("tasks")).otherwise(None).alias("accuracy")
    ).select("level", "tasks", "correct", "accuracy", "excluded")
    tasks = int(rep.get_column("tasks").sum())
    correct: float | int = _unfix(sum(int(v or 0) for v in fixed), graded)
    accs = rep.get_column("accuracy").drop_nulls()
    status_counts = groups.group_by("status").agg(pl.col("rows").sum()).sort("status", nulls_last=True)
    return {
        "rows": int(groups.get_column("rows").sum()),
        "tasks": tasks,
        "correct": correct,
        "excluded": int(rep.get_column("excluded").sum()),
        "accuracy_macro": float(accs.mean()) if len(accs) else None,  # type: ignore[arg-type]
        "accuracy_weighted": (correct / tasks) if tasks else None,
        "levels": rep.to_dicts(),
        "status_counts": {r["status"]: int(r["rows"]) for r in status_counts.iter_rows(named=True)},
    }


def disagreements(scored: pl.DataFrame, prefix_a: str = "", prefix_b: str = "compare_") -> pl.DataFrame:
    """Rows where two scorers' scores differ (booleans read as 1.0/0.0; null equals only
    null), e.g. the lenient rule's false positives such as ``17000`` against ``17``."""
    a = pl.col(prefix_a + "score").cast(pl.Float64)
    b = pl.col(prefix_b + "score").cast(pl.Float64)
    differ = (a != b).fill_null(a.is_null() != b.is_null())
    return scored.filter(differ)


def leaderboard_scores(scored: pl.DataFrame, expected: dict[int, int]) -> dict[str, Any]:
    """Scores as the leaderboard stores them (spec §6): overall = correct / the split's
    total, level k = correct_k / the split's count for level k (fixed denominators,
    whatever was submitted; duplicated rows count as often as they occur)."""
    value = pl.col("score").cast(pl.Float64).fill_null(0.0)
    counted = pl.col("status").cast(pl.String).is_in(COUNTED).fill_null(False)
    per = scored.filter(counted).group_by(pl.col("level").cast(pl.Int64)).agg(value.sum().alias("c"))
    correct = {r["level"]: float(r["c"]) for r in per.iter_rows(named=True)}
    total = sum(expected.values())
    out: dict[str, Any] = {
        "overall": (sum(correct.get(k, 0.0) for k in expected) / total) if total else None,
        "correct": sum(correct.get(k, 0.0) for k in expected),
        "total": total,
    }
    for k in sorted(expected):
        out[f"level_{k}"] = correct.get(k, 0.0) / expected[k] if expected[k] else None
    return out
