"""Ray Data: the native scorers on the blocks of a :class:`ray.data.Dataset`, on one
machine or a cluster (``pip install 'gaia-fast[ray]'``).

::

    import ray, gaia_fast.integrations.ray as gfr

    ds = ray.data.read_parquet("s3://bucket/archive/")          # any Ray Data source
    scored = ds.map_batches(gfr.ScoreBatch("gaia", "prediction", "true_answer"), batch_format="pyarrow")
    scored, summary = gfr.grade_dataset(ds, scorer="gaia", prediction="prediction", truth="true_answer", level="level")

:class:`ScoreBatch` takes an Arrow batch and returns it with ``score``, ``status`` (and
``kind`` for ``gaia-graded``, ``reason`` with ``explain=True``) appended; the input
columns are passed on untouched (no copy) and their text reaches the native scorer
through the Arrow C interface without copying. Every row comes back, in order, with the
decision and status :func:`gaia_fast.score_frame` gives it; ``status``/``kind`` are plain
strings here (Categoricals locally), so that blocks from different workers share one
schema.

:func:`grade_dataset` scores a dataset and computes the per-level summary of
:func:`gaia_fast.grading.summary.summary` with Ray aggregates: each block is reduced to
one row per (level, status) and only those rows are grouped across the cluster and
brought to the driver.

:func:`grade_archive_dataset` is the GAIA grade path of ``gaia-fast grade --engine ray``:
the archive readers, the metadata join and the row statuses of the local path, block by
block.

Every wait is bounded: :func:`connect` (``ray.init`` with a deadline) and, in the
functions above, ``timeout`` seconds without a finished block (``STALL_TIMEOUT``, 600 s)
raise :class:`RayTimeout` naming the archive and the phase; ``on_progress`` receives a
:class:`RayProgress` about four times a second.

Ray itself is imported only inside these functions.
"""

from __future__ import annotations

import glob
import logging
import os
import re
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl
import pyarrow as pa

from gaia_fast import _native
from gaia_fast.frame import SCORERS
from gaia_fast.grading.summary import COUNTED

if TYPE_CHECKING:  # pragma: no cover
    import ray.data

__all__ = [
    "CONNECT_TIMEOUT",
    "STALL_TIMEOUT",
    "ArchiveBatch",
    "GradedArchive",
    "RayProgress",
    "RayTimeout",
    "ScoreBatch",
    "connect",
    "grade_archive_dataset",
    "grade_dataset",
    "summarize_dataset",
]

log = logging.getLogger("gaia_fast.integrations.ray")

#: Statuses that count as a task; the others are excluded (see grading/summary.py).
_COUNTED = COUNTED


def _ray():
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        raise ImportError("gaia_fast.integrations.ray needs Ray Data: pip install 'gaia-fast[ray]'") from e
    return ray


def _check_scorer(scorer: str) -> None:
    if scorer not in SCORERS:
        raise ValueError(f"unknown scorer {scorer!r}; expected one of {', '.join(map(repr, SCORERS))}")


def _as_table(batch: Any) -> pa.Table:
    if isinstance(batch, pa.Table):
        return batch
    if isinstance(batch, pa.RecordBatch):
        return pa.Table.from_batches([batch])
    raise TypeError(f"expected a pyarrow Table (use map_batches(..., batch_format='pyarrow')), got {type(batch).__name__}")


def _text(column: pa.ChunkedArray, role: str, name: str) -> pa.ChunkedArray:
    """The column as Arrow text, without copying when it already is text."""
    t = column.type
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return column
    if pa.types.is_null(t):
        return column.cast(pa.string())
    if pa.types.is_dictionary(t) and (pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type)):
        return column.cast(t.value_type)
    raise TypeError(f"{role} column {name!r} is Arrow {t}, not text (Utf8, LargeUtf8, Utf8View or a dictionary of them)")


def _plain(column: Any) -> pa.Array:
    """A native output column as a pyarrow Array; dictionary columns decoded to strings."""
    arr = pa.array(column)
    if pa.types.is_dictionary(arr.type):
        arr = arr.dictionary_decode()
    return arr


