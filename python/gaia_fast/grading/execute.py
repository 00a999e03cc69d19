"""The executor: grade each job of a plan and return one
:class:`~gaia_fast.grading.plan.ArchiveRecord` per job.

One archive or many take this one path: discovery makes a plan (a plan of one for a
single file), :func:`grade_job` grades one job and yields its record (with the job's full
result in ``record.detail`` for the detailed report), and an executor runs the jobs:
:class:`LocalExecutor` (a thread pool: the native scorers and the Polars readers release
the GIL) or :class:`RayExecutor` (GAIA archives read and scored on a Ray cluster).

Reports go under ``report_dir`` with VLMEvalKit's names (``<model>/{model}_{dataset}_acc.csv``)
or, for GAIA, ``<run>/answer_comparison.csv``; a report never replaces a file the search
found. A file that cannot be graded gives a record with ``status="error"`` and the message;
the others finish. Nothing here prints.
"""

from __future__ import annotations

import importlib
import json
import logging
import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl

from gaia_fast import benchmarks
from gaia_fast.grading.plan import ArchiveRecord, Job, Plan

__all__ = [
    "CAN_INFER_BENCHMARKS",
    "OUT_SUFFIX",
    "GradeOptions",
    "LocalExecutor",
    "RayExecutor",
    "audit_json",
    "grade_gaia",
    "grade_job",
    "grade_many",
    "out_paths",
    "record_kind",
    "report_paths",
]

log = logging.getLogger(__name__)

#: Benchmarks whose ``variant`` is the ``can_infer`` version, the one ``variant=`` of a run
#: of several archives sets; the others run their own default.
CAN_INFER_BENCHMARKS = frozenset(
    {"mcq", "mmt-bench", "mcq-circular", "livexivvqa", "tdbench", "mmvp", "mmsci", "hrbench", "gmai-mmbench",
     "cv-bench", "lego", "lego-circular", "mmmu-pro", "mmmu-pro-cot", "3dsrbench", "mmmb", "mtl-mmbench", "topviewrs"}
)

#: Suffix of the scored tables written under ``out_dir`` (a folder search lists such
#: files as outputs, see :data:`gaia_fast.benchmarks.NON_RESULT`).
OUT_SUFFIX = ".scored.parquet"


@dataclass
class GradeOptions:
    """What every job of a run shares: the command's options, parsed."""

    #: GAIA: task metadata (a frame from :func:`gaia_fast.datasets.gaia.load_metadata`), the
    #: path it came from (so no output replaces it) and its split.
    metadata: pl.DataFrame | None = None
    metadata_path: Path | None = None
    split: str = "validation"
    scorer: str = "gaia"
    #: GAIA: a second scorer (its summary and the rows the two decide differently).
    compare: str | None = None
    #: GAIA: the ``reason`` column in ``--out``, and the table of rows not fully correct.
    explain: bool = False
    #: GAIA: rows kept for the explain / compare tables (0 = all).
    limit: int = 50
    prediction_col: str | None = None
    truth_col: str | None = None
    id_col: str | None = None
    level_col: str | None = None
    skip_bad_lines: bool = False
    #: GAIA: validate the archive as a leaderboard submission (``detail["check"]``).
    submission: bool = False
    dedupe: str = "auto"
    chunk_rows: int = 1_000_000
    #: GAIA: which rows of a rerun task are graded (``last``, ``first``, ``any-correct``,
    #: ``all``; the command's default is ``last``), the side a truth comes from when the
    #: archive and the metadata both have one, and whether answers are graded without
    #: their leftover templates (see :func:`gaia_fast.grading.archive.grade_scan`).
    duplicates: str = "all"
    truth: str = "metadata"
    strip_template: bool = False
    #: VLMEvalKit: the reference version. ``variant_scope="can_infer"`` (several archives)
    #: gives it only to the families whose variant is the ``can_infer`` version; ``"all"``
    #: (one archive) to whatever benchmark it is.
    variant: str | None = None
    variant_scope: str = "can_infer"
    #: VLMEvalKit: grade as the evaluation code stood on this day (replaces ``variant``).
    as_of: date | None = None
    seed: int = 0
    #: VLMEvalKit rows the rules leave undecided: ``"auto"`` takes the archive's recorded
    #: judge reply (then the live judge, if any; else the row needs a judge), ``"none"``
    #: reproduces VLMEvalKit's ``exact_matching`` policy.
    judge_policy: str = "auto"
    #: The family module -> the judge its archives use, and extra options of its ``grade``.
    judges: Mapping[str, Any] = field(default_factory=dict)
    judge_options: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    #: GAIA: ``progress(scan)`` is a context manager giving a rows callback (or None).
    progress: Callable[[Any], AbstractContextManager[Callable[[int], None] | None]] | None = None


