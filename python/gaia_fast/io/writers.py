"""Atomic writers: result tables (CSV / JSON Lines / Parquet by extension) and Zypher's
``answer_comparison.csv``.

Every file is written to a temporary file in the destination's folder and moved into
place with :func:`os.replace`, so a reader never sees a half-written file and a failed
write leaves the old file untouched.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import polars as pl

__all__ = ["COMPARISON_COLUMNS", "FORMATS", "atomic_path", "comparison_exprs", "comparison_frame", "sink_table", "table_format", "write_comparison_csv", "write_comparison_rows", "write_report", "write_table"]

#: Header of ``answer_comparison.csv`` (Zypher ``grade.py``, spec §4 step 5).
COMPARISON_COLUMNS = ("task_id", "level", "expected_answer", "actual_answer", "match")

#: Output formats by file extension.
FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet", ".pq": "parquet"}

#: Graded kinds that the official scorer accepts (its ``match``).
_GRADED_MATCH_KINDS = ("exact", "normalized")


def _umask() -> int:
    old = os.umask(0)
    os.umask(old)
    return old


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[str]:
    """Yield a temporary path next to ``path``; on success it replaces ``path``."""
    dest = Path(path)
    folder = dest.parent if str(dest.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        # Name the path the caller gave, not the temporary one.
        raise OSError(e.errno, _why(e, folder), str(dest)) from None
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())
        try:
            os.replace(tmp, dest)
        except OSError as e:
            raise OSError(e.errno, e.strerror, str(dest)) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _why(e: OSError, folder: Path) -> str:
    if not folder.exists():
        return f"folder {folder} does not exist"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    return e.strerror or str(e)


def table_format(path: str | os.PathLike) -> str:
    """``csv``, ``jsonl`` or ``parquet`` from the extension; ValueError otherwise."""
    ext = Path(path).suffix.lower()
    if ext not in FORMATS:
        raise ValueError(f"{path}: unknown output type {ext or '(no extension)'!r}; use one of {', '.join(sorted(FORMATS))}")
    return FORMATS[ext]


def _flat_for_csv(frame: pl.DataFrame) -> pl.DataFrame:
    """CSV holds text: nested columns become JSON text, enums/categoricals strings,
    binary hex."""
    out = []
    for name, dtype in frame.collect_schema().items():
        col = pl.col(name)
        if isinstance(dtype, (pl.List, pl.Array, pl.Struct)):
            enc = (
                pl.struct(col.alias("v"))
                .struct.json_encode()
                .str.strip_prefix('{"v":')
                .str.strip_suffix("}")
            )
            out.append(pl.when(col.is_null()).then(None).otherwise(enc).alias(name))
        elif isinstance(dtype, (pl.Enum, pl.Categorical)):
            out.append(col.cast(pl.String))
        elif dtype == pl.Binary:
            out.append(col.bin.encode("hex"))
        elif dtype == pl.Object:
            raise ValueError(f"column {name!r} holds Python objects and cannot be written")
        else:
            out.append(col)
    return frame.select(out)


def write_table(frame: pl.DataFrame, path: str | os.PathLike) -> None:
    """Write every column of ``frame`` atomically; the format follows the extension
    (``.csv``, ``.jsonl``/``.ndjson``, ``.parquet``/``.pq``). CSV is UTF-8 with a header
    and LF line ends; nested columns are written as JSON text."""
    fmt = table_format(path)
    with atomic_path(path) as tmp:
        if fmt == "csv":
            _flat_for_csv(frame).write_csv(tmp)
        elif fmt == "jsonl":
            frame.with_columns(pl.col(pl.Enum, pl.Categorical).cast(pl.String)).write_ndjson(tmp)
        else:
            frame.write_parquet(tmp)


def write_report(frame: pl.DataFrame, path: str | os.PathLike) -> None:
    """Write a benchmark report atomically: a ``.json`` path gets a one-row report as one
    JSON object the way VLMEvalKit dumps its ``_score.json`` (``json.dump`` with
    ``indent=4``, ``ensure_ascii=False``, no final newline; several rows become a list of
    objects); a ``.tsv`` path gets tab-separated text (3DSRBench's ``_results.tsv``); a ``.txt``
    path gets the first column's cells as lines; any other path goes to :func:`write_table`."""
    suffix = Path(path).suffix.lower()
    if suffix == ".tsv":
        with atomic_path(path) as tmp:
            _flat_for_csv(frame).write_csv(tmp, separator="\t")
        return
    if suffix == ".txt":  # a text log (V2P-Bench's _score.txt): the frame's one column, a line per row
        with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as f:
            f.write("".join(f"{line}\n" for line in frame[:, 0].to_list()))
        return
    if suffix != ".json":
        write_table(frame, path)
        return
    import json

    rows = frame.to_dicts()
    data = rows[0] if len(rows) == 1 else rows
    if frame.columns == ["key", "value"] and frame.height and any("|" in k for k in frame["key"].to_list()):
        # A flattened nested rating (the video sets' ``_rating.json``; top-level numbers beside
        # nested ones in vlms_are_biased's ``_metrics.json`` and HiPhO_ALL's ``_score.json``): nested again.
        data = {}
        for k, v in zip(frame["key"].to_list(), frame["value"].to_list()):
            *parents, leaf = k.split("|")
            node = data
            for part in parents:
                node = node.setdefault(part, {})
            node[leaf] = v

        def lists(node: object) -> object:
            # EgoExoBench's leaves are lists ([correct, total, 'acc%']), flattened as |0, |1, ...
            if not isinstance(node, dict):
                return node
            if node and list(node) == [str(i) for i in range(len(node))]:
                return [lists(x) for x in node.values()]
            return {k: lists(x) for k, x in node.items()}

        data = lists(data)
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=4, ensure_ascii=False)