class ScoreBatch:
    """A batch function for ``Dataset.map_batches(fn, batch_format="pyarrow")``.

    Appends ``{prefix}score`` (Boolean, or Float64 for ``gaia-graded``), ``{prefix}status``
    (unless ``status=False``), ``{prefix}kind`` (``gaia-graded``) and ``{prefix}reason``
    (``explain=True``) to each Arrow batch; an existing column of that name is replaced,
    as :func:`gaia_fast.score_frame` does. ``level`` names an integer level column (used by
    the graded scorer). A prediction/truth column that is not text raises ``TypeError``
    naming it, as :func:`gaia_fast.score_batch` does.
    """

    def __init__(
        self,
        scorer: str = "gaia",
        prediction: str = "prediction",
        truth: str = "truth",
        *,
        level: str | None = None,
        explain: bool = False,
        status: bool = True,
        number_tolerance: float | None = None,
        placeholder_is_missing: bool = True,
        prefix: str = "",
    ) -> None:
        _check_scorer(scorer)
        self.scorer = scorer
        self.prediction = prediction
        self.truth = truth
        self.level = level
        self.explain = explain
        self.status = status
        self.number_tolerance = number_tolerance
        self.placeholder_is_missing = placeholder_is_missing
        self.prefix = prefix

    def __call__(self, batch: Any) -> pa.Table:
        table = _as_table(batch)
        names = table.column_names
        for role, col in (("prediction", self.prediction), ("truth", self.truth), ("level", self.level)):
            if col is not None and col not in names:
                raise KeyError(f"{role} column {col!r} not in the batch (columns: {', '.join(names)})")
        pred = _text(table.column(self.prediction), "prediction", self.prediction)
        truth = _text(table.column(self.truth), "truth", self.truth)
        levels = None
        if self.level is not None:
            lv = table.column(self.level)
            levels = lv if lv.type == pa.int64() else lv.cast(pa.int64())
        score_only = not (self.status or self.explain or self.scorer == "gaia-graded")
        out = _native.score_arrow(
            pred, truth, self.scorer, self.number_tolerance, self.placeholder_is_missing, self.explain, levels, score_only
        )
        for name, col in out.items():
            if name == "status" and not self.status:
                continue
            target = self.prefix + name
            arr = _plain(col)
            i = table.schema.get_field_index(target)
            table = table.set_column(i, target, arr) if i >= 0 else table.append_column(target, arr)
        return table


# --------------------------------------------------------------------------- bounded waits

#: Default bound, in seconds, on a wait with no progress: no batch finished, no task
#: returned. A run that keeps finishing batches is never stopped by it.
STALL_TIMEOUT = 600.0
#: Default bound, in seconds, on connecting to a cluster (or starting a local instance).
CONNECT_TIMEOUT = 60.0
#: How often the driver looks at the progress counts (seconds).
_POLL = 0.25


class RayTimeout(TimeoutError):
    """A Ray wait went past its bound: no answer from the cluster, or no progress (a task
    that does not finish). The message names the address or the archive and the phase."""


@dataclass(frozen=True)
class RayProgress:
    """What a run is doing, for a progress display (``on_progress`` callbacks): ``phase``
    (``reading``, ``scoring``, ``summarising``, ``writing``), ``done`` of ``total`` (None
    when unknown) ``unit`` (``rows`` or ``files``), ``elapsed`` seconds in the phase."""

    phase: str
    done: int
    total: int | None
    unit: str
    elapsed: float


class _Watch:
    """Runs each blocking Ray call of a run in a thread and waits for it while it makes
    progress; after ``timeout`` seconds without progress it raises :class:`RayTimeout`
    naming ``what`` and the phase. Progress is what reaches the driver: finished blocks
    (:meth:`materialize`), finished file tasks, written batches (:meth:`tick`)."""

    def __init__(self, ray: Any, what: str, timeout: float | None, on_progress: Any = None) -> None:
        self.ray, self.what, self.timeout, self.on_progress = ray, what, timeout, on_progress
        self.local: dict[str, int] = {}
        self._lock = threading.Lock()
        # Set when a wait timed out: the abandoned call stops at its next tick, so a block
        # that arrives late cannot publish an output the caller was told had failed.
        self.cancelled = threading.Event()

    def tick(self, stage: str, n: int = 1) -> None:
        self.check()
        with self._lock:
            self.local[stage] = self.local.get(stage, 0) + n

    def check(self) -> None:
        """Raise :class:`RayTimeout` in an abandoned call (its run already timed out)."""
        if self.cancelled.is_set():
            raise RayTimeout(f"{self.what}: abandoned after a timeout")

    def _done(self, stage: str) -> int:
        with self._lock:
            return self.local.get(stage, 0)

    def run(self, phase: str, fn: Any, *, stage: str | None = None, total: int | None = None, unit: str = "rows") -> Any:
        """``fn()``, waited for while ``stage`` (default: ``phase``) makes progress."""
        stage = stage or phase
        box: dict[str, Any] = {}

        def target() -> None:
            try:
                box["value"] = fn()
            except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
                box["error"] = e

        thread = threading.Thread(target=target, name=f"gaia-fast-ray-{phase}", daemon=True)
        start = last_change = time.monotonic()
        last = self._done(stage)
        thread.start()
        while True:
            thread.join(_POLL)
            done = self._done(stage)
            now = time.monotonic()
            if self.on_progress is not None:
                self.on_progress(RayProgress(phase, done, total, unit, now - start))
            if not thread.is_alive():
                break
            if done != last:
                last, last_change = done, now
            elif self.timeout is not None and now - last_change > self.timeout:
                self.cancelled.set()
                raise RayTimeout(
                    f"{self.what}: Ray made no progress for {self.timeout:g} s while {phase} "
                    f"({done:,} {unit} done); a task does not finish or the cluster does not answer"
                )
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def materialize(self, phase: str, ds: Any, *, total: int | None = None) -> Any:
        """``ds.materialize()``, the rows of each block counted as it arrives here (the
        driver sees every finished block: no task has to report)."""

        def collect() -> Any:
            refs = []
            for bundle in ds.iter_internal_ref_bundles():
                refs.extend(bundle.block_refs)
                self.tick(phase, bundle.num_rows() or 0)
            return self.ray.data.from_arrow_refs(refs) if refs else ds.materialize()

        return self.run(phase, collect, total=total)