# --------------------------------------------------------------------------------------
# One job
# --------------------------------------------------------------------------------------


def _number(x: Any) -> float | int | None:
    if x is None:
        return None
    x = float(x)
    if math.isnan(x):
        return None
    return int(x) if x.is_integer() else x


def _grade_gaia(job: Job, options: GradeOptions, report: Path | None, out: Path | None) -> ArchiveRecord:
    """One GAIA archive in one streaming pass (:func:`gaia_fast.grading.archive.grade_scan`).
    ``report`` is its ``answer_comparison.csv`` (a scratch file when None)."""
    from gaia_fast.datasets.gaia import locate_metadata, validate_submission
    from gaia_fast.grading.archive import check_no_overwrite, grade_scan
    from gaia_fast.io.readers import scan_archive

    path, meta = job.path, options.metadata
    scan = scan_archive(
        path,
        prediction_col=options.prediction_col,
        truth_col=options.truth_col,
        id_col=options.id_col,
        level_col=options.level_col,
        skip_bad_lines=options.skip_bad_lines or options.submission,
        keep_originals=out is not None,
    )
    layout = scan.layout
    outputs = {"--comparison": report, "--out": out}
    inputs = list(scan.files) + (locate_metadata(options.metadata_path, options.split) if options.metadata_path is not None else [])
    check_no_overwrite(inputs, {k: v for k, v in outputs.items() if v is not None})
    check = None
    if options.submission:
        if meta is None:
            raise ValueError("--submission needs --metadata (the split's task ids and levels)")
        check = validate_submission(path, meta, options.split)
    # Without task ids grade_scan joins the metadata on the questions (or grades against
    # the archive's own truth, and says so in outcome.audit["join"]).
    if meta is None and "truth" not in scan.frame.collect_schema():
        raise ValueError(f"{path} ({layout.name} layout) has no truth column; pass --truth-col NAME or --metadata DATASET")
    # The engine's own morsel size keeps memory lowest; --chunk-rows only makes it smaller.
    chunking = pl.Config(streaming_chunk_size=options.chunk_rows) if options.chunk_rows < 100_000 else nullcontext()
    progress = options.progress(scan) if options.progress is not None else nullcontext()
    # Without a report no comparison is written (its task ids are still ordered to find
    # the duplicated ones).
    with progress as on_rows, chunking:
        outcome = grade_scan(
            scan,
            meta=meta,
            scorer=options.scorer,
            compare=options.compare,
            explain=options.explain,
            comparison=report,
            out=out,
            limit=options.limit,
            want_duplicates=not options.submission,
            dedupe=options.dedupe,
            progress=on_rows,
            duplicates=options.duplicates,
            truth=options.truth,
            strip_template=options.strip_template,
        )
    if os.environ.get("GAIA_FAST_PROFILE"):
        # The benchmark's per-step profile (benches/bench_grade.py): wall seconds per step.
        from gaia_fast.grading.archive import PROFILE

        with open(os.environ["GAIA_FAST_PROFILE"], "w") as fh:
            json.dump(PROFILE, fh)
    if outcome.level_lost:
        log.warning("%d level value(s) in column %r are not integers; their level is null", outcome.level_lost, layout.level)
    result: dict[str, Any] = {
        "archive": str(path),
        "layout": layout.name,
        "scorer": options.scorer,
        "metadata": str(options.metadata_path) if options.metadata_path is not None else None,
        "split": options.split if meta is not None else None,
        "input_rows": outcome.input_rows,
        "skipped_lines": [s.to_dict() for s in scan.skipped],
        **outcome.summary,
        "comparison": None if report is None else {"path": str(report), "rows": outcome.comparison_rows},
        "out": str(out) if out is not None else None,
        "audit": audit_json(outcome.audit),
    }
    if options.compare is not None:
        diff = outcome.diff
        assert diff is not None
        result["compare"] = {
            "scorer": options.compare,
            "summary": outcome.compare_summary,
            "disagreements": outcome.diff_total,
            "rows": diff.select(
                [c for c in ("task_id", "level", "truth", "prediction", "score", "compare_score", "reason", "compare_reason") if c in diff.columns]
            )
            .with_columns(pl.col(pl.Enum, pl.Categorical).cast(pl.String))
            .to_dicts(),
        }
    warnings = _metadata_mismatch(path, result, options.split) if meta is not None else []
    if warnings:
        result["warnings"] = warnings
    # An archive none of whose rows is a task of the metadata is graded (every task missing),
    # and the note says why its accuracy is what it is.
    status, error = "ok", "; ".join(warnings) or None
    if check is not None:
        from gaia_fast.grading.summary import group_scores, leaderboard_scores

        sub = check.to_dict()
        sub["scores"] = leaderboard_scores(group_scores(outcome.groups, graded=options.scorer == "gaia-graded"), check.expected)
        result["submission"] = sub
        if not check.valid:
            status, error = "invalid", f"invalid leaderboard submission: {len(check.errors)} problem(s)"
    return ArchiveRecord(
        path=str(path),
        benchmark="gaia",
        model=job.model,
        dataset=job.dataset,
        variant=options.scorer,
        rows=outcome.input_rows,
        tasks=outcome.summary["tasks"],
        correct=_number(outcome.summary["correct"]),
        accuracy=_number(outcome.summary["accuracy_weighted"]),
        status=status,
        error=error,
        report=None if report is None else str(report),
        out=None if out is None else str(out),
        run=job.run,
        compare=options.compare,
        compare_accuracy=None if options.compare is None else _number((outcome.compare_summary or {}).get("accuracy_weighted")),
        disagreements=outcome.diff_total if options.compare is not None else None,
        detail={"result": result, "outcome": outcome, "scan": scan, "check": check},
    )


