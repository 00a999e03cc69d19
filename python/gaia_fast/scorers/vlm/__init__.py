"""VLMEvalKit benchmark families, each laid out as extract → score → aggregate:
``mcq`` (VMCBench, LiveXivVQA), ``omni3d`` (Omni3DBench), ``physics`` (atomic_dataset),
``olympiad`` (OlympiadBench). Each family module exposes ``grade(frame, ...) -> Graded``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl

__all__ = ["GradeResult"]


@dataclass
class GradeResult:
    """What grading a VLMEvalKit result file produces.

    ``rows``: every input row, in order, with the input columns plus ``extracted`` (the
    answer the scorer read), ``score``, ``status`` (``ok`` or why the row could not be
    scored) and ``reason`` (which path decided). ``report``: the benchmark's own report
    table (same columns, order and rounding as the reference's ``*_acc`` file).
    ``stats``: counts by status and by decision path, fallback rates and the like.
    """

    rows: pl.DataFrame
    report: pl.DataFrame
    stats: dict[str, Any] = field(default_factory=dict)


def as_frame(frame: Any) -> pl.DataFrame:
    """A family's result table as a Polars DataFrame (from a LazyFrame or Arrow too)."""
    if isinstance(frame, pl.LazyFrame):
        return frame.collect()
    if isinstance(frame, pl.DataFrame):
        return frame
    import pyarrow as pa

    if isinstance(frame, (pa.Table, pa.RecordBatch)):
        return pl.DataFrame(pl.from_arrow(frame))
    raise TypeError(f"frame must be a polars DataFrame/LazyFrame or a pyarrow Table, not {type(frame).__name__}")