def _host_port(address: str) -> tuple[str, int] | None:
    """``host:port`` of a cluster address (``ray://host:port`` too), or None for ``auto``,
    ``local`` and other forms Ray resolves itself."""
    rest = address.split("://", 1)[1] if "://" in address else address
    m = re.fullmatch(r"\[?([^\]]+?)\]?:(\d+)/?", rest)
    if m is None:
        return None
    return m.group(1), int(m.group(2))


class _NoMainThreadNote(logging.Filter):
    """Ray's note that a driver started from a thread sets no SIGTERM handler: expected."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "not the main thread" not in record.getMessage()


def connect(address: str | None = None, *, timeout: float | None = CONNECT_TIMEOUT, **init_kwargs: Any) -> bool:
    """``ray.init(address, **init_kwargs)`` bounded by ``timeout`` seconds: a cluster
    address whose port does not accept connections fails at once, one that does not
    answer fails after ``timeout``, with :class:`ConnectionError` (or
    :class:`RayTimeout`) naming the address. ``address=None`` starts a local instance
    (or joins ``RAY_ADDRESS``). Returns False when Ray was already initialised in this
    process (nothing is done), True when this call connected."""
    ray = _ray()
    if ray.is_initialized():
        return False
    name = address or os.environ.get("RAY_ADDRESS") or "a new local instance"
    hp = _host_port(address or os.environ.get("RAY_ADDRESS") or "")
    if hp is not None:
        host, port = hp
        try:
            socket.create_connection((host, port), timeout=min(timeout or 10.0, 10.0)).close()
        except OSError as e:
            raise ConnectionError(f"cannot connect to Ray at {name}: {host}:{port} does not accept connections ({e.strerror or e})") from None
    box: dict[str, Any] = {}
    done = threading.Event()

    def target() -> None:
        try:
            ray.init(address=address, **init_kwargs)
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = e
        done.set()
        # Ray ties the processes a local start spawns to the life of the thread that
        # spawned them (PR_SET_PDEATHSIG): this thread stays until the process ends.
        threading.Event().wait()

    note = _NoMainThreadNote()
    worker_log = logging.getLogger("ray._private.worker")
    worker_log.addFilter(note)
    try:
        thread = threading.Thread(target=target, name="gaia-fast-ray-init", daemon=True)
        thread.start()
        done.wait(timeout)
    finally:
        worker_log.removeFilter(note)
    if not done.is_set():
        raise RayTimeout(f"cannot connect to Ray at {name}: no answer within {timeout:g} s")
    if "error" in box:
        e = box["error"]
        raise ConnectionError(f"cannot connect to Ray at {name}: {e}") from e
    return True


# --------------------------------------------------------------------------- summary


class _PartialSummary:
    """One block → one row per (level, status): rows and the sum of the counted scores."""

    def __init__(self, level: str | None, score: str, status: str, graded: bool) -> None:
        self.level, self.score, self.status, self.graded = level, score, status, graded

    def __call__(self, batch: Any) -> pa.Table:
        frame = pl.from_arrow(_as_table(batch).select([c for c in (self.level, self.score, self.status) if c is not None]))
        assert isinstance(frame, pl.DataFrame)
        return _partials(frame, self.level, self.score, self.status, self.graded).to_arrow()


def _partials(frame: pl.DataFrame, level: str | None, score: str, status: str, graded: bool) -> pl.DataFrame:
    lv = pl.col(level).cast(pl.Int64) if level is not None else pl.lit(None, pl.Int64)
    st = pl.col(status).cast(pl.String)
    counted = st.is_in(_COUNTED).fill_null(False)
    value = pl.col(score).cast(pl.Float64).fill_null(0.0) if graded else pl.col(score).fill_null(False).cast(pl.Int64)
    # Ray groups on non-null keys: a null level is carried as (0, level_null=True).
    return (
        frame.select(
            lv.fill_null(0).alias("level"),
            lv.is_null().alias("level_null"),
            st.fill_null("").alias("status"),
            pl.when(counted).then(value).otherwise(pl.lit(0.0 if graded else 0)).alias("_v"),
        )
        .group_by("level", "level_null", "status")
        .agg(pl.len().cast(pl.Int64).alias("rows"), pl.col("_v").sum().alias("correct"))
    )


def _summary_from_partials(parts: pl.DataFrame, graded: bool) -> dict[str, Any]:
    """The dict of :func:`gaia_fast.grading.summary.summary` from (level, status) rows:
    the local summary's own assembly, fed the partial sums (graded ones in its fixed point)."""
    from gaia_fast.grading.summary import FIXED_POINT, summary_from_groups

    correct = parts.get_column("correct").to_list()
    value = [round(float(c or 0) * FIXED_POINT) for c in correct] if graded else [int(c or 0) for c in correct]
    groups = parts.select(
        pl.when(pl.col("level_null")).then(None).otherwise(pl.col("level")).cast(pl.Int64).alias("level"),
        pl.col("status"),
        pl.col("rows"),
    ).with_columns(pl.Series("value", value, dtype=pl.Int128 if graded else pl.Int64))
    return summary_from_groups(groups, graded=graded)