def _metadata_mismatch(path: Path, result: dict[str, Any], split: str) -> list[str]:
    """What says a GAIA archive is not of the metadata's split or benchmark: no row's task id
    is one of its tasks (a test-split submission graded against validation), or no row's
    question is one of its questions (another benchmark's file), so its accuracy is about
    tasks it does not hold."""
    out = []
    counts = result.get("status_counts") or {}
    if counts.get("unknown_task") and set(counts) <= {"unknown_task", "missing"}:
        out.append(
            f"{path}: none of its {counts['unknown_task']} row(s) is a task of --metadata (split {split}); "
            "the accuracy counts every task as missing. Another split (--split) or another benchmark?"
        )
    join = (result.get("audit") or {}).get("join") or {}
    if join.get("on") == "question" and join.get("unmatched") and not join.get("exact") and not join.get("normalised"):
        out.append(
            f"{path}: none of its {join['unmatched']} question(s) is a question of --metadata (split {split}); "
            "they are graded against the file's own truth, beside every metadata task counted missing. Another benchmark?"
        )
    return out


def _has_values(report: pl.DataFrame) -> bool:
    """Whether a report holds a value besides its row labels (a family whose reference
    raises before writing its report leaves the values null)."""
    label = report.columns[0] if report.width and report[report.columns[0]].dtype == pl.String else None
    return any(report[c].null_count() < report.height for c in report.columns if c != label)


def _known_differences(ours: pl.DataFrame, theirs: pl.DataFrame | None) -> list[str]:
    """The differences from the archive's report in the cells of ``ours`` that are not null
    (a one-row report whose other cells could not be computed)."""
    from gaia_fast.grading.reporters import report_differences

    if theirs is None or ours.height != 1:
        return []
    kept = [c for c in ours.columns if ours[c][0] is not None and c in theirs.columns]
    return report_differences(ours.select(kept), theirs.select(kept)) if kept else []


