"""Many archives in one call: expand paths (files, globs, folders) into archives, grade them
side by side, and return one record per archive.

What a path becomes:

* a folder of ``<task_id>/answer.txt`` files: one GAIA workspace archive;
* a folder whose files are all Parquet parts of one table (:func:`is_parquet_dataset`): one
  partitioned GAIA archive;
* any other folder: searched recursively for result files;
* a file: VLMEvalKit's evaluation outputs and judge caches (``*_acc.csv``,
  ``*_openai_result.xlsx``, ``*.pkl``, ...) are skipped and listed; with ``benchmark="auto"``
  a ``{model}_{dataset}.{xlsx,tsv,csv}`` name picks the benchmark from its dataset
  (:func:`gaia_fast.benchmarks.detect`), datasets with no flow yet become ``skipped`` records,
  and other files are GAIA archives.

Reports go under ``report_dir`` with VLMEvalKit's names (``<model>/{model}_{dataset}_acc.csv``)
or, for GAIA, ``<run>/answer_comparison.csv``; a report never replaces a file the search
found. Grading runs on a thread pool: the native scorers and the Polars readers release the
GIL. A file that cannot be graded gives a record with ``status="error"`` and the message;
the others finish. Nothing here prints.
"""

from __future__ import annotations

import glob as _glob
import importlib
import logging
import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from gaia_fast import benchmarks

__all__ = [
    "ArchiveRecord",
    "Job",
    "Plan",
    "SkippedFile",
    "expand",
    "grade_gaia",
    "grade_many",
    "is_metadata_folder",
    "is_parquet_dataset",
    "is_workspace",
    "records_frame",
    "write_summary",
]

log = logging.getLogger(__name__)

#: File types a folder search considers (others are listed as skipped). Plain ``.json`` is
#: left out: in result trees it holds score reports; name such an archive explicitly.
SEARCHED_SUFFIXES = (".xlsx", ".tsv", ".csv", ".jsonl", ".parquet")
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

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in COLUMNS}


# --------------------------------------------------------------------------------------
# What a path is
# --------------------------------------------------------------------------------------


def _visible(p: Path) -> bool:
    return not p.name.startswith((".", "_"))


def is_workspace(folder: str | os.PathLike) -> bool:
    """A GAIA workspace: a folder holding ``<task_id>/answer.txt`` files."""
    folder = Path(folder)
    return folder.is_dir() and next(iter(_glob.glob(os.path.join(_glob.escape(str(folder)), "*", "answer.txt"))), None) is not None


def is_metadata_folder(folder: str | os.PathLike) -> bool:
    """A GAIA task-metadata folder (``2023/<split>/``, ``metadata.jsonl``, ``metadata*.parquet``):
    it goes to ``--metadata``, it is not an archive."""
    folder = Path(folder)
    return folder.is_dir() and (
        (folder / "2023").is_dir() or (folder / "metadata.jsonl").is_file() or any(folder.glob("metadata*.parquet"))
    )


def _iter_dataset_files(folder: Path) -> Iterator[Path]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if _visible(Path(d)))
        for f in sorted(files):
            if _visible(Path(f)):
                yield Path(root) / f


def _dataset_files(folder: Path) -> list[Path]:
    return list(_iter_dataset_files(folder))


def is_parquet_dataset(folder: str | os.PathLike) -> bool:
    """A partitioned Parquet archive: every visible file under ``folder`` (recursively;
    names starting with ``.`` or ``_`` such as ``_SUCCESS`` are ignored) is ``.parquet``,
    there is at least one, and all have the same schema (so they are parts of one table).
    Such a folder is graded as one GAIA archive."""
    folder = Path(folder)
    if not folder.is_dir():
        return False
    files = []
    for f in _iter_dataset_files(folder):  # stops at the first other file
        if f.suffix.lower() != ".parquet":
            return False
        files.append(f)
    if not files:
        return False
    if len(files) == 1:
        return True
    try:
        import pyarrow.parquet as pq

        first = pq.read_schema(files[0]).remove_metadata()
        return all(pq.read_schema(f).remove_metadata().equals(first) for f in files[1:])
    except Exception:  # noqa: BLE001 - an unreadable footer: not one table; graded file by file
        return False


def _has_glob(text: str) -> bool:
    return any(ch in text for ch in "*?[")


