"""The plan of a grade run and its records: discovery turns paths into a :class:`Plan` of jobs
(:class:`Job`), the executor turns each job into one :class:`ArchiveRecord`, reporters print
and write them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["COLUMNS", "OPTIONAL_COLUMNS", "ArchiveRecord", "Job", "Plan", "SkippedFile", "columns"]

#: Columns of the summary table, in order.
COLUMNS = (
    "path",
    "benchmark",
    "model",
    "dataset",
    "variant",
    "rows",
    "tasks",
    "correct",
    "accuracy",
    "accuracy_no_fallback",
    "status",
    "error",
    "report",
)
#: Columns a record has only in runs that ask for them (``out``: ``--out``; the others:
#: ``--compare``); :func:`columns` lists those a run's records use.
OPTIONAL_COLUMNS = ("out", "compare", "compare_accuracy", "disagreements")


@dataclass
class Job:
    """One archive to grade: ``benchmark`` is a registry name, or None for a dataset with no
    flow (then ``reason`` says why it is skipped)."""

    path: Path
    benchmark: str | None
    model: str | None = None
    dataset: str | None = None
    reason: str | None = None


@dataclass(frozen=True)
class SkippedFile:
    """A file found by a folder search that is not a result file."""

    path: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


@dataclass
class Plan:
    jobs: list[Job] = field(default_factory=list)
    skipped_files: list[SkippedFile] = field(default_factory=list)
    #: Every file the search saw (resolved), so no report replaces one of them.
    seen: set[Path] = field(default_factory=set)


@dataclass
class ArchiveRecord:
    """One row of the summary table."""

    path: str
    benchmark: str | None
    model: str | None = None
    dataset: str | None = None
    variant: str | None = None
    rows: int | None = None
    tasks: int | None = None
    correct: float | None = None
    accuracy: float | None = None
    accuracy_no_fallback: float | None = None
    status: str = "ok"
    error: str | None = None
    report: str | None = None
    #: the scored table written under ``out_dir``
    out: str | None = None
    #: GAIA with ``compare``: the second scorer, its weighted accuracy, and the rows
    #: the two decide differently
    compare: str | None = None
    compare_accuracy: float | None = None
    disagreements: int | None = None
    #: The job's full result for the detailed report of a plan of one (not a column):
    #: ``result`` (the JSON payload or the family's GradeResult) and what the stage kept.
    detail: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def to_dict(self, columns: Sequence[str] = COLUMNS) -> dict[str, Any]:
        return {k: getattr(self, k) for k in columns}


def columns(records: Iterable[ArchiveRecord]) -> tuple[str, ...]:
    """:data:`COLUMNS` and the :data:`OPTIONAL_COLUMNS` that any of ``records`` fills."""
    records = list(records)
    return COLUMNS + tuple(c for c in OPTIONAL_COLUMNS if any(getattr(r, c) is not None for r in records))