def audit_json(audit: Mapping[str, Any]) -> dict[str, Any]:
    """The audits of a GAIA grade (``GradeOutcome.audit``) with their row tables as lists
    of dicts (JSON-ready)."""

    def conv(v: Any) -> Any:
        if isinstance(v, pl.DataFrame):
            return v.with_columns(pl.col(pl.Enum, pl.Categorical).cast(pl.String)).to_dicts()
        if isinstance(v, Mapping):
            return {k: conv(x) for k, x in v.items()}
        if isinstance(v, float) and v.is_integer():
            return int(v)
        return v

    return conv(dict(audit))


def _judge_errors(rows: pl.DataFrame) -> tuple[int, str | None]:
    """(count, first reason) of the rows whose judge call failed."""
    if "status" not in rows.columns:
        return 0, None
    failed = rows.filter(pl.col("status").cast(pl.String) == "judge_error")
    first = failed.get_column("reason")[0] if failed.height and "reason" in failed.columns else None
    return failed.height, first


def _variant(job: Job, entry: benchmarks.Benchmark, options: GradeOptions) -> str | None:
    """``--as-of``, else ``--variant``, else the variant of the day the run folder's commit
    was made (VLMEvalKit's code that graded the file), else the era whose report name the
    archive holds (``Benchmark.era_reports``), else the family's default."""
    if options.as_of is not None:
        return entry.variant_on(options.as_of)  # ValueError: a date the table says nothing about
    if options.variant is not None and (options.variant_scope == "all" or job.benchmark in CAN_INFER_BENCHMARKS):
        return options.variant
    if job.as_of is not None and entry.variants:
        return entry.variant_on(job.as_of)
    # No date: a report name only one era wrote says which code graded the file.
    stem = job.path.stem
    if entry.era_reports and not job.path.with_name(f"{stem}{entry.report}").is_file():
        for suffix, variant in entry.era_reports:
            if job.path.with_name(f"{stem}{suffix}").is_file():
                return variant
    return None


