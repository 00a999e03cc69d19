"""The plan of a grade run and its records: discovery turns paths into a :class:`Plan` of jobs
(:class:`Job`), the executor turns each job into one :class:`ArchiveRecord`, reporters print
and write them."""

from __future__ import annotations

import datetime as _dt
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
OPTIONAL_COLUMNS = (
    "out",
    "compare",
    "compare_accuracy",
    "disagreements",
    "run",
    "method",
    "decided_rules",
    "decided_recorded",
    "decided_live",
    "undecided",
    "flags",
    "headline_metric",
    "headline",
    "archive_report",
    "archive_headline",
)


@dataclass
class Job:
    """One archive to grade: ``benchmark`` is a registry name, or None for a dataset with no
    flow (then ``reason`` says why it is skipped)."""

    path: Path
    benchmark: str | None
    model: str | None = None
    dataset: str | None = None
    reason: str | None = None
    #: the VLMEvalKit run folder the file comes from (``T20250430_G1a2b3c4d``), else None
    run: str | None = None
    #: the VLMEvalKit commit that run recorded (None: none recorded, or no run folder)
    commit: str | None = None
    #: the UTC day that commit landed on VLMEvalKit's main line: the day that picks the
    #: variant (None: no run folder, or a commit gaia-fast's table does not know; ``note`` says)
    as_of: _dt.date | None = None
    #: graded by its table's shape (an unknown dataset with the multiple-choice columns)
    by_shape: bool = False
    #: what the summary must say about how this file was chosen (a link that points nowhere,
    #: an unknown commit, a grading by shape), else None
    note: str | None = None


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
    #: The run folder (``T{YYYYMMDD}_G{commit}``) the file was read from, when it was one.
    run: str | None = None
    #: VLMEvalKit: how undecided rows were decided (rules, the archive's recorded judge,
    #: a live judge, exact matching) and the counts of each; ``undecided`` rows need a judge.
    method: str | None = None
    decided_rules: int | None = None
    decided_recorded: int | None = None
    decided_live: int | None = None
    undecided: int | None = None
    #: Rows that keep the reference's decision but deserve a look (``no_prediction=101; ...``).
    flags: str | None = None
    #: VLMEvalKit: the report's headline cell (its name and value, as the report holds it)
    #: and, when the archive has its own report beside the file, that report and its value.
    headline_metric: str | None = None
    headline: float | None = None
    archive_report: str | None = None
    archive_headline: float | None = None
    #: The job's full result for the detailed report of a plan of one (not a column):
    #: ``result`` (the JSON payload or the family's GradeResult) and what the stage kept.
    detail: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def to_dict(self, columns: Sequence[str] = COLUMNS) -> dict[str, Any]:
        return {k: getattr(self, k) for k in columns}


def columns(records: Iterable[ArchiveRecord]) -> tuple[str, ...]:
    """:data:`COLUMNS` and the :data:`OPTIONAL_COLUMNS` that any of ``records`` fills."""
    records = list(records)
    return COLUMNS + tuple(c for c in OPTIONAL_COLUMNS if any(getattr(r, c) is not None for r in records))


