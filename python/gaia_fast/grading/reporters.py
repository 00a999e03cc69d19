"""Reporters: the summary table of a run's records (one row per archive), as a frame and
as a file."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import polars as pl

from gaia_fast.grading.plan import ArchiveRecord, columns

__all__ = ["records_frame", "write_summary"]

_SCHEMA = {
    "path": pl.String,
    "benchmark": pl.String,
    "model": pl.String,
    "dataset": pl.String,
    "variant": pl.String,
    "rows": pl.Int64,
    "tasks": pl.Int64,
    "correct": pl.Float64,
    "accuracy": pl.Float64,
    "accuracy_no_fallback": pl.Float64,
    "status": pl.String,
    "error": pl.String,
    "report": pl.String,
    "out": pl.String,
    "compare": pl.String,
    "compare_accuracy": pl.Float64,
    "disagreements": pl.Int64,
}


def records_frame(records: Iterable[ArchiveRecord]) -> pl.DataFrame:
    """The records as a table (one row per archive, :func:`columns`)."""
    records = list(records)
    cols = columns(records)
    return pl.DataFrame([r.to_dict(cols) for r in records], schema={c: _SCHEMA[c] for c in cols}, orient="row")


def write_summary(records: Iterable[ArchiveRecord], path: str | os.PathLike) -> None:
    """Write the summary table atomically: ``.csv`` or ``.parquet`` (``.pq``)."""
    from gaia_fast.io.writers import atomic_path

    suffix = Path(path).suffix.lower()
    if suffix not in (".csv", ".parquet", ".pq"):
        raise ValueError(f"{path}: the summary is written as .csv or .parquet, not {suffix or 'no extension'!r}")
    frame = records_frame(records)
    with atomic_path(path) as tmp:
        if suffix == ".csv":
            frame.write_csv(tmp)
        else:
            frame.write_parquet(tmp)