def _grade_vlm(job: Job, options: GradeOptions, report: Path | None, out: Path | None) -> ArchiveRecord:
    """One VLMEvalKit result file through its family's ``grade`` (extract -> score ->
    aggregate); ``report`` gets the family's report table, ``out`` every row."""
    from gaia_fast.io.vlm import read_result_table
    from gaia_fast.io.writers import write_report, write_table

    from gaia_fast.grading.reporters import headline, read_report, report_differences

    entry = benchmarks.get(job.benchmark or "")
    module = importlib.import_module(entry.module)
    variant = _variant(job, entry, options)
    frame = read_result_table(job.path)
    judge = options.judges.get(entry.module)
    family_options = {**entry.options, **(options.judge_options.get(entry.module) or {})}
    records = None
    kind = record_kind(module)
    if kind is not None:
        records = _records(job, kind)
        family_options.update(recorded=records, judge_policy=options.judge_policy)
    result = module.grade(frame, variant=variant, seed=options.seed, judge=judge, **family_options)
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
    decided = stats.get("decided") or {}
    undecided = int(decided.get("undecided") or 0)
    found = headline(result.report, entry.headline)
    theirs = _archive_report(job, entry, report, records)
    their_headline, differences = None, []
    if theirs is not None:
        their_report = read_report(theirs)
        found_theirs = headline(their_report, entry.headline)
        their_headline = None if found_theirs is None else found_theirs[1]
        differences = report_differences(result.report, their_report)
    status = "ok_by_shape" if job.by_shape else "ok"
    failed, first = _judge_errors(rows)
    if failed:
        # The outputs are written and the failed calls count as wrong; the run must say so
        # (status error, exit 1) and a second run asks the judge only for these rows.
        status = "error"
        notes.insert(0, f"{failed} row(s) have status judge_error (counted as wrong)" + (f"; first: {first}" if first else "") + "; run again to judge only those rows")
    elif stats.get("reference_error") and found is None and not _has_values(result.report):
        # VLMEvalKit's own evaluate raises on this file before it writes a report: there is
        # nothing to reproduce (the rows say which ones it chokes on). HiPhO raises after
        # writing its reports: those are compared as any other (HiPhO_ALL's nested report
        # has text leaves and no headline, but it has values; a registry headline= cannot
        # stand in: the report has no overall number, and a subset's rate would put a new
        # headline in every HiPhO_ALL summary row).
        status = "error"
    elif undecided:
        status = "needs_judge"
        notes.insert(0, f"{undecided} {stats.get('decided_unit', 'rows')} need a judge: the archive has no recorded reply for them; give --judge-model to ask one")
    elif stats.get("record_disagreements"):
        # The rules decided these rows one way and the archive's own record the other:
        # VLMEvalKit read them differently (its answers come from its dataset file).
        status = "differs"
        shown = ", ".join(map(str, (stats.get("record_disagreement_indexes") or [])[:5]))
        notes.insert(0, f"{stats['record_disagreements']} row(s) where the rules' verdict differs from the archive's recorded one" + (f" (index {shown})" if shown else ""))
    elif stats.get("matches_archive") is False and stats.get("archive_method") is not None:
        status = "other_method"
        notes.insert(0, f"graded by {stats.get('method')}, the archive by {stats.get('archive_method')}")
    elif stats.get("archive_method") is None and records is None and stats.get("decided_exact") and theirs is None:
        # No judge records and no report of the archive's: the rows the rules left open
        # were matched exactly, which may not be what the archive did.
        status = "unverified"
        notes.insert(0, "rows the rules left open were matched exactly; the archive has no judge records and no report to check against")
    elif stats.get("incomplete") and not _known_differences(result.report, their_report if theirs is not None else None):
        # Rows need what the archive does not hold (OCRBench v2: WordNet); the report cells that
        # depend on them are null, and every other cell agrees with the archive's report.
        status = "incomplete"
        notes.insert(0, str(stats["incomplete"]))
    elif differences:
        status = "differs"
        notes.insert(0, f"differs from the archive's own report {theirs.name}: " + "; ".join(differences))
    if job.note:
        notes.append(job.note)
    error = "; ".join(notes) or None
    flags = stats.get("flags") or {}
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
        error=error,
        report=None if report is None else str(report),
        out=None if out is None else str(out),
        run=job.run,
        method=stats.get("method"),
        decided_rules=decided.get("rules"),
        decided_recorded=decided.get("recorded"),
        decided_live=decided.get("live"),
        undecided=decided.get("undecided"),
        flags="; ".join(f"{k}={v}" for k, v in flags.items() if v) or None,
        headline_metric=None if found is None else found[0],
        headline=None if found is None else _number(found[1]),
        archive_report=None if theirs is None else str(theirs),
        archive_headline=_number(their_headline),
        detail={"result": result, "variant": variant, "judge_errors": (failed, first), "archive_differences": differences},
    )


def _archive_report(job: Job, entry: benchmarks.Benchmark, ours: Path | None, records: Any) -> Path | None:
    """The report VLMEvalKit wrote beside the result file, when the archive has one and it
    is not the report this run writes: ``{stem}{report}``, or for judge-scored sets
    ``{stem}_{judge}{report}`` (either as ``.xlsx`` in 2023)."""
    if entry.report is None:
        return None
    stem, report = job.path.stem, entry.report
    bare = Path(report).stem
    # 2023 archives wrote their reports as .xlsx.
    names = [f"{stem}{report}", f"{stem}{bare}.xlsx"]
    if records is not None and records.judge:
        names += [f"{stem}_{records.judge}{report}", f"{stem}_{records.judge}{bare}.xlsx"]
    # Other eras wrote the report under another of VLMEvalKit's names (MTVQA: _acc.csv in
    # 2024, _acc.json at head): compared too, so a report that moved is never left unchecked.
    names += [f"{stem}{alt}" for alt in _OTHER_REPORTS if f"{stem}{alt}" not in names]
    for name in names:
        theirs = job.path.with_name(name)
        if theirs.is_file() and (ours is None or ours.resolve() != theirs.resolve()):
            return theirs
    return None