def _is_graded_type(t: pa.DataType) -> bool:
    return pa.types.is_floating(t)


def summarize_dataset(
    scored: ray.data.Dataset,
    *,
    level: str | None = None,
    score: str = "score",
    status: str = "status",
    graded: bool | None = None,
    timeout: float | None = STALL_TIMEOUT,
    on_progress: Any = None,
    _watch: _Watch | None = None,
) -> dict[str, Any]:
    """Per-level summary of a scored dataset, the dict of
    :func:`gaia_fast.grading.summary.summary` (``rows``, ``tasks``, ``correct``,
    ``excluded``, ``accuracy_macro``, ``accuracy_weighted``, ``levels``,
    ``status_counts``). Computed with a map over blocks and a Ray group-by; the driver
    receives one row per (level, status). ``graded`` (sum the scores as floats) follows
    the score column's type unless given; an empty dataset has no column types.
    Every wait is bounded: :class:`RayTimeout` after ``timeout`` seconds without
    progress; ``on_progress(RayProgress)`` is called while it waits."""
    return _summarize(scored, level, score, status, graded, _watch or _Watch(_ray(), "summary", timeout, on_progress))


def _summarize(scored: Any, level: str | None, score: str, status: str, graded: bool | None, watch: _Watch) -> dict[str, Any]:
    from ray.data.aggregate import Sum

    schema = watch.run("summarising", scored.schema)
    empty = pl.DataFrame(
        schema={"level": pl.Int64, "level_null": pl.Boolean, "status": pl.String, "rows": pl.Int64, "correct": pl.Float64 if graded else pl.Int64}
    )
    if schema is None:
        if watch.run("summarising", scored.count) == 0:
            return _summary_from_partials(empty, bool(graded))
        raise ValueError("the dataset has no schema")
    names = list(schema.names)
    for role, col in (("score", score), ("status", status), ("level", level)):
        if col is not None and col not in names:
            raise KeyError(f"{role} column {col!r} not in the dataset (columns: {', '.join(names)})")
    if graded is None:
        graded = _is_graded_type(schema.base_schema.field(score).type)
    partial = scored.map_batches(_PartialSummary(level, score, status, graded), batch_format="pyarrow", batch_size=None)
    # A handful of groups: one partition, not Ray's default hundreds.
    grouped = partial.groupby(["level", "level_null", "status"], num_partitions=1).aggregate(
        Sum("rows", alias_name="rows"), Sum("correct", alias_name="correct")
    )
    rows = watch.run("summarising", grouped.take_all)
    empty = empty.cast({"correct": pl.Float64 if graded else pl.Int64})
    parts = pl.DataFrame(rows, schema=empty.schema) if rows else empty
    return _summary_from_partials(parts, graded)


