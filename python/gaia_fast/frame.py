"""Batch scoring over Arrow columns: ``score_batch``, ``score_frame`` and the Polars
expression ``expr.score``.

Columns go to the native scorer through the Arrow C data interface without copying and are
scored on all cores with the GIL released; Python never loops over rows here. The only
exception is a plain Python list holding strings that are not valid Unicode scalar values
(lone surrogates), which Arrow cannot carry: its surrogates are swapped for Private Use
characters no input uses (``_native.SurrogateWindow``, the same decisions), the columns
are scored natively, and the reasons get their surrogates back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import SimpleNamespace
from typing import Any

import polars as pl
import pyarrow as pa

from gaia_fast import _native

__all__ = ["KIND", "SCORERS", "STATUS", "expr", "score_batch", "score_frame"]

#: Scorer names accepted by ``scorer=``.
SCORERS = ("gaia", "gaia-lenient", "gaia-graded")

#: Row statuses (a Categorical column). The scorers emit the first three; archive readers
#: add the rest.
STATUS = (*_native.STATUSES, "missing", "unknown_task", "bad_type", "read_error")
#: Graded verdict kinds, best first (a Categorical column).
KIND = tuple(_native.KINDS)

_OUTPUT_COLUMNS = ("score", "status", "kind", "reason")


def _score_dtype(scorer: str) -> pl.DataType:
    _check_scorer(scorer)
    return pl.Float64() if scorer == "gaia-graded" else pl.Boolean()


def _check_scorer(scorer: str) -> None:
    if scorer not in SCORERS:
        raise ValueError(f"unknown scorer {scorer!r}; expected one of {', '.join(map(repr, SCORERS))}")


class _Surrogates(Exception):
    """A list cannot cross as Arrow (lone surrogates)."""


def _arrow_column(values: Any, what: str) -> Any:
    """Something exporting the Arrow C interface, without copying when it already does."""
    if isinstance(values, pl.Series):
        # Categoricals and all-null columns become plain strings (cheap; nothing to copy
        # for Null, and only the dictionary for Categorical/Enum).
        if values.dtype in (pl.Categorical, pl.Null) or isinstance(values.dtype, pl.Enum):
            return values.cast(pl.String)
        return values
    if hasattr(values, "__arrow_c_stream__") or hasattr(values, "__arrow_c_array__"):
        return values
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise TypeError(f"{what}: expected a column (polars Series, Arrow array or list of str), got {type(values).__name__}")
    items = values if isinstance(values, Sequence) else list(values)
    for i, v in enumerate(items):
        if v is not None and not isinstance(v, str):
            raise TypeError(f"{what}[{i}]: expected str or None, got {type(v).__name__} ({v!r})")
    try:
        return pa.array(items, type=pa.large_string())
    except UnicodeEncodeError as e:  # lone surrogates
        raise _Surrogates(items) from e


def _to_series(column: Any, name: str) -> pl.Series:
    # Zero-copy through __arrow_c_array__; status/kind arrive dictionary-encoded and
    # become Categorical.
    return pl.Series(column).alias(name)


def _score_columns(
    predictions: Any,
    truths: Any,
    scorer: str,
    *,
    number_tolerance: float | None,
    placeholder_is_missing: bool,
    explain: bool,
    levels: Any = None,
    only: tuple[str, ...] | None = None,
) -> dict[str, pl.Series]:
    _check_scorer(scorer)
    window = None
    pred, pred_list = _column_or_list(predictions, "predictions")
    truth, truth_list = _column_or_list(truths, "truths")
    if pred_list or truth_list:
        pred, truth, window = _carried((pred, pred_list), (truth, truth_list))
    if levels is not None:
        levels = pl.Series(levels).cast(pl.Int64) if not isinstance(levels, pl.Series) else levels.cast(pl.Int64)
    score_only = only == ("score",) and window is None
    out = _native.score_arrow(pred, truth, scorer, number_tolerance, placeholder_is_missing, explain, levels, score_only)
    cols = {name: _to_series(col, name) for name, col in out.items() if only is None or name in only}
    if window is not None and "reason" in cols:
        cols["reason"] = pl.Series("reason", window.decode_many(cols["reason"].to_list()), dtype=pl.String)
    return cols


def _column_or_list(values: Any, what: str) -> tuple[Any, bool]:
    """An Arrow column, or (lone surrogates) the checked list of ``str``/``None``."""
    try:
        return _arrow_column(values, what), False
    except _Surrogates as e:
        return e.args[0], True


def _carried(*columns: tuple[Any, bool]) -> tuple[Any, Any, Any]:
    """Both columns as Arrow with their lone surrogates swapped for Private Use
    characters that neither column uses; the window maps results back."""
    lists = [c if is_list else pl.Series(c).cast(pl.String).to_list() for c, is_list in columns]
    window = _native.SurrogateWindow.choose([*lists[0], *lists[1]])
    encode = window.encode
    pred, truth = (pa.array([None if v is None else encode(v) for v in col], type=pa.large_string()) for col in lists)
    return pred, truth, window


def score_batch(
    predictions: Any,
    truths: Any,
    scorer: str = "gaia",
    *,
    number_tolerance: float | None = None,
    placeholder_is_missing: bool = True,
    levels: Any = None,
    explain: bool = False,
) -> pl.Series | pl.DataFrame:
    """Score two columns row by row; returns a Polars Series named ``score``, or with
    ``explain=True`` a DataFrame of ``score``, ``status``, (``kind``,) ``reason``.

    Columns may be Polars Series, pyarrow Arrays/ChunkedArrays, anything exporting the
    Arrow C interface (Utf8, LargeUtf8, Utf8View), or lists of ``str``/``None``. A null
    truth, or ``"?"`` (GAIA's hidden-answer placeholder, unless
    ``placeholder_is_missing=False``), gives a null score. A null prediction is scored
    the way the reference treats it.
    """
    cols = _score_columns(
        predictions,
        truths,
        scorer,
        number_tolerance=number_tolerance,
        placeholder_is_missing=placeholder_is_missing,
        explain=explain,
        levels=levels,
        only=None if explain else ("score",),
    )
    return pl.DataFrame(list(cols.values())) if explain else cols["score"]


def _chunked_like(column: pl.Series, like: pl.Series) -> pl.Series:
    """``column`` cut at ``like``'s chunk boundaries (zero-copy slices), so appending it to
    a multi-chunk frame does not make Polars rechunk every other column later."""
    chunks = like.get_chunks()
    if len(chunks) <= 1:
        return column
    parts, offset = [], 0
    for chunk in chunks:
        parts.append(column.slice(offset, len(chunk)))
        offset += len(chunk)
    return pl.concat(parts, rechunk=False)


def _struct_dtype(scorer: str, explain: bool) -> pl.Struct:
    fields = {"score": _score_dtype(scorer), "status": pl.Categorical()}
    if scorer == "gaia-graded":
        fields["kind"] = pl.Categorical()
    if explain:
        fields["reason"] = pl.String()
    return pl.Struct(fields)


def _as_expr(col: str | pl.Expr) -> pl.Expr:
    return pl.col(col) if isinstance(col, str) else col


def _input_struct(prediction: str | pl.Expr, truth: str | pl.Expr, level: str | pl.Expr | None) -> pl.Expr:
    fields = [_as_expr(prediction).cast(pl.String).alias("p"), _as_expr(truth).cast(pl.String).alias("t")]
    if level is not None:
        fields.append(_as_expr(level).cast(pl.Int64).alias("l"))
    return pl.struct(fields)


def _struct_expr(
    prediction: str | pl.Expr,
    truth: str | pl.Expr,
    scorer: str,
    *,
    level: str | pl.Expr | None = None,
    explain: bool = False,
    number_tolerance: float | None = None,
    placeholder_is_missing: bool = True,
) -> pl.Expr:
    def run(batch: pl.Series) -> pl.Series:
        cols = _score_columns(
            batch.struct.field("p"),
            batch.struct.field("t"),
            scorer,
            number_tolerance=number_tolerance,
            placeholder_is_missing=placeholder_is_missing,
            explain=explain,
            levels=batch.struct.field("l") if level is not None else None,
        )
        return pl.struct(*cols.values(), eager=True)

    inputs = _input_struct(prediction, truth, level)
    return inputs.map_batches(run, return_dtype=_struct_dtype(scorer, explain), is_elementwise=True)


def _score_expr(
    prediction: str | pl.Expr,
    truth: str | pl.Expr,
    scorer: str = "gaia",
    *,
    level: str | pl.Expr | None = None,
    number_tolerance: float | None = None,
    placeholder_is_missing: bool = True,
) -> pl.Expr:
    """A Polars expression named ``score`` scoring ``prediction`` against ``truth``
    (Boolean, or Float64 for ``gaia-graded``). Elementwise, so it runs in LazyFrames, the
    streaming engine and ``sink_parquet``."""
    _check_scorer(scorer)

    def run(batch: pl.Series) -> pl.Series:
        return score_batch(
            batch.struct.field("p"),
            batch.struct.field("t"),
            scorer,
            number_tolerance=number_tolerance,
            placeholder_is_missing=placeholder_is_missing,
            levels=batch.struct.field("l") if level is not None else None,
        )

    scored = _input_struct(prediction, truth, level).map_batches(run, return_dtype=_score_dtype(scorer), is_elementwise=True)
    return scored.alias("score")


#: ``gf.expr.score(prediction, truth, scorer="gaia", ...)`` → ``polars.Expr``.
expr = SimpleNamespace(score=_score_expr)


def score_frame(
    frame: pl.DataFrame | pl.LazyFrame | pa.Table,
    scorer: str = "gaia",
    prediction: str = "prediction",
    truth: str = "truth",
    *,
    level: str | None = None,
    explain: bool = False,
    number_tolerance: float | None = None,
    placeholder_is_missing: bool = True,
):
    """Add ``score``, ``status`` (and ``kind`` for ``gaia-graded``, ``reason`` with
    ``explain=True``) to a Polars DataFrame/LazyFrame or pyarrow Table; every input row is
    kept, in order, and the same frame type is returned. ``level`` names an integer level
    column, used by the graded scorer."""
    _check_scorer(scorer)
    if isinstance(frame, pa.Table):
        out = score_frame(
            pl.from_arrow(frame),
            scorer,
            prediction,
            truth,
            level=level,
            explain=explain,
            number_tolerance=number_tolerance,
            placeholder_is_missing=placeholder_is_missing,
        )
        return out.to_arrow()
    if not isinstance(frame, (pl.DataFrame, pl.LazyFrame)):
        raise TypeError(f"score_frame expects a polars DataFrame/LazyFrame or pyarrow Table, got {type(frame).__name__}")
    names = frame.collect_schema().names()
    for role, col in (("prediction", prediction), ("truth", truth), ("level", level)):
        if col is not None and col not in names:
            raise KeyError(f"{role} column {col!r} not in frame (columns: {', '.join(names)})")
    if isinstance(frame, pl.DataFrame):
        cols = _score_columns(
            frame.get_column(prediction),
            frame.get_column(truth),
            scorer,
            number_tolerance=number_tolerance,
            placeholder_is_missing=placeholder_is_missing,
            explain=explain,
            levels=frame.get_column(level) if level is not None else None,
        )
        like = frame.get_column(prediction)
        return frame.with_columns(*(_chunked_like(c, like) for c in cols.values()))
    scored = _struct_expr(
        prediction,
        truth,
        scorer,
        level=level,
        explain=explain,
        number_tolerance=number_tolerance,
        placeholder_is_missing=placeholder_is_missing,
    )
    return frame.with_columns(scored.alias("__gaia_fast").struct.unnest())