#: Report names VLMEvalKit has used, tried after a benchmark's own (in this order).
_OTHER_REPORTS = ("_acc.csv", "_acc.json", "_acc.xlsx", "_score.csv", "_score.json", "_exact_matching_score.csv")


def record_kind(module: Any) -> str | None:
    """The kind of judge records a family module replays (its ``RECORD_KIND``; None: it
    replays none). Such a family's ``grade`` takes ``recorded=`` and ``judge_policy=``: adding
    one is its module and its registry entry."""
    kind = getattr(module, "RECORD_KIND", None)
    if kind is not None and not isinstance(kind, str):
        raise TypeError(f"{module.__name__}.RECORD_KIND must be a record kind (str), not {type(kind).__name__}")
    return kind


def _records(job: Job, kind: str) -> Any:
    """The archive's recorded judge replies for ``job`` (None when it has none). A
    judge-scored set, whose every row the judge scores, always gets records (empty ones
    when there are none: every row then needs a judge)."""
    from gaia_fast.scorers.vlm.recorded import Records, find_records

    found = find_records(job.path, kind)
    if found is None and kind == "judged":
        return Records.empty(job.path, kind)
    return found



def grade_job(
    job: Job, options: GradeOptions, report: Path | None = None, out: Path | None = None, *, raise_errors: bool = False
) -> ArchiveRecord:
    """Grade one job and return its record. A job with no flow gives a ``skipped`` record.
    An archive that cannot be graded gives an ``error`` record naming it, or, with
    ``raise_errors`` (a plan of one, whose caller reports the error itself), raises."""
    if job.benchmark is None:
        return ArchiveRecord(str(job.path), "unsupported", job.model, job.dataset, status="skipped", error=job.reason)
    try:
        for target in (report, out):
            if target is not None:
                target.parent.mkdir(parents=True, exist_ok=True)
        if job.benchmark == "gaia":
            return _grade_gaia(job, options, report, out)
        return _grade_vlm(job, options, report, out)
    except Exception as e:  # noqa: BLE001 - one broken archive must not stop the others
        if raise_errors:
            raise
        message = str(e) or type(e).__name__
        if str(job.path) not in message:
            message = f"{job.path}: {message}"
        log.debug("grading %s failed", job.path, exc_info=True)
        return ArchiveRecord(str(job.path), job.benchmark, job.model, job.dataset, status="error", error=message)


# --------------------------------------------------------------------------------------
# Where each job's outputs go
# --------------------------------------------------------------------------------------


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


def _report_for(job: Job, reports: _Reports) -> Path | None:
    if job.benchmark is None:
        return None
    if job.benchmark == "gaia":
        run = job.dataset or job.path.stem
        return reports.claim(run, "answer_comparison.csv")
    entry = benchmarks.get(job.benchmark)
    model = job.model or job.path.parent.name or "results"
    name = f"{job.path.stem}{entry.report or '_acc.csv'}"
    # As VLMEvalKit lays them out: a run's reports in its run folder.
    return reports.claim(f"{model}/{job.run}" if job.run else model, name)


def report_paths(plan: Plan, report_dir: str | os.PathLike | None) -> list[Path | None]:
    """Where each job's report goes under ``report_dir`` (None: no reports)."""
    if report_dir is None:
        return [None] * len(plan.jobs)
    reports = _Reports(Path(report_dir), plan.seen)
    return [_report_for(j, reports) for j in plan.jobs]


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


# --------------------------------------------------------------------------------------
# Executors
# --------------------------------------------------------------------------------------