def sink_table(frame: pl.LazyFrame, path: str | os.PathLike, fmt: str) -> pl.LazyFrame:
    """A lazy sink writing every column of ``frame`` to ``path`` in ``fmt`` (the
    streaming form of :func:`write_table`; ``path`` is a temporary file the caller moves
    into place). Run it with ``polars.collect_all``."""
    if fmt == "csv":
        return _flat_for_csv(frame).sink_csv(path, lazy=True)
    if fmt == "jsonl":
        return frame.with_columns(pl.col(pl.Enum, pl.Categorical).cast(pl.String)).sink_ndjson(path, lazy=True)
    return frame.sink_parquet(path, lazy=True)


def comparison_exprs(schema: pl.Schema | dict) -> list[pl.Expr]:
    """The columns of ``answer_comparison.csv`` from a scored frame with this schema, in
    row order (see :func:`comparison_frame`)."""
    cols = list(schema)
    status = pl.col("status") if "status" in cols else pl.lit(None, pl.String)
    if "status" in cols and not (schema["status"] == pl.String or isinstance(schema["status"], (pl.Categorical, pl.Enum))):
        status = status.cast(pl.String)  # a categorical compares by code, not text per row
    truth = pl.col("truth") if "truth" in cols else pl.lit(None, pl.String)
    level = pl.col("level").cast(pl.Int64) if "level" in cols else pl.lit(None, pl.Int64)
    score_dtype = schema.get("score")
    if "kind" in cols and score_dtype is not None and score_dtype.is_float():
        match = pl.col("kind").cast(pl.String).is_in(_GRADED_MATCH_KINDS)
    elif score_dtype is not None and score_dtype.is_float():
        match = pl.col("score") >= 1.0
    elif score_dtype is not None:
        match = pl.col("score")
    else:
        match = pl.lit(False)
    counted = ~status.is_in(["missing", "bad_type", "read_error", "unknown_task", "no_truth"]).fill_null(False)
    return [
        pl.col("task_id").cast(pl.String),
        level.fill_null(0).cast(pl.String).alias("level"),
        pl.when(status == "unknown_task").then(pl.lit("NOT_FOUND")).otherwise(truth).alias("expected_answer"),
        pl.col("prediction").cast(pl.String).alias("actual_answer"),
        pl.when(counted & match.fill_null(False)).then(pl.lit("True")).otherwise(pl.lit("False")).alias("match"),
    ]


def comparison_frame(scored: pl.DataFrame) -> pl.DataFrame:
    """The rows of ``answer_comparison.csv``, as strings, sorted by task id (stable).

    - ``level``: the task's level; 0 when unknown (as Zypher writes for unknown tasks).
    - ``expected_answer``: the truth; ``NOT_FOUND`` for a task id that is not in the
      metadata (status ``unknown_task``); empty when there is none.
    - ``actual_answer``: the prediction (a workspace read error is ``ERROR: …`` as Zypher
      records it); empty when null.
    - ``match``: ``True``/``False``; the scorer's decision (for ``gaia-graded``: the
      official scorer's decision, i.e. kind ``exact`` or ``normalized``); rows without a
      decision (no truth, missing, unreadable) are ``False``.
    """
    return scored.select(comparison_exprs(scored.schema)).sort("task_id", nulls_last=True, maintain_order=True)


def write_comparison_csv(scored: pl.DataFrame, path: str | os.PathLike = "answer_comparison.csv") -> int:
    """Write ``answer_comparison.csv`` exactly as Zypher ``grade.py`` does (spec §4 step
    5): UTF-8 without BOM, CRLF line ends, minimal quoting (a field is quoted only when it
    holds ``,``, ``"``, CR or LF; inner quotes doubled), header
    ``task_id,level,expected_answer,actual_answer,match``. Returns the number of rows."""
    rows = comparison_frame(scored)
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            write_comparison_rows(rows, fh, header=True)
    return rows.height


def write_comparison_rows(rows: pl.DataFrame, fh, *, header: bool) -> None:
    """Append sorted comparison rows to an open binary file in the CSV dialect of
    :func:`write_comparison_csv`."""
    # Python's csv module writes an empty string unquoted; Polars would write '""'.
    rows = rows.with_columns(pl.all().replace("", None))
    rows.write_csv(fh, line_terminator="\r\n", quote_style="necessary", include_header=header, null_value="")