def _classify(path: Path, benchmark: str, plan: Plan, searched: bool) -> None:
    """Add ``path`` (a file) to ``plan``: a job, a skipped record, or a skipped file."""
    why = benchmarks.non_result(path)
    if why is not None:
        plan.skipped_files.append(SkippedFile(str(path), f"not a result file: {why}"))
        return
    if searched and path.suffix.lower() not in SEARCHED_SUFFIXES:
        plan.skipped_files.append(SkippedFile(str(path), f"not a result file type ({path.suffix or 'no extension'})"))
        return
    if benchmark != "auto":
        found = benchmarks.detect(path) if benchmark != "gaia" else None
        plan.jobs.append(Job(path, benchmark, found.model if found else None, found.dataset if found else None))
        return
    found = benchmarks.detect(path)
    if found is not None:
        plan.jobs.append(Job(path, found.benchmark.name, found.model, found.dataset))
        return
    missing = benchmarks.unsupported(path)
    if missing is not None:
        model, dataset, reason = missing
        plan.jobs.append(Job(path, None, model, dataset, reason))
        return
    plan.jobs.append(Job(path, "gaia", None, path.stem))


def _search(folder: Path, benchmark: str, plan: Plan, exclude: Path | None) -> None:
    for root, dirs, files in os.walk(folder):
        here = Path(root)
        keep = []
        for d in sorted(dirs):
            sub = here / d
            if d.startswith(".") or (exclude is not None and sub.resolve() == exclude):
                continue
            if is_metadata_folder(sub):
                plan.skipped_files.append(SkippedFile(str(sub), "GAIA task metadata (pass it as --metadata)"))
                continue
            if is_workspace(sub) or is_parquet_dataset(sub):
                plan.jobs.append(Job(sub, "gaia" if benchmark == "auto" else benchmark, None, sub.name))
                plan.seen.update(f.resolve() for f in _dataset_files(sub))
                continue
            keep.append(d)
        dirs[:] = keep
        for name in sorted(files):
            if name.startswith("."):
                continue
            p = here / name
            plan.seen.add(p.resolve())
            _classify(p, benchmark, plan, searched=True)


def expand(paths: Sequence[str | os.PathLike], benchmark: str = "auto", *, exclude: str | os.PathLike | None = None) -> Plan:
    """Turn files, globs (expanded here, so quoted globs work) and folders into a
    :class:`Plan`. ``benchmark``: ``"auto"`` (from each file name), ``"gaia"`` or a registry
    name applied to every result file. ``exclude``: a folder the search skips (the report
    folder). A path that does not exist and matches nothing raises ``FileNotFoundError``."""
    if benchmark != "auto":
        benchmarks.get(benchmark)  # KeyError naming the known ones
    plan = Plan()
    excluded = Path(exclude).resolve() if exclude is not None else None
    for raw in paths:
        text = os.fspath(raw)
        p = Path(text)
        if not p.exists() and _has_glob(text):
            matches = sorted(_glob.glob(text, recursive=True))
            if not matches:
                raise FileNotFoundError(f"{text}: no path matches this pattern")
            candidates = [Path(m) for m in matches]
        elif not p.exists():
            raise FileNotFoundError(f"{text}: path does not exist")
        else:
            candidates = [p]
        for c in candidates:
            if c.is_dir():
                if is_metadata_folder(c):
                    raise FileNotFoundError(f"{c}: a GAIA task-metadata folder, not an archive; pass it as --metadata")
                if is_workspace(c) or is_parquet_dataset(c):
                    plan.jobs.append(Job(c, "gaia" if benchmark == "auto" else benchmark, None, c.resolve().name))
                    plan.seen.update(f.resolve() for f in _dataset_files(c))
                else:
                    _search(c, benchmark, plan, excluded)
            else:
                plan.seen.add(c.resolve())
                _classify(c, benchmark, plan, searched=False)
    return plan


# --------------------------------------------------------------------------------------
# Grading one archive
# --------------------------------------------------------------------------------------