@dataclass
class LocalExecutor:
    """Jobs on a thread pool of ``workers`` threads (default: the CPU count)."""

    workers: int | None = None

    def run(
        self,
        plan: Plan,
        options: GradeOptions,
        reports: Sequence[Path | None],
        outs: Sequence[Path | None],
        *,
        on_done: Callable[[ArchiveRecord], None] | None = None,
        raise_errors: bool = False,
    ) -> list[ArchiveRecord]:
        """One record per job, in plan order; ``on_done(record)`` as each finishes."""
        workers = max(1, min(self.workers or os.cpu_count() or 1, len(plan.jobs) or 1))

        def run(i: int) -> ArchiveRecord:
            record = grade_job(plan.jobs[i], options, reports[i], outs[i], raise_errors=raise_errors)
            if on_done is not None:
                on_done(record)
            return record

        if workers == 1:
            return [run(i) for i in range(len(plan.jobs))]
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gaia-fast-grade") as pool:
            return list(pool.map(run, range(len(plan.jobs))))


@dataclass
class RayExecutor:
    """GAIA archives read, joined and scored as Ray tasks (a cluster at ``address``, else
    ``RAY_ADDRESS``, else a local instance started for the run); the blocks stream back only
    to be written. Every wait is bounded: ``connect_timeout`` to reach the cluster, ``stall``
    seconds in which nothing finished (``stall``). ``progress`` gets Ray Data's progress
    events. A job's path may be a URI (``s3://bucket/key``) readable on every node."""

    #: ``start()`` connects (or starts a local instance) and returns ``(ray, started_here)``.
    start: Callable[[], tuple[Any, bool]]
    stall: float | None = None
    progress: Any = None

    def run(
        self,
        plan: Plan,
        options: GradeOptions,
        reports: Sequence[Path | None],
        outs: Sequence[Path | None],
        *,
        on_done: Callable[[ArchiveRecord], None] | None = None,
        raise_errors: bool = False,
    ) -> list[ArchiveRecord]:
        from gaia_fast.integrations.ray import STALL_TIMEOUT

        others = [j for j in plan.jobs if j.benchmark != "gaia"]
        if others:
            raise ValueError(f"the Ray engine grades GAIA archives; {others[0].path} is {others[0].benchmark or 'not gradable'}")
        ray, started = self.start()
        stall = self.stall or STALL_TIMEOUT
        records = []
        try:
            for job, report, out in zip(plan.jobs, reports, outs):
                try:
                    record = self._grade(job, options, report, out, stall)
                except Exception as e:  # noqa: BLE001 - as the local executor
                    if raise_errors:
                        raise
                    record = ArchiveRecord(str(job.path), job.benchmark, job.model, job.dataset, status="error", error=str(e) or type(e).__name__)
                if on_done is not None:
                    on_done(record)
                records.append(record)
        finally:
            if started:
                ray.shutdown()
        return records

    def _grade(self, job: Job, options: GradeOptions, report: Path | None, out: Path | None, stall: float) -> ArchiveRecord:
        import logging as _logging

        from ray.data import DataContext

        from gaia_fast.integrations.ray import grade_archive_dataset, write_outputs

        # Ray Data reports each execution at INFO (its logger is set up on import); the
        # run's own output is the report.
        _logging.getLogger("ray.data").setLevel(_logging.WARNING)
        ctx = DataContext.get_current()
        ctx.enable_progress_bars = False
        ctx.execution_options.preserve_order = True  # --out keeps the archive's row order
        progress = self.progress or nullcontext()
        with progress:
            graded = grade_archive_dataset(
                _uri(job.path),
                scorer=options.scorer,
                metadata=options.metadata,
                prediction_col=options.prediction_col,
                truth_col=options.truth_col,
                id_col=options.id_col,
                level_col=options.level_col,
                skip_bad_lines=options.skip_bad_lines,
                explain=options.explain,
                keep_originals=out is not None,
                timeout=stall,
                on_progress=self.progress,
            )
        with progress:
            n_cmp = write_outputs(graded.scored, comparison=report, out=out, timeout=stall, on_progress=self.progress)
        summary = graded.summary
        result: dict[str, Any] = {
            "archive": str(_uri(job.path)),
            "layout": graded.layout,
            "scorer": options.scorer,
            "engine": "ray",
            "metadata": str(options.metadata_path) if options.metadata_path is not None else None,
            "split": options.split if options.metadata_path is not None else None,
            "input_rows": graded.input_rows,
            "skipped_lines": graded.skipped,
            **summary,
            "comparison": {"path": str(report), "rows": n_cmp},
            "out": str(out) if out is not None else None,
        }
        return ArchiveRecord(
            path=str(job.path),
            benchmark="gaia",
            model=job.model,
            dataset=job.dataset,
            variant=options.scorer,
            rows=graded.input_rows,
            tasks=summary["tasks"],
            correct=_number(summary["correct"]),
            accuracy=_number(summary["accuracy_weighted"]),
            report=None if report is None else str(report),
            out=None if out is None else str(out),
            detail={"result": result, "graded": graded},
        )