def grade_dataset(
    ds: ray.data.Dataset,
    scorer: str = "gaia",
    prediction: str = "prediction",
    truth: str = "truth",
    *,
    level: str | None = None,
    explain: bool = False,
    number_tolerance: float | None = None,
    placeholder_is_missing: bool = True,
    batch_size: int | None = 65_536,
    materialize: bool = True,
    timeout: float | None = STALL_TIMEOUT,
    on_progress: Any = None,
) -> tuple[ray.data.Dataset, dict[str, Any]]:
    """Score ``ds`` with :class:`ScoreBatch` and summarise it per level.

    Returns ``(scored, summary)``: ``scored`` has every input row and column plus
    ``score``, ``status`` (``kind``, ``reason``); ``summary`` is the dict of
    :func:`summarize_dataset`. With ``materialize=True`` (the default) the scored blocks
    are kept in the object store, so that the summary and whatever the caller does next
    do not score the dataset twice. Every wait is bounded: :class:`RayTimeout` after
    ``timeout`` seconds in which no batch finished (None: no bound);
    ``on_progress(RayProgress)`` is called about four times a second while it waits."""
    watch = _Watch(_ray(), "grade_dataset", timeout, on_progress)
    fn = ScoreBatch(
        scorer,
        prediction,
        truth,
        level=level,
        explain=explain,
        number_tolerance=number_tolerance,
        placeholder_is_missing=placeholder_is_missing,
    )
    scored = ds.map_batches(fn, batch_format="pyarrow", batch_size=batch_size, zero_copy_batch=True)
    if materialize:
        scored = watch.materialize("scoring", scored)
    return scored, summarize_dataset(scored, level=level, graded=scorer == "gaia-graded", _watch=watch)


# --------------------------------------------------------------------------- GAIA archives

_PARQUET = (".parquet", ".pq")


def _for_ray(frame: pl.DataFrame) -> pa.Table:
    """Polars → Arrow with plain (large) strings: Categoricals decoded, no view types. The
    readers' hidden audit columns are dropped (the Ray engine runs no audits)."""
    from gaia_fast.io.readers import HIDDEN

    frame = frame.drop(HIDDEN, strict=False).with_columns(pl.col(pl.Categorical, pl.Enum).cast(pl.String))
    return frame.to_arrow(compat_level=pl.CompatLevel.oldest())


def _expand(path: str) -> list[Path]:
    if any(ch in path for ch in "*?["):
        files = sorted(Path(p) for p in glob.glob(path, recursive=True) if Path(p).is_file())
        if not files:
            raise FileNotFoundError(f"{path}: the pattern matches no file")
        return files
    p = Path(path)
    if p.is_dir():
        parts = sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in _PARQUET)
        if parts:
            return parts
        return [p]  # a workspace folder of <task_id>/answer.txt
    if not p.exists():
        raise FileNotFoundError(f"{path}: no such file or directory")
    return [p]


class ArchiveBatch:
    """One batch of a normalised GAIA archive (the columns of
    :func:`gaia_fast.io.read_archive`) → scored as ``gaia-fast grade`` scores it: the
    metadata's truth and level joined on ``task_id`` (rows of unknown tasks get status
    ``unknown_task``), then :func:`gaia_fast.grading.summary.score_archive`."""

    def __init__(self, scorer: str, *, explain: bool = False, metadata: pl.DataFrame | None = None) -> None:
        _check_scorer(scorer)
        self.scorer, self.explain, self.metadata = scorer, explain, metadata

    def __call__(self, batch: Any) -> pa.Table:
        from gaia_fast.datasets.gaia import join_metadata
        from gaia_fast.grading.summary import score_archive

        frame = pl.from_arrow(_as_table(batch))
        assert isinstance(frame, pl.DataFrame)
        n = frame.height
        if self.metadata is not None:
            # join_metadata appends the metadata tasks missing from its input; they are
            # added once, for the whole archive, by grade_archive_dataset.
            frame = join_metadata(frame, self.metadata).head(n)
        return _for_ray(score_archive(frame, self.scorer, explain=self.explain))


class _TypedBatch:
    """A Parquet batch → the normalised columns, as the local Parquet reader gives them."""

    def __init__(self, path: str, overrides: dict[str, str | None]) -> None:
        self.path, self.overrides = path, overrides

    def __call__(self, batch: Any) -> pa.Table:
        from gaia_fast.io.readers import _from_typed

        frame = pl.from_arrow(_as_table(batch))
        assert isinstance(frame, pl.DataFrame)
        out, _ = _from_typed(Path(self.path), frame, self.overrides, "Parquet")
        return _for_ray(out)


def _read_one(path: str, overrides: dict[str, str | None], skip_bad_lines: bool, keep_originals: bool):
    """A whole non-Parquet archive read by the local reader on a worker (file and line in
    every error, the same bad_type rows): (table, skipped lines, layout or error).
    An InputError comes back as a dict (it does not survive Ray's exception pickling)."""
    from gaia_fast.io.readers import InputError, read_archive

    try:
        frame, skipped, layout = read_archive(
            path, skip_bad_lines=skip_bad_lines, with_layout=True, keep_originals=keep_originals, **overrides
        )
    except InputError as e:
        return pa.table({}), [], {"path": str(e.path), "message": e.message, "line": e.line, "field": e.field}
    return _for_ray(frame), [s.to_dict() for s in skipped], layout


