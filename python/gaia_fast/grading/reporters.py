"""Reporters: the summary table of a run's records (one row per archive) and its pivot
(models x datasets), as frames and as files; each report's headline cell; a report
compared cell by cell with the archive's own."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import polars as pl

from gaia_fast.grading.plan import ArchiveRecord, columns

__all__ = ["PIVOT_OK", "headline", "pivot", "read_report", "records_frame", "report_differences", "write_pivot", "write_summary"]

#: Record statuses whose number reproduces the archive's own method.
PIVOT_OK = frozenset({"ok", "ok_by_shape"})
#: Record statuses with no number worth showing.
_NO_NUMBER = frozenset({"error", "skipped", "needs_judge"})

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
    "run": pl.String,
    "method": pl.String,
    "decided_rules": pl.Int64,
    "decided_recorded": pl.Int64,
    "decided_live": pl.Int64,
    "undecided": pl.Int64,
    "flags": pl.String,
    "headline_metric": pl.String,
    "headline": pl.Float64,
    "archive_report": pl.String,
    "archive_headline": pl.Float64,
}


def records_frame(records: Iterable[ArchiveRecord]) -> pl.DataFrame:
    """The records as a table (one row per archive, :func:`columns`)."""
    records = list(records)
    cols = columns(records)
    return pl.DataFrame([r.to_dict(cols) for r in records], schema={c: _SCHEMA[c] for c in cols}, orient="row")


def write_summary(records: Iterable[ArchiveRecord], path: str | os.PathLike) -> None:
    """Write the summary table atomically: ``.csv`` or ``.parquet`` (``.pq``)."""
    _write(records_frame(records), path)


def _write(frame: pl.DataFrame, path: str | os.PathLike) -> None:
    from gaia_fast.io.writers import atomic_path

    suffix = Path(path).suffix.lower()
    if suffix not in (".csv", ".parquet", ".pq"):
        raise ValueError(f"{path}: the summary is written as .csv or .parquet, not {suffix or 'no extension'!r}")
    with atomic_path(path) as tmp:
        if suffix == ".csv":
            frame.write_csv(tmp)
        else:
            frame.write_parquet(tmp)


# --------------------------------------------------------------------------------------
# Reports: headline cells and the archive's own report
# --------------------------------------------------------------------------------------


def read_report(path: str | os.PathLike) -> pl.DataFrame:
    """A VLMEvalKit report (``_acc.csv``, ``_score.csv``, ``.xlsx``, ``_score.json``,
    ``_score.txt``) as a frame: text cells stay text, numbers become Float64 (a JSON object is
    one row; a text file is a ``text`` column, one row per line)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".json":
        data = json.loads(p.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data and (
            any(isinstance(v, dict) for v in data.values()) or all(isinstance(v, list) for v in data.values())
        ):
            # A nested rating (the video sets' ``_rating.json``): one row per leaf, its
            # JSON path joined by "|" (as VLMEvalKit's report_primary_metric names them).
            leaves = _leaves(data)
            return pl.DataFrame({"key": [k for k, _ in leaves], "value": [str(v) for _, v in leaves]}).with_columns(
                _numeric(pl.Series("value", [str(v) for _, v in leaves]))
            )
        rows = data if isinstance(data, list) else [data]
        return pl.DataFrame(rows)
    if suffix == ".txt":  # a text log (V2P-Bench's _score.txt): one row per line
        return pl.DataFrame({"text": p.read_text(encoding="utf-8").splitlines()}, schema={"text": pl.String})
    if suffix == ".xlsx":
        frame = pl.read_excel(p)
        first = frame.columns[0] if frame.width else ""
        if first.startswith("__UNNAMED__") and frame[first].cast(pl.Int64, strict=False).to_list() == list(range(frame.height)):
            frame = frame.drop(first)  # pandas' row index, written by 2023's to_excel
    else:
        frame = pl.read_csv(p, infer_schema_length=0, separator="\t" if suffix == ".tsv" or _tab_separated(p) else ",")
    return frame.with_columns(_numeric(frame[c]) for c in frame.columns)


def _tab_separated(p: Path) -> bool:
    """A ``.csv`` written with ``to_csv(sep='\\t')`` (spatial_bench's ``_acc.csv``): its
    header has more tabs than commas."""
    with p.open(encoding="utf-8", errors="replace") as f:
        head = f.readline()
    return head.count("\t") > head.count(",")


def _leaves(data: dict, prefix: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for k, v in data.items():
        key = f"{prefix}{k}"
        if isinstance(v, list):  # EgoExoBench's [correct, total, 'acc%']
            v = {str(i): x for i, x in enumerate(v)}
        out += _leaves(v, key + "|") if isinstance(v, dict) else [(key, v)]
    return out


def _numeric(s: pl.Series) -> pl.Series:
    """``s`` as Float64 when every non-null cell is a number, else unchanged."""
    if s.dtype.is_numeric():
        return s.cast(pl.Float64)
    if s.dtype != pl.String:
        return s
    as_float = s.cast(pl.Float64, strict=False)
    if as_float.null_count() == s.null_count():
        return as_float
    # pandas writes NaN as an empty cell: a number column with empty cells is numbers and NaN.
    empty = (s == "").fill_null(False)
    if as_float.null_count() == s.null_count() + int(empty.sum()) and as_float.null_count() < s.len():
        return as_float.set(empty, math.nan)
    return s


def headline(report: pl.DataFrame, metrics: tuple[str, ...] = ()) -> tuple[str, float] | None:
    """The report's headline cell as ``(name, value)``: the first of ``metrics`` (the
    registry's ``headline``) the report has; else, by a heuristic, the first row's
    ``Overall``; else a row labelled ``Overall`` and its ``acc`` (MMVet) or first number
    (HallusionBench's aAcc); MME's perception + reasoning; OCRBench's ``Final Score``; else
    the first row's first number. None for a report with no number."""
    if report.height == 0:
        return None
    label = report.columns[0] if report[report.columns[0]].dtype == pl.String else None
    row = report.row(0, named=True)
    if label is not None and "Overall" not in report.columns:
        overall = report.filter(pl.col(label) == "Overall")
        if overall.height:
            row = overall.row(0, named=True)
    numbers = {k: v for k, v in row.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    rating = label == "key" and "value" in report.columns  # a flattened nested rating
    for name in metrics:
        if rating and (v := _leaf(report, name)) is not None:
            return name, v
        if name in numbers:
            return name, float(numbers[name])
    if rating:
        # Its overall leaf.
        for key in ("overall|overall", "overall|score", "final_rating|total", "overall|2"):
            if (v := _leaf(report, key)) is not None:
                return key, v
    for name in ("Overall", "Final Score", "acc", "Acc", "accuracy"):
        if name in numbers:
            return name, float(numbers[name])
    if "perception" in numbers and "reasoning" in numbers:
        return "perception+reasoning", float(numbers["perception"]) + float(numbers["reasoning"])
    if numbers:
        name = next(iter(numbers))
        return name, float(numbers[name])
    return None


def _leaf(report: pl.DataFrame, key: str) -> float | None:
    """A flattened rating's number at ``key`` (``"61.2%"`` reads as 61.2), or None."""
    hit = report.filter(pl.col("key") == key)
    if not hit.height:
        return None
    v = hit["value"].cast(pl.String).str.strip_suffix("%").cast(pl.Float64, strict=False)[0]
    return v if isinstance(v, float) else None


def _same(x: Any, y: Any) -> bool:
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        if math.isnan(x) and math.isnan(y):
            return True
        return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)
    if (x == "" and isinstance(y, float) and math.isnan(y)) or (y == "" and isinstance(x, float) and math.isnan(x)):
        return True  # pandas writes NaN as an empty cell
    if (x is None and y == "") or (y is None and x == ""):
        return True  # an empty cell, quoted ("" under QUOTE_ALL) or not
    return x == y


def report_differences(ours: pl.DataFrame, theirs: pl.DataFrame, limit: int = 3) -> list[str]:
    """The cells in which two reports differ (at most ``limit`` named, then a count); an
    empty list when they agree (numbers to 1e-9 relative; columns matched by name and rows
    by their first column when both hold the same ones in another order, as upstream's
    sets of splits give)."""
    ours = ours.with_columns(_numeric(ours[c]) for c in ours.columns)
    theirs = theirs.with_columns(_numeric(theirs[c]) for c in theirs.columns)
    if ours.columns != theirs.columns:
        if sorted(ours.columns) != sorted(theirs.columns):
            return [f"columns differ: {ours.columns} vs {theirs.columns}"]
        # Upstream builds some reports' columns from a set (ChartQA's splits): same cells,
        # another order.
        theirs = theirs.select(ours.columns)
    if ours.height != theirs.height:
        return [f"{ours.height} rows vs {theirs.height}"]
    first = ours.columns[0]
    if ours[first].dtype == pl.String and theirs[first].dtype == pl.String:
        a, b = ours[first].to_list(), theirs[first].to_list()
        if a != b and sorted(map(str, a)) == sorted(map(str, b)):
            ours, theirs = ours.sort(first), theirs.sort(first)
    out: list[str] = []
    total = 0
    for c in ours.columns:
        for i, (x, y) in enumerate(zip(ours[c].to_list(), theirs[c].to_list())):
            if not _same(x, y):
                total += 1
                if len(out) < limit:
                    out.append(f"row {i + 1} {c}: {x!r} vs {y!r}")
    if total > limit:
        out.append(f"{total - limit} more cell(s)")
    return out


# --------------------------------------------------------------------------------------
# The pivot: models x datasets
# --------------------------------------------------------------------------------------


def _cell_value(r: ArchiveRecord) -> float | None:
    if r.headline is not None:
        return r.headline
    return None if r.accuracy is None else float(r.accuracy) * 100 if r.benchmark == "gaia" else float(r.accuracy)


def pivot(records: Iterable[ArchiveRecord]) -> pl.DataFrame:
    """Models x datasets: one row per model, for each dataset its headline number (GAIA:
    the weighted accuracy in percent), the archive's own number beside it
    (``{dataset} [archive]``) where the tree has one, and the status where it is not
    ``ok`` (``{dataset} [status]``). Records with no model or dataset use ``-``."""
    records = [r for r in records if r.status != "skipped"]
    models = sorted({r.model or "-" for r in records})
    datasets = sorted({r.dataset or "-" for r in records})
    has_archive = {d for d in datasets if any(r.archive_headline is not None for r in records if (r.dataset or "-") == d)}
    not_ok = {d for d in datasets if any(r.status not in PIVOT_OK for r in records if (r.dataset or "-") == d)}
    cells: dict[tuple[str, str], ArchiveRecord] = {}
    for r in records:
        key = (r.model or "-", r.dataset or "-")
        if key in cells and r.run and cells[key].run and r.run < cells[key].run:
            continue  # --all-runs: the newest run's number is the cell
        cells[key] = r
    schema: dict[str, Any] = {"model": pl.String}
    for d in datasets:
        schema[d] = pl.Float64
        if d in has_archive:
            schema[f"{d} [archive]"] = pl.Float64
        if d in not_ok:
            schema[f"{d} [status]"] = pl.String
    rows = []
    for m in models:
        row: dict[str, Any] = {"model": m}
        for d in datasets:
            r = cells.get((m, d))
            # An incomplete or failed grade has no number to show; any other has one, and
            # its status beside it when that is not ok.
            row[d] = None if r is None or r.status in _NO_NUMBER else _cell_value(r)
            if d in has_archive:
                row[f"{d} [archive]"] = None if r is None else r.archive_headline
            if d in not_ok:
                row[f"{d} [status]"] = None if r is None or r.status in PIVOT_OK else r.status
        rows.append(row)
    return pl.DataFrame(rows, schema=schema, orient="row")


def write_pivot(records: Iterable[ArchiveRecord], path: str | os.PathLike) -> None:
    """Write the :func:`pivot` table atomically (``.csv`` or ``.parquet``)."""
    _write(pivot(records), path)
