"""The executor: grade each job of a plan (a thread pool: the native scorers and the Polars
readers release the GIL) and return one :class:`~gaia_fast.grading.plan.ArchiveRecord` per job.

Reports go under ``report_dir`` with VLMEvalKit's names (``<model>/{model}_{dataset}_acc.csv``)
or, for GAIA, ``<run>/answer_comparison.csv``; a report never replaces a file the search
found. A file that cannot be graded gives a record with ``status="error"`` and the message;
the others finish. Nothing here prints.
"""

from __future__ import annotations

import importlib
import logging
import math
import os
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import polars as pl

from gaia_fast import benchmarks
from gaia_fast.grading.plan import ArchiveRecord, Job, Plan

__all__ = ["CAN_INFER_BENCHMARKS", "OUT_SUFFIX", "grade_gaia", "grade_many", "out_paths"]

log = logging.getLogger(__name__)


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
    out: str | os.PathLike | None = None,
    compare: str | None = None,
    explain: bool = False,
) -> dict[str, Any]:
    """Grade one GAIA archive (file, workspace folder or Parquet dataset) in one streaming
    pass, the plan of the single-archive command (:func:`gaia_fast.grading.archive.grade_scan`),
    and return its summary (``input_rows``, ``layout``, ``tasks``, ``correct``,
    ``accuracy_weighted``, ``levels``, ``status_counts``, ...). ``metadata`` is a frame from
    :func:`gaia_fast.datasets.gaia.load_metadata`. Writes ``answer_comparison.csv`` to
    ``comparison`` and every row and column to ``out`` when given (both atomically);
    ``compare`` adds a second scorer's summary (``compare``) and the number of rows the two
    decide differently (``disagreements``); ``explain`` adds the ``reason`` column to ``out``.
    ``chunk_rows`` is accepted for compatibility: the engine's chunk bounds memory. Raises
    :class:`gaia_fast.io.readers.InputError` (bad input) or ``ValueError`` (no truth)."""
    import tempfile

    from gaia_fast.grading.archive import grade_scan
    from gaia_fast.io.readers import scan_archive

    scan = scan_archive(
        path,
        prediction_col=prediction_col,
        truth_col=truth_col,
        id_col=id_col,
        level_col=level_col,
        skip_bad_lines=skip_bad_lines,
        keep_originals=out is not None,
    )
    layout = scan.layout
    if metadata is not None:
        if layout.task_id is None:
            raise ValueError(f"{path}: no task id column to join with the metadata; use --id-col")
    elif "truth" not in scan.frame.collect_schema():
        raise ValueError(f"{path} ({layout.name} layout) has no truth column; pass --truth-col NAME or --metadata DATASET")
    with tempfile.TemporaryDirectory(prefix="gaia-fast-") if comparison is None else _no_dir() as scratch:
        # The plan always writes a comparison; without a report it goes to a scratch folder.
        target = Path(comparison) if comparison is not None else Path(scratch) / "answer_comparison.csv"
        outcome = grade_scan(
            scan,
            meta=metadata,
            scorer=scorer,
            compare=compare,
            explain=explain,
            comparison=target,
            out=None if out is None else Path(out),
            limit=1,
            want_duplicates=True,
        )
    for s in scan.skipped:
        log.warning("%s: skipped %s", path, s)
    return {
        "archive": str(path),
        "layout": layout.name,
        "scorer": scorer,
        "input_rows": outcome.input_rows,
        "skipped_lines": len(scan.skipped),
        **outcome.summary,
        "comparison": None if comparison is None else {"path": str(comparison), "rows": outcome.comparison_rows},
        "out": None if out is None else str(out),
        "duplicates": outcome.duplicates,
        "truth_differs": outcome.differ,
        "compare": None if compare is None else {"scorer": compare, **(outcome.compare_summary or {})},
        "disagreements": outcome.diff_total if compare is not None else None,
    }


@contextmanager
def _no_dir() -> Iterator[None]:
    yield None


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
CAN_INFER_BENCHMARKS = frozenset(
    {"mcq", "mmt-bench", "mcq-circular", "livexivvqa", "tdbench", "mmvp", "mmsci", "hrbench", "gmai-mmbench",
     "cv-bench", "lego", "lego-circular", "mmmu-pro", "mmmu-pro-cot", "3dsrbench", "mmmb", "mtl-mmbench", "topviewrs"}
)


def _judge_errors(rows: pl.DataFrame) -> tuple[int, str | None]:
    """(count, first reason) of the rows whose judge call failed."""
    if "status" not in rows.columns:
        return 0, None
    failed = rows.filter(pl.col("status").cast(pl.String) == "judge_error")
    first = failed.get_column("reason")[0] if failed.height and "reason" in failed.columns else None
    return failed.height, first


def _grade_vlm(job: Job, report: Path | None, out: Path | None, options: dict[str, Any]) -> ArchiveRecord:
    from gaia_fast.io.vlm import read_result_table
    from gaia_fast.io.writers import write_report, write_table

    entry = benchmarks.get(job.benchmark or "")
    module = importlib.import_module(entry.module)
    frame = read_result_table(job.path)
    as_of = options.get("as_of")
    if as_of is not None:
        variant = entry.variant_on(as_of)  # ValueError: a date the table says nothing about
    else:
        variant = options.get("variant") if job.benchmark in CAN_INFER_BENCHMARKS else None
    judge = (options.get("judges") or {}).get(entry.module)
    family_options = {**entry.options, **((options.get("judge_options") or {}).get(entry.module) or {})}
    result = module.grade(frame, variant=variant, seed=options.get("seed", 0), judge=judge, **family_options)
    if report is not None:
        write_report(result.report, report)
    if out is not None:
        write_table(result.rows, out)
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
    status = "ok"
    failed, first = _judge_errors(rows)
    if failed:
        # The outputs are written and the failed calls count as wrong; the run must say so
        # (status error, exit 1) and a second run asks the judge only for these rows.
        status = "error"
        error = (
            f"{failed} row(s) have status judge_error (counted as wrong)" + (f"; first: {first}" if first else "")
            + "; run again to judge only those rows" + (f"; note: {error}" if error else "")
        )
    elif error:
        error = f"note: {error}"
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
        status=status,
        error=error or None,
        report=None if report is None else str(report),
        out=None if out is None else str(out),
    )