def grade_gaia(
    path: str | os.PathLike,
    *,
    metadata: pl.DataFrame | None = None,
    scorer: str = "gaia",
    prediction_col: str | None = None,
    truth_col: str | None = None,
    id_col: str | None = None,
    level_col: str | None = None,
    skip_bad_lines: bool = False,
    comparison: str | os.PathLike | None = None,
    chunk_rows: int = 1_000_000,
) -> dict[str, Any]:
    """Grade one GAIA archive (file, workspace folder or Parquet dataset) and return its
    summary (``input_rows``, ``layout``, ``tasks``, ``correct``, ``accuracy_weighted``,
    ``levels``, ``status_counts``, ...). ``metadata`` is a frame from
    :func:`gaia_fast.datasets.gaia.load_metadata`. Writes ``answer_comparison.csv`` to
    ``comparison`` when given. Raises :class:`gaia_fast.io.readers.InputError` (bad input) or
    ``ValueError`` (no truth)."""
    from gaia_fast.datasets.gaia import join_metadata
    from gaia_fast.grading.summary import score_archive, summary
    from gaia_fast.io.readers import read_archive
    from gaia_fast.io.writers import write_comparison_csv

    if is_parquet_dataset(path) and not is_workspace(path):
        # The parts of one table, read as one Parquet archive (hive partitions included).
        from gaia_fast.io.readers import _read_parquet

        overrides = {"prediction_col": prediction_col, "truth_col": truth_col, "id_col": id_col, "level_col": level_col}
        frame, layout = _read_parquet(Path(path), overrides)
        skipped = []
    else:
        frame, skipped, layout = read_archive(
            path,
            prediction_col=prediction_col,
            truth_col=truth_col,
            id_col=id_col,
            level_col=level_col,
            skip_bad_lines=skip_bad_lines,
            with_layout=True,
            keep_originals=False,
        )
    input_rows = frame.height
    for s in skipped:
        log.warning("%s: skipped %s", path, s)
    if metadata is not None:
        if layout.task_id is None:
            raise ValueError(f"{path}: no task id column to join with the metadata; use --id-col")
        frame = join_metadata(frame, metadata)
    elif "truth" not in frame.columns:
        raise ValueError(f"{path} ({layout.name} layout) has no truth column; pass --truth-col NAME or --metadata DATASET")
    scored = score_archive(frame, scorer, chunk_rows=chunk_rows)
    n_cmp = write_comparison_csv(scored, comparison) if comparison is not None else None
    return {
        "archive": str(path),
        "layout": layout.name,
        "scorer": scorer,
        "input_rows": input_rows,
        "skipped_lines": len(skipped),
        **summary(scored),
        "comparison": None if comparison is None else {"path": str(comparison), "rows": n_cmp},
    }


def _number(x: Any) -> float | int | None:
    if x is None:
        return None
    x = float(x)
    if math.isnan(x):
        return None
    return int(x) if x.is_integer() else x


class _Reports:
    """Report paths under one folder: VLMEvalKit's names, never a file the search found,
    never the same path twice (``-2``, ``-3`` ... on a clash)."""

    def __init__(self, root: Path, seen: set[Path]) -> None:
        self.root = root
        self.seen = seen
        self.taken: set[Path] = set()

    def claim(self, sub: str, name: str) -> Path:
        base = self.root / sub
        path = base / name
        k = 2
        while path.resolve() in self.taken or path.resolve() in self.seen:
            path = self.root / f"{sub}-{k}" / name
            k += 1
        self.taken.add(path.resolve())
        return path


#: Benchmarks whose ``variant`` is the ``can_infer`` version, the one ``variant=`` of
#: :func:`grade_many` sets; the others run their own default.
CAN_INFER_BENCHMARKS = frozenset({"mcq", "mmt-bench", "mcq-circular", "livexivvqa"})


def _grade_vlm(job: Job, report: Path | None, variant: str | None, seed: int, as_of: Any = None) -> ArchiveRecord:
    from gaia_fast.io.vlm import read_result_table
    from gaia_fast.io.writers import write_table

    entry = benchmarks.get(job.benchmark or "")
    module = importlib.import_module(entry.module)
    if as_of is not None:
        variant = entry.variant_on(as_of)  # ValueError: a date the table says nothing about
    elif job.benchmark not in CAN_INFER_BENCHMARKS:
        variant = None
    frame = read_result_table(job.path)
    result = module.grade(frame, variant=variant, seed=seed, judge=None, **entry.options)
    if report is not None:
        write_table(result.report, report)
    stats = result.stats
    rows = result.rows
    if "tasks" in stats and "correct" in stats:
        tasks, correct = stats["tasks"], stats["correct"]
    else:
        scored = rows.filter(pl.col("score").is_not_null()) if "score" in rows.columns else rows.clear()
        tasks = scored.height
        correct = float(scored["score"].cast(pl.Float64).sum()) if tasks else 0.0
    accuracy = stats.get("accuracy")
    if not isinstance(accuracy, float) or not 0.0 <= accuracy <= 1.0:
        accuracy = correct / tasks if tasks else None
    notes = []
    if stats.get("reference_error"):
        notes.append(str(stats["reference_error"]))
    if stats.get("shared_index_conflicts"):
        lo, hi = stats["shared_index_correct_range"]
        notes.append(
            f"{stats['duplicate_index_rows']} rows share an index, scored as upstream: one verdict per index, the row its "
            f"sort puts last; the rows of {stats['shared_index_conflicts']} indexes disagree (any other pick: correct "
            f"{_number(lo)}..{_number(hi)})"
        )
    error = "; ".join(notes)
    return ArchiveRecord(
        path=str(job.path),
        benchmark=job.benchmark,
        model=job.model,
        dataset=job.dataset,
        variant=stats.get("variant", variant),
        rows=rows.height,
        tasks=tasks,
        correct=_number(correct),
        accuracy=_number(accuracy) if accuracy is not None else None,
        accuracy_no_fallback=_number(stats.get("accuracy_no_fallback")),
        status="ok",
        error=f"note: {error}" if error else None,
        report=None if report is None else str(report),
    )