def _uri(path: Path) -> Path | str:
    """The URI a path argument was (``s3://b/k`` arrives as Path ``s3:/b/k``)."""
    import re

    m = re.match(r"^([A-Za-z][A-Za-z0-9+.-]+):/(?!/)(.*)$", str(path))
    if m is None:
        return path
    scheme, rest = m.groups()
    return f"{scheme}:///{rest}" if scheme == "file" else f"{scheme}://{rest}"


# --------------------------------------------------------------------------------------
# Library entry points
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
    out: str | os.PathLike | None = None,
    compare: str | None = None,
    explain: bool = False,
) -> dict[str, Any]:
    """Grade one GAIA archive (file, workspace folder or Parquet dataset) in one streaming
    pass and return its summary (``input_rows``, ``layout``, ``tasks``, ``correct``,
    ``accuracy_weighted``, ``levels``, ``status_counts``, ...): a plan of one job through
    :func:`grade_job`. ``metadata`` is a frame from
    :func:`gaia_fast.datasets.gaia.load_metadata`. Writes ``answer_comparison.csv`` to
    ``comparison`` and every row and column to ``out`` when given (both atomically);
    ``compare`` adds a second scorer's summary and the number of rows the two decide
    differently (``disagreements``); ``explain`` adds the ``reason`` column to ``out``.
    Raises :class:`gaia_fast.io.readers.InputError` (bad input) or ``ValueError`` (no truth)."""
    options = GradeOptions(
        metadata=metadata,
        scorer=scorer,
        prediction_col=prediction_col,
        truth_col=truth_col,
        id_col=id_col,
        level_col=level_col,
        skip_bad_lines=skip_bad_lines,
        chunk_rows=chunk_rows,
        compare=compare,
        explain=explain,
        limit=1,
    )
    job = Job(Path(path), "gaia", None, Path(path).stem)
    record = grade_job(job, options, None if comparison is None else Path(comparison), None if out is None else Path(out), raise_errors=True)
    detail = record.detail
    result, outcome, scan = detail["result"], detail["outcome"], detail["scan"]
    for s in scan.skipped:
        log.warning("%s: skipped %s", path, s)
    return {
        **result,
        "skipped_lines": len(scan.skipped),
        "duplicates": outcome.duplicates,
        "truth_differs": outcome.differ,
        "compare": None if compare is None else {"scorer": compare, **(outcome.compare_summary or {})},
        "disagreements": outcome.diff_total if compare is not None else None,
    }


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
    options: GradeOptions | None = None,
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
    finishes. ``as_of`` (a date) replaces ``variant``: each VLMEvalKit file gets the variant
    its benchmark's date table gives for that day (:func:`gaia_fast.benchmarks.variant_on`).
    ``options`` (a :class:`GradeOptions`) replaces all of the grading keywords."""
    if options is None:
        options = GradeOptions(
            metadata=metadata,
            scorer=scorer,
            variant=variant,
            as_of=as_of,
            seed=seed,
            prediction_col=prediction_col,
            truth_col=truth_col,
            id_col=id_col,
            level_col=level_col,
            skip_bad_lines=skip_bad_lines,
            chunk_rows=chunk_rows,
            compare=compare,
            explain=explain,
            judges=judges or {},
            judge_options=judge_options or {},
            limit=1,
        )
    outs = out_paths(plan, out_dir) if out_dir is not None else [None] * len(plan.jobs)
    reports = report_paths(plan, report_dir)
    return LocalExecutor(jobs).run(plan, options, reports, outs, on_done=on_done)