def _grade_one(job: Job, report: Path | None, out: Path | None, options: dict[str, Any]) -> ArchiveRecord:
    if job.benchmark is None:
        return ArchiveRecord(str(job.path), "unsupported", job.model, job.dataset, status="skipped", error=job.reason)
    try:
        for target in (report, out):
            if target is not None:
                target.parent.mkdir(parents=True, exist_ok=True)
        if job.benchmark == "gaia":
            compare = options.get("compare")
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
                out=out,
                compare=compare,
                explain=options.get("explain", False),
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
                out=None if out is None else str(out),
                compare=compare,
                compare_accuracy=None if compare is None else _number(res["compare"]["accuracy_weighted"]),
                disagreements=res["disagreements"],
            )
        return _grade_vlm(job, report, out, options)
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


#: Suffix of the scored tables written under ``out_dir`` (a folder search lists such
#: files as outputs, see :data:`gaia_fast.benchmarks.NON_RESULT`).
OUT_SUFFIX = ".scored.parquet"


def out_paths(plan: Plan, out_dir: str | os.PathLike) -> list[Path | None]:
    """Where :func:`grade_many` writes each job's scored table under ``out_dir``: the
    archive's path relative to the folder all archives share, its extension replaced by
    :data:`OUT_SUFFIX` (``outputs/m/m_MMStar.xlsx`` → ``out_dir/m/m_MMStar.scored.parquet``
    when several model folders are graded). Jobs with no flow get None. Raises
    :class:`~gaia_fast.grading.archive.OutputError` naming both paths when a target is a
    file the search found (an input) or when two archives would be written to one file."""
    from gaia_fast.grading.archive import OutputError

    root = Path(out_dir)
    graded = [j for j in plan.jobs if j.benchmark is not None]
    if not graded:
        return [None] * len(plan.jobs)
    homes = [j.path.resolve().parent for j in graded]
    base = Path(os.path.commonpath(homes)) if len(homes) > 1 else homes[0]
    targets: list[Path | None] = []
    owner: dict[Path, Path] = {}
    seen = {p.resolve() for p in plan.seen}
    for job in plan.jobs:
        if job.benchmark is None:
            targets.append(None)
            continue
        rel = job.path.resolve().relative_to(base)
        name = rel.name[: -len(rel.suffix)] if rel.suffix and job.path.is_file() else rel.name
        dest = root / rel.parent / f"{name}{OUT_SUFFIX}"
        key = dest.resolve()
        if key in seen or key == job.path.resolve():
            raise OutputError(f"--out {dest} would replace the input {key}: refusing to overwrite an input; choose another --out folder")
        if key in owner:
            raise OutputError(
                f"--out: {owner[key]} and {job.path} would both be written to {dest}; grade them in separate calls or rename one"
            )
        owner[key] = job.path
        targets.append(dest)
    return targets


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
    out_dir: str | os.PathLike | None = None,
    compare: str | None = None,
    explain: bool = False,
    judges: Mapping[str, Any] | None = None,
    judge_options: Mapping[str, dict[str, Any]] | None = None,
) -> list[ArchiveRecord]:
    """Grade every job of ``plan`` (``jobs`` threads, default: the CPU count) and return one
    record per job, in plan order. ``variant`` (a ``can_infer`` version) goes to the
    multiple-choice families that use that matcher, ``seed`` to every VLMEvalKit family;
    ``metadata`` (a loaded frame), ``scorer``, ``compare`` (a second scorer: its accuracy
    and the rows the two decide differently), ``explain`` (a ``reason`` column in the
    scored tables) and the column options to the GAIA archives, each graded in one
    streaming pass. ``judges`` maps a family's module (a registry entry's ``module``) to
    the judge its archives use, ``judge_options`` to extra options of its ``grade``.
    ``report_dir=None`` writes no reports; ``out_dir`` writes each archive's scored table
    (every row and column) under :func:`out_paths`. ``on_done(record)`` is called as each
    finishes.
    ``as_of`` (a date) replaces ``variant``: each VLMEvalKit file gets the variant its
    benchmark's date table gives for that day (:func:`gaia_fast.benchmarks.variant_on`)."""
    reports = None
    if report_dir is not None:
        root = Path(report_dir)
        reports = _Reports(root, plan.seen)
    outs = out_paths(plan, out_dir) if out_dir is not None else [None] * len(plan.jobs)
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
        "compare": compare,
        "explain": explain,
        "judges": judges,
        "judge_options": judge_options,
    }
    workers = max(1, min(jobs or os.cpu_count() or 1, len(plan.jobs) or 1))

    def run(i: int) -> ArchiveRecord:
        record = _grade_one(plan.jobs[i], targets[i], outs[i], options)
        if on_done is not None:
            on_done(record)
        return record

    if workers == 1:
        return [run(i) for i in range(len(plan.jobs))]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gaia-fast-grade") as pool:
        return list(pool.map(run, range(len(plan.jobs))))


