"""One GAIA archive graded as one streaming plan.

scan (:func:`gaia_fast.io.readers.scan_archive`) → metadata lookup (the metadata is
small: it is broadcast into an elementwise lookup, no join) → native scoring in batches
(each distinct (prediction, truth, level) of a batch scored once when that pays) → sinks:
``--out`` and the rows of ``answer_comparison.csv`` are written by the streaming engine,
and the summary, status counts and explain/compare rows come from small aggregates of
the same pass. ``answer_comparison.csv`` is sorted by task id: the pass writes its rows
with their task-id range (bounds chosen from a sample read before it), they are split by
range and each range is sorted in memory (one range when they fit a memory budget), so
memory is bounded by the engine's chunk and that budget, not by the archive.

Every output is written to a temporary file beside it and moved into place only when the
whole grade succeeded: an interrupted or failed grade leaves the old file or none.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median_high
from typing import Any

import polars as pl

from gaia_fast.grading import audit
from gaia_fast.grading.summary import (
    _status_dtype,
    fold_statuses,
    status_groups,
    summary_from_groups,
)
from gaia_fast.io.readers import LEVEL_LOST, QUESTION, VERDICT, ArchiveScan, InputError
from gaia_fast.io.writers import (
    COMPARISON_COLUMNS,
    comparison_exprs,
    sink_table,
    table_format,
)

__all__ = ["GradeOutcome", "grade_scan", "score_expr"]

#: Bytes of comparison rows sorted in memory at once (larger comparisons are sorted in
#: range partitions of about this size).
SORT_BUDGET = 192 << 20

#: Rows whose (prediction, truth, level) a batch scores as distinct pairs only when
#: the share of distinct pairs is below this.
DEDUPE_BELOW = 0.5

#: ``auto`` times this many batches each way before it chooses, and times the way it
#: did not choose again once every :data:`_REPROBE` batches (archives change as they go).
_PROBES = 2
_REPROBE = 32


@dataclass
class Dedupe:
    """Per-batch dedupe: ``mode`` is ``"auto"``, ``"on"`` or ``"off"``. ``auto`` scores
    batches both ways while it probes (each distinct (prediction, truth, level) once and
    broadcast, or every row) and then goes the way that took less time per row; scoring
    is so fast that finding the distinct pairs often costs more than it saves. Whatever
    the mode, a batch whose pairs are mostly distinct is scored row by row. Counts what
    it did, for the benchmark."""

    mode: str = "auto"
    batches: int = 0
    deduped: int = 0
    rows: int = 0
    scored: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _cost: dict = field(default_factory=lambda: {True: [], False: []}, repr=False)  # seconds per row, latest last
    _planned: int = 0

    def plan(self) -> bool:
        """Whether the next batch should try dedupe."""
        if self.mode != "auto":
            return self.mode == "on"
        with self._lock:
            self._planned += 1
            best = self._best()
            if best is None:
                return len(self._cost[True]) <= len(self._cost[False])  # alternate, dedupe first
            return not best if self._planned % _REPROBE == 0 else best

    def choice(self) -> bool | None:
        """What ``auto`` goes with now (None while it has not timed both ways)."""
        with self._lock:
            return self._best()

    def _best(self) -> bool | None:
        on, off = self._cost[True], self._cost[False]
        return None if len(on) < _PROBES or len(off) < _PROBES else median_high(on) < median_high(off)

    def record(self, n: int, distinct: int | None, tried: bool = False, seconds: float | None = None) -> None:
        with self._lock:
            self.batches += 1
            self.rows += n
            if distinct is not None and distinct < n * (1.0 if self.mode == "on" else DEDUPE_BELOW):
                self.deduped += 1
                self.scored += distinct
            else:
                self.scored += n
            if seconds is not None and n:
                costs = self._cost[tried]
                costs.append(seconds / n)
                del costs[:-5]


def score_expr(
    prediction: str,
    truth: str,
    scorer: str,
    *,
    level: str | None,
    explain: bool,
    dedupe: Dedupe,
    on_rows: Callable[[int], None] | None = None,
) -> pl.Expr:
    """A struct expression (``score``, ``status``, [``kind``], [``reason``]) scoring a
    batch natively, elementwise (so it streams). Distinct (prediction, truth, level)
    triples are scored once and broadcast when that pays (see :class:`Dedupe`)."""
    from gaia_fast.frame import _input_struct, _score_columns, _struct_dtype

    dtype = _struct_dtype(scorer, explain)

    def score(df: pl.DataFrame) -> pl.DataFrame:
        cols = _score_columns(
            df.get_column("p"),
            df.get_column("t"),
            scorer,
            number_tolerance=None,
            placeholder_is_missing=True,
            explain=explain,
            levels=df.get_column("l") if level is not None else None,
        )
        return pl.DataFrame(list(cols.values()))

    def run(batch: pl.Series) -> pl.Series:
        t_all = time.perf_counter()
        df = batch.struct.unnest()
        n = df.height
        distinct = None
        out = None
        timed = n >= 2048 and dedupe.mode == "auto"
        tried = (n >= 2048 or dedupe.mode == "on") and dedupe.plan()
        t0 = time.perf_counter() if timed else 0.0
        if tried:
            uniq = df.unique()
            distinct = uniq.height
            if distinct < n * (1.0 if dedupe.mode == "on" else DEDUPE_BELOW):
                scored = uniq.hstack(score(uniq))
                out = df.join(scored, on=df.columns, how="left", nulls_equal=True, maintain_order="left").drop(df.columns)
        if out is None:
            out = score(df)
        _step_locked("score (summed over batches)", t_all)
        dedupe.record(n, distinct, tried, time.perf_counter() - t0 if timed else None)
        if on_rows is not None:
            on_rows(n)
        return out.select(list(dtype.to_schema())).to_struct("s").cast(dtype)

    return _input_struct(prediction, truth, level).map_batches(run, return_dtype=dtype, is_elementwise=True)


@dataclass
class GradeOutcome:
    """What one grade produced (everything the command prints)."""

    input_rows: int
    summary: dict[str, Any]
    compare_summary: dict[str, Any] | None
    groups: pl.DataFrame
    comparison_rows: int
    differ: int
    level_lost: int
    duplicates: int
    duplicate_examples: list[str]
    wrong: pl.DataFrame | None
    wrong_total: int
    diff: pl.DataFrame | None
    diff_total: int
    dedupe: Dedupe
    #: The audits (see :func:`grade_scan`): join, templates, conflicts, verdict, duplicates.
    audit: dict[str, Any] = field(default_factory=dict)


#: Hidden column: the metadata's truth, beside an archive truth (the conflict audit).
META_TRUTH = "__gaia_fast_meta_truth"
#: Hidden columns of the audits and the rerun policy.
RAW_PREDICTION = "__gaia_fast_raw_prediction"
JOINED_BY = "__gaia_fast_joined_by"
ROW = "__gaia_fast_row"


def _with_metadata(
    lf: pl.LazyFrame, meta: pl.DataFrame, *, truth_side: str = "metadata", fallback_truth: bool = False
) -> tuple[pl.LazyFrame, pl.Expr | None, int]:
    """Truth and level from the metadata (the rules of ``join_metadata``) as an
    elementwise lookup, plus the metadata tasks with no row in the archive appended in
    metadata order. Returns the frame, the expression counting rows whose own truth
    differs from the metadata's, and the number of rows appended.

    ``truth_side="archive"``: a row that carries its own truth is graded against it (the
    metadata's fills in where it has none). ``fallback_truth``: a row without a task id
    (an archive joined on its questions, where this row's question matched no task) is
    graded against its own truth instead of counting as an unknown task. Where the
    archive has a truth, the metadata's is kept in the hidden :data:`META_TRUTH`."""
    meta = meta.unique("task_id", keep="first", maintain_order=True)
    schema = lf.collect_schema()
    if "truth" in schema:
        lf = lf.rename({"truth": "archive_truth"})
    if "level" in schema:
        lf = lf.rename({"level": "archive_level"})
    ids = meta.get_column("task_id")
    known = pl.col("task_id").is_in(ids.implode()).fill_null(False)
    truth = pl.col("task_id").replace_strict(ids, meta.get_column("truth"), default=None, return_dtype=pl.String)
    mlevel = pl.col("task_id").replace_strict(ids, meta.get_column("level").cast(pl.Int64), default=None, return_dtype=pl.Int64)
    level = pl.coalesce(mlevel, pl.col("archive_level")) if "level" in schema else mlevel
    has_truth = "truth" in schema
    own = pl.col("archive_truth") if has_truth else None
    used = truth
    if has_truth and truth_side == "archive":
        used = pl.coalesce(own, truth)
    unknown = ~known
    if has_truth and fallback_truth:
        # Joined on questions: an unmatched row is graded against the truth it carries.
        orphan = pl.col("task_id").is_null() & own.is_not_null()
        used = pl.when(orphan).then(own).otherwise(used)
        unknown = unknown & ~orphan
    cols = [
        used.alias("truth"),
        level.alias("level"),
        pl.when(unknown).then(pl.lit("unknown_task")).otherwise(pl.col("input_status")).alias("input_status"),
        pl.when(unknown)
        .then(pl.lit("question matches no metadata task" if fallback_truth else "task id not in the metadata"))
        .otherwise(pl.col("input_reason"))
        .alias("input_reason"),
    ]
    if has_truth:
        cols.append(truth.alias(META_TRUTH))
    lf = lf.with_columns(cols)
    front = ["task_id", "prediction", "truth", "level", "input_status", "input_reason"]
    names = lf.collect_schema().names()
    lf = lf.select(front + [c for c in names if c not in front])
    # One small pass over the task ids: which metadata tasks have a row.
    found = lf.select(pl.col("task_id")).filter(known).unique().collect(engine="streaming").get_column("task_id")
    missing = meta.filter(~pl.col("task_id").is_in(found.implode())).select(
        pl.col("task_id"),
        pl.lit(None, pl.String).alias("prediction"),
        pl.col("truth"),
        pl.col("level").cast(pl.Int64).alias("level"),
        pl.lit("missing").alias("input_status"),
        pl.lit("no row for this task in the archive").alias("input_reason"),
    )
    if missing.height:
        lf = pl.concat([lf, missing.lazy()], how="diagonal_relaxed")
    differ = None
    if has_truth:
        differ = _conflict().sum()
    return lf, differ, missing.height


def _conflict() -> pl.Expr:
    """Rows whose own truth differs from the metadata's (both present)."""
    a, m = pl.col("archive_truth"), pl.col(META_TRUTH)
    return (a.is_not_null() & m.is_not_null() & (a != m)).fill_null(False)


def _scored(lf: pl.LazyFrame, scorer: str, explain: bool, dedupe: Dedupe, on_rows, prefix: str) -> pl.LazyFrame:
    schema = lf.collect_schema()
    level = "level" if "level" in schema else None
    s = score_expr("prediction", "truth", scorer, level=level, explain=explain, dedupe=dedupe, on_rows=on_rows)
    tmp = f"__gaia_fast_{prefix}scored"
    struct = pl.col(tmp)
    from gaia_fast.frame import _struct_dtype

    fields = _struct_dtype(scorer, explain).to_schema()
    score_dtype = fields["score"]
    folded = fold_statuses(
        struct.struct.field("score"),
        struct.struct.field("status"),
        struct.struct.field("kind") if "kind" in fields else None,
        struct.struct.field("reason") if "reason" in fields else pl.lit(None, pl.String),
        pl.col("input_status") if "input_status" in schema else pl.lit(None, pl.String),
        pl.col("input_reason") if "input_reason" in schema else pl.lit(None, pl.String),
        score_dtype=score_dtype,
        status_dtype=_status_dtype(pl.Categorical()),
        prefix=prefix,
    )
    names = [e.meta.output_name() for e in folded]
    keep = [c for c in schema.names() if c not in names]
    return lf.with_columns(s.alias(tmp)).select(*keep, *folded)


def _wrong() -> pl.Expr:
    return pl.col("status").cast(pl.String).is_in(["ok", "no_prediction", "missing", "bad_type", "read_error"]) & ~(
        pl.col("score").cast(pl.Float64).fill_null(0.0) >= 1.0
    )


def _differ_expr() -> pl.Expr:
    a = pl.col("score").cast(pl.Float64)
    b = pl.col("compare_score").cast(pl.Float64)
    return (a != b).fill_null(a.is_null() != b.is_null())


class _Temps:
    """A hidden work folder beside each output (same file system, so finished files move
    into place with one rename); removed with whatever is left in it. Writers that
    outlive an interrupt cannot leave a file behind: their folder is gone."""

    def __init__(self) -> None:
        self.dirs: dict[Path, str] = {}
        # Last resort: an interrupt that lands between two statements of the cleanup
        # still ends the process through the interpreter's exit handlers.
        atexit.register(self._at_exit)

    def _at_exit(self) -> None:
        for d in list(self.dirs.values()):
            shutil.rmtree(d, ignore_errors=True)

    def _dir(self, folder: Path, dest: Path) -> str:
        key = folder.resolve()
        if key not in self.dirs:
            try:
                self.dirs[key] = tempfile.mkdtemp(prefix=".gaia-fast.", dir=folder)
            except OSError as e:
                why = f"folder {folder} does not exist" if not folder.exists() else (e.strerror or str(e))
                raise OSError(e.errno, why, str(dest)) from None
        return self.dirs[key]

    def beside(self, dest: Path) -> str:
        folder = dest.parent if str(dest.parent) else Path(".")
        return os.path.join(self._dir(folder, dest), dest.name)

    def scratch(self, near: Path) -> str:
        folder = near.parent if str(near.parent) else Path(".")
        d = os.path.join(self._dir(folder, near), "sort")
        os.mkdir(d)
        return d

    def cleanup(self) -> None:
        # Ctrl-C can arrive twice (once through the engine, once as Python's pending
        # signal): a second interrupt must not stop the cleanup half-way.
        interrupt: BaseException | None = None
        for _ in range(5):
            try:
                while self.dirs:
                    key = next(iter(self.dirs))
                    _remove_tree(self.dirs[key])
                    del self.dirs[key]
                break
            except KeyboardInterrupt as e:
                interrupt = e
        atexit.unregister(self._at_exit)
        if interrupt is not None:
            raise interrupt


#: How long a cleanup waits for the engine's writers to let go of an interrupted run's
#: files (they can outlive the interrupt by a few milliseconds).
_CLEANUP_WAIT = 5.0


def _remove_tree(path: str) -> None:
    deadline = time.monotonic() + _CLEANUP_WAIT
    while True:
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.exists(path) or time.monotonic() > deadline:
            return
        time.sleep(0.05)


def _umask() -> int:
    old = os.umask(0)
    os.umask(old)
    return old


def _publish(tmp: str, dest: Path) -> None:
    os.chmod(tmp, 0o666 & ~_umask())
    try:
        os.replace(tmp, dest)
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(dest)) from None


class _Runs:
    """Duplicated task ids found in sorted ids fed chunk by chunk, in order: equal ids
    are neighbours, and a run may continue from one chunk into the next."""

    def __init__(self) -> None:
        self.count = 0
        self.first: list[str] = []
        self._tail: pl.Series | None = None  # the last id fed (one element)
        self._tail_counted = False  # its run is already counted

    def feed(self, ids: pl.Series) -> None:
        if not len(ids):
            return
        ext = ids if self._tail is None else pl.concat([self._tail, ids.rename(self._tail.name)])
        t = pl.col("t")
        first_of_run = t.is_not_null() & (t == t.shift(-1)).fill_null(False) & (t != t.shift(1)).fill_null(True)
        dups = ext.to_frame("t").with_row_index("i").filter(first_of_run)
        if self._tail is not None and self._tail_counted and dups.height and dups.item(0, "i") == 0:
            dups = dups.slice(1)  # the run carried over from the last chunk, counted there
        self.count += dups.height
        if len(self.first) < 5:
            self.first.extend(dups.get_column("t").head(5 - len(self.first)).to_list())
        self._tail = ext.tail(1)
        self._tail_counted = len(ext) >= 2 and ext[-1] is not None and ext[-1] == ext[-2]

    def add(self, count: int, first: list[str], last: str | None) -> None:
        """Runs counted elsewhere in rows whose ids all sort after every id fed so far
        (a range partition of its own, so no run continues into them or out of them):
        ``count`` duplicated ids, the ``first`` of them, and the rows' last id."""
        self.count += count
        self.first.extend(first[: max(0, 5 - len(self.first))])
        self._tail = pl.Series("t", [last], dtype=pl.String)
        self._tail_counted = False


#: Rows read at once when a comparison file is checked or copied in order.
_BATCH_ROWS = 1 << 18

#: Range partitions written by one pass at most (each open partition holds a buffer);
#: larger comparisons are split again. (At 32, a 50M-row comparison, 33 budgets, came
#: out as 32 ranges each a tenth over the budget, and the sort's peak grew with them.)
_FANOUT = 64


def _is_sorted(scan: pl.LazyFrame) -> bool:
    """Whether the task ids of ``scan`` are already sorted (nulls last). Reads the ids
    batch by batch and stops at the first batch out of order."""
    last: Any = _NOTHING
    for b in scan.select("task_id").collect_batches(chunk_size=_BATCH_ROWS):
        ids = b.get_column("task_id")
        if not len(ids):
            continue
        if not ids.is_sorted(nulls_last=True):
            return False
        first = ids[0]
        if last is not _NOTHING and last is not None and first is not None and first < last:
            return False
        if last is None and first is not None:
            return False
        last = ids[-1]
    return True


_NOTHING = object()

#: Seconds spent in each step of the grades of this process (for the benchmark's
#: profile, ``GAIA_FAST_PROFILE``); wall time, summed over the calls.
PROFILE: dict[str, float] = {}


def _step(name: str, since: float) -> None:
    PROFILE[name] = PROFILE.get(name, 0.0) + time.perf_counter() - since


_PROFILE_LOCK = threading.Lock()


def _step_locked(name: str, since: float) -> None:
    with _PROFILE_LOCK:
        _step(name, since)


class _ComparisonOut:
    """The open comparison file: the header, then rows written natively as CSV lines,
    every task id counted by :class:`_Runs` so duplicates are found in the written
    order."""

    def __init__(self, fh, columns: tuple[str, ...] = COMPARISON_COLUMNS) -> None:
        from gaia_fast import _native

        self.fh = fh
        self.columns = list(columns)
        self.check = [c not in ("level", "match") for c in columns]
        self.runs = _Runs()
        # One line buffer for every range: its memory is kept from range to range
        # (fresh memory costs a page fault per 4 KiB).
        self.lines = _native.CsvRows()
        fh.write(",".join(columns).encode() + b"\r\n")

    def write(self, rows: pl.DataFrame) -> None:
        """Rows already in order."""
        self.runs.feed(rows.get_column("task_id"))
        self.lines.clear()
        self.lines.add([rows.get_column(c) for c in self.columns], self.check)
        self.lines.write(self.fh, sort=False)

    def write_sorting(self, batches, rows: int = 0) -> None:
        """The rows of one range partition (its ids all after those written before:
        ranges are cut by task-id bounds), batch by batch in any order, written in
        task-id order (stable, nulls last): each line is built as its batch comes (the
        columns read front to back), then the ids are sorted natively and the lines
        copied out in that order; the sort also finds the duplicated ids. ``rows``: how
        many to expect (room is made for them at once), 0 when not known."""
        lines = self.lines
        lines.clear()
        lines.reserve(rows)
        t = time.perf_counter()
        for batch in batches:
            lines.add([batch.get_column(c) for c in self.columns], self.check)
        _step("comparison: build lines", t)
        t = time.perf_counter()
        self.runs.add(*lines.write(self.fh))
        took = time.perf_counter() - t
        PROFILE["comparison: ordering (native sort)"] = PROFILE.get("comparison: ordering (native sort)", 0.0) + lines.sort_seconds
        PROFILE["comparison: write lines"] = PROFILE.get("comparison: write lines", 0.0) + took - lines.sort_seconds


def _bucket_expr(bounds: list[str]) -> pl.Expr:
    """The range partition of each row's task id: ``i`` for ``bounds[i-1] <= id <
    bounds[i]`` (0 below the first bound, ``len(bounds)`` from the last), and
    ``len(bounds) + 1`` for a null id. A binary search per row, batch by batch."""
    edges = pl.Series(bounds, dtype=pl.String)
    null_bucket = len(bounds) + 1

    def bucket(ids: pl.Series) -> pl.Series:
        pos = edges.search_sorted(ids.fill_null(""), side="right").cast(pl.UInt32)
        return pl.select(pl.when(ids.is_null()).then(pl.lit(null_bucket, pl.UInt32)).otherwise(pos)).to_series()

    return pl.col("task_id").cast(pl.String).map_batches(bucket, return_dtype=pl.UInt32, is_elementwise=True)


def _bounds_of(sample: pl.Series, parts: int) -> list[str]:
    """``parts - 1`` range bounds at the quantiles of a sample of task ids."""
    sample = sample.drop_nulls().sort()
    if not len(sample):
        return []
    qs = [sample[min(len(sample) - 1, (i * len(sample)) // parts)] for i in range(1, parts)]
    return sorted(set(qs))


def _sample_bounds(scan: pl.LazyFrame, rows: int, parts: int) -> list[str]:
    step = max(1, rows // (parts * 2000))
    return _bounds_of(scan.select(pl.col("task_id")).gather_every(step).collect(engine="streaming").get_column("task_id"), parts)


def _parquet_size(files: list[str]) -> tuple[int, int]:
    """(rows, estimated bytes held as lines) of the comparison rows in Parquet files: the
    row counts from the footers, the bytes from the text of each file's first rows (the
    encoded sizes say little: repeated answers are stored once per row group)."""
    import pyarrow.parquet as pq

    rows = size = 0
    for f in files:
        n = pq.read_metadata(f).num_rows
        if not n:
            continue
        rows += n
        size += int(_line_bytes(pl.scan_parquet(f).head(_SIZE_SAMPLE)) * n)
    return rows, size


def _line_bytes(sample: pl.LazyFrame | pl.DataFrame) -> float:
    """Bytes one comparison row takes held as a line, the mean over ``sample``'s rows (text
    columns, ``task_id`` among them): its text, its task id again (the sort key) and
    :data:`_ROW_OVERHEAD`. The range planner and the readers of the ranges both estimate with
    it, so a range planned within the budget is read as within it."""
    text = pl.sum_horizontal(pl.all().str.len_bytes().fill_null(0)) + pl.col("task_id").str.len_bytes().fill_null(0)
    mean = sample.lazy().select(text.mean()).collect().item()
    return (mean or 0.0) + _ROW_OVERHEAD


#: Rows of each file read to estimate the bytes of its rows as lines.
_SIZE_SAMPLE = 1024

#: Bytes each held row costs beyond its text and key: the line's and the key's ends, its
#: place in the sort, the separators (and, for the planner's sample of the archive, the
#: short level and match fields).
_ROW_OVERHEAD = 48


#: Rows of the archive read (spread over it) to choose the range partitions of the
#: comparison before the pass.
_SAMPLE_ROWS = 1 << 15


def _plan_partitions(scan: ArchiveScan, budget: int, ids_only: bool = False) -> list[str] | None:
    """Range bounds that split the comparison rows into partitions of about ``budget``
    bytes, chosen before the pass from a sample of the archive (for a table whose row
    count is known, slices spread across it; else the first lines of the file), or None
    when the comparison fits the budget or no sample can be read cheaply. Bounds only
    decide the balance: a partition that comes out too large is split again. ``ids_only``:
    the rows are the task ids alone."""
    try:
        if scan.rows is not None:
            rows = scan.rows
            if rows * 48 <= budget:
                return None
            cols = [c for c in (("task_id",) if ids_only else ("task_id", "prediction", "truth")) if c in scan.frame.collect_schema()]
            pieces = 64  # 64 queries (one query of the 64 slices read far more: 3.1 against 0.4 CPU s at 10M rows)
            take = max(1, min(_SAMPLE_ROWS // pieces, rows // pieces))
            sel = scan.frame.select(cols)
            sample = pl.concat([sel.slice((i * rows) // pieces, take).collect() for i in range(pieces)])
            if not sample.height:
                return None
            est = int(_line_bytes(sample) * rows)
            ids = sample.get_column("task_id")
        else:
            if scan.bytes <= budget:
                return None
            est = scan.bytes  # the comparison rows are about the text of the archive (ids alone: less)
            ids = _head_ids(scan)
            if ids is None:
                return None
    except Exception:  # noqa: BLE001 (a sample that cannot be read: the pass reports it)
        return None
    # Aimed an eighth under the budget: bounds from a sample come out a few per cent off
    # even, and a range read as over the budget is written apart and split again.
    parts = min(-(-est // (budget - budget // 8)), _FANOUT)
    if parts <= 1:
        return None
    bounds = _bounds_of(ids, parts)
    return bounds or None


def _head_ids(scan: ArchiveScan) -> pl.Series | None:
    """Task ids of the first lines of a JSONL or CSV/TSV archive, read on the side (the
    archive's own reader reports bad lines once, in the pass)."""
    import json

    col = scan.layout.task_id
    if col is None or len(scan.files) != 1:
        return None
    path = scan.files[0]
    with open(path, "rb") as fh:
        head = fh.read(4 << 20)
    cut = head.rfind(b"\n")
    if cut <= 0:
        return None
    head = head[: cut + 1]
    name = str(path).lower()
    if name.endswith((".jsonl", ".ndjson")) or head.lstrip()[:1] == b"{":
        ids = []
        for line in head.splitlines():
            try:
                v = json.loads(line).get(col)
            except Exception:  # noqa: BLE001
                continue
            ids.append(None if v is None else str(v))
        return pl.Series("task_id", ids, dtype=pl.String)
    sep = "\t" if name.endswith(".tsv") else ","
    df = pl.read_csv(head, separator=sep, columns=[col], infer_schema=False, truncate_ragged_lines=True)
    return df.get_column(col).cast(pl.String)


def _emit_part(files: list[str], out: _ComparisonOut, budget: int, scratch: str, depth: int) -> None:
    """One range partition (or the whole comparison) in order: held as lines and ordered
    when it fits ``budget``, else split again."""
    rows, size = _parquet_size(files)
    if not rows:
        return
    if size > budget:
        _emit_sorted(files, out, size, rows, budget, scratch, depth)
        return
    _write_range(pl.scan_parquet(files), out, rows)


def _copy_in_order(rows: pl.LazyFrame, out: _ComparisonOut) -> None:
    """``rows``, already in task-id order, written batch by batch."""
    t = time.perf_counter()
    for b in rows.collect_batches(chunk_size=_BATCH_ROWS):
        out.write(b)
    _step("comparison: copy rows in order", t)


def _write_range(rows: pl.LazyFrame, out: _ComparisonOut, n: int = 0) -> None:
    """``rows`` (``n`` of them when known), small enough to hold as lines, written in
    task-id order."""
    out.write_sorting(rows.collect_batches(chunk_size=_BATCH_ROWS), n)


def _emit_sorted(
    files: list[str], out: _ComparisonOut, est_bytes: int, rows: int, budget: int, scratch: str, depth: int = 0
) -> None:
    """Write the comparison rows held in the Parquet ``files`` (in archive order), larger
    than ``budget``, sorted by task id, stable, nulls last. Rows already in order are
    copied batch by batch; else they are split into range partitions in one pass, each
    handled by :func:`_emit_part` in order (a partition that cannot be split, one heavy
    id range, is sorted in memory)."""
    scan = pl.scan_parquet(files)
    t = time.perf_counter()
    in_order = _is_sorted(scan)
    _step("comparison: check order", t)
    if in_order:
        _copy_in_order(scan, out)
        return
    parts = min(max(1, -(-est_bytes // budget)), _FANOUT)
    bounds = _sample_bounds(scan, rows, parts) if parts > 1 and depth < 6 else []
    if not bounds:
        _write_range(scan, out, rows)
        return
    where = os.path.join(scratch, f"d{depth}")
    shutil.rmtree(where, ignore_errors=True)
    _split(scan.with_columns(_bucket_expr(bounds).alias(_PART_KEY)), where, len(bounds) + 2)
    for sub in _partition_files(where, bounds):
        n, size = _parquet_size(sub)
        if n >= rows:  # no progress (one heavy id range): do not split it again
            _write_range(pl.scan_parquet(sub), out, n)
        else:
            _emit_part(sub, out, budget, where, depth + 1)
        shutil.rmtree(os.path.dirname(sub[0]), ignore_errors=True)


_PART_KEY = "__gaia_fast_part"

#: Rows held in row groups being built while rows are split by range: each open range
#: holds one, so a split into many ranges gets smaller row groups (the memory a 50M-row
#: split held grew with the number of ranges; smaller groups cost some CPU, so a split
#: into a few ranges keeps large ones).
_SPLIT_ROWS_HELD = 1 << 18


#: Rows of one file of a range's split: an open file keeps every row group's footer entry
#: in memory until it is closed, which grew with the archive (200M rows: the split climbed
#: from 0.5 to 1.26 GiB); files of this many rows each keep it flat (their names sort in
#: the order they were written).
_SPLIT_FILE_ROWS = 1 << 18


#: At most this many ranges (the null-id range included) are read straight from the pass's
#: file, one filtered scan each, instead of being split into files of their own first: each
#: scan decodes only the range column and its own rows' text, which costs less than
#: writing and reading every row once more (10M distinct ids: 7 ranges).
_SCAN_RANGES = 10


def _range_scans(file: str, parts: int) -> tuple[list[tuple[pl.LazyFrame, int]], float]:
    """Each range of the pass's comparison rows as a filtered scan of ``file`` (rows in
    archive order) with its row count, in range order; and the bytes a row takes as a line
    (:func:`_line_bytes` of the first rows, as :func:`_parquet_size`)."""
    scan = pl.scan_parquet(file)
    counts = dict(scan.group_by(_PART_KEY).len().collect(engine="streaming").iter_rows())
    per_row = _line_bytes(scan.drop(_PART_KEY).head(_SIZE_SAMPLE))
    scan = pl.scan_parquet(file, parallel="prefiltered")
    return [(scan.filter(pl.col(_PART_KEY) == k).drop(_PART_KEY), int(counts.get(k, 0))) for k in range(parts)], per_row


def _sorted_ranges(
    ranges: list[tuple[pl.LazyFrame, int]], per_row: float, dest_tmp: str, budget: int, scratch: str, columns: tuple[str, ...]
) -> tuple[int, list[str]]:
    """:func:`_sorted_comparison` for ranges read by filtered scans (:func:`_range_scans`):
    a range over ``budget`` (the sample's bounds are only a balance) is written to a file of
    its own and split again, as a split range would be."""
    with open(dest_tmp, "wb") as fh:
        out = _ComparisonOut(fh, columns)
        for k, (rows, n) in enumerate(ranges):
            if not n:
                continue
            if n * per_row <= budget:
                _write_range(rows, out, n)
                continue
            f = os.path.join(scratch, f"range-{k}.parquet")
            rows.sink_parquet(f, compression="lz4", statistics=False)
            _emit_part([f], out, budget, scratch, 1)
            os.remove(f)
    return out.runs.count, out.runs.first


def _split(rows: pl.LazyFrame, where: str, parts: int) -> None:
    """Write ``rows`` (with a ``_PART_KEY`` column, ``parts`` values at most) under
    ``where``, one folder per range, rows of a range in their order."""
    group = max(4096, min(32768, _SPLIT_ROWS_HELD // max(1, parts)))
    t = time.perf_counter()
    rows.sink_parquet(
        pl.PartitionBy(where, key=_PART_KEY, include_key=False, max_rows_per_file=_SPLIT_FILE_ROWS),
        mkdir=True,
        compression="lz4",
        statistics=False,
        row_group_size=group,
    )
    _step("comparison: split by range", t)


def _partition_files(where: str, bounds: list[str]) -> list[list[str]]:
    """The files of each range partition written under ``where``, partitions in order."""
    found = []
    for k in range(len(bounds) + 2):
        folder = os.path.join(where, f"{_PART_KEY}={k}")
        if os.path.isdir(folder):
            sub = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".parquet"))
            if sub:
                found.append(sub)
    return found


def _sorted_comparison(
    parts: list[list[str]], dest_tmp: str, budget: int, scratch: str, columns: tuple[str, ...] = COMPARISON_COLUMNS, in_order: bool = False
) -> tuple[int, list[str]]:
    """Write the comparison rows held in Parquet files (each entry of ``parts`` a range
    partition, in order, its rows in archive order) to ``dest_tmp`` sorted by task id
    (stable, nulls last); memory stays about ``budget`` bytes of rows. Returns (number of
    duplicated task ids, the first few of them in order)."""
    # (Reading and sorting the next range while one is written saves wall time, but
    # two ranges held at once raised the peak by a fifth on a 50M-row archive.)
    with open(dest_tmp, "wb") as fh:
        out = _ComparisonOut(fh, columns)
        if in_order:  # rows known to be in task-id order already
            for files in parts:
                _copy_in_order(pl.scan_parquet(files), out)
            return out.runs.count, out.runs.first
        for files in parts:
            _emit_part(files, out, budget, scratch, 1)
            for f in files:  # the disk a range held is free for the next
                os.remove(f)
    return out.runs.count, out.runs.first


def grade_scan(
    scan: ArchiveScan,
    *,
    meta: pl.DataFrame | None,
    scorer: str,
    compare: str | None,
    explain: bool,
    comparison: Path | None,
    out: Path | None,
    limit: int,
    want_duplicates: bool,
    dedupe: str = "auto",
    progress: Callable[[int], None] | None = None,
    sort_budget: int = SORT_BUDGET,
    duplicates: str = "all",
    truth: str = "metadata",
    strip_template: bool = False,
) -> GradeOutcome:
    """Grade one opened archive in one streaming pass; write ``comparison`` (and ``out``)
    atomically. ``comparison`` None writes none (the task ids are still ordered, with
    nothing else, to find the duplicated ones). Raises :class:`InputError` for bad input found while reading, OSError
    (naming the user's path) when an output cannot be written.

    ``duplicates``: which rows of a task id that occurs more than once are graded
    (:data:`gaia_fast.grading.audit.DUPLICATES`; ``all``, the default, grades every row).
    An archive without reruns is graded in one pass whatever the policy; one with reruns
    and a policy other than ``all`` is graded again with the policy's rows. ``truth``:
    ``metadata`` (default) or ``archive``, the side a row's truth comes from when both
    have one. ``strip_template``: grade the answers as their templates meant
    (:func:`gaia_fast.grading.audit.strip_template`); the audit gives both counts.

    The audits (``outcome.audit``) are computed in the same pass: how rows were joined,
    the truth conflicts, the framework's own verdict against the official rule, and the
    answer templates."""
    if duplicates not in audit.DUPLICATES:
        raise ValueError(f"duplicates: expected one of {', '.join(audit.DUPLICATES)}, got {duplicates!r}")
    if truth not in ("metadata", "archive"):
        raise ValueError(f"truth: expected 'metadata' or 'archive', got {truth!r}")
    kw: dict[str, Any] = {
        "meta": meta, "scorer": scorer, "compare": compare, "explain": explain, "comparison": comparison, "out": out,
        "limit": limit, "dedupe": dedupe, "progress": progress, "sort_budget": sort_budget, "truth": truth,
        "strip_template": strip_template,
    }
    first = _grade_pass(scan, keep=None, want_duplicates=want_duplicates, **kw)
    by_question = first.audit.pop("_rerun_key", "task_id") == QUESTION
    reruns = first.audit.pop("_question_reruns", 0) if by_question else first.duplicates
    first.audit["duplicates"] = {"policy": duplicates, "task_ids": reruns, "rows_not_graded": 0}
    if by_question:
        first.audit["duplicates"]["key"] = "question"
    if duplicates == "all" or not want_duplicates or not reruns:
        return first
    # Reruns: grade again with the policy's rows (the outputs are replaced atomically).
    n_skipped = len(scan.skipped)
    again = _grade_pass(scan, keep=duplicates, want_duplicates=False, **{**kw, "progress": None})  # rows already counted
    del scan.skipped[n_skipped:]  # the second read reports the same skipped lines again
    again.duplicates = first.duplicates
    again.duplicate_examples = first.duplicate_examples
    again.audit.pop("_rerun_key", None)
    again.audit.pop("_question_reruns", None)
    again.audit["duplicates"] = {
        "policy": duplicates,
        "task_ids": reruns,
        "rows_not_graded": first.comparison_rows - again.comparison_rows,
    }
    if by_question:
        again.audit["duplicates"]["key"] = "question"
    return again


def _grade_pass(
    scan: ArchiveScan,
    *,
    meta: pl.DataFrame | None,
    scorer: str,
    compare: str | None,
    explain: bool,
    comparison: Path | None,
    out: Path | None,
    limit: int,
    want_duplicates: bool,
    dedupe: str,
    progress: Callable[[int], None] | None,
    sort_budget: int,
    truth: str,
    strip_template: bool,
    keep: str | None,
) -> GradeOutcome:
    lf = scan.frame
    schema = lf.collect_schema()
    differ_expr = None
    appended = 0
    info: dict[str, Any] = {}
    audit_aggs: list[pl.Expr] = []
    fallback = False
    if meta is not None and scan.layout.task_id is None:
        # No task ids: join on the question text, else grade against the file's truth.
        if QUESTION in schema and "question" in meta.columns and meta.get_column("question").is_not_null().any():
            tid, how = audit.question_join(QUESTION, meta)
            lf = lf.with_columns(tid.alias("task_id"), how.alias(JOINED_BY))
            fallback = "truth" in schema
            audit_aggs += [
                (pl.col(JOINED_BY) == "question").sum().alias("joined_exact"),
                (pl.col(JOINED_BY) == "question-normalised").sum().alias("joined_normalised"),
                (pl.col(JOINED_BY).is_null() & pl.col("task_id").is_null()).sum().alias("joined_none"),
            ]
            info["join"] = {"on": "question", "file_truth_for_unmatched": fallback}
        elif "truth" in schema:
            info["join"] = {"on": None, "graded_against": "the truth the archive carries (no task id, no question to join the metadata on)"}
            meta = None
        else:
            raise InputError(scan.path, "no task id and no question to join with the metadata, and no truth of its own; use --id-col")
    archive_rows = lf  # the archive's rows (ids joined), for the audits' listings after the pass
    if meta is not None:
        n_skipped = len(scan.skipped)
        lf, differ_expr, appended = _with_metadata(lf, meta, truth_side=truth, fallback_truth=fallback)
        del scan.skipped[n_skipped:]  # its look at the task ids read the archive; the pass reports bad lines
    elif "truth" not in schema:
        raise InputError(scan.path, "no truth column")
    if strip_template:
        lf = lf.with_columns(pl.col("prediction").alias(RAW_PREDICTION), audit.strip_template(pl.col("prediction")).alias("prediction"))
    dd = Dedupe(dedupe)
    scored = _scored(lf, scorer, explain, dd, progress, "")
    if compare is not None:
        scored = _scored(scored, compare, explain, Dedupe(dedupe), None, "compare_")
    # Reruns are rows of one task id; in an archive without task ids (and no metadata to
    # give it some), rows of one question.
    key = QUESTION if scan.layout.task_id is None and meta is None and QUESTION in schema else "task_id"
    if key == QUESTION:
        audit_aggs += audit.rerun_counts(QUESTION)
        info["_rerun_key"] = QUESTION
    if keep is not None:
        # The rerun policy's rows (window functions: this pass holds the ids in memory).
        correct = (pl.col("score").cast(pl.Float64) >= 1.0).fill_null(False)
        scored = scored.with_row_index(ROW).filter(audit.keep_expr(keep, ROW, correct, key)).drop(ROW)
    sschema = scored.collect_schema()
    hidden = [c for c in (LEVEL_LOST, QUESTION, VERDICT, META_TRUTH, RAW_PREDICTION, JOINED_BY) if c in sschema]
    visible = scored.drop(hidden) if hidden else scored
    audit_aggs += _audit_aggs(sschema, scorer, strip_template)
    audit_rows = _audit_rows(scored, sschema, limit, strip_template)

    cmp_exprs = comparison_exprs(sschema)
    # Without a comparison file only the task ids are ordered (the duplicated ones are
    # reported), written nowhere.
    cmp_columns = COMPARISON_COLUMNS if comparison is not None else ("task_id",)
    cmp_exprs = [e for e in cmp_exprs if e.meta.output_name() in cmp_columns]
    temps = _Temps()
    try:
        cmp_final = temps.beside(comparison) if comparison is not None else os.devnull
        out_tmp = temps.beside(out) if out is not None else None
        scratch_dir = temps.scratch(comparison if comparison is not None else out if out is not None else Path(tempfile.gettempdir()) / "x")
        cmp_rows_file = os.path.join(scratch_dir, "rows.parquet")

        # The comparison rows are written once in archive order with their task-id
        # range (bounds from a sample read before the pass), then split by range in one
        # read and write of their own, and each range read once to be sorted in memory.
        # (Splitting inside the pass itself costs less CPU but the engine then holds
        # several hundred MB more while the other outputs are written.)
        t = time.perf_counter()
        bounds = _plan_partitions(scan, sort_budget) if comparison is not None else _plan_partitions(scan, sort_budget, ids_only=True)
        _step("plan ranges (sample)", t)
        cmp_rows = visible.select(cmp_exprs)
        if bounds is not None:
            cmp_rows = cmp_rows.with_columns(_bucket_expr(bounds).alias(_PART_KEY))
        # Few ranges: each is read from this file by a filtered scan (no split), so it is kept
        # uncompressed (it is read once per range); many: it is split, lz4 keeps the disk small.
        scanned = bounds is not None and len(bounds) + 2 <= _SCAN_RANGES
        queries: list[Any] = [cmp_rows.sink_parquet(cmp_rows_file, lazy=True, compression="uncompressed" if scanned else "lz4", statistics=False)]
        if out_tmp is not None:
            queries.append(sink_table(visible.drop("input_status", "input_reason", strict=False), out_tmp, table_format(out)))
        # One select of small aggregates straight from the scored rows: (sharing a
        # sub-plan other than ``scored`` between queries makes the engine run the scan
        # and the scorer twice).
        aggs = [pl.len().alias("rows")]
        if differ_expr is not None:
            aggs.append(differ_expr.alias("differ"))
        if LEVEL_LOST in sschema:
            aggs.append(pl.col(LEVEL_LOST).sum().alias("level_lost"))
        aggs += audit_aggs
        queries.append(scored.select(aggs))
        queries.append(status_groups(visible))
        if compare is not None:
            queries.append(status_groups(visible, prefix="compare_"))
        n_fixed = len(queries)
        if explain:
            w = visible.filter(_wrong())
            queries += [w.head(limit) if limit else w, w.select(pl.len())]
        if compare is not None:
            d = visible.filter(_differ_expr())
            queries += [d.head(limit) if limit else d, d.select(pl.len())]
        n_before_audit = len(queries)
        queries += list(audit_rows.values())
        try:
            t_pass = time.perf_counter()
            results = pl.collect_all(queries, engine="streaming")
            _step("pass: read, score, --out, comparison rows", t_pass)
        except InputError:
            raise
        except pl.exceptions.PolarsError as e:
            raise InputError(scan.path, f"cannot read: {str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}") from None
        first = 1 if out_tmp is None else 2
        totals = results[first].row(0, named=True)
        groups = results[first + 1]
        cgroups = results[first + 2] if compare is not None else None
        rest = results[n_fixed:]
        wrong = wrong_total = diff = None
        diff_total = 0
        if explain:
            wrong, wrong_total = rest[0], int(rest[1].item())
            rest = rest[2:]
        if compare is not None:
            diff, diff_total = rest[0], int(rest[1].item())
        listed = dict(zip(audit_rows, results[n_before_audit:]))
        # Listings read the archive again, only when there is something to list (a query
        # of their own in the pass holds ~100 MB more on a 2M-row archive).
        n_skipped = len(scan.skipped)
        if totals.get("template_any"):
            listed["templates"] = _template_rows(archive_rows, limit)
        if totals.get("conflicts"):
            assert meta is not None
            listed["conflicts"] = _conflict_rows(archive_rows, meta, truth)
        del scan.skipped[n_skipped:]  # a re-read reports the pass's skipped lines again
        audit_out = _audit_result(totals, listed, info, scorer)

        graded = sschema["score"].is_float()
        summ = summary_from_groups(groups, graded=graded)
        csumm = summary_from_groups(cgroups, graded=sschema["compare_score"].is_float()) if cgroups is not None else None
        n_rows = int(totals["rows"])
        in_order = False
        if bounds is not None:
            # An archive already in task-id order is copied as it is: no split, no sort.
            # (Out of order, the check stops at its first batch.)
            t = time.perf_counter()
            in_order = _is_sorted(pl.scan_parquet(cmp_rows_file))
            _step("comparison: check order", t)
        ranges = None
        if bounds is None or in_order:
            parts = [[cmp_rows_file]]
        else:
            if scanned:
                ranges = _range_scans(cmp_rows_file, len(bounds) + 2)
            else:
                parts_dir = os.path.join(scratch_dir, "parts")
                _split(pl.scan_parquet(cmp_rows_file), parts_dir, len(bounds) + 2)
                os.remove(cmp_rows_file)
                parts = _partition_files(parts_dir, bounds)
        t = time.perf_counter()
        if ranges is not None:
            dup_count, dup_first = _sorted_ranges(*ranges, cmp_final, sort_budget, scratch_dir, cmp_columns)
        else:
            dup_count, dup_first = _sorted_comparison(parts, cmp_final, sort_budget, scratch_dir, cmp_columns, in_order)
        _step("comparison: after the pass (all)", t)
        if comparison is not None:
            _publish(cmp_final, comparison)
        if out_tmp is not None and out is not None:
            _publish(out_tmp, out)
    finally:
        try:
            temps.cleanup()
        except KeyboardInterrupt:
            temps.cleanup()
            raise
    return GradeOutcome(
        input_rows=summ["rows"] - appended,
        summary=summ,
        compare_summary=csumm,
        groups=groups,
        comparison_rows=n_rows,
        differ=int(totals.get("differ") or 0),
        level_lost=int(totals.get("level_lost") or 0),
        duplicates=dup_count if want_duplicates else 0,
        duplicate_examples=dup_first if want_duplicates else [],
        wrong=wrong,
        wrong_total=int(wrong_total or 0),
        diff=diff,
        diff_total=diff_total,
        dedupe=dd,
        audit=audit_out,
    )


_COUNTED = ["ok", "no_prediction", "missing", "bad_type", "read_error"]
_NO_TEMPLATES = pl.DataFrame(
    schema={"task_id": pl.String, "prediction": pl.String, "stripped": pl.String, **dict.fromkeys(audit.TEMPLATE_KINDS, pl.Boolean)}
)
_NO_CONFLICTS = pl.DataFrame(schema={"task_id": pl.String, "archive_truth": pl.String, "metadata_truth": pl.String, "graded_against": pl.String})


def _official() -> pl.Expr:
    """The official decision of a row, as a bool (graded scorers: a full score)."""
    return (pl.col("score").cast(pl.Float64) >= 1.0).fill_null(False)


def _audit_aggs(sschema: pl.Schema, scorer: str, strip: bool) -> list[pl.Expr]:
    """Counts of the audits, computed in the pass's aggregate select."""
    pred = pl.col(RAW_PREDICTION) if strip else pl.col("prediction")
    out = audit.template_counts(pred)
    counted = pl.col("status").cast(pl.String).is_in(_COUNTED).fill_null(False)
    if strip:
        level = "level" if "level" in sschema else None
        raw = score_expr(RAW_PREDICTION, "truth", scorer, level=level, explain=False, dedupe=Dedupe("off"))
        raw_score = raw.struct.field("score").cast(pl.Float64).fill_null(0.0)
        out.append(pl.when(counted).then(raw_score).otherwise(0.0).sum().alias("correct_as_written"))
        out.append(pl.when(counted).then(pl.col("score").cast(pl.Float64).fill_null(0.0)).otherwise(0.0).sum().alias("correct_stripped"))
    if META_TRUTH in sschema:
        out.append(_conflict().sum().alias("conflicts"))
    if VERDICT in sschema:
        comparable = pl.col(VERDICT).is_not_null() & pl.col("status").cast(pl.String).is_in(["ok", "no_prediction"]).fill_null(False)
        out += [
            pl.col(VERDICT).is_not_null().sum().alias("verdict_rows"),
            (comparable & (pl.col(VERDICT) == _official())).sum().alias("verdict_agree"),
            (comparable & (pl.col(VERDICT) != _official())).sum().alias("verdict_disagree"),
        ]
    return out


def _audit_rows(scored: pl.LazyFrame, sschema: pl.Schema, limit: int, strip: bool) -> dict[str, pl.LazyFrame]:
    """The rows listed from the pass itself: every disagreement with the framework's
    verdict (they need the scores). Templates and conflicts are listed after the pass
    (:func:`_template_rows`, :func:`_conflict_rows`)."""
    out: dict[str, pl.LazyFrame] = {}
    lvl = [pl.col("level")] if "level" in sschema else []
    if VERDICT in sschema:
        comparable = pl.col(VERDICT).is_not_null() & pl.col("status").cast(pl.String).is_in(["ok", "no_prediction"]).fill_null(False)
        out["verdicts"] = scored.filter(comparable & (pl.col(VERDICT) != _official())).select(
            pl.col("task_id"), *lvl, pl.col("prediction"), pl.col("truth"), pl.col(VERDICT).alias("framework"), _official().alias("official")
        )
    return out


def _template_rows(rows: pl.LazyFrame, limit: int) -> pl.DataFrame:
    """The first ``limit`` answers of the archive that carry a template (as written)."""
    pred = pl.col("prediction")
    flags = audit.template_flags(pred)
    t = rows.filter(audit.maybe_template(pred)).filter(pl.any_horizontal(list(flags.values()))).select(
        pl.col("task_id"), pred.alias("prediction"), audit.strip_template(pred).alias("stripped"), *[e.alias(k) for k, e in flags.items()]
    )
    return (t.head(limit) if limit else t).collect(engine="streaming")


def _conflict_rows(rows: pl.LazyFrame, meta: pl.DataFrame, truth_side: str) -> pl.DataFrame:
    """Every archive row whose own truth differs from the metadata's, with the truth it is
    graded against."""
    m = meta.unique("task_id", keep="first", maintain_order=True)
    mt = pl.col("task_id").replace_strict(m.get_column("task_id"), m.get_column("truth"), default=None, return_dtype=pl.String)
    a = pl.col("archive_truth")
    return (
        rows.select(pl.col("task_id"), pl.col("truth").alias("archive_truth"), mt.alias("metadata_truth"))
        .filter((a.is_not_null() & pl.col("metadata_truth").is_not_null() & (a != pl.col("metadata_truth"))).fill_null(False))
        .with_columns((a if truth_side == "archive" else pl.col("metadata_truth")).alias("graded_against"))
        .collect(engine="streaming")
    )


def _audit_result(totals: dict[str, Any], rows: dict[str, pl.DataFrame], info: dict[str, Any], scorer: str) -> dict[str, Any]:
    """The audit part of the outcome: counts and rows (rows as frames)."""
    res: dict[str, Any] = dict(info)
    if "join" in res and "joined_exact" in totals:
        res["join"].update(
            exact=int(totals["joined_exact"] or 0), normalised=int(totals["joined_normalised"] or 0), unmatched=int(totals["joined_none"] or 0)
        )
    if "rerun_keys" in totals:
        res["_question_reruns"] = int(totals["rerun_keys"] or 0)
    res["templates"] = {k: int(totals.get(f"template_{k}") or 0) for k in (*audit.TEMPLATE_KINDS, "any")}
    res["templates"]["rows"] = rows.get("templates", _NO_TEMPLATES)
    if "correct_stripped" in totals:
        res["templates"]["correct_as_written"] = totals["correct_as_written"]
        res["templates"]["correct_stripped"] = totals["correct_stripped"]
    if "conflicts" in totals:
        # Every conflicting row of the archive (reruns a --duplicates policy left out too).
        found = rows.get("conflicts", _NO_CONFLICTS)
        res["conflicts"] = {"count": found.height, "rows": found}
    if "verdict_rows" in totals:
        dis = audit.verdict_rows(rows["verdicts"], scorer)
        res["verdict"] = {
            "rows": int(totals["verdict_rows"] or 0),
            "agree": int(totals["verdict_agree"] or 0),
            "disagree": int(totals["verdict_disagree"] or 0),
            "disagreements": dis,
        }
    return res


class OutputError(ValueError):
    """An output path that must not be written (it is an input, another output, or its
    folder cannot take files)."""


def _same(a: Path, b: Path) -> bool:
    """True when ``a`` and ``b`` name the same file: the same resolved path (symbolic
    links followed), or the same inode (hard links)."""
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


def check_no_overwrite(inputs: list[Path], outputs: dict[str, Path]) -> None:
    """Refuse an output that is one of the ``inputs`` or another output (``outputs``
    maps an option name to its path)."""
    for opt, out in outputs.items():
        for inp in inputs:
            if _same(Path(out), Path(inp)):
                raise OutputError(f"{opt} {out} is the input {inp}: refusing to overwrite an input; choose another path")
    items = list(outputs.items())
    for i, (opt_a, a) in enumerate(items):
        for opt_b, b in items[i + 1 :]:
            if _same(Path(a), Path(b)):
                raise OutputError(f"{opt_a} {a} and {opt_b} {b} are the same file; give them different paths")


def check_outputs_writable(outputs: dict[str, Path]) -> None:
    """Fail before any work when an output's folder does not exist, is not a folder, or
    the output is a folder."""
    for opt, out in outputs.items():
        p = Path(out)
        folder = p.parent if str(p.parent) else Path(".")
        if p.is_dir():
            raise OutputError(f"cannot write {out} ({opt}): it is a folder")
        if not folder.exists():
            raise OutputError(f"cannot write {out} ({opt}): folder {folder} does not exist")
        if not folder.is_dir():
            raise OutputError(f"cannot write {out} ({opt}): {folder} is not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputError(f"cannot write {out} ({opt}): folder {folder} is not writable")