class _TaskIds:
    """A batch → one row per task id: rows, whether the metadata knows it, and how many
    of its rows carry a truth that differs from the metadata's."""

    def __init__(self, metadata: pl.DataFrame | None) -> None:
        self.meta = None if metadata is None else metadata.select("task_id", pl.col("truth").alias("_mt"), pl.lit(1).alias("_k"))

    def __call__(self, batch: Any) -> pa.Table:
        table = _as_table(batch)
        frame = pl.from_arrow(table.select([c for c in ("task_id", "truth") if c in table.column_names]))
        assert isinstance(frame, pl.DataFrame)
        frame = frame.filter(pl.col("task_id").is_not_null())
        if self.meta is None:
            frame = frame.with_columns(pl.lit(0).alias("_k"), pl.lit(False).alias("_d"))
        else:
            frame = frame.join(self.meta, on="task_id", how="left").with_columns(pl.col("_k").fill_null(0))
            if "truth" in frame.columns:
                d = pl.col("truth").is_not_null() & pl.col("_mt").is_not_null() & (pl.col("truth") != pl.col("_mt"))
            else:
                d = pl.lit(False)
            frame = frame.with_columns(d.alias("_d"))
        out = frame.group_by("task_id").agg(
            pl.len().cast(pl.Int64).alias("n"),
            pl.col("_k").max().cast(pl.Int64).alias("known"),
            pl.col("_d").sum().cast(pl.Int64).alias("differ"),
        )
        return out.to_arrow(compat_level=pl.CompatLevel.oldest())


class _KeepIds:
    def __call__(self, batch: Any) -> pa.Table:
        import pyarrow.compute as pc

        t = _as_table(batch)
        return t.filter(pc.or_(pc.greater(t.column("n"), 1), pc.greater(t.column("known"), 0)))


@dataclass
class GradedArchive:
    """What :func:`grade_archive_dataset` returns."""

    scored: Any  #: ray.data.Dataset: every row, archive order, then the missing tasks
    summary: dict[str, Any]
    layout: str
    input_rows: int
    skipped: list[dict[str, Any]] = field(default_factory=list)
    duplicate_ids: list[str] = field(default_factory=list)
    #: rows whose own truth differs from the metadata's (the metadata's is used)
    truth_differs: int = 0
    files: list[str] = field(default_factory=list)


def grade_archive_dataset(
    path: str | os.PathLike,
    *,
    scorer: str = "gaia",
    metadata: pl.DataFrame | None = None,
    prediction_col: str | None = None,
    truth_col: str | None = None,
    id_col: str | None = None,
    level_col: str | None = None,
    skip_bad_lines: bool = False,
    explain: bool = False,
    keep_originals: bool = True,
    batch_size: int | None = 65_536,
    timeout: float | None = STALL_TIMEOUT,
    on_progress: Any = None,
) -> GradedArchive:
    """Grade a GAIA result archive on the Ray cluster ``ray.init`` connected to.

    ``path`` is a file (JSONL, JSON, CSV/TSV, Parquet, XLSX), a folder or glob of Parquet
    parts, a workspace folder, or a URI of Parquet data (``s3://…``, ``gs://…``) that
    Ray's file systems read; every node must be able to read it. Parquet is read
    with ``ray.data.read_parquet`` (split by row group) and normalised per batch; any
    other file is read by the local reader in one task per file (so a bad line is named
    by file and line exactly as locally). Then each batch is joined with ``metadata``
    (a :func:`gaia_fast.datasets.load_metadata` frame, sent to every task: it is small)
    and scored as the local path scores it. Metadata tasks with no row are appended
    with status ``missing``. Raises :class:`gaia_fast.io.InputError` for bad input.

    Every wait is bounded: after ``timeout`` seconds in which no batch or file finished
    (None: no bound), :class:`RayTimeout` names ``path`` and the phase.
    ``on_progress(RayProgress)`` is called about four times a second while it waits."""
    ray = _ray()
    watch = _Watch(ray, str(path), timeout, on_progress)
    return _grade_archive(
        ray, watch, path, scorer, metadata, prediction_col, truth_col, id_col, level_col, skip_bad_lines, explain, keep_originals, batch_size
    )


def _wait_files(ray: Any, refs: list[Any], watch: _Watch) -> list[Any]:
    """The (skipped, layout) of every per-file read task, counting the files as they finish."""
    pending = [r[2] for r in refs]
    while pending:
        ready, pending = ray.wait(pending, num_returns=len(pending), timeout=_POLL)
        if ready:
            watch.tick("reading", len(ready))
    return ray.get([x for r in refs for x in (r[1], r[2])])