def _grade_one(job: Job, report: Path | None, options: dict[str, Any]) -> ArchiveRecord:
    if job.benchmark is None:
        return ArchiveRecord(str(job.path), "unsupported", job.model, job.dataset, status="skipped", error=job.reason)
    try:
        if report is not None:
            report.parent.mkdir(parents=True, exist_ok=True)
        if job.benchmark == "gaia":
            res = grade_gaia(
                job.path,
                metadata=options.get("metadata"),
                scorer=options.get("scorer", "gaia"),
                prediction_col=options.get("prediction_col"),
                truth_col=options.get("truth_col"),
                id_col=options.get("id_col"),
                level_col=options.get("level_col"),
                skip_bad_lines=options.get("skip_bad_lines", False),
                comparison=report,
                chunk_rows=options.get("chunk_rows", 1_000_000),
            )
            return ArchiveRecord(
                path=str(job.path),
                benchmark="gaia",
                model=job.model,
                dataset=job.dataset,
                variant=options.get("scorer", "gaia"),
                rows=res["input_rows"],
                tasks=res["tasks"],
                correct=_number(res["correct"]),
                accuracy=_number(res["accuracy_weighted"]),
                status="ok",
                report=None if report is None else str(report),
            )
        return _grade_vlm(job, report, options.get("variant"), options.get("seed", 0), options.get("as_of"))
    except Exception as e:  # noqa: BLE001 - one broken archive must not stop the others
        message = str(e) or type(e).__name__
        if str(job.path) not in message:
            message = f"{job.path}: {message}"
        log.debug("grading %s failed", job.path, exc_info=True)
        return ArchiveRecord(str(job.path), job.benchmark, job.model, job.dataset, status="error", error=message)


def _report_for(job: Job, reports: _Reports | None) -> Path | None:
    if reports is None or job.benchmark is None:
        return None
    if job.benchmark == "gaia":
        run = job.dataset or job.path.stem
        return reports.claim(run, "answer_comparison.csv")
    entry = benchmarks.get(job.benchmark)
    model = job.model or job.path.parent.name or "results"
    name = f"{job.path.stem}{entry.report or '_acc.csv'}"
    return reports.claim(model, name)


def grade_many(
    plan: Plan,
    *,
    report_dir: str | os.PathLike | None = "gaia-fast-reports",
    jobs: int | None = None,
    metadata: pl.DataFrame | None = None,
    scorer: str = "gaia",
    variant: str | None = None,
    seed: int = 0,
    prediction_col: str | None = None,
    truth_col: str | None = None,
    id_col: str | None = None,
    level_col: str | None = None,
    skip_bad_lines: bool = False,
    chunk_rows: int = 1_000_000,
    on_done: Callable[[ArchiveRecord], None] | None = None,
    as_of: Any = None,
) -> list[ArchiveRecord]:
    """Grade every job of ``plan`` (``jobs`` threads, default: the CPU count) and return one
    record per job, in plan order. ``variant`` (a ``can_infer`` version) goes to the
    multiple-choice families that use that matcher, ``seed`` to every VLMEvalKit family;
    ``metadata`` (a loaded frame), ``scorer`` and the column options to the GAIA archives.
    ``report_dir=None`` writes no reports. ``on_done(record)`` is called as each finishes.
    ``as_of`` (a date) replaces ``variant``: each VLMEvalKit file gets the variant its
    benchmark's date table gives for that day (:func:`gaia_fast.benchmarks.variant_on`)."""
    reports = None
    if report_dir is not None:
        root = Path(report_dir)
        reports = _Reports(root, plan.seen)
    targets = [_report_for(j, reports) for j in plan.jobs]
    options = {
        "metadata": metadata,
        "scorer": scorer,
        "variant": variant,
        "as_of": as_of,
        "seed": seed,
        "prediction_col": prediction_col,
        "truth_col": truth_col,
        "id_col": id_col,
        "level_col": level_col,
        "skip_bad_lines": skip_bad_lines,
        "chunk_rows": chunk_rows,
    }
    workers = max(1, min(jobs or os.cpu_count() or 1, len(plan.jobs) or 1))

    def run(i: int) -> ArchiveRecord:
        record = _grade_one(plan.jobs[i], targets[i], options)
        if on_done is not None:
            on_done(record)
        return record

    if workers == 1:
        return [run(i) for i in range(len(plan.jobs))]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gaia-fast-grade") as pool:
        return list(pool.map(run, range(len(plan.jobs))))


# --------------------------------------------------------------------------------------
# The summary table
# --------------------------------------------------------------------------------------

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
}


def records_frame(records: Iterable[ArchiveRecord]) -> pl.DataFrame:
    """The records as a table (one row per archive, :data:`COLUMNS`)."""
    return pl.DataFrame([r.to_dict() for r in records], schema=_SCHEMA, orient="row")


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