def _grade_archive(
    ray: Any,
    watch: _Watch,
    path: str | os.PathLike,
    scorer: str,
    metadata: pl.DataFrame | None,
    prediction_col: str | None,
    truth_col: str | None,
    id_col: str | None,
    level_col: str | None,
    skip_bad_lines: bool,
    explain: bool,
    keep_originals: bool,
    batch_size: int | None,
) -> GradedArchive:
    from gaia_fast.io.readers import InputError, detect_layout

    _check_scorer(scorer)
    overrides = {"prediction_col": prediction_col, "truth_col": truth_col, "id_col": id_col, "level_col": level_col}
    uri = "://" in str(path)
    if uri:
        # s3://, gs://, file://, …: Ray's file systems read it; the local readers cannot.
        suffix = Path(str(path).split("://", 1)[1]).suffix.lower()
        if suffix and suffix not in _PARQUET:
            raise InputError(path, "only Parquet (a file or a folder of parts) can be read from a URI")
        files = [str(path)]
    else:
        try:
            files = [str(f) for f in _expand(str(path))]
        except FileNotFoundError as e:
            raise InputError(path, str(e).split(": ", 1)[-1]) from None
    skipped: list[dict[str, Any]] = []
    refs = None
    if uri or all(Path(f).is_file() and Path(f).suffix.lower() in _PARQUET for f in files):
        try:
            raw = watch.run("reading", lambda: ray.data.read_parquet(files))
            schema = watch.run("reading", raw.schema)
        except Exception as e:  # noqa: BLE001
            raise InputError(path, f"cannot read Parquet: {e}") from None
        layout = detect_layout(list(schema.names), path, **overrides)
        # The local reader's type checks depend on the schema only: run them here, once,
        # on no rows, so that a bad column stops the run with the local message.
        from gaia_fast.io.readers import _from_typed

        empty = pl.from_arrow(schema.base_schema.empty_table())
        assert isinstance(empty, pl.DataFrame)
        _from_typed(Path(path), empty, overrides, "Parquet")
        normalised = raw.map_batches(_TypedBatch(str(path), overrides), batch_format="pyarrow", batch_size=batch_size)
        layout_name = layout.name
    else:
        bad = [f for f in files if Path(f).is_file() and Path(f).suffix.lower() in _PARQUET]
        if bad:
            raise InputError(path, "mixes Parquet parts with other files; grade them separately")
        task = ray.remote(_read_one).options(num_returns=3)
        refs = [task.remote(f, overrides, skip_bad_lines, keep_originals) for f in files]
        infos = watch.run("reading", lambda: _wait_files(ray, refs, watch), total=len(files), unit="files")
        for i in range(0, len(infos), 2):
            found = infos[i + 1]
            if isinstance(found, dict):
                raise InputError(found["path"], found["message"], line=found["line"], field=found["field"])
            skipped.extend(infos[i])
        names = sorted({infos[i + 1].name for i in range(0, len(infos), 2)})
        layout_name = names[0] if len(names) == 1 else "+".join(names)
        normalised = ray.data.from_arrow_refs([r[0] for r in refs])
    if refs is None:
        normalised = watch.materialize("reading", normalised)
    else:  # the files' tables are in the object store already
        normalised = watch.run("reading", normalised.materialize, total=len(files), unit="files")
    input_rows = normalised.count()
    if batch_size and input_rows > 2 * batch_size and normalised.num_blocks() < 2 * _cpus(ray):
        # one big file is one block: spread it so that scoring runs on every worker
        spread = normalised.repartition(min(2 * _cpus(ray), -(-input_rows // batch_size)))
        normalised = watch.run("reading", spread.materialize, stage="repartition")
    norm_names = list(normalised.schema().names)
    if metadata is None and "truth" not in norm_names:
        raise InputError(path, f"({layout_name} layout) has no truth column; pass --truth-col NAME or --metadata DATASET")
    if metadata is not None and "task_id" not in norm_names:
        raise InputError(path, "no task id column to join with the metadata; use --id-col")

    dup: list[str] = []
    differ = 0
    present: list[str] = []
    if "task_id" in norm_names:
        from ray.data.aggregate import Sum

        # One group-by over the task ids gives the duplicated ids, the metadata tasks
        # that have a row and the rows whose own truth differs from the metadata's; only
        # ids that are duplicated or in the metadata come back to the driver.
        per = normalised.map_batches(_TaskIds(metadata), batch_format="pyarrow", batch_size=None)
        grouped = per.groupby("task_id", num_partitions=max(1, min(64, normalised.num_blocks()))).aggregate(
            Sum("n", alias_name="n"), Sum("known", alias_name="known"), Sum("differ", alias_name="differ")
        )
        kept = watch.run("checking task ids", grouped.map_batches(_KeepIds(), batch_format="pyarrow", batch_size=None).take_all)
        dup = sorted(r["task_id"] for r in kept if r["n"] > 1)
        present = [r["task_id"] for r in kept if r["known"] > 0]
        differ = int(sum(r["differ"] for r in kept))

    source = normalised
    appended = 0
    if metadata is not None:
        seen = pl.DataFrame({"task_id": present}, schema={"task_id": pl.String})
        missing = metadata.select("task_id").join(seen, on="task_id", how="anti", maintain_order="left")
        appended = missing.height
        if missing.height:
            # Scored by the same batch function, which joins their truth and level.
            rows = missing.select(
                pl.col("task_id").cast(pl.String),
                pl.lit("missing").alias("input_status"),
                pl.lit("no row for this task in the archive").alias("input_reason"),
            )
            extra = _conform(rows.to_arrow(compat_level=pl.CompatLevel.oldest()), normalised.schema().base_schema)
            source = normalised.union(ray.data.from_arrow(extra))
    scoring = source.map_batches(ArchiveBatch(scorer, explain=explain, metadata=metadata), batch_format="pyarrow", batch_size=batch_size)
    scored = watch.materialize("scoring", scoring, total=input_rows + appended)
    level = "level" if "level" in scored.schema().names else None
    return GradedArchive(
        scored=scored,
        summary=summarize_dataset(scored, level=level, _watch=watch),
        layout=layout_name,
        input_rows=input_rows,
        skipped=skipped,
        duplicate_ids=dup,
        truth_differs=differ,
        files=files,
    )


def _cpus(ray) -> int:
    try:
        return max(1, int(ray.cluster_resources().get("CPU", 1)))
    except Exception:  # noqa: BLE001
        return 1


def _conform(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """``table`` with exactly ``schema``'s columns (absent ones null), in its order."""
    cols = []
    for f in schema:
        if f.name in table.column_names:
            cols.append(table.column(f.name).cast(f.type))
        else:
            cols.append(pa.nulls(table.num_rows, f.type))
    return pa.Table.from_arrays(cols, schema=schema)


def write_outputs(
    scored: ray.data.Dataset,
    *,
    comparison: str | os.PathLike,
    out: str | os.PathLike | None = None,
    timeout: float | None = STALL_TIMEOUT,
    on_progress: Any = None,
) -> int:
    """Write ``answer_comparison.csv`` (as :func:`gaia_fast.io.write_comparison_csv`)
    and, with ``out``, every row and column to one file (``.parquet``, ``.csv``,
    ``.jsonl``), both atomically. The blocks stream through the driver in dataset order;
    only the comparison's columns are held there (the file is sorted by task id).
    Returns the number of comparison rows. Bounded as :func:`grade_archive_dataset`:
    :class:`RayTimeout` after ``timeout`` seconds in which no block arrived."""
    watch = _Watch(_ray(), str(comparison), timeout, on_progress)
    total = watch.run("writing", scored.count)
    return watch.run("writing", lambda: _write_outputs(scored, comparison, out, watch), total=total)


def _write_outputs(scored: Any, comparison: str | os.PathLike, out: str | os.PathLike | None, watch: _Watch) -> int:
    import pyarrow.parquet as pq

    from gaia_fast.io.writers import _flat_for_csv, atomic_path, table_format, write_comparison_csv

    need = ["task_id", "level", "truth", "prediction", "status", "score", "kind"]
    narrow: list[pl.DataFrame] = []
    fmt = table_format(out) if out is not None else None
    names = list(scored.schema().names)
    drop = [c for c in ("input_status", "input_reason") if c in names]

    def batches():
        for b in scored.iter_batches(batch_format="pyarrow", batch_size=None):
            frame = pl.from_arrow(b)
            assert isinstance(frame, pl.DataFrame)
            narrow.append(frame.select([c for c in need if c in frame.columns]))
            watch.tick("writing", frame.height)
            yield frame.drop(drop)

    if out is None:
        for _ in batches():
            pass
    else:
        with atomic_path(out) as tmp:
            if fmt == "parquet":
                writer = None
                try:
                    for frame in batches():
                        t = frame.to_arrow()
                        if writer is None:
                            writer = pq.ParquetWriter(tmp, t.schema)
                        writer.write_table(t.cast(writer.schema) if t.schema != writer.schema else t)
                finally:
                    if writer is not None:
                        writer.close()
                if writer is None:  # no rows at all
                    pl.DataFrame(schema={c: pl.String for c in names if c not in drop}).write_parquet(tmp)
            else:
                with open(tmp, "wb") as fh:
                    first = True
                    for frame in batches():
                        if fmt == "csv":
                            _flat_for_csv(frame).write_csv(fh, include_header=first)
                        else:
                            frame.write_ndjson(fh)
                        first = False
            watch.check()  # still inside atomic_path: a run that timed out publishes nothing
    rows = pl.concat(narrow, how="vertical_relaxed") if narrow else pl.DataFrame(schema={c: pl.String for c in ("task_id", "prediction")})
    watch.check()
    return write_comparison_csv(rows, comparison)
